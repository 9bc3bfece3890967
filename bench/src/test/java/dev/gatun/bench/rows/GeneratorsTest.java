package dev.gatun.bench.rows;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class GeneratorsTest {
    static Iterable<RowShape> shapes() {
        return Shapes.all();
    }

    @ParameterizedTest
    @MethodSource("shapes")
    void sameSeedAndIndexGiveTheSameRowAnotherSeedAnotherRow(RowShape shape) {
        for (long i : new long[] {0, 1, 4095, 1_000_003}) {
            assertEquals(shape.row(42, i), shape.row(42, i), shape.name() + " row " + i);
            assertNotEquals(shape.row(42, i), shape.row(43, i), shape.name() + " row " + i);
        }
    }

    @ParameterizedTest
    @MethodSource("shapes")
    void rowsMatchTheirTypeAndSelectionIsValid(RowShape shape) {
        RowType type = shape.rowType();
        GenericRowData row = shape.row(7, 3);
        assertEquals(type.getFieldCount(), row.getArity());
        for (int i = 0; i < row.getArity(); i++) {
            Object value = row.getField(i);
            if (value == null) {
                continue;
            }
            Class<?> expected = switch (type.getTypeAt(i).getTypeRoot()) {
                case BIGINT -> Long.class;
                case INTEGER, DATE -> Integer.class;
                case SMALLINT -> Short.class;
                case TINYINT -> Byte.class;
                case DOUBLE -> Double.class;
                case FLOAT -> Float.class;
                case BOOLEAN -> Boolean.class;
                case VARCHAR -> StringData.class;
                case DECIMAL -> org.apache.flink.table.data.DecimalData.class;
                case TIMESTAMP_WITHOUT_TIME_ZONE -> org.apache.flink.table.data.TimestampData.class;
                default -> throw new AssertionError(type.getTypeAt(i));
            };
            assertTrue(expected.isInstance(value), shape.name() + "." + type.getFieldNames().get(i) + " is " + value.getClass());
        }
        int[] selected = shape.selected();
        assertTrue(selected.length > 0 && Arrays.stream(selected).allMatch(p -> p >= 0 && p < type.getFieldCount()));
    }

    @Test
    void bidHasNexmarkTypesAndStringSizes() {
        RowType type = Shapes.BID.rowType();
        assertEquals("[auction, bidder, price, channel, url, dateTime, extra]", type.getFieldNames().toString());
        assertEquals(LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE, type.getTypeAt(5).getTypeRoot());
        int minExtra = Integer.MAX_VALUE;
        int maxExtra = 0;
        for (long i = 0; i < 4096; i++) {
            GenericRowData row = Shapes.BID.row(42, i);
            assertBetween(5, 10, row.getString(3).toBytes().length, "channel");
            assertBetween(80, 100, row.getString(4).toBytes().length, "url");
            int extra = row.getString(6).toBytes().length;
            assertBetween(0, 200, extra, "extra");
            minExtra = Math.min(minExtra, extra);
            maxExtra = Math.max(maxExtra, extra);
            assertTrue(row.getLong(2) >= 100 && row.getLong(2) <= 10_000_000, "price");
        }
        assertTrue(minExtra < 20 && maxExtra > 180, "extra spans 0-200: " + minExtra + ".." + maxExtra);
    }

    @Test
    void stringHeavyRowsCarryThree200ByteStringsAndWideRowsRead3Of40() {
        GenericRowData row = Shapes.STRINGS.row(1, 2);
        for (int i = 1; i <= 3; i++) {
            assertEquals(200, row.getString(i).toBytes().length);
        }
        assertEquals(40, Shapes.WIDE40.rowType().getFieldCount());
        assertArrayEquals(new int[] {0, 19, 38}, Shapes.WIDE40.selected());
        assertEquals(20, Shapes.MIXED20.rowType().getFieldCount());
    }

    @Test
    void binaryBatchesHoldTheSameValuesAsGenericOnes() {
        RowBatch generic = RowBatch.of(Shapes.MIXED20, RowFormat.GENERIC, 64, 5);
        RowBatch binary = RowBatch.of(Shapes.MIXED20, RowFormat.BINARY, 64, 5);
        RowType type = Shapes.MIXED20.rowType();
        for (int r = 0; r < 64; r++) {
            assertTrue(binary.rows()[r] instanceof BinaryRowData);
            for (int f = 0; f < type.getFieldCount(); f++) {
                RowData.FieldGetter getter = RowData.createFieldGetter(type.getTypeAt(f), f);
                assertEquals(getter.getFieldOrNull(generic.rows()[r]), getter.getFieldOrNull(binary.rows()[r]),
                        "row " + r + " field " + f);
            }
        }
        assertEquals("bid/binary", RowBatch.of("bid/binary").spec());
        assertEquals(RowBatch.ROWS, RowBatch.of("bid/generic").rows().length);
    }

    @Test
    void streamAndPackedBatchesHoldTheSameRowsInOneBufferOrInConsecutiveArrays() {
        RowBatch binary = RowBatch.of(Shapes.MIXED20, RowFormat.BINARY, 64, 5);
        RowBatch stream = RowBatch.deserialized(Shapes.MIXED20, 64, 5);
        RowBatch packed = RowBatch.packed(Shapes.MIXED20, 64, 5);
        for (int r = 0; r < 64; r++) {
            assertEquals(binary.rows()[r], stream.rows()[r], "stream row " + r);
            assertEquals(binary.rows()[r], packed.rows()[r], "packed row " + r);
        }
        BinaryRowData first = (BinaryRowData) packed.rows()[0];
        BinaryRowData second = (BinaryRowData) packed.rows()[1];
        assertTrue(first.getSegments()[0] == second.getSegments()[0], "packed rows share one segment");
        assertEquals(first.getOffset() + first.getSizeInBytes() + 4, second.getOffset());
        assertEquals("bid/stream", RowBatch.of("bid/stream").spec());
        assertEquals("bid/packed", RowBatch.of("bid/packed").spec());
    }

    private static void assertBetween(int min, int max, int actual, String what) {
        assertTrue(actual >= min && actual <= max, what + " has " + actual + " bytes, expected " + min + ".." + max);
    }
}
