package dev.gatun.arrow.calc;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.cdata.ArrowCall;
import dev.gatun.arrow.cdata.CDataExporter;
import dev.gatun.arrow.cdata.CDataImporter;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.memory.Tracking;
import dev.gatun.arrow.types.Schema;
import dev.gatun.ffm.GatunNative;
import dev.gatun.ffm.ReleaseUpcall;
import dev.gatun.ffm.internal.ArrowSchema;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * The Java owner of one native Calc handle: a Substrait {@code ExtendedExpression} (projections
 * in output order, the filter named {@value #FILTER_NAME}) compiled once in Rust for one input
 * schema, then evaluated batch by batch. Knows nothing about Flink.
 *
 * <p>Schemas cross once, at {@link #create}; per batch only {@code ArrowArray}s cross. Not
 * thread-safe: one operator thread owns it, and closes it exactly once.
 */
public final class NativeCalc implements AutoCloseable {
    /** The output name that marks the filter expression in the plan. */
    public static final String FILTER_NAME = "gatun.filter";
    /** The row-kind sidecar column: passed through the filter and appended last by Rust. */
    public static final String ROW_KIND_COLUMN = "__gatun_row_kind";
    /** The one Binary column of a result batch in {@link OutputFormat#FLINK_ROWS}. */
    public static final String FLINK_ROW_COLUMN = "__gatun_flink_row";

    private final NativeAllocator allocator;
    private final Schema inputSchema;
    private final Schema outputSchema;
    private final OutputFormat format;
    private final Tracking tracking;
    private MemorySegment handle;

    private NativeCalc(NativeAllocator allocator, Schema inputSchema, Schema outputSchema, OutputFormat format,
                       MemorySegment handle) {
        this.allocator = allocator;
        this.inputSchema = inputSchema;
        this.outputSchema = outputSchema;
        this.format = format;
        this.handle = handle;
        this.tracking = allocator.track(NativeAllocator.Kind.NATIVE_HANDLE, this);
    }

    /**
     * Compiles {@code plan} for batches of {@code inputSchema}. Rust checks that each projection's
     * type equals {@code expectedOutput}'s field; the returned Calc's {@link #outputSchema()} is
     * the schema of its result batches: in {@link OutputFormat#ARROW} the expected fields, plus the
     * row-kind column when the input carries one; in {@link OutputFormat#FLINK_ROWS} the one Binary
     * column {@value #FLINK_ROW_COLUMN}.
     *
     * @throws dev.gatun.ffm.NativeException with Rust's message when the plan does not compile, or
     *     when {@code format} is {@link OutputFormat#FLINK_ROWS} and an output column is nested
     */
    public static NativeCalc create(byte[] plan, Schema inputSchema, Schema expectedOutput, OutputFormat format,
                                    NativeAllocator allocator) {
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(inputSchema, "inputSchema");
        Objects.requireNonNull(expectedOutput, "expectedOutput");
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(allocator, "allocator");
        try (Arena call = Arena.ofConfined()) {
            MemorySegment planBytes = call.allocate(Math.max(1, plan.length));
            MemorySegment.copy(plan, 0, planBytes, java.lang.foreign.ValueLayout.JAVA_BYTE, 0, plan.length);
            MemorySegment in = ArrowSchema.allocate(call);
            MemorySegment expected = ArrowSchema.allocate(call);
            MemorySegment out = ArrowSchema.allocate(call);
            try {
                CDataExporter.exportSchema(allocator, inputSchema, in);
                CDataExporter.exportSchema(allocator, expectedOutput, expected);
                MemorySegment handle = GatunNative.calcCreate(planBytes.asSlice(0, plan.length), in, expected,
                        format.abiValue(), out);
                Schema actual;
                try {
                    actual = CDataImporter.importSchema(out);
                } catch (RuntimeException | Error e) {
                    GatunNative.calcFree(handle);
                    throw e;
                }
                return new NativeCalc(allocator, inputSchema, actual, format, handle);
            } finally {
                try {
                    ReleaseUpcall.releaseSchema(in);
                } finally {
                    try {
                        ReleaseUpcall.releaseSchema(expected);
                    } finally {
                        ReleaseUpcall.releaseSchema(out);
                    }
                }
            }
        }
    }

    public Schema inputSchema() {
        return inputSchema;
    }

    public Schema outputSchema() {
        return outputSchema;
    }

    public OutputFormat outputFormat() {
        return format;
    }

    /**
     * Evaluates one SEALED batch of {@link #inputSchema()}. The input is exported to Rust and
     * consumed on every path (do not use it afterwards); the result is an imported batch that the
     * caller closes.
     */
    public RecordBatch evaluate(RecordBatch input) {
        MemorySegment live = requireOpen();
        if (!input.schema().equals(inputSchema)) {
            input.close();
            throw new IllegalArgumentException("batch schema " + input.schema()
                    + " differs from the Calc's input schema " + inputSchema);
        }
        return ArrowCall.exchange(input, allocator,
                (in, out) -> GatunNative.calcEvaluate(live, in, out), () -> outputSchema);
    }

    /**
     * {@link #evaluate} without the Java schema check, so tests reach Rust's own check of the
     * batch's shape. Only for batches whose buffers are at least as large as the ones the input
     * schema reads (a C Data array carries no buffer sizes): Rust rejects a different column count,
     * buffer count or child count, invalid UTF-8 and NULLs in NOT NULL columns.
     */
    RecordBatch evaluateWithoutSchemaCheck(RecordBatch input) {
        MemorySegment live = requireOpen();
        return ArrowCall.exchange(input, allocator,
                (in, out) -> GatunNative.calcEvaluate(live, in, out), () -> outputSchema);
    }

    private MemorySegment requireOpen() {
        if (handle == null) {
            throw new IllegalStateException("native Calc is closed");
        }
        return handle;
    }

    /** Frees the native handle; later calls do nothing. */
    @Override
    public void close() {
        MemorySegment h = handle;
        if (h == null) {
            return;
        }
        handle = null;
        try {
            GatunNative.calcFree(h);
        } finally {
            tracking.close();
        }
    }

    @Override
    public String toString() {
        return "NativeCalc[" + inputSchema + " -> " + outputSchema + "]";
    }
}
