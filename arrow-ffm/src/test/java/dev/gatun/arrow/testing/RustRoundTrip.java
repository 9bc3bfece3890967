package dev.gatun.arrow.testing;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.cdata.ArrowCall;
import dev.gatun.arrow.cdata.CDataExporter;
import dev.gatun.arrow.cdata.CDataImporter;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.types.Schema;
import dev.gatun.ffm.GatunNative;
import dev.gatun.ffm.ReleaseUpcall;
import dev.gatun.ffm.internal.ArrowSchema;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;

/**
 * The native oracle: {@code gatun_roundtrip} imports our export with arrow-rs, validates it fully
 * and exports it back without copying; we import the result.
 */
public final class RustRoundTrip {
    private RustRoundTrip() {}

    public static RecordBatch roundTrip(RecordBatch batch) {
        return roundTrip(batch, null, new Schema[1]);
    }

    /**
     * @param beforeCall may modify the exported input struct (e.g. slice it) before Rust sees it
     * @param outSchema receives the schema Rust exported back
     */
    public static RecordBatch roundTrip(RecordBatch batch, Consumer<MemorySegment> beforeCall, Schema[] outSchema) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment inSchema = ArrowSchema.allocate(arena);
            MemorySegment rustSchema = ArrowSchema.allocate(arena);
            CDataExporter.exportSchema(batch.schema(), inSchema);
            try {
                return ArrowCall.exchange(batch, NativeAllocator.root(), (in, out) -> {
                    if (beforeCall != null) {
                        beforeCall.accept(in);
                    }
                    GatunNative.roundtrip(inSchema, in, rustSchema, out);
                    outSchema[0] = CDataImporter.importSchema(rustSchema);
                }, () -> outSchema[0]);
            } finally {
                try {
                    ReleaseUpcall.releaseSchema(inSchema);
                } finally {
                    ReleaseUpcall.releaseSchema(rustSchema);
                }
            }
        }
    }
}
