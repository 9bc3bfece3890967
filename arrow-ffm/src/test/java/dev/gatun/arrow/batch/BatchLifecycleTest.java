package dev.gatun.arrow.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.cdata.ArrowFormatException;
import dev.gatun.arrow.cdata.CDataExporter;
import dev.gatun.arrow.cdata.CDataImporter;
import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Field;
import dev.gatun.arrow.types.Schema;
import dev.gatun.arrow.vector.Int32Vector;
import dev.gatun.arrow.vector.NullVector;
import dev.gatun.arrow.vector.VarBinaryVector;
import dev.gatun.ffm.ReleaseUpcall;
import dev.gatun.ffm.internal.ArrowArray;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** WRITING → SEALED → EXPORTED → RELEASED, IMPORTED → RELEASED, and what each state forbids. */
@ExtendWith(LeakCheckExtension.class)
class BatchLifecycleTest {
    private static final Schema SCHEMA = Schema.of(
            Field.nullable("i", ArrowType.INT32), Field.nullable("s", ArrowType.UTF8), Field.nullable("n", ArrowType.NULL));

    private static RecordBatch written(int rows) {
        RecordBatch batch = RecordBatch.allocate(SCHEMA, rows);
        for (int r = 0; r < rows; r++) {
            batch.column(0, Int32Vector.class).setInt(r, r * 10);
            batch.column(1, VarBinaryVector.class).setUtf8(r, "v" + r);
            batch.column(2).setNull(r);
        }
        return batch;
    }

    @Test
    void statesOfAWrittenAndExportedBatch() {
        try (Arena arena = Arena.ofConfined(); RecordBatch batch = written(3)) {
            assertEquals(BatchState.WRITING, batch.state());
            assertThrows(IllegalStateException.class, batch::rowCount);
            batch.seal(3);
            assertEquals(BatchState.SEALED, batch.state());
            assertEquals(3, batch.rowCount());
            assertThrows(IllegalStateException.class, () -> batch.seal(3));
            MemorySegment struct = ArrowArray.allocate(arena);
            CDataExporter.exportBatch(batch, struct);
            assertEquals(BatchState.EXPORTED, batch.state());
            ReleaseUpcall.releaseArray(struct);
            assertEquals(BatchState.RELEASED, batch.state());
        }
    }

