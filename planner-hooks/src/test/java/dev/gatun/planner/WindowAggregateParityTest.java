package dev.gatun.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.rewrite.CalcDecision;
import dev.gatun.planner.testing.Queries;
import dev.gatun.planner.testing.SharedMiniCluster;
import dev.gatun.planner.testing.TestTables;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The native local window aggregate against stock Flink: two-phase window aggregation over TUMBLE,
 * HOP and CUMULATE window table functions on event time, each query's whole changelog stock vs Gatun
 * (the global window aggregate emits each window once, when the watermark passes it, so the changelog
 * is deterministic; with parallelism 1 the rows that are late, which the global phase drops, are the
 * same rows too). Windows on {@code TIMESTAMP_LTZ} run in UTC, Asia/Shanghai and America/Los_Angeles
 * (across the 2024 DST change). Each query also states its planning: a native local window aggregate,
 * or the reason it stays on Flink (in EXPLAIN too).
 */
@ExtendWith(LeakCheckExtension.class)
@ExtendWith(SharedMiniCluster.class)
class WindowAggregateParityTest {
    /**
     * A query in a session zone, and the reason its local window aggregate stays on Flink (null: it
     * runs natively); {@code run} false for a query whose result is not deterministic (checked as a
     * plan only).
     */
    record Query(String sql, String zone, String fallback, boolean mayBeEmpty, boolean run) {}

    private static final String[] ZONES = {"UTC", "Asia/Shanghai", "America/Los_Angeles"};

    private static final Map<String, String> SETTINGS = Map.of(
            "table.optimizer.agg-phase-strategy", "TWO_PHASE",
            "table.exec.mini-batch.enabled", "true",
            "table.exec.mini-batch.allow-latency", "1 h",
            "table.exec.mini-batch.size", "23");

    static final List<Query> QUERIES = queries();

    private static String tumble(String table, String time, String size) {
        return "TABLE(TUMBLE(TABLE " + table + ", DESCRIPTOR(" + time + "), INTERVAL " + size + "))";
    }

    private static String hop(String table, String time, String slide, String size) {
        return "TABLE(HOP(TABLE " + table + ", DESCRIPTOR(" + time + "), INTERVAL " + slide + ", INTERVAL " + size
                + "))";
    }

    private static String cumulate(String table, String time, String step, String size) {
        return "TABLE(CUMULATE(TABLE " + table + ", DESCRIPTOR(" + time + "), INTERVAL " + step + ", INTERVAL " + size
                + "))";
    }

    private static final String W = "window_start, window_end";

