package dev.gatun.arrow.operator;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.cdata.ArrowCall;
import dev.gatun.arrow.cdata.CDataExporter;
import dev.gatun.arrow.cdata.CDataImporter;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.memory.Tracking;
import dev.gatun.arrow.types.Field;
import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Schema;
import dev.gatun.arrow.vector.Int32Vector;
import dev.gatun.arrow.vector.VarBinaryVector;
import dev.gatun.ffm.GatunNative;
import dev.gatun.ffm.ReleaseUpcall;
import dev.gatun.ffm.internal.ArrowSchema;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Objects;

/**
 * The Java owner of one native operator handle ({@code GatunOperator}): a Substrait plan compiled
 * once in Rust into an operator of one {@link Kind} for one input schema, then fed batch by batch.
 * Knows nothing about Flink.
 *
 * <p>Schemas cross once, at {@link #create}; per batch only {@code ArrowArray}s cross. Not
 * thread-safe: one operator thread owns it, and closes it exactly once.
 */
public final class NativeOperator implements AutoCloseable {
    /** The output name that marks the filter expression in a Calc plan. */
    public static final String FILTER_NAME = "gatun.filter";
    /** The output name of a Calc plan's rowtime expression (a plan that assigns watermarks). */
    public static final String ROWTIME_NAME = "gatun.rowtime";
    /** The output name of a Calc plan's watermark expression (a plan that assigns watermarks). */
    public static final String WATERMARK_NAME = "gatun.watermark";
    /** The row-kind sidecar column: passed through the filter and appended after the output columns by Rust. */
    public static final String ROW_KIND_COLUMN = "__gatun_row_kind";
    /** The one Binary column of Flink rows of a result batch in {@link OutputFormat#FLINK_ROWS}. */
    public static final String FLINK_ROW_COLUMN = "__gatun_flink_row";
    /**
     * The last column of every result batch of a plan that assigns watermarks: nullable Int64, value
     * j the watermark to emit before output row j (NULL for none).
     */
    public static final String WATERMARK_COLUMN = "__gatun_watermark";

    /** The operator kinds ({@code GATUN_OPERATOR_*}). */
    public enum Kind {
        /** Projections and an optional filter, optionally preceded by watermark assignment. */
        CALC(GatunNative.OPERATOR_CALC),
        /**
         * Flink's local (pre-shuffle) group or window aggregate with the Calc below it: {@link #process}
         * folds each batch into its groups and returns nothing (unless a bundle ended), {@link #flush}
         * emits one row per group, {@link #advance} what must leave before a watermark.
         */
        LOCAL_AGGREGATE(GatunNative.OPERATOR_LOCAL_AGGREGATE),
        /**
         * Flink's window aggregate (TUMBLE, HOP, CUMULATE on event time) with its state in native
         * memory: {@link #process} folds each batch into the state and returns nothing, {@link #advance}
         * fires the windows a watermark passes, {@link #snapshot} / {@link #restore} write and read the
         * state per key group.
         */
        WINDOW_AGGREGATE(GatunNative.OPERATOR_WINDOW_AGGREGATE);

        private final int abiValue;

        Kind(int abiValue) {
            this.abiValue = abiValue;
        }

        /** The {@code GATUN_OPERATOR_*} value. */
        public int abiValue() {
            return abiValue;
        }
    }

    private final Kind kind;
    private final NativeAllocator allocator;
    private final Schema inputSchema;
    private final Schema outputSchema;
    private final OutputFormat format;
    private final boolean assignsWatermarks;
    private final Tracking tracking;
    private MemorySegment handle;

    private NativeOperator(Kind kind, NativeAllocator allocator, Schema inputSchema, Schema outputSchema,
                           OutputFormat format, MemorySegment handle) {
        this.kind = kind;
        this.allocator = allocator;
        this.inputSchema = inputSchema;
        this.outputSchema = outputSchema;
        this.format = format;
        List<Field> out = outputSchema.fields();
        this.assignsWatermarks = !out.isEmpty() && out.getLast().name().equals(WATERMARK_COLUMN);
        this.handle = handle;
        this.tracking = allocator.track(NativeAllocator.Kind.NATIVE_HANDLE, this);
    }

