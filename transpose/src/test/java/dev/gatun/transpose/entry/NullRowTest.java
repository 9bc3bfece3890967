package dev.gatun.transpose.entry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.transpose.TransposeException;
import dev.gatun.transpose.testing.Transposes;
import dev.gatun.transpose.types.TypeMapping;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Fields read under a NULL ROW: fixed-width and boolean columns start all NULL and the NULL row
 * leaves them unwritten, the others are marked NULL one by one; either way every column below a
 * NULL row reads NULL, in every batch, from getters and from binary rows alike.
 */
@ExtendWith(LeakCheckExtension.class)
class NullRowTest {
    /** k, p ROW(id BIGINT, at TIMESTAMP(3), name STRING, ok BOOLEAN, amount DECIMAL(10, 2), q ROW(n INT, s STRING)). */
    private static final RowType INPUT = (RowType) DataTypes.ROW(
            DataTypes.FIELD("k", DataTypes.INT()),
            DataTypes.FIELD("p", DataTypes.ROW(
                    DataTypes.FIELD("id", DataTypes.BIGINT()),
                    DataTypes.FIELD("at", DataTypes.TIMESTAMP(3)),
                    DataTypes.FIELD("name", DataTypes.STRING()),
                    DataTypes.FIELD("ok", DataTypes.BOOLEAN()),
                    DataTypes.FIELD("amount", DataTypes.DECIMAL(10, 2)),
                    DataTypes.FIELD("q", DataTypes.ROW(
                            DataTypes.FIELD("n", DataTypes.INT()),
                            DataTypes.FIELD("s", DataTypes.STRING())))))).getLogicalType();
    private static final List<int[]> PATHS = List.of(new int[] {0}, new int[] {1, 0}, new int[] {1, 1},
            new int[] {1, 2}, new int[] {1, 3}, new int[] {1, 4}, new int[] {1, 5, 0}, new int[] {1, 5, 1});
    private static final RowType OUTPUT = (RowType) DataTypes.ROW(
            DataTypes.FIELD("k", DataTypes.INT()),
            DataTypes.FIELD("p.id", DataTypes.BIGINT()),
            DataTypes.FIELD("p.at", DataTypes.TIMESTAMP(3)),
            DataTypes.FIELD("p.name", DataTypes.STRING()),
            DataTypes.FIELD("p.ok", DataTypes.BOOLEAN()),
            DataTypes.FIELD("p.amount", DataTypes.DECIMAL(10, 2)),
            DataTypes.FIELD("p.q.n", DataTypes.INT()),
            DataTypes.FIELD("p.q.s", DataTypes.STRING())).getLogicalType();

    private final TypeMapping types = TypeMapping.defaults();

    @Test
    void onlyFixedWidthNullableColumnsUnderARowStartAllNull() {
        ReadPlan plan = ReadPlan.of(INPUT, PATHS, types, new BytesWriters.Scratch());
        boolean[] expected = {false, true, true, false, true, true, true, false};
        for (int c = 0; c < expected.length; c++) {
            assertEquals(expected[c], plan.nullUntilWritten[c], "column " + plan.fields.get(c).name());
        }
    }

    @Test
    void everyColumnUnderANullRowReadsNull() {
        Random random = new Random(7);
        List<GenericRowData> inputs = new ArrayList<>();
        List<GenericRowData> expected = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            GenericRowData[] pair = randomRow(random, i);
            inputs.add(pair[0]);
            expected.add(pair[1]);
        }
        assertRoundTrip(inputs, expected);
        RowDataSerializer serializer = new RowDataSerializer(INPUT);
        assertRoundTrip(inputs.stream().map(r -> (RowData) serializer.toBinaryRow(r).copy()).toList(), expected);
    }

    @Test
    void aNullRowOverNotNullFieldsStillFails() {
        RowType strict = (RowType) DataTypes.ROW(DataTypes.FIELD("p", DataTypes.ROW(
                DataTypes.FIELD("id", DataTypes.BIGINT().notNull())).notNull())).getLogicalType();
        try (NativeAllocator allocator = Transposes.allocator("not null row");
             BatchWriter writer = new BatchWriter(strict, List.of(new int[] {0, 0}), types, 4, true, allocator)) {
            writer.write(GenericRowData.of(GenericRowData.of(1L)));
            TransposeException e = assertThrows(TransposeException.class,
                    () -> writer.write(GenericRowData.of((Object) null)));
            assertTrue(e.getMessage().contains("NULL in NOT NULL field id"), e.getMessage());
            assertEquals(0, writer.rowCount(), "the failed batch was released");
        }
    }

    private void assertRoundTrip(List<? extends RowData> inputs, List<GenericRowData> expected) {
        try (NativeAllocator allocator = Transposes.allocator("null rows");
             BatchWriter writer = new BatchWriter(INPUT, PATHS, types, 64, true, allocator)) {
            List<RecordBatch> batches = Transposes.writeAll(writer, inputs);
            long nulls = 0;
            for (RecordBatch b : batches) {
                nulls += b.column(1).nullCount();
            }
            long expectedNulls = expected.stream().filter(r -> r.isNullAt(1)).count();
            assertEquals(expectedNulls, nulls, "p.id NULL count");
            Transposes.assertBatches(OUTPUT, types, batches, expected, b -> b, "null rows");
        }
    }

    /** An input row and the row its columns read back as. */
    private static GenericRowData[] randomRow(Random random, int i) {
        boolean pNull = random.nextInt(3) == 0;
        boolean qNull = random.nextInt(3) == 0;
        Long id = random.nextInt(5) == 0 ? null : (long) i * 1_000_003;
        TimestampData at = random.nextInt(5) == 0 ? null : TimestampData.fromEpochMillis(1_700_000_000_000L + i);
        StringData name = random.nextInt(5) == 0 ? null : StringData.fromString("name " + i);
        Boolean ok = random.nextInt(5) == 0 ? null : random.nextBoolean();
        DecimalData amount = random.nextInt(5) == 0 ? null
                : DecimalData.fromBigDecimal(BigDecimal.valueOf(i * 7L, 2), 10, 2);
        Integer n = random.nextInt(5) == 0 ? null : -i;
        StringData s = random.nextInt(5) == 0 ? null : StringData.fromString("s" + i);
        GenericRowData q = qNull ? null : GenericRowData.of(n, s);
        GenericRowData p = pNull ? null : GenericRowData.of(id, at, name, ok, amount, q);
        GenericRowData input = GenericRowData.of(i, p);
        GenericRowData read = pNull
                ? GenericRowData.of(i, null, null, null, null, null, null, null)
                : GenericRowData.of(i, id, at, name, ok, amount, qNull ? null : n, qNull ? null : s);
        return new GenericRowData[] {input, read};
    }
}