    private static List<Query> queries() {
        List<Query> q = new ArrayList<>();
        // tw: t with a rowtime; the rows of every 5th id (1960s) and of NULL ts (2000) are late
        String day = tumble("tw", "wts", "'1' DAY");
        q.add(n("SELECT " + W + ", COUNT(*) FROM " + day + " GROUP BY " + W));
        q.add(n("SELECT " + W + ", s, COUNT(*), COUNT(a), SUM(a), MIN(a), MAX(a), AVG(a) FROM " + day
                + " GROUP BY " + W + ", s"));
        q.add(n("SELECT " + W + ", MOD(id, 3), COUNT(b), SUM(b), MIN(b), MAX(b), AVG(b) FROM " + day
                + " GROUP BY " + W + ", MOD(id, 3)"));
        q.add(n("SELECT " + W + ", COUNT(d), SUM(d), MIN(d), MAX(d), AVG(d) FROM " + day + " GROUP BY " + W));
        q.add(n("SELECT " + W + ", a, COUNT(amount), SUM(amount), MIN(amount), MAX(amount), AVG(amount) FROM "
                + day + " GROUP BY " + W + ", a"));
        q.add(n("SELECT " + W + ", MOD(id, 2), MIN(s), MAX(s), MIN(ts), MAX(ts), MAX(wts) FROM " + day
                + " GROUP BY " + W + ", MOD(id, 2)"));
        q.add(n("SELECT " + W + ", s, d, COUNT(*) FROM " + tumble("tw", "wts", "'6' HOUR")
                + " GROUP BY " + W + ", s, d"));
        q.add(n("SELECT window_end, COUNT(*), SUM(b) FROM " + tumble("tw", "wts", "'90' MINUTE")
                + " GROUP BY " + W));
        q.add(n("SELECT " + W + ", MOD(id, 4), COUNT(*) FILTER (WHERE a > 0), SUM(b) FILTER (WHERE s LIKE '%a%'),"
                + " MAX(d) FILTER (WHERE a IS NULL), AVG(amount) FILTER (WHERE id > 100) FROM " + day
                + " GROUP BY " + W + ", MOD(id, 4)"));
        q.add(n("SELECT " + W + ", s, COUNT(*), MAX(a) FROM " + day + " WHERE a > 0 OR s IS NULL GROUP BY " + W
                + ", s"));
        q.add(n("SELECT " + W + ", UPPER(s), SUM(a * 2), COUNT(s || 'x') FROM " + day + " GROUP BY " + W
                + ", UPPER(s)"));
        q.add(empty("SELECT " + W + ", a, COUNT(*), SUM(b) FROM " + day + " WHERE id < 0 GROUP BY " + W + ", a"));
        q.add(empty("SELECT " + W + ", COUNT(*) FROM " + hop("tw", "wts", "'1' HOUR", "'3' HOUR")
                + " WHERE s = 'no such word' GROUP BY " + W));
        q.add(n("SELECT " + W + ", COUNT(*), SUM(a), MAX(s) FROM " + hop("tw", "wts", "'6' HOUR", "'1' DAY")
                + " GROUP BY " + W));
        q.add(n("SELECT " + W + ", MOD(id, 3), COUNT(b), AVG(d), MIN(amount) FROM "
                + hop("tw", "wts", "'5' MINUTE", "'2' HOUR") + " GROUP BY " + W + ", MOD(id, 3)"));
        q.add(n("SELECT " + W + ", COUNT(*), SUM(b), MIN(a) FROM " + cumulate("tw", "wts", "'4' HOUR", "'1' DAY")
                + " GROUP BY " + W));
        q.add(n("SELECT " + W + ", s, COUNT(*) FILTER (WHERE a < 0), MAX(d) FROM "
                + cumulate("tw", "wts", "'2' HOUR", "'12' HOUR") + " GROUP BY " + W + ", s"));
        q.add(n("SELECT " + W + ", MOD(id, 2), COUNT(*), AVG(a) FROM TABLE(TUMBLE(TABLE tw, DESCRIPTOR(wts),"
                + " INTERVAL '1' DAY, INTERVAL '5' HOUR)) GROUP BY " + W + ", MOD(id, 2)"));
        // tn: in order, from 1969 (negative epoch ms) into 1970
        q.add(n("SELECT " + W + ", COUNT(*), SUM(a), MIN(s) FROM " + tumble("tn", "wts", "'1' HOUR")
                + " GROUP BY " + W));
        q.add(n("SELECT " + W + ", MOD(id, 2), COUNT(*), MAX(b) FROM " + hop("tn", "wts", "'30' MINUTE", "'2' HOUR")
                + " GROUP BY " + W + ", MOD(id, 2)"));
        q.add(n("SELECT " + W + ", COUNT(*), AVG(d) FROM " + cumulate("tn", "wts", "'20' MINUTE", "'3' HOUR")
                + " GROUP BY " + W));
        q.add(n("SELECT " + W + ", COUNT(*) FROM TABLE(HOP(TABLE tn, DESCRIPTOR(wts), INTERVAL '1' HOUR,"
                + " INTERVAL '3' HOUR, INTERVAL '-17' MINUTE)) GROUP BY " + W));
        // tl: TIMESTAMP_LTZ rowtimes over the 2024-03-10 DST change in Los Angeles, some late
        for (String zone : ZONES) {
            q.add(nz(zone, "SELECT " + W + ", COUNT(*), SUM(a), MAX(s) FROM " + tumble("tl", "wl", "'1' DAY")
                    + " GROUP BY " + W));
            q.add(nz(zone, "SELECT " + W + ", MOD(id, 3), COUNT(*), MIN(b) FROM " + tumble("tl", "wl", "'1' HOUR")
                    + " GROUP BY " + W + ", MOD(id, 3)"));
            q.add(nz(zone, "SELECT " + W + ", COUNT(*), AVG(d) FROM " + hop("tl", "wl", "'3' HOUR", "'12' HOUR")
                    + " GROUP BY " + W));
            q.add(nz(zone, "SELECT " + W + ", s IS NULL, COUNT(*), MAX(wl), MIN(wl) FROM "
                    + cumulate("tl", "wl", "'2' HOUR", "'1' DAY") + " GROUP BY " + W + ", s IS NULL"));
            q.add(nz(zone, "SELECT " + W + ", COUNT(*) FILTER (WHERE a > 0), SUM(amount) FROM "
                    + tumble("tl", "wl", "'30' MINUTE") + " WHERE MOD(id, 4) <> 1 GROUP BY " + W));
        }
        // what stays on Flink, and why
        q.add(stock("DISTINCT aggregates are not admitted natively",
                "SELECT " + W + ", COUNT(DISTINCT a) FROM " + day + " GROUP BY " + W, true));
        q.add(stock("aggregate function LISTAGG",
                "SELECT " + W + ", MOD(id, 3), LISTAGG(s) FROM " + day + " GROUP BY " + W + ", MOD(id, 3)", true));
        q.add(stock("DISTINCT aggregates are not admitted natively",
                "SELECT " + W + ", s, COUNT(DISTINCT a), SUM(b) FROM " + hop("tw", "wts", "'6' HOUR", "'1' DAY")
                        + " GROUP BY " + W + ", s", true));
        return q;
    }

