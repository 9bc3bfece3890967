package dev.gatun.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.testing.Queries;
import dev.gatun.planner.testing.SharedMiniCluster;
import dev.gatun.planner.testing.TestRowsFactory;
import dev.gatun.planner.testing.TestTables;
import java.util.List;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Native Calc islands through Flink SQL: each query runs stock and native, results compared. */
@ExtendWith(LeakCheckExtension.class)
@ExtendWith(SharedMiniCluster.class)
class NativeCalcEndToEndTest {
    private static Queries q;

    @BeforeAll
    static void tables() {
        q = new Queries();
        TestTables.createT(q, "t", 600);
    }

    /** Runs {@code sql} stock and native, asserts equal changelogs, returns them. */
    private static List<String> sameAsStock(String sql) throws Exception {
        String plan = q.explain(sql);
        assertTrue(plan.contains("NativeCalc(") && plan.contains("native: "), plan);
        List<String> stock = q.run(sql, false);
        List<String> nativeRows = q.run(sql, true);
        assertEquals(stock, nativeRows, sql);
        return stock;
    }

    @Test
    void arithmeticAndAFilterRunNativelyWithStockResults() throws Exception {
        List<String> rows = sameAsStock(
                "SELECT id, a + 1, b * 2, b - a, d * 2.5, amount * 3, price FROM"
                        + " (SELECT *, b * 0.908 AS price FROM t) WHERE a > 0 AND id % 3 <> 1");
        assertFalse(rows.isEmpty());
    }

    @Test
    void aFilterThatDropsEveryRow() throws Exception {
        assertEquals(List.of(), sameAsStock("SELECT id, a FROM t WHERE b > 9000000000"));
    }

    @Test
    void countStarOverAFilterIsAZeroColumnProjection() throws Exception {
        List<String> rows = sameAsStock("SELECT COUNT(*) FROM t WHERE a > 10");
        assertFalse(rows.isEmpty());
    }

    @Test
    void nestedRowAccessReadsOnlyTheLeaves() throws Exception {
        String sql = "SELECT id, t.r.z.w + 1, UPPER(t.r.y) FROM t WHERE t.r.x > 3";
        String plan = q.explain(sql);
        assertTrue(plan.contains("reads=[id, r.x, r.y, r.z.w]"), plan);
        assertFalse(sameAsStock(sql).isEmpty());
    }

    @Test
    void aChangelogInputKeepsItsRowKinds() throws Exception {
        String sql = "SELECT k, c * 2, c + k FROM (SELECT MOD(id, 7) AS k, COUNT(*) AS c FROM t GROUP BY MOD(id, 7))"
                + " WHERE c > 1";
        String plan = q.explain(sql);
        assertTrue(plan.contains("rowKind"), plan);
        List<String> rows = sameAsStock(sql);
        assertTrue(rows.stream().anyMatch(r -> r.startsWith("-U")), rows.toString());
    }

    @Test
    void divisionByZeroFailsTheJobLikeStock() {
        String sql = "SELECT id, 10 / (a - a) FROM t WHERE a IS NOT NULL";
        assertTrue(q.explain(sql).contains("NativeCalc("));
        Exception stock = assertThrows(Exception.class, () -> q.run(sql, false));
        Exception nativeFailure = assertThrows(Exception.class, () -> q.run(sql, true));
        assertTrue(ExceptionUtils.findThrowableWithMessage(stock, "/ by zero").isPresent(),
                ExceptionUtils.stringifyException(stock));
        String message = ExceptionUtils.stringifyException(nativeFailure);
        assertTrue(message.contains("/ by zero") && message.contains("EXPR$1"), message);
    }

    /**
     * A NUL inside a value the native message quotes used to end the message (it crosses as a C
     * string): the native side writes it as U+2400, so the whole message arrives.
     */
    @Test
    void aNulInsideTheQuotedValueKeepsTheWholeMessage() {
        q.sql("CREATE TEMPORARY TABLE IF NOT EXISTS nul_text (id BIGINT NOT NULL, s STRING) "
                + TestRowsFactory.register(List.of(GenericRowData.of(1L, StringData.fromString("12\u0000tail")))));
        String sql = "SELECT id, CAST(s AS INT) FROM nul_text";
        assertTrue(q.explain(sql).contains("NativeCalc("));
        Exception stock = assertThrows(Exception.class, () -> q.run(sql, false));
        Exception nativeFailure = assertThrows(Exception.class, () -> q.run(sql, true));
        assertTrue(ExceptionUtils.stringifyException(stock).contains("12\u0000tail"),
                ExceptionUtils.stringifyException(stock));
        String message = ExceptionUtils.stringifyException(nativeFailure);
        assertTrue(message.contains("NumberFormatException") && message.contains("12\u2400tail")
                && message.contains("EXPR$1"), message);
    }

    /**
     * Bytes that are not UTF-8 (a {@code BinaryStringData.fromBytes} of raw input) pass through a
     * native Calc unchanged, as stock copies them; where a native expression reads such a column
     * as text, the task fails naming the column instead of computing on invalid text.
     */
    @Test
    void invalidUtf8IsCopiedThroughAndRefusedWhereReadAsText() throws Exception {
        byte[] invalid = {'n', (byte) 0xff, '3'};
        q.sql("CREATE TEMPORARY TABLE IF NOT EXISTS raw_text (id BIGINT NOT NULL, s STRING, r ROW<b STRING>) "
                + TestRowsFactory.register(List.of(
                        GenericRowData.of(1L, StringData.fromBytes(invalid), GenericRowData.of(StringData.fromBytes(invalid))),
                        GenericRowData.of(2L, StringData.fromString("ok"), GenericRowData.of(StringData.fromString("fine"))))));
        List<String> copied = sameAsStock("SELECT id * 2, s, r.b FROM raw_text WHERE id > 0");
        assertTrue(copied.stream().anyMatch(r -> r.contains("n\uFFFD3")), copied.toString());
        String sql = "SELECT id, UPPER(r.b) FROM raw_text";
        assertTrue(q.explain(sql).contains("NativeCalc("));
        Exception nativeFailure = assertThrows(Exception.class, () -> q.run(sql, true));
        String message = ExceptionUtils.stringifyException(nativeFailure);
        assertTrue(message.contains("invalid input column") && message.contains("UTF"), message);
    }
}
