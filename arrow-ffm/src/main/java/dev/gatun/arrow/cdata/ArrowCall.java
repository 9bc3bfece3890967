package dev.gatun.arrow.cdata;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.memory.FaultHook;
import dev.gatun.arrow.memory.FaultPoint;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.types.Schema;
import dev.gatun.ffm.ReleaseUpcall;
import dev.gatun.ffm.internal.ArrowArray;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.function.Supplier;

/**
 * One batch across a native call, failure-atomic: export the input into a fresh
 * {@code ArrowArray}, let the callee move it in and fill an output {@code ArrowArray}, import the
 * output. Whatever struct still has a {@code release} afterwards (input not consumed, output not
 * imported) is released here, so no path leaks.
 */
public final class ArrowCall {
    /** The native call: moves {@code inArray} in, fills {@code outArray}. */
    @FunctionalInterface
    public interface Call {
        void invoke(MemorySegment inArray, MemorySegment outArray);
    }

    /**
     * A native call that may leave {@code outArray} unfilled (release NULL) and may allocate its
     * other per-call structs in {@code scratch}, the call's confined arena (closed after it).
     */
    @FunctionalInterface
    public interface ScratchCall {
        void invoke(Arena scratch, MemorySegment inArray, MemorySegment outArray);
    }

    /** A native call without input that may fill {@code outArray}. */
    @FunctionalInterface
    public interface OutputCall {
        void invoke(Arena scratch, MemorySegment outArray);
    }

    private ArrowCall() {}

    /**
     * Exports {@code input} (SEALED; it is EXPORTED afterwards unless the export itself failed),
     * runs {@code call} and imports its output as {@code outputSchema.get()} (asked after the call).
     */
    public static RecordBatch exchange(RecordBatch input, NativeAllocator allocator, Call call,
                                       Supplier<Schema> outputSchema) {
        RecordBatch out = exchangeOptional(input, allocator,
                (scratch, in, output) -> call.invoke(in, output), outputSchema);
        if (out == null) {
            throw new IllegalStateException("the native call did not fill its output ArrowArray");
        }
        return out;
    }

    /**
     * Like {@link #exchange}, for a callee that may emit nothing: returns {@code null} when the
     * output {@code ArrowArray} is still unfilled (release NULL) after the call.
     */
    public static RecordBatch exchangeOptional(RecordBatch input, NativeAllocator allocator, ScratchCall call,
                                               Supplier<Schema> outputSchema) {
        try (Arena scratch = Arena.ofConfined()) {
            MemorySegment in = ArrowArray.allocate(scratch);
            MemorySegment out = ArrowArray.allocate(scratch);
            try {
                CDataExporter.exportBatch(input, in);
                FaultHook.hit(FaultPoint.NATIVE_CALL);
                call.invoke(scratch, in, out);
                FaultHook.hit(FaultPoint.NATIVE_CALL);
                return importIfFilled(allocator, out, outputSchema);
            } finally {
                try {
                    ReleaseUpcall.releaseArray(in);
                } finally {
                    ReleaseUpcall.releaseArray(out);
                }
            }
        }
    }

    /**
     * Runs {@code call}, which takes no input, and imports its output as {@code outputSchema.get()};
     * {@code null} when it filled none.
     */
    public static RecordBatch receive(NativeAllocator allocator, OutputCall call, Supplier<Schema> outputSchema) {
        try (Arena scratch = Arena.ofConfined()) {
            MemorySegment out = ArrowArray.allocate(scratch);
            try {
                FaultHook.hit(FaultPoint.NATIVE_CALL);
                call.invoke(scratch, out);
                FaultHook.hit(FaultPoint.NATIVE_CALL);
                return importIfFilled(allocator, out, outputSchema);
            } finally {
                ReleaseUpcall.releaseArray(out);
            }
        }
    }

    private static RecordBatch importIfFilled(NativeAllocator allocator, MemorySegment out,
                                              Supplier<Schema> outputSchema) {
        if (ArrowArray.release(out).address() == 0) {
            return null;
        }
        return CDataImporter.importBatch(allocator, out, outputSchema.get());
    }
}
