package dev.gatun.transpose.entry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.batch.BatchState;
import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.arrow.vector.FixedWidthVector;
import dev.gatun.arrow.vector.ListVector;
import dev.gatun.arrow.vector.VarBinaryVector;
import dev.gatun.transpose.TransposeException;
import dev.gatun.transpose.testing.RowForms;
import dev.gatun.transpose.testing.Transposes;
import dev.gatun.transpose.testing.Tripwire;
import dev.gatun.transpose.types.TypeMapping;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The batch life cycle as the operator drives it. */
@ExtendWith(LeakCheckExtension.class)
class BatchWriterTest {
    private static final RowType TYPE = (RowType) DataTypes.ROW(DataTypes.FIELD("id", DataTypes.BIGINT()),
            DataTypes.FIELD("text", DataTypes.STRING()),
            DataTypes.FIELD("list", DataTypes.ARRAY(DataTypes.INT()))).getLogicalType();

    private final TypeMapping types = TypeMapping.defaults();

    private BatchWriter writer(NativeAllocator allocator, int batchRows) {
        return new BatchWriter(TYPE, Transposes.allFields(TYPE), types, batchRows, true, allocator);
    }

    @Test
    void fixedWidthBuffersArePresizedAndVariableOnesGrow() {
        try (NativeAllocator allocator = Transposes.allocator("sizes"); BatchWriter writer = writer(allocator, 100)) {
            List<GenericRowData> rows = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                rows.add(GenericRowData.of((long) i, StringData.fromString("x".repeat(i * 10)),
                        new GenericArrayData(new int[i])));
            }
            List<RecordBatch> batches = Transposes.writeAll(writer, rows);
            assertEquals(1, batches.size());
            RecordBatch batch = batches.get(0);
            assertEquals(100, batch.rowCapacity());
            assertEquals(100, batch.column(0, FixedWidthVector.class).capacity());
            assertEquals(49_500, batch.column(1, VarBinaryVector.class).valueEnd(99), "string data grew past its initial size");
            assertEquals(4_950, batch.column(2, ListVector.class).listEnd(99), "list children grew past the row count");
            Transposes.assertBatches(TYPE, types, batches, rows, b -> b, "growth");
        }
    }

    @Test
    void finishStartsANewBatchAndAnEmptyOneIsValid() {
        try (NativeAllocator allocator = Transposes.allocator("life"); BatchWriter writer = writer(allocator, 2)) {
            try (RecordBatch empty = writer.finish()) {
                assertEquals(BatchState.SEALED, empty.state());
                assertEquals(0, empty.rowCount());
                assertEquals(writer.schema(), empty.schema());
            }
            writer.write(GenericRowData.of(1L, null, null));
            assertEquals(1, writer.rowCount());
            assertFalse(writer.isFull());
            writer.write(GenericRowData.of(2L, null, null));
            assertTrue(writer.isFull());
            try (RecordBatch full = writer.finish()) {
                assertEquals(2, full.rowCount());
                assertEquals(0, writer.rowCount());
                assertFalse(writer.isFull());
            }
            writer.write(GenericRowData.of(3L, null, null));
            writer.discard();
            assertTrue(allocator.usage().isEmpty(), "a discarded batch is released");
            writer.write(GenericRowData.of(4L, null, null));
        }
        // close() released the partial batch; the allocator closed clean.
    }

    @Test
    void closedWritersRefuseWork() {
        try (NativeAllocator allocator = Transposes.allocator("closed")) {
            BatchWriter writer = writer(allocator, 2);
            writer.write(GenericRowData.of(1L, null, null));
            writer.close();
            writer.close();
            assertTrue(allocator.usage().isEmpty());
            assertThrows(IllegalStateException.class, () -> writer.write(GenericRowData.of(1L, null, null)));
            assertThrows(IllegalStateException.class, writer::finish);
        }
    }

    @Test
    void invalidBatchSizes() {
        try (NativeAllocator allocator = Transposes.allocator("sizes")) {
            assertThrows(IllegalArgumentException.class, () -> writer(allocator, 0));
        }
    }

    /** A lazy string is encoded without materializing the producer's object. */
    @Test
    void lazyStringsStayLazy() {
        StringData lazy = StringData.fromString("lazy \uD83D\uDE00");
        try (NativeAllocator allocator = Transposes.allocator("lazy"); BatchWriter writer = writer(allocator, 2)) {
            writer.write(GenericRowData.of(1L, lazy, null));
            assertNull(((BinaryStringData) lazy).getBinarySection(), "the producer's string was not materialized");
            try (RecordBatch batch = writer.finish()) {
                assertEquals("lazy \uD83D\uDE00", batch.column(1, VarBinaryVector.class).getUtf8(0));
            }
        }
    }

    /**
     * Readers with the same writer classes share one copy of the call sites (a hidden class), so a
     * reopened operator runs compiled code; another sequence of writer classes gets its own copy.
     */
    @Test
    void rowReadersShareCallSitesPerWriterSignature() {
        FieldCalls a = FieldCalls.forWriters(new ValueWriter[] {
                new PrimitiveWriters.Int64("a", true), new PrimitiveWriters.Int32("b", false)});
        FieldCalls again = FieldCalls.forWriters(new ValueWriter[] {
                new PrimitiveWriters.Int64("x", false), new PrimitiveWriters.Int32("y", true)});
        FieldCalls swapped = FieldCalls.forWriters(new ValueWriter[] {
                new PrimitiveWriters.Int32("b", false), new PrimitiveWriters.Int64("a", true)});
        assertTrue(a.getClass().isHidden());
        assertSame(a, again);
        assertNotSame(a.getClass(), swapped.getClass());
    }

    /** Past the unrolled call sites, fields go through a loop: values and failure paths alike. */
    @Test
    void rowsWiderThanTheUnrolledCallSites() {
        List<RowType.RowField> fields = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            fields.add(new RowType.RowField("c" + i, i % 2 == 0 ? new IntType() : new VarCharType(VarCharType.MAX_LENGTH)));
        }
        RowType wide = new RowType(fields);
        List<GenericRowData> rows = new ArrayList<>();
        for (int r = 0; r < 5; r++) {
            GenericRowData row = new GenericRowData(30);
            for (int i = 0; i < 30; i++) {
                row.setField(i, (i + r) % 7 == 0 ? null : i % 2 == 0 ? (Object) (i * r) : StringData.fromString("v" + i + r));
            }
            rows.add(row);
        }
        for (RowForms form : List.of(RowForms.GENERIC, RowForms.BINARY_HEAP)) {
            try (NativeAllocator allocator = Transposes.allocator("wide");
                 BatchWriter writer = new BatchWriter(wide, Transposes.allFields(wide), types, 4, true, allocator)) {
                List<RowData> inputs = new ArrayList<>();
                for (GenericRowData r : rows) {
                    inputs.add(form.convert(r, wide, new Random(1)));
                }
                Transposes.assertBatches(wide, types, Transposes.writeAll(writer, inputs), rows, b -> b, "wide " + form);
                Set<Integer> readable = new HashSet<>();
                for (int i = 0; i < 30; i++) {
                    readable.add(i);
                }
                readable.remove(27);
                TransposeException e = assertThrows(TransposeException.class,
                        () -> writer.write(new Tripwire(rows.get(0), Tripwire.Spec.of(readable))));
                assertEquals("c27", e.field());
            }
        }
    }

    /** A NULL nested row makes every selected sub-field NULL, past the unrolled call sites too. */
    @Test
    void aNullNestedRowWiderThanTheUnrolledCallSites() {
        List<RowType.RowField> inner = new ArrayList<>();
        List<RowType.RowField> flat = new ArrayList<>(List.of(new RowType.RowField("id", new IntType())));
        List<int[]> paths = new ArrayList<>(List.of(new int[] {0}));
        for (int i = 0; i < 30; i++) {
            LogicalType type = i % 2 == 0 ? new IntType(false) : new VarCharType(VarCharType.MAX_LENGTH);
            inner.add(new RowType.RowField("c" + i, type));
            flat.add(new RowType.RowField("r.c" + i, type.copy(true)));
            paths.add(new int[] {1, i});
        }
        RowType nested = new RowType(List.of(new RowType.RowField("id", new IntType()),
                new RowType.RowField("r", new RowType(inner))));
        List<GenericRowData> rows = new ArrayList<>();
        List<GenericRowData> expected = new ArrayList<>();
        for (int r = 0; r < 6; r++) {
            GenericRowData values = new GenericRowData(30);
            GenericRowData out = new GenericRowData(31);
            out.setField(0, r);
            for (int i = 0; i < 30; i++) {
                Object v = i % 2 == 0 ? (Object) (i * r) : (i + r) % 5 == 0 ? null : StringData.fromString("v" + i + r);
                values.setField(i, v);
                out.setField(i + 1, r % 2 == 0 ? null : v);
            }
            rows.add(GenericRowData.of(r, r % 2 == 0 ? null : values));
            expected.add(out);
        }
        for (RowForms form : List.of(RowForms.GENERIC, RowForms.BINARY_HEAP)) {
            try (NativeAllocator allocator = Transposes.allocator("nested nulls");
                 BatchWriter writer = new BatchWriter(nested, paths, types, 4, true, allocator)) {
                List<RowData> inputs = new ArrayList<>();
                for (GenericRowData r : rows) {
                    inputs.add(form.convert(r, nested, new Random(1)));
                }
                Transposes.assertBatches(new RowType(flat), types, Transposes.writeAll(writer, inputs), expected,
                        b -> b, "nested nulls " + form);
            }
        }
        List<RowType.RowField> strict = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            strict.add(new RowType.RowField("c" + i, new IntType(i != 27)));
        }
        RowType notNull = new RowType(List.of(new RowType.RowField("id", new IntType()),
                new RowType.RowField("r", new RowType(false, strict))));
        for (RowForms form : List.of(RowForms.GENERIC, RowForms.BINARY_HEAP)) {
            try (NativeAllocator allocator = Transposes.allocator("nested not null");
                 BatchWriter writer = new BatchWriter(notNull, paths, types, 4, true, allocator)) {
                RowData bad = form.convert(GenericRowData.of(1, null), notNull, new Random(1));
                TransposeException e = assertThrows(TransposeException.class, () -> writer.write(bad));
                assertEquals("r.c27", e.field(), form.toString());
            }
        }
    }
}
