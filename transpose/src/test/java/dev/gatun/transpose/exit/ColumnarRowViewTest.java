package dev.gatun.transpose.exit;

import static dev.gatun.transpose.testing.RowAssertions.assertRowEquals;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.cdata.CDataExporter;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.operator.NativeOperator;
import dev.gatun.arrow.operator.OutputFormat;
import dev.gatun.arrow.operator.TestPlans;
import dev.gatun.arrow.operator.WatermarkProgress;
import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.arrow.testing.RustRoundTrip;
import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Field;
import dev.gatun.arrow.types.Schema;
import dev.gatun.ffm.ReleaseUpcall;
import dev.gatun.ffm.internal.ArrowArray;
import dev.gatun.transpose.entry.BatchWriter;
import dev.gatun.transpose.testing.Transposes;
import dev.gatun.transpose.types.TypeMapping;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The exit view: reads in place, copies out, and refuses every read once its batch is gone. */
@ExtendWith(LeakCheckExtension.class)
class ColumnarRowViewTest {
    private static final RowType TYPE = (RowType) DataTypes.ROW(
            DataTypes.FIELD("i", DataTypes.INT()),
            DataTypes.FIELD("s", DataTypes.STRING()),
            DataTypes.FIELD("a", DataTypes.ARRAY(DataTypes.BIGINT().notNull())),
            DataTypes.FIELD("m", DataTypes.MAP(DataTypes.STRING(), DataTypes.DOUBLE())),
            DataTypes.FIELD("r", DataTypes.ROW(DataTypes.FIELD("x", DataTypes.BOOLEAN()))),
            DataTypes.FIELD("b", DataTypes.BOOLEAN().notNull())).getLogicalType();

    private final TypeMapping types = TypeMapping.defaults();

    private static GenericRowData row(int i) {
        Map<Object, Object> map = new HashMap<>();
        map.put(null, 0.5);
        map.put(StringData.fromString("k" + i), null);
        return GenericRowData.ofKind(i % 2 == 0 ? RowKind.INSERT : RowKind.UPDATE_AFTER, i,
                StringData.fromString("s\u0000" + i), new GenericArrayData(new long[] {i, -i, Long.MIN_VALUE}),
                new GenericMapData(map), GenericRowData.of(i % 2 == 0), i % 3 == 0);
    }

    private RecordBatch batch(NativeAllocator allocator, boolean changelog, int rows) {
        try (BatchWriter writer = new BatchWriter(TYPE, Transposes.allFields(TYPE), types, 16, !changelog, allocator)) {
            for (int i = 0; i < rows; i++) {
                writer.write(row(i));
            }
            return writer.finish();
        }
    }

    @Test
    void gettersReadTheBatch() {
        try (NativeAllocator allocator = Transposes.allocator("view"); RecordBatch batch = batch(allocator, true, 3)) {
            ColumnarRowView view = ColumnarRowView.over(batch, TYPE, types);
            assertEquals(3, view.rowCount());
            assertEquals(6, view.getArity());
            view.setRow(1);
            assertEquals(1, view.row());
            assertEquals(RowKind.UPDATE_AFTER, view.getRowKind());
            assertEquals(1, view.getInt(0));
            assertEquals("s\u00001", view.getString(1).toString());
            ArrayData a = view.getArray(2);
            assertArrayEquals(new long[] {1, -1, Long.MIN_VALUE}, a.toLongArray());
            assertEquals(-1, a.getLong(1));
            assertThrows(IndexOutOfBoundsException.class, () -> a.getLong(3));
            MapData m = view.getMap(3);
            assertEquals(2, m.size());
            RowData r = view.getRow(4, 1);
            assertEquals(false, r.getBoolean(0));
            assertEquals(RowKind.INSERT, r.getRowKind());
            assertThrows(UnsupportedOperationException.class, () -> view.getLong(0), "an INT is not a BIGINT");
            assertThrows(IndexOutOfBoundsException.class, () -> view.setRow(3));
            for (int i = 0; i < 3; i++) {
                view.setRow(i);
                assertRowEquals(TYPE, row(i), view, "row " + i);
            }
        }
    }

