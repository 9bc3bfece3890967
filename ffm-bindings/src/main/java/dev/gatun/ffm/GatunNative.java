package dev.gatun.ffm;

import dev.gatun.ffm.internal.ArrowArray;
import dev.gatun.ffm.internal.ArrowSchema;
import dev.gatun.ffm.internal.GatunNativeStats;
import dev.gatun.ffm.internal.GatunStateStats;
import dev.gatun.ffm.internal.GatunWatermarkProgress;
import dev.gatun.ffm.internal.gatun_h;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * Typed calls into the Gatun native library, one per function of {@code gatun.h}. Each call
 * loads the library first (so a load failure surfaces as {@link NativeLibraryLoadException}),
 * and turns an error status into a {@link NativeException}.
 */
public final class GatunNative {
    private GatunNative() {}

    /** {@code gatun_abi_version()}: the ABI version the library was built from. */
    public static int abiVersion() {
        GatunLibrary.library();
        return gatun_h.gatun_abi_version();
    }

    /** {@code gatun_native_stats}: the live native resource counters. */
    public static NativeStats stats() {
        GatunLibrary.library();
        try (CallScratch call = new CallScratch()) {
            MemorySegment out = GatunNativeStats.allocate(call.arena());
            call.check(gatun_h.gatun_native_stats(out, call.errBuf(), call.errCap()), "gatun_native_stats");
            return new NativeStats(
                    GatunNativeStats.live_handles(out),
                    GatunNativeStats.live_exported_arrays(out),
                    GatunNativeStats.live_exported_schemas(out),
                    GatunNativeStats.allocated_bytes(out),
                    GatunNativeStats.peak_allocated_bytes(out));
        }
    }

    /**
     * {@code gatun_roundtrip}: moves {@code inArray} in (its {@code release} is NULL afterwards,
     * also on failure), validates it in Rust and exports it back into the caller-allocated
     * {@code outSchema}/{@code outArray}, which the caller must then release.
     */
    public static void roundtrip(MemorySegment inSchema, MemorySegment inArray,
                                 MemorySegment outSchema, MemorySegment outArray) {
        requireStruct(inSchema, ArrowSchema.layout(), "inSchema");
        requireStruct(inArray, ArrowArray.layout(), "inArray");
        requireStruct(outSchema, ArrowSchema.layout(), "outSchema");
        requireStruct(outArray, ArrowArray.layout(), "outArray");
        GatunLibrary.library();
        try (CallScratch call = new CallScratch()) {
            int status = gatun_h.gatun_roundtrip(inSchema, inArray, outSchema, outArray,
                    call.errBuf(), call.errCap());
            call.check(status, "gatun_roundtrip");
        }
    }

    /**
     * {@code gatun_passthrough_create}: a handle for the bare crossing of batches of {@code schema}
     * (a struct schema, borrowed for the call).
     *
     * @return the native handle ({@code GatunPassthrough*}); free it with {@link #passthroughFree}
     */
    public static MemorySegment passthroughCreate(MemorySegment schema) {
        requireStruct(schema, ArrowSchema.layout(), "schema");
        GatunLibrary.library();
        try (CallScratch call = new CallScratch()) {
            MemorySegment handleOut = call.arena().allocate(ValueLayout.ADDRESS);
            call.check(gatun_h.gatun_passthrough_create(schema, handleOut, call.errBuf(), call.errCap()),
                    "gatun_passthrough_create");
            return handleOut.get(ValueLayout.ADDRESS, 0);
        }
    }

    /**
     * {@code gatun_passthrough}: moves {@code input} in (consumed on every path), imports it in Rust
     * without reading values and exports the same buffers into the caller-allocated {@code output},
     * which the caller must then release.
     */
    public static void passthrough(MemorySegment passthrough, MemorySegment input, MemorySegment output) {
        requireHandle(passthrough, "passthrough");
        requireStruct(input, ArrowArray.layout(), "input");
        requireStruct(output, ArrowArray.layout(), "output");
        MemorySegment err = ThreadErrorBuffer.get();
        NativeStatus.check(gatun_h.gatun_passthrough(passthrough, input, output, err, ThreadErrorBuffer.capacity()),
                err, "gatun_passthrough");
    }

    /** {@code gatun_passthrough_free}: frees a handle from {@link #passthroughCreate}; call exactly once. */
    public static void passthroughFree(MemorySegment passthrough) {
        requireHandle(passthrough, "passthrough");
        try (CallScratch call = new CallScratch()) {
            call.check(gatun_h.gatun_passthrough_free(passthrough, call.errBuf(), call.errCap()),
                    "gatun_passthrough_free");
        }
    }

