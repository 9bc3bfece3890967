package dev.gatun.planner.golden;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;

/** The golden input table: one column per type of docs/native.md's table, NULLs and boundaries. */
final class GoldenTable {
    static final String COLUMNS = "id BIGINT NOT NULL, tiny TINYINT, small SMALLINT, i INT, big BIGINT,"
            + " flag BOOLEAN, f FLOAT, d DOUBLE, amt DECIMAL(10, 2), ch CHAR(3), s STRING, bin BINARY(3),"
            + " vb BYTES, dy DATE, tm TIME(3), ts3 TIMESTAMP(3), ts6 TIMESTAMP(6), ts9 TIMESTAMP(9),"
            + " ltz TIMESTAMP_LTZ(3), arr ARRAY<INT>,"
            + " m MAP<STRING NOT NULL, INT>, mn MAP<STRING, INT>, ms MULTISET<STRING>, r ROW<x INT, y STRING>";

    private GoldenTable() {}

    static List<RowData> rows() {
        return List.of(
                row(0, new Object[23]),
                row(1, (byte) 1, (short) 2, 3, 4L, true, 1.5f, 1.5, dec("12.34"), str("abc"), str("apple"),
                        new byte[] {1, 2, 3}, new byte[0], 0, 0, ts(1_700_000_000_123L, 0),
                        ts(1_700_000_000_123L, 456_000), ts(1_700_000_000_123L, 456_789), ts(1_700_000_000_123L, 0),
                        array(1, null, 3), map("a", 1, "b", null), map(null, 1, "k", 2),
                        map("x", 2), GenericRowData.of(5, str("y"))),
                row(2, Byte.MIN_VALUE, Short.MIN_VALUE, Integer.MIN_VALUE, Long.MIN_VALUE, false, -0.0f, Double.NaN,
                        dec("-99999999.99"), str("ÄÖ "), str("Ärger 日本語 😀 \u0000"), new byte[3], new byte[] {-1},
                        -719_162, 86_399_999, ts(-62_135_596_800_000L, 0), ts(-62_135_596_800_000L, 1_000),
                        ts(-1_000L, 1), ts(-1L, 0), array(), map(), map(), map(),
                        GenericRowData.of(null, null)),
                row(3, Byte.MAX_VALUE, Short.MAX_VALUE, Integer.MAX_VALUE, Long.MAX_VALUE, null,
                        Float.POSITIVE_INFINITY, Double.MAX_VALUE, dec("99999999.99"), str("   "), str(""),
                        new byte[] {127, -128, 0}, new byte[] {0, 0}, 2_932_896, 43_200_000,
                        ts(253_402_300_799_999L, 0), ts(253_402_300_799_999L, 999_000), ts(9_000_000_000_000L, 999_999),
                        ts(253_402_300_799_999L, 0), array((Integer) null), map("z", -1),
                        map("n", null), map("y", 1, "z", 3), null),
                row(4, (byte) 0, (short) -7, 0, -9L, true, 3.25f, -2.5, dec("0.01"), str("a%_"), str("a_b%c"),
                        new byte[] {9, 9, 9}, new byte[] {1, 2, 3, 4}, 18_000, 3_723_004, ts(946_684_799_999L, 0),
                        ts(946_684_800_000L, 1_000), ts(946_684_800_000L, 1), ts(946_684_800_000L, 0),
                        array(7, 8), map("a", 0), map("a", 0), map("a", 1), GenericRowData.of(-1, str("Z"))),
                row(5, (byte) -3, (short) 300, -17, 1_000_000_007L, false, -1.0e-7f, 1.0e300, dec("-0.50"),
                        str("xx "), str("  kiwi xx"), new byte[] {1, 1, 1}, null, -1, 1, ts(-1L, 0), ts(-1L, 999_000),
                        ts(0L, 0), ts(86_400_000L, 0), array(-2, 2), map("b", 2, "a", 1),
                        map("b", null, null, null), map("q", 1), GenericRowData.of(2, str("日本"))));
    }

    private static GenericRowData row(long id, Object... values) {
        Object[] all = new Object[values.length + 1];
        all[0] = id;
        System.arraycopy(values, 0, all, 1, values.length);
        return GenericRowData.of(all);
    }

    private static DecimalData dec(String s) {
        return DecimalData.fromBigDecimal(new BigDecimal(s), 10, 2);
    }

    private static StringData str(String s) {
        return StringData.fromBytes(s.getBytes(StandardCharsets.UTF_8));
    }

    private static TimestampData ts(long millis, int nanoOfMilli) {
        return TimestampData.fromEpochMillis(millis, nanoOfMilli);
    }

    private static GenericArrayData array(Integer... values) {
        return new GenericArrayData(Arrays.copyOf(values, values.length, Object[].class));
    }

    /** key, value, key, value ... (keys and values as Java strings and integers; NULLs allowed). */
    private static GenericMapData map(Object... pairs) {
        Map<Object, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put(pairs[i] == null ? null : str((String) pairs[i]), pairs[i + 1]);
        }
        return new GenericMapData(m);
    }
}