    @Test
    void readingAfterExportThrowsAndNeverTouchesTheMemory() {
        try (Arena arena = Arena.ofConfined(); RecordBatch batch = written(2)) {
            batch.seal(2);
            Int32Vector ints = batch.column(0, Int32Vector.class);
            VarBinaryVector strings = batch.column(1, VarBinaryVector.class);
            NullVector nulls = batch.column(2, NullVector.class);
            assertEquals(10, ints.getInt(1));
            MemorySegment slice = strings.getSlice(1);
            MemorySegment struct = ArrowArray.allocate(arena);
            CDataExporter.exportBatch(batch, struct);

            assertThrows(IllegalStateException.class, () -> batch.column(0));
            assertThrows(IllegalStateException.class, batch::rowCount);
            assertThrows(IllegalStateException.class, () -> ints.getInt(1));
            assertThrows(IllegalStateException.class, () -> ints.isNull(1));
            assertThrows(IllegalStateException.class, () -> strings.getUtf8(0));
            assertThrows(IllegalStateException.class, () -> slice.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 0));
            assertThrows(IllegalStateException.class, () -> nulls.isNull(0));
            assertThrows(IllegalStateException.class, () -> CDataExporter.exportBatch(batch, ArrowArray.allocate(arena)));
            ReleaseUpcall.releaseArray(struct);
            assertThrows(IllegalStateException.class, () -> ints.getInt(0));
        }
    }

    @Test
    void closingBeforeExportFreesAndRevokesAccess() {
        long before = dev.gatun.arrow.memory.NativeAllocator.root().javaBytes();
        RecordBatch batch = written(4);
        Int32Vector ints = batch.column(0, Int32Vector.class);
        batch.close();
        assertEquals(BatchState.RELEASED, batch.state());
        assertEquals(before, batch.allocator().javaBytes());
        assertThrows(IllegalStateException.class, () -> ints.getInt(0));
        assertThrows(IllegalStateException.class, () -> ints.setInt(0, 1));
        batch.close(); // idempotent
    }

    @Test
    void sealedBuffersAreReadOnlyAndExportNeedsASealedBatch() {
        try (Arena arena = Arena.ofConfined(); RecordBatch batch = written(2)) {
            assertThrows(IllegalStateException.class, () -> CDataExporter.exportBatch(batch, ArrowArray.allocate(arena)));
            batch.seal(2);
            Int32Vector ints = batch.column(0, Int32Vector.class);
            assertThrows(IllegalArgumentException.class, () -> ints.setInt(0, 5), "read-only after seal");
            assertThrows(IllegalStateException.class, () -> ints.setNull(0));
            assertThrows(IllegalStateException.class, () -> batch.column(1, VarBinaryVector.class).appendUtf8("x"));
        }
    }

    @Test
    void anotherThreadCannotExportOrClose() throws Exception {
        try (Arena arena = Arena.ofShared(); RecordBatch batch = written(1)) {
            batch.seal(1);
            MemorySegment struct = ArrowArray.allocate(arena);
            ExecutionException export = assertThrows(ExecutionException.class,
                    () -> CompletableFuture.runAsync(() -> CDataExporter.exportBatch(batch, struct)).get());
            assertTrue(export.getCause() instanceof IllegalStateException, export.toString());
            ExecutionException close = assertThrows(ExecutionException.class,
                    () -> CompletableFuture.runAsync(batch::close).get());
            assertTrue(close.getCause() instanceof IllegalStateException, close.toString());
            assertEquals(BatchState.SEALED, batch.state());
        }
    }

    @Test
    void importedBatchIsReadOnlyAndClosingGivesTheMemoryBack() {
        try (Arena arena = Arena.ofConfined(); RecordBatch batch = written(2)) {
            batch.seal(2);
            MemorySegment struct = ArrowArray.allocate(arena);
            CDataExporter.exportBatch(batch, struct);
            RecordBatch imported = CDataImporter.importBatch(struct, SCHEMA);
            assertEquals(BatchState.IMPORTED, imported.state());
            assertTrue(imported.allocator().importedBytes() > 0);
            Int32Vector ints = imported.column(0, Int32Vector.class);
            assertEquals(10, ints.getInt(1));
            assertThrows(IllegalStateException.class, () -> ints.setNull(0));
            assertThrows(IllegalArgumentException.class, () -> ints.setInt(0, 1), "imports are read-only");
            assertEquals(BatchState.EXPORTED, batch.state());
            imported.close();
            assertEquals(BatchState.RELEASED, imported.state());
            assertEquals(BatchState.RELEASED, batch.state(), "closing the import called our release");
            assertEquals(0, imported.allocator().importedBytes());
            assertThrows(IllegalStateException.class, () -> ints.getInt(0));
        }
    }

    @Test
    void exportNeedsAnEmptyStructAndImportALiveOne() {
        try (Arena arena = Arena.ofConfined(); RecordBatch batch = written(1)) {
            batch.seal(1);
            MemorySegment struct = ArrowArray.allocate(arena);
            ArrowArray.release(struct, MemorySegment.ofAddress(8));
            assertThrows(IllegalArgumentException.class, () -> CDataExporter.exportBatch(batch, struct));
            assertEquals(BatchState.SEALED, batch.state());
            MemorySegment empty = ArrowArray.allocate(arena);
            ArrowFormatException e = assertThrows(ArrowFormatException.class, () -> CDataImporter.importBatch(empty, SCHEMA));
            assertEquals("array.release", e.where());
        }
    }

    @Test
    void zeroColumnBatchHasARowCount() {
        try (Arena arena = Arena.ofConfined(); RecordBatch batch = RecordBatch.allocate(new Schema(List.of(), Map.of()), 10)) {
            batch.seal(7);
            MemorySegment struct = ArrowArray.allocate(arena);
            CDataExporter.exportBatch(batch, struct);
            assertEquals(7, ArrowArray.length(struct));
            assertEquals(0, ArrowArray.n_children(struct));
            try (RecordBatch imported = CDataImporter.importBatch(struct, new Schema(List.of(), Map.of()))) {
                assertEquals(7, imported.rowCount());
                assertEquals(0, imported.columnCount());
            }
        }
    }
}
