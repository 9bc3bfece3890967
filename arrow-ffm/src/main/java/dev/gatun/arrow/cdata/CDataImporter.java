package dev.gatun.arrow.cdata;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.memory.FaultHook;
import dev.gatun.arrow.memory.FaultPoint;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.memory.NativeBuffer;
import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Field;
import dev.gatun.arrow.types.Schema;
import dev.gatun.arrow.vector.ValueVector;
import dev.gatun.ffm.ReleaseUpcall;
import dev.gatun.ffm.internal.ArrowArray;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;

/**
 * Takes ownership of C Data structs filled by a producer (native code, Arrow Java, ...).
 *
 * <p>Both methods <em>consume</em> their struct, whatever the outcome: when they return or throw,
 * its {@code release} is NULL. An array is moved (bitwise copy into memory we own, then
 * {@code release = NULL} on the source), validated completely before any value is exposed, and
 * wrapped in a confined arena whose close calls the producer's release exactly once. Invalid
 * input throws {@link ArrowFormatException} naming the field and the problem.
 */
public final class CDataImporter {
    private static final long ARRAY_SIZE = ArrowArray.sizeof();

    private CDataImporter() {}

    /** Reads and validates a struct schema, then releases it. */
    public static Schema importSchema(MemorySegment arrowSchema) {
        return SchemaImporter.importSchema(arrowSchema);
    }

    /** {@link #importBatch(NativeAllocator, MemorySegment, Schema)} with the root allocator. */
    public static RecordBatch importBatch(MemorySegment arrowArray, Schema schema) {
        return importBatch(NativeAllocator.root(), arrowArray, schema);
    }

    /**
     * Imports a struct array whose children are the columns of {@code schema}, as an IMPORTED
     * batch owned by the calling thread. Close the batch to release the producer's memory.
     */
    public static RecordBatch importBatch(NativeAllocator allocator, MemorySegment arrowArray, Schema schema) {
        if (arrowArray.address() == 0) {
            throw new IllegalArgumentException("ArrowArray pointer is NULL");
        }
        MemorySegment source = arrowArray.reinterpret(ARRAY_SIZE);
        if (ArrowArray.release(source).address() == 0) {
            throw new ArrowFormatException("array.release", "is NULL: the array was already released or never filled");
        }
        NativeBuffer moved;
        try {
            moved = allocator.allocate(ARRAY_SIZE);
        } catch (RuntimeException | Error e) {
            ReleaseUpcall.releaseArray(source);
            throw e;
        }
        MemorySegment copy = moved.unscopedView();
        MemorySegment.copy(source, 0, copy, 0, ARRAY_SIZE);
        ArrowArray.release(source, MemorySegment.NULL);

        Arena arena = Arena.ofConfined();
        MemorySegment struct;
        try {
            struct = copy.reinterpret(ARRAY_SIZE, arena, s -> {
                try {
                    ReleaseUpcall.releaseArray(s);
                } finally {
                    moved.free();
                }
            });
        } catch (RuntimeException | Error e) {
            arena.close();
            try {
                ReleaseUpcall.releaseArray(copy);
            } finally {
                moved.free();
            }
            throw e;
        }
        boolean success = false;
        try {
            FaultHook.hit(FaultPoint.IMPORT);
            ArrayImporter importer = new ArrayImporter(arena);
            long length = ArrayImporter.checkHeader(struct, "array");
            Field rootField = new Field("", ArrowType.STRUCT, false, schema.fields(), Map.of());
            ValueVector root = importer.node(struct, rootField, "array", 0, length, 0);
            if (root.nullCount() > 0) {
                throw new ArrowFormatException("array.null_count", "a record batch cannot have NULL rows (" + root.nullCount() + ")");
            }
            List<ValueVector> columns = root.children();
            RecordBatch batch = RecordBatch.imported(allocator, schema, columns, (int) length, arena, importer.bytes());
            success = true;
            return batch;
        } finally {
            if (!success) {
                arena.close();
            }
        }
    }
}
