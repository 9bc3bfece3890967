package dev.gatun.arrow.cdata;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.memory.FaultInjection;
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

    private ArrowCall() {}

    /**
     * Exports {@code input} (SEALED; it is EXPORTED afterwards unless the export itself failed),
     * runs {@code call} and imports its output as {@code outputSchema.get()} (asked after the call).
     */
    public static RecordBatch exchange(RecordBatch input, NativeAllocator allocator, Call call,
                                       Supplier<Schema> outputSchema) {
        try (Arena scratch = Arena.ofConfined()) {
            MemorySegment in = ArrowArray.allocate(scratch);
            MemorySegment out = ArrowArray.allocate(scratch);
            try {
                CDataExporter.exportBatch(input, in);
                FaultInjection.hit(FaultPoint.NATIVE_CALL);
                call.invoke(in, out);
                FaultInjection.hit(FaultPoint.NATIVE_CALL);
                return CDataImporter.importBatch(allocator, out, outputSchema.get());
            } finally {
                try {
                    ReleaseUpcall.releaseArray(in);
                } finally {
                    ReleaseUpcall.releaseArray(out);
                }
            }
        }
    }
}