    /**
     * Compiles {@code plan} into an operator of {@code kind} for batches of {@code inputSchema}.
     * Rust checks that each output column's type equals {@code expectedOutput}'s field; the returned
     * operator's {@link #outputSchema()} is the schema of its result batches (see
     * {@link OutputFormat}).
     *
     * @throws dev.gatun.ffm.NativeException with Rust's message when the plan does not compile, or
     *     when {@code format} is {@link OutputFormat#FLINK_ROWS} and an output column is nested
     */
    public static NativeOperator create(Kind kind, byte[] plan, Schema inputSchema, Schema expectedOutput,
                                        OutputFormat format, NativeAllocator allocator) {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(inputSchema, "inputSchema");
        Objects.requireNonNull(expectedOutput, "expectedOutput");
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(allocator, "allocator");
        try (Arena call = Arena.ofConfined()) {
            MemorySegment planBytes = call.allocate(Math.max(1, plan.length));
            MemorySegment.copy(plan, 0, planBytes, ValueLayout.JAVA_BYTE, 0, plan.length);
            MemorySegment in = ArrowSchema.allocate(call);
            MemorySegment expected = ArrowSchema.allocate(call);
            MemorySegment out = ArrowSchema.allocate(call);
            try {
                CDataExporter.exportSchema(allocator, inputSchema, in);
                CDataExporter.exportSchema(allocator, expectedOutput, expected);
                MemorySegment handle = GatunNative.operatorCreate(kind.abiValue(), planBytes.asSlice(0, plan.length),
                        in, expected, format.abiValue(), out);
                Schema actual;
                try {
                    actual = CDataImporter.importSchema(out);
                } catch (RuntimeException | Error e) {
                    GatunNative.operatorFree(handle);
                    throw e;
                }
                return new NativeOperator(kind, allocator, inputSchema, actual, format, handle);
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

    public Kind kind() {
        return kind;
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

    /** Whether the plan assigns watermarks: {@link #process} then needs a {@link WatermarkProgress}. */
    public boolean assignsWatermarks() {
        return assignsWatermarks;
    }

    /**
     * Processes one SEALED batch of {@link #inputSchema()}. The input is exported to Rust and consumed
     * on every path (do not use it afterwards). {@code progress} is required exactly when the plan
     * {@linkplain #assignsWatermarks() assigns watermarks} ({@code null} otherwise) and is updated in
     * place on success. Returns the imported result batch, which the caller closes, or {@code null}
     * when the operator emitted nothing for this input (a Calc always emits a batch).
     */
    public RecordBatch process(RecordBatch input, WatermarkProgress progress) {
        MemorySegment live = requireOpen();
        if (!input.schema().equals(inputSchema)) {
            input.close();
            throw new IllegalArgumentException("batch schema " + input.schema()
                    + " differs from the operator's input schema " + inputSchema);
        }
        if ((progress != null) != assignsWatermarks) {
            input.close();
            throw new IllegalArgumentException(assignsWatermarks
                    ? "the plan assigns watermarks: process needs a WatermarkProgress"
                    : "the plan assigns no watermarks: progress must be null");
        }
        return call(live, input, progress);
    }

    /**
     * {@link #process} without the Java checks of the batch's schema and of {@code progress}, so tests
     * reach Rust's own checks. Only for batches whose buffers are at least as large as the ones the
     * input schema reads (a C Data array carries no buffer sizes): Rust rejects a different column
     * count, buffer count or child count, invalid UTF-8 and NULLs in NOT NULL columns.
     */
    RecordBatch processWithoutChecks(RecordBatch input, WatermarkProgress progress) {
        return call(requireOpen(), input, progress);
    }

    private RecordBatch call(MemorySegment live, RecordBatch input, WatermarkProgress progress) {
        return ArrowCall.exchangeOptional(input, allocator, (scratch, in, out) -> {
            MemorySegment state = progress == null ? MemorySegment.NULL : progress.toStruct(scratch);
            GatunNative.operatorProcess(live, in, state, out);
            if (progress != null) {
                progress.updateFrom(state);
            }
        }, () -> outputSchema);
    }

    /**
     * Emits what the operator buffers (aggregates) and resets it: the imported batch, which the caller
     * closes, or {@code null} when there is nothing (always for a Calc).
     */
    public RecordBatch flush() {
        MemorySegment live = requireOpen();
        return ArrowCall.receive(allocator, (scratch, out) -> GatunNative.operatorFlush(live, out),
                () -> outputSchema);
    }

    /**
     * A watermark reached the operator (after every batch before it): what it must emit before the
     * watermark passes on, per its kind's rule (a local group aggregate: everything; a local window
     * aggregate: its groups when Flink's window buffer would flush them), which the caller closes, or
     * {@code null} when nothing leaves (always for a Calc).
     */
    public RecordBatch advance(long watermark) {
        MemorySegment live = requireOpen();
        return ArrowCall.receive(allocator, (scratch, out) -> GatunNative.operatorAdvance(live, watermark, out),
                () -> outputSchema);
    }

    /**
     * The bytes the native operator keeps between calls (a local aggregate's groups and accumulators;
     * always 0 for a Calc): native memory the allocator does not see, for the memory budget.
     */
    public long heldBytes() {
        return GatunNative.operatorHeldBytes(requireOpen());
    }

    /** Receives the sections of {@link #snapshot}, one call per key group holding state. */
    @FunctionalInterface
    public interface KeyGroupSink {
        /** {@code section} is valid during this call only. */
        void write(int keyGroup, MemorySegment section) throws IOException;
    }

    /**
     * The native state of an operator: distinct keys, (key, slice) entries and bytes, the rows dropped
     * as late since it was created (Flink's {@code numLateRecordsDropped}), and its watermark progress
     * ({@code Long.MIN_VALUE} before the first watermark; for kinds without state always).
     */
    public record StateStats(long keys, long slices, long bytes, long lateRows, long progress) {}

    /** The schema of {@code gatun_operator_snapshot}'s result. */
    private static final Schema SNAPSHOT_SCHEMA = Schema.of(
            Field.notNull("key_group", ArrowType.INT32), Field.notNull("state", ArrowType.BINARY));

    /**
     * {@link Kind#WINDOW_AGGREGATE}: writes the state into {@code sink}, one call per key group of
     * {@code maxParallelism} (Flink's key-group assignment) holding state, ascending; the state is
     * unchanged. Everything native is released before this returns, also when the sink throws.
     *
     * @throws dev.gatun.ffm.NativeInvalidArgumentException for another kind or a bad {@code maxParallelism}
     */
    public void snapshot(int maxParallelism, KeyGroupSink sink) throws IOException {
        Objects.requireNonNull(sink, "sink");
        MemorySegment live = requireOpen();
        try (RecordBatch sections = ArrowCall.receive(allocator,
                (scratch, out) -> GatunNative.operatorSnapshot(live, maxParallelism, out), () -> SNAPSHOT_SCHEMA)) {
            if (sections == null) {
                throw new IllegalStateException("gatun_operator_snapshot wrote no output");
            }
            Int32Vector groups = sections.column(0, Int32Vector.class);
            VarBinaryVector states = sections.column(1, VarBinaryVector.class);
            for (int i = 0; i < sections.rowCount(); i++) {
                sink.write(groups.getInt(i), states.getSlice(i));
            }
        }
    }

    /**
     * {@link Kind#WINDOW_AGGREGATE}: adds one section written by {@link #snapshot} (of this operator's
     * state layout, possibly another subtask's); {@code section} is read during the call only (a heap
     * segment is copied first). On failure the operator must be closed.
     *
     * @throws dev.gatun.ffm.NativeInvalidArgumentException naming what differs when the section does
     *     not fit (another format, version or state layout, truncated or corrupt bytes)
     */
    public void restore(MemorySegment section) {
        Objects.requireNonNull(section, "section");
        MemorySegment live = requireOpen();
        if (section.isNative()) {
            GatunNative.operatorRestore(live, section);
            return;
        }
        try (Arena call = Arena.ofConfined()) {
            MemorySegment copy = call.allocate(Math.max(1, section.byteSize()));
            MemorySegment.copy(section, 0, copy, 0, section.byteSize());
            GatunNative.operatorRestore(live, copy.asSlice(0, section.byteSize()));
        }
    }

    /**
     * {@link Kind#WINDOW_AGGREGATE}, when restoring: the progress (watermark) to continue from, in place
     * of the lowest of the restored sections' (a section restored later can only lower it). Flink
     * restores a window operator's watermark as the lowest of every subtask's, so a subtask that
     * receives no section still drops what fired before the snapshot; pass that value here before the
     * first {@link #process} or {@link #advance}. {@link #stateStats()} reports the progress to keep.
     *
     * @throws dev.gatun.ffm.NativeInvalidArgumentException for another kind
     */
    public void restoreProgress(long progress) {
        GatunNative.operatorRestoreProgress(requireOpen(), progress);
    }

    /**
     * {@link Kind#WINDOW_AGGREGATE}: bounds the native state ({@code Long.MAX_VALUE}: none, the
     * default); a later {@link #process} that grows it beyond fails naming the bound and the key.
     */
    public void limitState(long maxBytes) {
        GatunNative.operatorLimitState(requireOpen(), maxBytes);
    }

    /** The operator's native state (zeros for kinds without state). */
    public StateStats stateStats() {
        long[] s = GatunNative.operatorStateStats(requireOpen());
        return new StateStats(s[0], s[1], s[2], s[3], s[4]);
    }

    private MemorySegment requireOpen() {
        if (handle == null) {
            throw new IllegalStateException("native operator is closed");
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
            GatunNative.operatorFree(h);
        } finally {
            tracking.close();
        }
    }

    @Override
    public String toString() {
        return "NativeOperator[" + kind + ": " + inputSchema + " -> " + outputSchema + "]";
    }
}
