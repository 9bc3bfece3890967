package dev.gatun.planner.testing;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.TableDescriptor;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;

/**
 * {@code ty}: one column of every type Gatun maps (DESIGN.md §6), with NULLs, the boundaries of
 * each type and Unicode that case mapping, code point counting and UTF-16 get wrong when done
 * naively. Deterministic: row {@code i} depends only on {@code i}.
 */
public final class TypeTables {
    /** Column names and types (SQL DDL cannot declare INTERVAL columns, so the table is built with the Table API). */
    public static final String[][] COLUMNS = {
        {"id", "BIGINT NOT NULL"}, {"ti", "TINYINT"}, {"si", "SMALLINT"}, {"i", "INT"}, {"bi", "BIGINT"},
        {"bo", "BOOLEAN"}, {"f", "FLOAT"}, {"d", "DOUBLE"}, {"de", "DECIMAL(10, 2)"}, {"dbig", "DECIMAL(38, 10)"},
        {"ch", "CHAR(5)"}, {"vc", "VARCHAR(20)"}, {"s", "STRING"}, {"bin", "BINARY(4)"}, {"vb", "VARBINARY"},
        {"dt", "DATE"}, {"tm", "TIME(3)"}, {"ts", "TIMESTAMP(3)"}, {"ts6", "TIMESTAMP(6)"}, {"ts9", "TIMESTAMP(9)"},
        {"ltz", "TIMESTAMP_LTZ(3)"}, {"iym", "INTERVAL YEAR(2) TO MONTH"}, {"idt", "INTERVAL DAY(2) TO SECOND(3)"},
        {"arr", "ARRAY<INT>"}, {"m", "MAP<STRING, INT>"}, {"mk", "MAP<STRING NOT NULL, INT>"},
        {"ms", "MULTISET<STRING>"}, {"r", "ROW<x INT, y STRING, z ROW<w BIGINT, v STRING>>"},
        {"ra", "ARRAY<ROW<p INT, q STRING>>"}};

    /** Strings that break naive implementations: 4-byte UTF-8, final sigma, ß, dotted i, combining marks, NUL. */
    static final String[] STRINGS = {
        "hello", "", " padded  ", "ÄrgerÖl", "日本語テキスト", "emoji 😀 x", "ΟΔΟΣ σας", "straße", "İstanbul ı",
        "e\u0301clair", "nul\u0000byte", "a%b_c\\d", "MiXeD CaSe", "1234", "-17.5", "  42 ", "true", "x", " \tx\t "
    };

    private static final byte[][] BYTES = {{0, 1, 2, 3}, {-1, -128, 127, 0}, {65, 66, 67, 68}};

    private TypeTables() {}

    public static void create(Queries q, String name, int rows) {
        String with = TestRowsFactory.register(rows(rows));
        String id = with.substring(with.indexOf("'id' = '") + 8, with.lastIndexOf('\''));
        Schema.Builder schema = Schema.newBuilder();
        for (String[] column : COLUMNS) {
            schema.column(column[0], column[1]);
        }
        q.env().createTemporaryTable(name, TableDescriptor.forConnector("gatun-test-rows").option("id", id)
                .schema(schema.build()).build());
    }

