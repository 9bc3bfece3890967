package dev.gatun.transpose.entry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.transpose.TransposeException;
import dev.gatun.transpose.testing.RandomValues;
import dev.gatun.transpose.testing.RowForms;
import dev.gatun.transpose.testing.Transposes;
import dev.gatun.transpose.testing.Tripwire;
import dev.gatun.transpose.types.TypeMapping;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A failure in the middle of a row reaches the caller naming the field, the batch's memory is
 * released (earlier rows of the batch too) and the writer carries on with a new batch.
 */
@ExtendWith(LeakCheckExtension.class)
class FailureTest {
    /** One field per writer class (the NULL type has its own tests: Flink's serializers reject it). */
    static final RowType EVERY_WRITER = (RowType) DataTypes.ROW(
            DataTypes.FIELD("bool", DataTypes.BOOLEAN()),
            DataTypes.FIELD("i8", DataTypes.TINYINT()),
            DataTypes.FIELD("i16", DataTypes.SMALLINT()),
            DataTypes.FIELD("i32", DataTypes.INT()),
            DataTypes.FIELD("i64", DataTypes.BIGINT()),
            DataTypes.FIELD("f32", DataTypes.FLOAT()),
            DataTypes.FIELD("f64", DataTypes.DOUBLE()),
            DataTypes.FIELD("dec", DataTypes.DECIMAL(10, 2)),
            DataTypes.FIELD("wide", DataTypes.DECIMAL(30, 5)),
            DataTypes.FIELD("str", DataTypes.STRING()),
            DataTypes.FIELD("bin", DataTypes.BYTES()),
            DataTypes.FIELD("ms", DataTypes.TIMESTAMP(3)),
            DataTypes.FIELD("us", DataTypes.TIMESTAMP(6)),
            DataTypes.FIELD("ns", DataTypes.TIMESTAMP_LTZ(9)),
            DataTypes.FIELD("arr", DataTypes.ARRAY(DataTypes.INT())),
            DataTypes.FIELD("map", DataTypes.MAP(DataTypes.STRING().notNull(), DataTypes.INT())),
            DataTypes.FIELD("entries", DataTypes.MAP(DataTypes.STRING(), DataTypes.INT())),
            DataTypes.FIELD("bag", DataTypes.MULTISET(DataTypes.STRING())),
            DataTypes.FIELD("row", DataTypes.ROW(DataTypes.FIELD("x", DataTypes.INT())))).getLogicalType();

    private final TypeMapping types = new TypeMapping(true);