    @Test
    void copiesOutliveTheBatch() {
        BinaryRowData copy;
        RowCopier copier = new RowCopier(TYPE);
        BinaryRowData second;
        try (NativeAllocator allocator = Transposes.allocator("view"); RecordBatch batch = batch(allocator, true, 2)) {
            ColumnarRowView view = ColumnarRowView.over(batch, TYPE, types);
            copy = view.copy();
            view.setRow(1);
            second = copier.copy(view);
        }
        assertRowEquals(TYPE, row(0), copy, "copy of row 0");
        assertRowEquals(TYPE, row(1), second, "copy of row 1");
        assertEquals(RowKind.UPDATE_AFTER, second.getRowKind());
    }

    /** After close, every access fails; nested views taken before fail too; nothing reads freed memory. */
    @Test
    void everyReadAfterReleaseThrows() {
        for (boolean changelog : new boolean[] {true, false}) {
            ColumnarRowView view;
            ArrayData array;
            MapData map;
            RowData nested;
            try (NativeAllocator allocator = Transposes.allocator("view");
                 RecordBatch batch = batch(allocator, changelog, 2)) {
                view = ColumnarRowView.over(batch, TYPE, types);
                view.setRow(1);
                array = view.getArray(2);
                map = view.getMap(3);
                nested = view.getRow(4, 1);
            }
            assertAllReadsFail(view, array, map, nested);
        }
    }