    // The header's constants as literals (LayoutConformanceTest checks them against gatun_h): reading
    // them from gatun_h would initialize it, and so look up the library, when this class loads, and a
    // JVM without native access would then fail with an ExceptionInInitializerError instead of the
    // NativeAccessException naming the flag.
    /** {@code GATUN_OPERATOR_CALC}: the Calc kind (projections, filter, optional watermarks). */
    public static final int OPERATOR_CALC = 1;
    /** {@code GATUN_OPERATOR_LOCAL_AGGREGATE}: Flink's local (pre-shuffle) group aggregate with its Calc. */
    public static final int OPERATOR_LOCAL_AGGREGATE = 2;
    /** {@code GATUN_OPERATOR_WINDOW_AGGREGATE}: Flink's window aggregate with its state in native memory. */
    public static final int OPERATOR_WINDOW_AGGREGATE = 3;
    /** {@code GATUN_OUTPUT_ARROW}: result batches with one Arrow column per output column. */
    public static final int OUTPUT_ARROW = 0;
    /** {@code GATUN_OUTPUT_FLINK_ROWS}: result batches with one Binary column of Flink BinaryRowData rows. */
    public static final int OUTPUT_FLINK_ROWS = 1;

    /**
     * {@code gatun_operator_create}: compiles a Substrait plan (an {@code ExtendedExpression} for
     * {@link #OPERATOR_CALC}, a {@code Plan} with one {@code AggregateRel} root for
     * {@link #OPERATOR_LOCAL_AGGREGATE}; Rust rejects any other kind) into an operator for input batches of
     * {@code inputSchema} (borrowed), checks the derived output types against
     * {@code expectedOutputSchema} (borrowed) and fills the caller-allocated {@code outSchema}, the
     * schema of the result batches in {@code outputFormat} ({@link #OUTPUT_ARROW} or
     * {@link #OUTPUT_FLINK_ROWS}; Rust rejects any other value).
     *
     * @return the native handle ({@code GatunOperator*}); free it with {@link #operatorFree} exactly once
     */
    public static MemorySegment operatorCreate(int kind, MemorySegment plan, MemorySegment inputSchema,
                                               MemorySegment expectedOutputSchema, int outputFormat,
                                               MemorySegment outSchema) {
        Objects.requireNonNull(plan, "plan");
        requireStruct(inputSchema, ArrowSchema.layout(), "inputSchema");
        requireStruct(expectedOutputSchema, ArrowSchema.layout(), "expectedOutputSchema");
        requireStruct(outSchema, ArrowSchema.layout(), "outSchema");
        GatunLibrary.library();
        try (CallScratch call = new CallScratch()) {
            MemorySegment handleOut = call.arena().allocate(ValueLayout.ADDRESS);
            int status = gatun_h.gatun_operator_create(kind, plan, plan.byteSize(), inputSchema,
                    expectedOutputSchema, outputFormat, outSchema, handleOut, call.errBuf(), call.errCap());
            call.check(status, "gatun_operator_create");
            return handleOut.get(ValueLayout.ADDRESS, 0);
        }
    }

    /**
     * {@code gatun_operator_process}: moves {@code input} in (consumed on every path). {@code progress}
     * is a {@code GatunWatermarkProgress} struct when the operator's plan assigns watermarks (updated
     * in place on success), else {@link MemorySegment#NULL}. The caller-allocated {@code output}
     * (release NULL) is filled only when the operator emits rows for this input; whatever it holds
     * afterwards the caller releases.
     */
    public static void operatorProcess(MemorySegment op, MemorySegment input, MemorySegment progress,
                                       MemorySegment output) {
        requireHandle(op, "op");
        requireStruct(input, ArrowArray.layout(), "input");
        Objects.requireNonNull(progress, "progress");
        if (!progress.equals(MemorySegment.NULL)) {
            requireStruct(progress, GatunWatermarkProgress.layout(), "progress");
        }
        requireStruct(output, ArrowArray.layout(), "output");
        MemorySegment err = ThreadErrorBuffer.get();
        NativeStatus.check(gatun_h.gatun_operator_process(op, input, progress, output, err,
                ThreadErrorBuffer.capacity()), err, "gatun_operator_process");
    }

    /**
     * {@code gatun_operator_flush}: the caller-allocated {@code output} (release NULL) is filled only
     * when the operator emits buffered rows (never for a Calc); the caller releases it.
     */
    public static void operatorFlush(MemorySegment op, MemorySegment output) {
        requireHandle(op, "op");
        requireStruct(output, ArrowArray.layout(), "output");
        MemorySegment err = ThreadErrorBuffer.get();
        NativeStatus.check(gatun_h.gatun_operator_flush(op, output, err, ThreadErrorBuffer.capacity()),
                err, "gatun_operator_flush");
    }

    /**
     * {@code gatun_operator_advance}: a watermark reached the operator; the caller-allocated
     * {@code output} (release NULL) is filled only when the operator emits buffered rows before it
     * passes on (never for a Calc); the caller releases it.
     */
    public static void operatorAdvance(MemorySegment op, long watermark, MemorySegment output) {
        requireHandle(op, "op");
        requireStruct(output, ArrowArray.layout(), "output");
        MemorySegment err = ThreadErrorBuffer.get();
        NativeStatus.check(gatun_h.gatun_operator_advance(op, watermark, output, err,
                ThreadErrorBuffer.capacity()), err, "gatun_operator_advance");
    }