    private static List<GenericRowData> rows(RowType type, int n, long seed) {
        RandomValues values = new RandomValues(new Random(seed), 20);
        List<GenericRowData> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            rows.add(values.row(type));
        }
        return rows;
    }

    @Test
    void aThrowingGetterInEachWriterNamesItsField() {
        List<GenericRowData> good = rows(EVERY_WRITER, 5, 1);
        Set<Integer> all = new HashSet<>();
        for (int i = 0; i < EVERY_WRITER.getFieldCount(); i++) {
            all.add(i);
        }
        try (NativeAllocator allocator = Transposes.allocator("getters");
             BatchWriter writer = new BatchWriter(EVERY_WRITER, Transposes.allFields(EVERY_WRITER), types, 16, true,
                     allocator)) {
            for (int k = 0; k < EVERY_WRITER.getFieldCount(); k++) {
                Set<Integer> readable = new HashSet<>(all);
                readable.remove(k);
                writer.write(good.get(0));
                writer.write(good.get(1));
                RowData bad = new Tripwire(good.get(2), Tripwire.Spec.of(readable));
                TransposeException e = assertThrows(TransposeException.class, () -> writer.write(bad));
                String name = EVERY_WRITER.getFieldNames().get(k);
                assertEquals(name, e.field());
                assertTrue(e.getMessage().contains("field " + name + ","), e.getMessage());
                assertInstanceOf(IllegalStateException.class, e.getCause());
                assertReleased(writer, allocator);
                assertWriterCarriesOn(writer, good, EVERY_WRITER);
            }
        }
    }

    @Test
    void aFailureDeepInsideNamesThePath() {
        RowType type = items(5);
        RowType wider = items(7); // the same binary layout: both compact, one unscaled long
        GenericRowData ok = GenericRowData.of(1, new GenericArrayData(new Object[] {GenericRowData.of(dec("1.50", 5))}));
        GenericRowData tooWide = GenericRowData.of(2, new GenericArrayData(new Object[] {
            GenericRowData.of(dec("1.00", 7)), GenericRowData.of(dec("12345.67", 7))}));
        for (RowForms form : List.of(RowForms.GENERIC, RowForms.BINARY_HEAP)) {
            try (NativeAllocator allocator = Transposes.allocator("deep");
                 BatchWriter writer = new BatchWriter(type, Transposes.allFields(type), types, 4, true, allocator)) {
                writer.write(form.convert(ok, type, new Random(1)));
                RowData bad = form.convert(tooWide, wider, new Random(1));
                TransposeException e = assertThrows(TransposeException.class, () -> writer.write(bad));
                assertEquals("items[1].d", e.field(), form.toString());
                assertTrue(e.getMessage().contains("12345.67"), e.getMessage());
                assertTrue(e.getMessage().contains("DECIMAL(5, 2)"), e.getMessage());
                assertReleased(writer, allocator);
                assertWriterCarriesOn(writer, List.of(ok, ok), type);
            }
        }
    }

    private static RowType items(int precision) {
        return (RowType) DataTypes.ROW(DataTypes.FIELD("id", DataTypes.INT()), DataTypes.FIELD("items",
                DataTypes.ARRAY(DataTypes.ROW(DataTypes.FIELD("d", DataTypes.DECIMAL(precision, 2)))))).getLogicalType();
    }

    private static DecimalData dec(String value, int precision) {
        return DecimalData.fromBigDecimal(new BigDecimal(value), precision, 2);
    }

    @ParameterizedTest
    @EnumSource(value = RowForms.class, names = {"GENERIC", "BINARY_HEAP", "BINARY_MULTI_SEGMENT"})
    void nanosecondTimestampsOutsideArrowsRangeNameTheValue(RowForms form) {
        RowType type = (RowType) DataTypes.ROW(DataTypes.FIELD("ts", DataTypes.TIMESTAMP(9))).getLogicalType();
        long maxMillis = Math.floorDiv(Long.MAX_VALUE, 1_000_000L);
        long minMillis = Math.floorDiv(Long.MIN_VALUE, 1_000_000L);
        List<TimestampData> outside = List.of(
                TimestampData.fromEpochMillis(maxMillis, 775_808), // one nanosecond past the end
                TimestampData.fromEpochMillis(minMillis, 224_191), // one before the start
                TimestampData.fromLocalDateTime(LocalDateTime.of(2300, 1, 1, 0, 0, 0, 123_456_789)),
                TimestampData.fromLocalDateTime(LocalDateTime.of(1500, 6, 30, 12, 0)),
                TimestampData.fromLocalDateTime(LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_999)));
        try (NativeAllocator allocator = Transposes.allocator("ns");
             BatchWriter writer = new BatchWriter(type, List.of(new int[] {0}), types, 4, true, allocator)) {
            for (TimestampData ts : outside) {
                RowData bad = form.convert(GenericRowData.of(ts), type, new Random(2));
                TransposeException e = assertThrows(TransposeException.class, () -> writer.write(bad));
                assertTrue(e.getMessage().contains(ts.toString()), e.getMessage());
                assertTrue(e.getMessage().contains("nanoseconds"), e.getMessage());
                assertEquals("ts", e.field());
                assertReleased(writer, allocator);
            }
            List<GenericRowData> ends = List.of(
                    GenericRowData.of(TimestampData.fromEpochMillis(maxMillis, 775_807)),
                    GenericRowData.of(TimestampData.fromEpochMillis(minMillis, 224_192)));
            assertWriterCarriesOn(writer, ends, type);
        }
    }

    @Test
    void nullInANotNullField() {
        RowType type = (RowType) DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT().notNull()),
                DataTypes.FIELD("m", DataTypes.MAP(DataTypes.STRING().notNull(), DataTypes.INT()))).getLogicalType();
        try (NativeAllocator allocator = Transposes.allocator("not null");
             BatchWriter writer = new BatchWriter(type, Transposes.allFields(type), types, 4, true, allocator)) {
            TransposeException e = assertThrows(TransposeException.class,
                    () -> writer.write(GenericRowData.of(null, null)));
            assertEquals("a", e.field());
            assertTrue(e.getMessage().contains("NULL in NOT NULL field a"), e.getMessage());
            HashMap<Object, Object> nullKey = new HashMap<>();
            nullKey.put(null, 1);
            TransposeException k = assertThrows(TransposeException.class,
                    () -> writer.write(GenericRowData.of(1, new GenericMapData(nullKey))));
            assertEquals("m.key[0]", k.field());
            assertReleased(writer, allocator);
        }
    }

    @Test
    void writingAFullBatchIsRefused() {
        RowType type = (RowType) DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT())).getLogicalType();
        try (NativeAllocator allocator = Transposes.allocator("full");
             BatchWriter writer = new BatchWriter(type, Transposes.allFields(type), types, 2, true, allocator)) {
            writer.write(GenericRowData.of(1));
            writer.write(GenericRowData.of(2));
            assertTrue(writer.isFull());
            assertThrows(IllegalStateException.class, () -> writer.write(GenericRowData.of(3)));
            assertEquals(2, writer.rowCount(), "the full batch is intact");
            writer.discard();
            assertReleased(writer, allocator);
            writer.close();
            assertThrows(IllegalStateException.class, () -> writer.write(GenericRowData.of(3)));
        }
    }

    static void assertReleased(BatchWriter writer, NativeAllocator allocator) {
        assertEquals(0, writer.rowCount());
        assertTrue(allocator.usage().isEmpty(), allocator.leakReport());
    }

    /** The writer starts a fresh batch and writes it correctly. */
    void assertWriterCarriesOn(BatchWriter writer, List<GenericRowData> rows, RowType type) {
        List<RecordBatch> batches = new ArrayList<>();
        for (GenericRowData r : rows) {
            writer.write(r);
        }
        batches.add(writer.finish());
        Transposes.assertBatches(type, types, batches, rows, b -> b, "after a failure");
    }
}