    private static Query n(String sql) {
        return new Query(sql, "UTC", null, false, true);
    }

    private static Query nz(String zone, String sql) {
        return new Query(sql, zone, null, false, true);
    }

    private static Query empty(String sql) {
        return new Query(sql, "UTC", null, true, true);
    }

    private static Query stock(String reason, String sql, boolean run) {
        return new Query(sql, "UTC", reason, false, run);
    }

    private static Queries q;
    /** Per zone and side, each query's changelog (or why its job failed). */
    private static Map<String, Map<String, Object>> stockRows;
    private static Map<String, Map<String, Object>> nativeRows;

    @BeforeAll
    static void tables() {
        q = new Queries();
        TestTables.createT(q, "t", 300);
        // a rowtime must not be NULL, and t.ts has NULLs
        q.sql("CREATE TEMPORARY TABLE tw (wts AS COALESCE(ts, TIMESTAMP '2000-01-01 00:00:00'),"
                + " WATERMARK FOR wts AS wts - INTERVAL '1' SECOND) LIKE t");
        q.sql("CREATE TEMPORARY TABLE tn (wts AS CAST(TIMESTAMPADD(MINUTE, CAST(id AS INT) * 7 - 1000,"
                + " TIMESTAMP '1970-01-01 00:00:00') AS TIMESTAMP(3)), WATERMARK FOR wts AS wts) LIKE t");
        // every 9th row two hours back, beyond the watermark's 30 minutes: late
        q.sql("CREATE TEMPORARY TABLE tl (wl AS TO_TIMESTAMP_LTZ(1710000000000 + id * 600000"
                + " - CASE WHEN MOD(id, 9) = 4 THEN 7200000 ELSE 0 END, 3),"
                + " WATERMARK FOR wl AS wl - INTERVAL '30' MINUTE) LIKE t");
        SETTINGS.forEach(q::set);
    }

    @AfterAll
    static void reset() {
        stockRows = null;
        nativeRows = null;
        q.set("table.local-time-zone", "default");
    }