    static List<RowData> rows(int n) {
        List<RowData> rows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            rows.add(row(i));
        }
        return rows;
    }

    private static RowData row(int i) {
        boolean nul = i % 7 == 3;
        int edge = i % 10;
        Byte ti = nul ? null : edge == 1 ? Byte.MIN_VALUE : edge == 2 ? Byte.MAX_VALUE : (byte) (i * 7 - 60);
        Short si = nul ? null : edge == 1 ? Short.MIN_VALUE : edge == 2 ? Short.MAX_VALUE : (short) (i * 311 - 9000);
        Integer in = nul ? null : edge == 1 ? Integer.MIN_VALUE : edge == 2 ? Integer.MAX_VALUE : edge == 4 ? 0 : i * 7919 - 200_000;
        Long bi = nul ? null : edge == 1 ? Long.MIN_VALUE : edge == 2 ? Long.MAX_VALUE : edge == 4 ? 0L : i * 1_000_000_007L - 30_000_000_000L;
        Boolean bo = nul ? null : i % 3 == 0;
        Float f = nul ? null : switch (edge) {
            case 1 -> Float.NaN;
            case 2 -> Float.POSITIVE_INFINITY;
            case 4 -> -0.0f;
            case 5 -> Float.MAX_VALUE;
            case 6 -> Float.MIN_VALUE;
            default -> i * 1.25f - 30f;
        };
        Double d = nul ? null : switch (edge) {
            case 1 -> Double.NaN;
            case 2 -> Double.NEGATIVE_INFINITY;
            case 4 -> -0.0;
            case 5 -> Double.MAX_VALUE;
            case 6 -> Double.MIN_VALUE;
            case 8 -> 0.1 + 0.2;
            default -> i * 0.37 - 11;
        };
        DecimalData dec = nul ? null : decimal(edge == 1 ? new BigDecimal("-99999999.99")
                : edge == 2 ? new BigDecimal("99999999.99") : BigDecimal.valueOf(i * 12345L - 300_000L, 2), 10, 2);
        DecimalData dbig = nul ? null : decimal(edge == 1 ? new BigDecimal("-9999999999999999999999999999.9999999999")
                : edge == 2 ? new BigDecimal("9999999999999999999999999999.9999999999")
                : new BigDecimal(BigDecimal.valueOf(i * 98765432101L - 7).toPlainString() + ".0000000123"), 38, 10);
        String str = i % 11 == 5 ? null : STRINGS[i % STRINGS.length];
        String ch = nul ? null : String.format("%-5s", str == null ? "c" + i : str).substring(0, 5);
        String vc = str == null ? null : str.length() > 20 ? str.substring(0, 20) : str;
        byte[] bin = nul ? null : BYTES[i % BYTES.length];
        byte[] vb = nul ? null : ("vb" + i).getBytes(StandardCharsets.UTF_8);
        LocalDate date = switch (edge) {
            case 1 -> LocalDate.of(1, 1, 1);
            case 2 -> LocalDate.of(9999, 12, 31);
            case 5 -> LocalDate.of(1969, 12, 31);
            case 6 -> LocalDate.of(2024, 2, 29);
            default -> LocalDate.of(1990, 1, 1).plusDays(i * 97L);
        };
        Integer dt = nul ? null : (int) date.toEpochDay();
        Integer tm = nul ? null : edge == 1 ? 0 : edge == 2 ? 86_399_999 : (int) ((i * 3_723_456L) % 86_400_000L);
        LocalDateTime ldt = switch (edge) {
            case 1 -> LocalDateTime.of(1, 1, 1, 0, 0);
            case 2 -> LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_000_000);
            case 5 -> LocalDateTime.of(1969, 12, 31, 23, 30, 15, 123_000_000);
            case 6 -> LocalDateTime.of(2024, 3, 10, 2, 30); // a US DST gap
            case 8 -> LocalDateTime.of(2024, 11, 3, 1, 30); // a US DST overlap
            default -> LocalDateTime.of(2020, 1, 1, 0, 0).plusSeconds(i * 987_654L).plusNanos(i * 1_000_000L);
        };
        TimestampData ts = nul ? null : TimestampData.fromLocalDateTime(ldt);
        TimestampData ts6 = nul ? null : TimestampData.fromLocalDateTime(ldt.plusNanos((i % 1000) * 1000L));
        TimestampData ts9 = nul || edge == 1 || edge == 2 ? null : TimestampData.fromLocalDateTime(ldt.plusNanos(i % 1000));
        TimestampData ltz = nul ? null : TimestampData.fromEpochMillis(ldt.toInstant(ZoneOffset.UTC).toEpochMilli());
        Integer iym = nul ? null : edge == 1 ? -1200 : i * 5 - 40;
        Long idt = nul ? null : edge == 1 ? -86_400_000L * 99 : i * 3_600_001L - 50_000_000L;
        GenericArrayData arr = nul ? null : new GenericArrayData(new Integer[] {i, null, -i, Integer.MAX_VALUE});
        GenericMapData m = nul ? null : new GenericMapData(Map.of(StringData.fromString("k" + i), i));
        GenericMapData mk = nul ? null : new GenericMapData(Map.of(StringData.fromString("key"), i * 2));
        GenericMapData ms = nul ? null : new GenericMapData(Map.of(StringData.fromString("e" + (i % 4)), 1 + i % 3));
        GenericRowData z = i % 6 == 0 ? null : GenericRowData.of((long) i * 3, str(i % 4 == 0 ? null : "v" + i));
        GenericRowData r = i % 5 == 0 ? null : GenericRowData.of(i % 4 == 1 ? null : i, str(STRINGS[i % 7]), z);
        GenericArrayData ra = nul ? null : new GenericArrayData(new Object[] {
            GenericRowData.of(i, str("q" + i)), null, GenericRowData.of(null, str(STRINGS[i % 5]))});
        return GenericRowData.of((long) i, ti, si, in, bi, bo, f, d, dec, dbig, str(ch), str(vc), str(str), bin, vb,
                dt, tm, ts, ts6, ts9, ltz, iym, idt, arr, m, mk, ms, r, ra);
    }

    private static DecimalData decimal(BigDecimal v, int p, int s) {
        return DecimalData.fromBigDecimal(v, p, s);
    }

    private static StringData str(String s) {
        return s == null ? null : StringData.fromString(s);
    }
}