    @Test
    void anImportedBatchReleasedOrAViewOfAnExportedOne() {
        try (NativeAllocator allocator = Transposes.allocator("view")) {
            RecordBatch imported = RustRoundTrip.roundTrip(batch(allocator, true, 2));
            ColumnarRowView view = ColumnarRowView.over(imported, TYPE, types);
            view.setRow(1);
            assertRowEquals(TYPE, row(1), view, "imported");
            ArrayData array = view.getArray(2);
            MapData map = view.getMap(3);
            RowData nested = view.getRow(4, 1);
            imported.close();
            assertAllReadsFail(view, array, map, nested);

            RecordBatch sealed = batch(allocator, false, 2);
            ColumnarRowView exportedView = ColumnarRowView.over(sealed, TYPE, types);
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment struct = ArrowArray.allocate(arena);
                CDataExporter.exportBatch(sealed, struct);
                assertAllReadsFail(exportedView, null, null, null);
                ReleaseUpcall.releaseArray(struct);
            }
        }
    }

    private static void assertAllReadsFail(ColumnarRowView view, ArrayData array, MapData map, RowData nested) {
        List<Consumer<ColumnarRowView>> reads = List.of(v -> v.isNullAt(0), v -> v.getInt(0), v -> v.getString(1),
                v -> v.getArray(2), v -> v.getMap(3), v -> v.getRow(4, 1).isNullAt(0), v -> v.getBoolean(5),
                RowData::getRowKind, ColumnarRowView::copy);
        for (Consumer<ColumnarRowView> read : reads) {
            assertThrows(IllegalStateException.class, () -> read.accept(view));
        }
        if (array != null) {
            assertThrows(IllegalStateException.class, () -> array.getLong(0));
            assertThrows(IllegalStateException.class, array::toLongArray);
            assertThrows(IllegalStateException.class, () -> map.keyArray().isNullAt(0));
            assertThrows(IllegalStateException.class, () -> map.valueArray().getDouble(0));
            assertThrows(IllegalStateException.class, () -> nested.getBoolean(0));
        }
    }

    @Test
    void bindChecksTheBatchAgainstTheRowType() {
        RowType other = (RowType) DataTypes.ROW(DataTypes.FIELD("i", DataTypes.BIGINT()),
                DataTypes.FIELD("s", DataTypes.STRING())).getLogicalType();
        try (NativeAllocator allocator = Transposes.allocator("view");
             RecordBatch wrongType = RecordBatch.allocate(allocator, Schema.of(Field.nullable("i", ArrowType.INT32),
                     Field.nullable("s", ArrowType.UTF8)), 1);
             RecordBatch wrongExtra = RecordBatch.allocate(allocator, Schema.of(Field.nullable("i", ArrowType.INT64),
                     Field.nullable("s", ArrowType.UTF8), Field.nullable("kinds", ArrowType.INT8)), 1);
             RecordBatch tooMany = RecordBatch.allocate(allocator, Schema.of(Field.nullable("i", ArrowType.INT64),
                     Field.nullable("s", ArrowType.UTF8), Field.nullable("x", ArrowType.INT8),
                     Field.nullable("y", ArrowType.INT8)), 1)) {
            for (RecordBatch b : List.of(wrongType, wrongExtra, tooMany)) {
                b.seal(0);
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> ColumnarRowView.over(b, other, types));
                assertTrue(e.getMessage().contains("column") || e.getMessage().contains("columns"), e.getMessage());
            }
        }
    }

    @Test
    void aTrailingWatermarkColumnIsExposedNotRead() {
        RowType type = (RowType) DataTypes.ROW(DataTypes.FIELD("i", DataTypes.INT()),
                DataTypes.FIELD("t", DataTypes.TIMESTAMP(3).notNull())).getLogicalType();
        for (boolean changelog : new boolean[] {false, true}) {
            try (NativeAllocator allocator = Transposes.allocator("view");
                 BatchWriter writer = new BatchWriter(type, Transposes.allFields(type), types, 4, !changelog,
                         allocator)) {
                for (long t : new long[] {5, 3, 9}) {
                    writer.write(GenericRowData.ofKind(t == 3 && changelog ? RowKind.DELETE : RowKind.INSERT, (int) t,
                            TimestampData.fromEpochMillis(t)));
                }
                RecordBatch input = writer.finish();
                try (NativeOperator calc = NativeOperator.create(NativeOperator.Kind.CALC,
                        TestPlans.identityWithWatermarks(input.schema(), 1, 1), input.schema(),
                        new Schema(types.fields(type), Map.of()), OutputFormat.ARROW, allocator);
                     RecordBatch out = calc.process(input, new WatermarkProgress(0))) {
                    assertEquals(NativeOperator.WATERMARK_COLUMN, out.schema().field(out.columnCount() - 1).name());
                    ColumnarRowView view = ColumnarRowView.over(out, type, types);
                    assertTrue(view.hasWatermarks());
                    assertEquals(List.of(WatermarkProgress.NONE, 5L, WatermarkProgress.NONE),
                            List.of(view.watermarkBefore(0), view.watermarkBefore(1), view.watermarkBefore(2)));
                    view.setRow(1);
                    assertEquals(3, view.getInt(0));
                    assertEquals(changelog ? RowKind.DELETE : RowKind.INSERT, view.getRowKind());
                    assertThrows(IndexOutOfBoundsException.class, () -> view.watermarkBefore(3));
                }
            }
        }
        try (NativeAllocator allocator = Transposes.allocator("view");
             RecordBatch plain = batch(allocator, false, 2)) {
            ColumnarRowView view = ColumnarRowView.over(plain, TYPE, types);
            assertTrue(!view.hasWatermarks());
            assertEquals(WatermarkProgress.NONE, view.watermarkBefore(1));
        }
    }

    @Test
    void theNullTypeReadsAsNull() {
        RowType withNull = (RowType) DataTypes.ROW(DataTypes.FIELD("n", DataTypes.NULL()),
                DataTypes.FIELD("r", DataTypes.ROW(DataTypes.FIELD("n", DataTypes.NULL()),
                        DataTypes.FIELD("i", DataTypes.INT())))).getLogicalType();
        try (NativeAllocator allocator = Transposes.allocator("null type");
             BatchWriter writer = new BatchWriter(withNull, Transposes.allFields(withNull), types, 4, true, allocator)) {
            writer.write(GenericRowData.of(null, GenericRowData.of(null, 7)));
            writer.write(GenericRowData.of(null, null));
            try (RecordBatch batch = writer.finish()) {
                ColumnarRowView view = ColumnarRowView.over(batch, withNull, types);
                assertTrue(view.isNullAt(0));
                assertTrue(view.getRow(1, 2).isNullAt(0));
                assertEquals(7, view.getRow(1, 2).getInt(1));
                view.setRow(1);
                assertTrue(view.isNullAt(0));
                assertTrue(view.isNullAt(1));
            }
        }
    }
}
