package dev.gatun.ffm;

import dev.gatun.ffm.internal.ArrowArray;
import dev.gatun.ffm.internal.ArrowSchema;
import dev.gatun.ffm.internal.GatunNativeStats;
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

    /** {@code GATUN_OUTPUT_ARROW}: result batches with one Arrow column per projection. */
    public static final int OUTPUT_ARROW = gatun_h.GATUN_OUTPUT_ARROW();
    /** {@code GATUN_OUTPUT_FLINK_ROWS}: result batches with one Binary column of Flink BinaryRowData rows. */
    public static final int OUTPUT_FLINK_ROWS = gatun_h.GATUN_OUTPUT_FLINK_ROWS();

    /**
     * {@code gatun_calc_create}: compiles a Substrait {@code ExtendedExpression} for input batches of
     * {@code inputSchema} (borrowed), checks the derived output types against
     * {@code expectedOutputSchema} (borrowed) and fills the caller-allocated {@code outSchema}, the
     * schema of the result batches in {@code outputFormat} ({@link #OUTPUT_ARROW} or
     * {@link #OUTPUT_FLINK_ROWS}; Rust rejects any other value).
     *
     * @return the native handle ({@code GatunCalc*}); free it with {@link #calcFree} exactly once
     */
    public static MemorySegment calcCreate(MemorySegment plan, MemorySegment inputSchema,
                                           MemorySegment expectedOutputSchema, int outputFormat,
                                           MemorySegment outSchema) {
        Objects.requireNonNull(plan, "plan");
        requireStruct(inputSchema, ArrowSchema.layout(), "inputSchema");
        requireStruct(expectedOutputSchema, ArrowSchema.layout(), "expectedOutputSchema");
        requireStruct(outSchema, ArrowSchema.layout(), "outSchema");
        GatunLibrary.library();
        try (CallScratch call = new CallScratch()) {
            MemorySegment handleOut = call.arena().allocate(ValueLayout.ADDRESS);
            int status = gatun_h.gatun_calc_create(plan, plan.byteSize(), inputSchema, expectedOutputSchema,
                    outputFormat, outSchema, handleOut, call.errBuf(), call.errCap());
            call.check(status, "gatun_calc_create");
            return handleOut.get(ValueLayout.ADDRESS, 0);
        }
    }

    /**
     * {@code gatun_calc_evaluate}: moves {@code input} in (consumed on every path) and fills the
     * caller-allocated {@code output}, which the caller must then release.
     */
    public static void calcEvaluate(MemorySegment calc, MemorySegment input, MemorySegment output) {
        requireHandle(calc);
        requireStruct(input, ArrowArray.layout(), "input");
        requireStruct(output, ArrowArray.layout(), "output");
        MemorySegment err = ThreadErrorBuffer.get();
        NativeStatus.check(gatun_h.gatun_calc_evaluate(calc, input, output, err, ThreadErrorBuffer.capacity()),
                err, "gatun_calc_evaluate");
    }

    /** {@code gatun_calc_free}: frees a handle from {@link #calcCreate}; call exactly once. */
    public static void calcFree(MemorySegment calc) {
        requireHandle(calc);
        try (CallScratch call = new CallScratch()) {
            call.check(gatun_h.gatun_calc_free(calc, call.errBuf(), call.errCap()), "gatun_calc_free");
        }
    }

    private static void requireHandle(MemorySegment handle) {
        requireHandle(handle, "calc");
    }

    private static void requireHandle(MemorySegment handle, String name) {
        Objects.requireNonNull(handle, name);
        if (handle.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException(name + " handle is NULL");
        }
    }

    /** {@code gatun_debug_panic}: panics inside Rust, which reports it as {@link NativePanicException}. */
    public static void debugPanic(String message) {
        Objects.requireNonNull(message, "message");
        GatunLibrary.library();
        try (CallScratch call = new CallScratch()) {
            MemorySegment text = call.arena().allocateFrom(message);
            call.check(gatun_h.gatun_debug_panic(text, call.errBuf(), call.errCap()), "gatun_debug_panic");
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