    @Test
    void theSuiteHasAtLeast36WindowQueriesAndWithTheGroupQueries80() {
        assertTrue(QUERIES.size() >= 36, "only " + QUERIES.size());
        assertTrue(QUERIES.size() + AggregateParityTest.QUERY_COUNT >= 80,
                "only " + (QUERIES.size() + AggregateParityTest.QUERY_COUNT));
    }

    @TestFactory
    Stream<DynamicTest> nativeEqualsStock() {
        return QUERIES.stream().map(query -> DynamicTest.dynamicTest(
                "[" + query.zone() + "] " + query.sql(), () -> check(query)));
    }

    private static void check(Query query) throws Exception {
        q.set("table.local-time-zone", query.zone());
        List<CalcDecision> decisions = q.decisions(query.sql());
        List<CalcDecision> aggregates = decisions.stream()
                .filter(d -> d.calc().startsWith("LocalWindowAggregate")).toList();
        assertFalse(aggregates.isEmpty(), "no local window aggregate decided in " + query.sql() + ": " + decisions);
        String explained = q.explain(query.sql());
        if (query.fallback() == null) {
            for (CalcDecision d : aggregates) {
                assertTrue(d.isNative(), "expected a native local window aggregate, got " + d);
            }
            assertTrue(explained.contains(", window=") && explained.contains("native=["),
                    "EXPLAIN shows no native local window aggregate: " + explained);
        } else {
            assertTrue(aggregates.stream().anyMatch(d -> !d.isNative() && d.reason().contains(query.fallback())),
                    "expected the local window aggregate to stay stock with a reason containing '"
                            + query.fallback() + "', got " + aggregates);
        }
        for (CalcDecision d : decisions) {
            assertTrue(d.isNative() || explained.contains("stock (" + d.reason() + ")"), explained);
        }
        if (!query.run()) {
            return;
        }
        runAll();
        Object stock = stockRows.get(query.zone()).get(query.sql());
        Object gatun = nativeRows.get(query.zone()).get(query.sql());
        if (stock instanceof Throwable t) {
            fail("stock Flink failed on " + query.sql() + ": " + ExceptionUtils.stringifyException(t));
        }
        if (gatun instanceof Throwable t) {
            fail("Gatun failed on " + query.sql() + ": " + ExceptionUtils.stringifyException(t));
        }
        assertEquals(stock, gatun, "the changelog of " + query.sql());
        @SuppressWarnings("unchecked")
        List<String> rows = (List<String>) stock;
        assertTrue(rows.stream().allMatch(r -> r.startsWith("+I")), "a window aggregate only inserts: " + rows);
        assertEquals(query.mayBeEmpty(), rows.isEmpty(), "rows of " + query.sql() + ": " + rows);
    }

    /** Every query once per zone and side, as one job each; a failed job is rerun query by query. */
    private static void runAll() throws Exception {
        if (stockRows != null) {
            return;
        }
        Map<String, Map<String, Object>> stock = new HashMap<>();
        Map<String, Map<String, Object>> gatun = new HashMap<>();
        for (String zone : ZONES) {
            List<String> sqls = QUERIES.stream().filter(x -> x.run() && x.zone().equals(zone)).map(Query::sql)
                    .toList();
            q.set("table.local-time-zone", zone);
            stock.put(zone, runSide(sqls, false));
            gatun.put(zone, runSide(sqls, true));
        }
        stockRows = stock;
        nativeRows = gatun;
    }

    private static Map<String, Object> runSide(List<String> sqls, boolean nativeEnabled) {
        Map<String, Object> out = new LinkedHashMap<>();
        try {
            out.putAll(q.runAll(sqls, nativeEnabled, null));
        } catch (Exception groupFailure) {
            for (String sql : sqls) {
                try {
                    out.put(sql, q.runAll(List.of(sql), nativeEnabled, null).get(sql));
                } catch (Exception e) {
                    out.put(sql, e);
                }
            }
        }
        return out;
    }
}