    /**
     * {@code gatun_operator_held_bytes}: the bytes the operator keeps between calls (a local
     * aggregate's groups and accumulators; 0 for a Calc), for the native memory budget.
     */
    public static long operatorHeldBytes(MemorySegment op) {
        requireHandle(op, "op");
        try (CallScratch call = new CallScratch()) {
            MemorySegment out = call.arena().allocate(ValueLayout.JAVA_LONG);
            call.check(gatun_h.gatun_operator_held_bytes(op, out, call.errBuf(), call.errCap()),
                    "gatun_operator_held_bytes");
            return out.get(ValueLayout.JAVA_LONG, 0);
        }
    }

    /**
     * {@code gatun_operator_snapshot}: the caller-allocated {@code output} (release NULL) receives the
     * state of a window-aggregate operator per key group of {@code maxParallelism} (a struct array of
     * "key_group" Int32 and "state" Binary, one row per key group holding state); the caller
     * releases it.
     */
    public static void operatorSnapshot(MemorySegment op, int maxParallelism, MemorySegment output) {
        requireHandle(op, "op");
        requireStruct(output, ArrowArray.layout(), "output");
        try (CallScratch call = new CallScratch()) {
            call.check(gatun_h.gatun_operator_snapshot(op, maxParallelism, output, call.errBuf(), call.errCap()),
                    "gatun_operator_snapshot");
        }
    }

    /**
     * {@code gatun_operator_restore}: adds one section written by {@link #operatorSnapshot} (borrowed
     * for the call) to a window-aggregate operator's state.
     */
    public static void operatorRestore(MemorySegment op, MemorySegment section) {
        requireHandle(op, "op");
        Objects.requireNonNull(section, "section");
        if (!section.isNative()) {
            throw new IllegalArgumentException("section must be a native segment, got " + section);
        }
        try (CallScratch call = new CallScratch()) {
            call.check(gatun_h.gatun_operator_restore(op, section, section.byteSize(), call.errBuf(), call.errCap()),
                    "gatun_operator_restore");
        }
    }

    /** {@code gatun_operator_limit_state}: bounds a window-aggregate operator's native state bytes. */
    public static void operatorLimitState(MemorySegment op, long maxBytes) {
        requireHandle(op, "op");
        try (CallScratch call = new CallScratch()) {
            call.check(gatun_h.gatun_operator_limit_state(op, maxBytes, call.errBuf(), call.errCap()),
                    "gatun_operator_limit_state");
        }
    }

    /**
     * {@code gatun_operator_restore_progress}: the progress (watermark) a restored window-aggregate
     * operator continues from, in place of its sections'.
     */
    public static void operatorRestoreProgress(MemorySegment op, long progress) {
        requireHandle(op, "op");
        try (CallScratch call = new CallScratch()) {
            call.check(gatun_h.gatun_operator_restore_progress(op, progress, call.errBuf(), call.errCap()),
                    "gatun_operator_restore_progress");
        }
    }

    /**
     * {@code gatun_operator_state_stats}: {keys, slices, bytes, late rows, progress} of the operator's
     * native state.
     */
    public static long[] operatorStateStats(MemorySegment op) {
        requireHandle(op, "op");
        try (CallScratch call = new CallScratch()) {
            MemorySegment out = GatunStateStats.allocate(call.arena());
            call.check(gatun_h.gatun_operator_state_stats(op, out, call.errBuf(), call.errCap()),
                    "gatun_operator_state_stats");
            return new long[] {GatunStateStats.keys(out), GatunStateStats.slices(out), GatunStateStats.bytes(out),
                    GatunStateStats.late_rows(out), GatunStateStats.progress(out)};
        }
    }

    /** {@code gatun_operator_free}: frees a handle from {@link #operatorCreate}; call exactly once. */
    public static void operatorFree(MemorySegment op) {
        requireHandle(op, "op");
        try (CallScratch call = new CallScratch()) {
            call.check(gatun_h.gatun_operator_free(op, call.errBuf(), call.errCap()), "gatun_operator_free");
        }
    }

    private static void requireHandle(MemorySegment handle, String name) {
        Objects.requireNonNull(handle, name);
        if (handle.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException(name + " handle is NULL");
        }
    }

    private static void requireStruct(MemorySegment segment, MemoryLayout layout, String name) {
        Objects.requireNonNull(segment, name);
        if (!segment.isNative() || segment.byteSize() < layout.byteSize()) {
            throw new IllegalArgumentException(name + " must be a native segment of at least "
                    + layout.byteSize() + " bytes (" + layout.name().orElse("struct") + "), got " + segment);
        }
    }
}
