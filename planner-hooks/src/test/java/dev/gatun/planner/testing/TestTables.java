package dev.gatun.planner.testing;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.api.TableEnvironment;

/** Deterministic test tables with NULLs, edge values and a nested ROW. */
public final class TestTables {
    public static final String T_COLUMNS = "id BIGINT NOT NULL, a INT, b BIGINT, d DOUBLE, s STRING,"
            + " amount DECIMAL(10, 2), ts TIMESTAMP(3), r ROW<x INT, y STRING, z ROW<w BIGINT, v STRING>>";

    private static final String[] WORDS = {"apple", "Pear", "fig", "", "  kiwi ", "Ärger", "日本語", "a%b_c", "ZEBRA"};

    private TestTables() {}

    /** Creates temporary table {@code name} with {@link #T_COLUMNS} and {@code rows} rows. */
    public static void createT(Queries q, String name, int rows) {
        createT(q.env(), name, rows);
    }

    /** The same table in any table environment. */
    public static void createT(TableEnvironment env, String name, int rows) {
        env.executeSql("CREATE TEMPORARY TABLE " + name + " (" + T_COLUMNS + ") " + TestRowsFactory.register(tRows(rows)));
    }

    static List<RowData> tRows(int n) {
        List<RowData> rows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Integer a = i % 11 == 0 ? null : i % 13 == 0 ? Integer.MIN_VALUE : i % 17 == 0 ? Integer.MAX_VALUE : (i * 37) % 201 - 100;
            Long b = i % 7 == 0 ? null : (long) i * 1_000_003L - 50_000_000L;
            Double d = i % 9 == 0 ? null : i % 19 == 0 ? Double.NaN : i % 23 == 0 ? -0.0 : i * 0.37 - 20;
            String s = i % 10 == 0 ? null : WORDS[i % WORDS.length] + (i % 3 == 0 ? "" : Integer.toString(i));
            DecimalData dec = i % 8 == 0 ? null
                    : DecimalData.fromBigDecimal(BigDecimal.valueOf(i * 12345L - 900_000L, 2), 10, 2);
            TimestampData ts = i % 12 == 0 ? null
                    : TimestampData.fromEpochMillis(1_700_000_000_000L + i * 3_600_123L - (i % 5 == 0 ? 2_000_000_000_000L : 0));
            GenericRowData z = i % 6 == 0 ? null : GenericRowData.of((long) i * 3, str(i % 4 == 0 ? null : "v" + i));
            GenericRowData r = i % 5 == 0 ? null : GenericRowData.of(i % 4 == 1 ? null : i, str("y" + (i % 7)), z);
            rows.add(GenericRowData.of((long) i, a, b, d, str(s), dec, ts, r));
        }
        return rows;
    }

    private static StringData str(String s) {
        return s == null ? null : StringData.fromString(s);
    }
}
