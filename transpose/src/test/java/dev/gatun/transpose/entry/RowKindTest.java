package dev.gatun.transpose.entry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.arrow.types.Schema;
import dev.gatun.arrow.vector.Int8Vector;
import dev.gatun.transpose.exit.ColumnarRowView;
import dev.gatun.transpose.testing.Transposes;
import dev.gatun.transpose.types.TypeMapping;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The row-kind sidecar: present for changelog inputs, absent for insert-only ones until a non-INSERT row. */
@ExtendWith(LeakCheckExtension.class)
class RowKindTest {
    private static final RowType TYPE = (RowType) DataTypes.ROW(DataTypes.FIELD("k", DataTypes.INT()),
            DataTypes.FIELD("s", DataTypes.STRING())).getLogicalType();
    private static final int BATCH_ROWS = 4;

    private final TypeMapping types = TypeMapping.defaults();

    private static List<GenericRowData> rows(RowKind... kinds) {
        List<GenericRowData> rows = new ArrayList<>();
        for (int i = 0; i < kinds.length; i++) {
            rows.add(GenericRowData.ofKind(kinds[i], i, StringData.fromString("row " + i)));
        }
        return rows;
    }

    private BatchWriter writer(NativeAllocator allocator, boolean insertOnly) {
        return new BatchWriter(TYPE, Transposes.allFields(TYPE), types, BATCH_ROWS, insertOnly, allocator);
    }

    @Test
    void aChangelogInputCarriesKindsFromTheFirstBatch() {
        List<GenericRowData> rows = rows(RowKind.INSERT, RowKind.INSERT, RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER,
                RowKind.DELETE, RowKind.INSERT);
        try (NativeAllocator allocator = Transposes.allocator("kinds"); BatchWriter writer = writer(allocator, false)) {
            assertTrue(writer.carriesRowKind());
            assertEquals(TypeMapping.ROW_KIND_COLUMN, writer.schema().field(2).name());
            List<RecordBatch> batches = Transposes.writeAll(writer, rows);
            for (RecordBatch b : batches) {
                assertEquals(3, b.columnCount());
                assertEquals(TypeMapping.rowKindField(), b.schema().field(2));
            }
            assertEquals(RowKind.UPDATE_AFTER.toByteValue(), batches.get(0).column(2, Int8Vector.class).getByte(3));
            Transposes.assertBatches(TYPE, types, batches, rows, b -> b, "changelog");
        }
    }

    @Test
    void anInsertOnlyInputCarriesNoKinds() {
        List<GenericRowData> rows = rows(RowKind.INSERT, RowKind.INSERT, RowKind.INSERT, RowKind.INSERT, RowKind.INSERT);
        try (NativeAllocator allocator = Transposes.allocator("kinds"); BatchWriter writer = writer(allocator, true)) {
            List<RecordBatch> batches = Transposes.writeAll(writer, rows);
            assertFalse(writer.carriesRowKind());
            assertEquals(2, writer.schema().size());
            batches.forEach(b -> assertEquals(2, b.columnCount()));
            Transposes.assertBatches(TYPE, types, batches, rows, b -> b, "insert-only");
        }
    }

    @Test
    void theFirstNonInsertRowAddsTheColumnMidBatch() {
        List<GenericRowData> rows = rows(RowKind.INSERT, RowKind.INSERT, RowKind.DELETE, RowKind.INSERT,
                RowKind.INSERT, RowKind.INSERT);
        try (NativeAllocator allocator = Transposes.allocator("kinds"); BatchWriter writer = writer(allocator, true)) {
            Schema before = writer.schema();
            writer.write(rows.get(0));
            writer.write(rows.get(1));
            assertFalse(writer.carriesRowKind());
            writer.write(rows.get(2));
            assertTrue(writer.carriesRowKind(), "flips so the operator can compile a second handle");
            assertEquals(before.size() + 1, writer.schema().size());
            List<RecordBatch> batches = new ArrayList<>();
            writer.write(rows.get(3));
            batches.add(writer.finish());
            writer.write(rows.get(4));
            writer.write(rows.get(5));
            batches.add(writer.finish());
            Int8Vector first = batches.get(0).column(2, Int8Vector.class);
            assertEquals(0, first.getByte(0), "rows before it are INSERT");
            assertEquals(0, first.getByte(1));
            assertEquals(RowKind.DELETE.toByteValue(), first.getByte(2));
            assertEquals(3, batches.get(1).columnCount(), "later batches keep the column");
            assertEquals(writer.schema(), batches.get(1).schema());
            Transposes.assertBatches(TYPE, types, batches, rows, b -> b, "safety net");
        }
    }

    @Test
    void theSafetyNetOnTheFirstRowOfABatch() {
        List<GenericRowData> rows = rows(RowKind.INSERT, RowKind.INSERT, RowKind.INSERT, RowKind.INSERT,
                RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER);
        try (NativeAllocator allocator = Transposes.allocator("kinds"); BatchWriter writer = writer(allocator, true)) {
            List<RecordBatch> batches = Transposes.writeAll(writer, rows);
            assertEquals(2, batches.get(0).columnCount());
            assertEquals(3, batches.get(1).columnCount());
            Transposes.assertBatches(TYPE, types, batches, rows, b -> b, "second batch");
        }
    }

    @Test
    void theViewRestoresEveryKind() {
        List<GenericRowData> rows = rows(RowKind.values());
        try (NativeAllocator allocator = Transposes.allocator("kinds"); BatchWriter writer = writer(allocator, false)) {
            for (GenericRowData r : rows) {
                writer.write(r);
            }
            try (RecordBatch batch = writer.finish()) {
                ColumnarRowView view = ColumnarRowView.over(batch, TYPE, types);
                for (int i = 0; i < rows.size(); i++) {
                    view.setRow(i);
                    assertEquals(rows.get(i).getRowKind(), view.getRowKind());
                    view.setRowKind(RowKind.DELETE);
                    assertEquals(RowKind.DELETE, view.getRowKind(), "a consumer may set the kind");
                }
                view.setRow(0);
                assertEquals(RowKind.INSERT, view.getRowKind(), "until the next row");
            }
        }
    }
}
