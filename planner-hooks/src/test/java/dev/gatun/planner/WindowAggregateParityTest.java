package dev.gatun.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.rewrite.CalcDecision;
import dev.gatun.planner.testing.Queries;
import dev.gatun.planner.testing.SharedMiniCluster;
import dev.gatun.planner.testing.ZoneRuns;
import dev.gatun.planner.testing.TestTables;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.table.functions.ScalarFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The native local and global window aggregates against stock Flink: two-phase window aggregation over
 * TUMBLE, HOP and CUMULATE window table functions on event time, each query's whole changelog stock vs Gatun
 * (the global window aggregate emits each window once, when the watermark passes it, so the changelog
 * is deterministic; with parallelism 1 the rows that are late, which the global phase drops, are the
 * same rows too). Windows on {@code TIMESTAMP_LTZ} run in UTC, Asia/Shanghai and America/Los_Angeles
 * (across the 2024 DST change); {@code tj} arrives out of order (within and beyond its watermark's
 * delay). Each query also states its planning: a native local and global window aggregate, or the
 * reason each stays on Flink (in EXPLAIN too); the global phase goes native also where its local phase
 * stays on Flink, and every native global window aggregate of a job ran.
 */
@ExtendWith(LeakCheckExtension.class)
@ExtendWith(SharedMiniCluster.class)
class WindowAggregateParityTest {
    /**
     * A query in a session zone, and the reason its local window aggregate stays on Flink (null: it
     * runs natively); {@code run} false for a query whose result is not deterministic (checked as a
     * plan only).
     */
    record Query(String sql, String zone, String fallback, String globalFallback, boolean mayBeEmpty, boolean run) {}

    static final String[] ZONES = {"UTC", "Asia/Shanghai", "America/Los_Angeles"};

    /** Two phases, mini-batch on (also used by {@link WindowExitFusionTest}). */
    static final Map<String, String> SETTINGS = Map.of(
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
        q.add(global(MISALIGNED, "UTC", "SELECT " + W + ", MOD(id, 2), COUNT(*), AVG(a) FROM TABLE(TUMBLE(TABLE tw,"
                + " DESCRIPTOR(wts), INTERVAL '1' DAY, INTERVAL '5' HOUR)) GROUP BY " + W + ", MOD(id, 2)"));
        // tn: in order, from 1969 (negative epoch ms) into 1970
        q.add(n("SELECT " + W + ", COUNT(*), SUM(a), MIN(s) FROM " + tumble("tn", "wts", "'1' HOUR")
                + " GROUP BY " + W));
        q.add(n("SELECT " + W + ", MOD(id, 2), COUNT(*), MAX(b) FROM " + hop("tn", "wts", "'30' MINUTE", "'2' HOUR")
                + " GROUP BY " + W + ", MOD(id, 2)"));
        q.add(n("SELECT " + W + ", COUNT(*), AVG(d) FROM " + cumulate("tn", "wts", "'20' MINUTE", "'3' HOUR")
                + " GROUP BY " + W));
        q.add(global(MISALIGNED, "UTC", "SELECT " + W + ", COUNT(*) FROM TABLE(HOP(TABLE tn, DESCRIPTOR(wts),"
                + " INTERVAL '1' HOUR, INTERVAL '3' HOUR, INTERVAL '-17' MINUTE)) GROUP BY " + W));
        // tl: TIMESTAMP_LTZ rowtimes over the 2024-03-10 DST change in Los Angeles, some late
        for (String zone : ZONES) {
            // Shanghai's fixed +8 hours is no multiple of a day or of 3 hours: Flink's window buffer flushes
            // at trigger points that are not slice ends there
            String misaligned = zone.equals("Asia/Shanghai") ? MISALIGNED : null;
            q.add(global(misaligned, zone, "SELECT " + W + ", COUNT(*), SUM(a), MAX(s) FROM "
                    + tumble("tl", "wl", "'1' DAY") + " GROUP BY " + W));
            q.add(nz(zone, "SELECT " + W + ", MOD(id, 3), COUNT(*), MIN(b) FROM " + tumble("tl", "wl", "'1' HOUR")
                    + " GROUP BY " + W + ", MOD(id, 3)"));
            q.add(global(misaligned, zone, "SELECT " + W + ", COUNT(*), AVG(d)"
                    + " FROM " + hop("tl", "wl", "'3' HOUR", "'12' HOUR") + " GROUP BY " + W));
            q.add(nz(zone, "SELECT " + W + ", s IS NULL, COUNT(*), MAX(wl), MIN(wl) FROM "
                    + cumulate("tl", "wl", "'2' HOUR", "'1' DAY") + " GROUP BY " + W + ", s IS NULL"));
            q.add(nz(zone, "SELECT " + W + ", COUNT(*) FILTER (WHERE a > 0), SUM(amount) FROM "
                    + tumble("tl", "wl", "'30' MINUTE") + " WHERE MOD(id, 4) <> 1 GROUP BY " + W));
        }
        // tj: out of order, within the watermark's 5 minutes and beyond (late)
        String hour = tumble("tj", "wts", "'1' HOUR");
        q.add(n("SELECT " + W + ", COUNT(*), COUNT(a), SUM(a), MIN(a), MAX(a), AVG(a) FROM " + hour + " GROUP BY " + W));
        q.add(n("SELECT " + W + ", a, COUNT(*), SUM(b), AVG(b) FROM " + hour + " GROUP BY " + W + ", a"));
        q.add(n("SELECT " + W + ", s, COUNT(d), SUM(d), MIN(d), MAX(d), AVG(d) FROM " + tumble("tj", "wts", "'20' MINUTE")
                + " GROUP BY " + W + ", s"));
        q.add(n("SELECT " + W + ", MOD(id, 5), COUNT(amount), SUM(amount), MIN(amount), MAX(amount), AVG(amount)"
                + " FROM " + tumble("tj", "wts", "'45' MINUTE") + " GROUP BY " + W + ", MOD(id, 5)"));
        q.add(n("SELECT " + W + ", window_time, MIN(s), MAX(s), MIN(ts), MAX(ts), COUNT(ts) FROM " + hour
                + " GROUP BY " + W + ", window_time"));
        q.add(n("SELECT window_start, COUNT(*), MAX(b) FROM " + hop("tj", "wts", "'10' MINUTE", "'1' HOUR")
                + " GROUP BY " + W));
        q.add(n("SELECT " + W + ", a IS NULL, SUM(a), COUNT(*) FROM " + hop("tj", "wts", "'15' MINUTE", "'45' MINUTE")
                + " GROUP BY " + W + ", a IS NULL"));
        q.add(n("SELECT " + W + ", window_time, s, MAX(d), MIN(b) FROM " + hop("tj", "wts", "'30' MINUTE", "'2' HOUR")
                + " GROUP BY " + W + ", window_time, s"));
        q.add(n("SELECT " + W + ", COUNT(*), COUNT(*) FILTER (WHERE a > 0), AVG(amount) FROM "
                + hop("tj", "wts", "'20' MINUTE", "'1' HOUR") + " GROUP BY " + W));
        q.add(n("SELECT " + W + ", COUNT(*), SUM(a), MAX(s) FROM " + cumulate("tj", "wts", "'10' MINUTE", "'1' HOUR")
                + " GROUP BY " + W));
        q.add(n("SELECT " + W + ", MOD(id, 3), AVG(d), MIN(amount), COUNT(b) FROM "
                + cumulate("tj", "wts", "'15' MINUTE", "'2' HOUR") + " GROUP BY " + W + ", MOD(id, 3)"));
        q.add(n("SELECT " + W + ", window_time, a, COUNT(*) FILTER (WHERE s IS NOT NULL), SUM(b) FILTER (WHERE a < 0)"
                + " FROM " + cumulate("tj", "wts", "'30' MINUTE", "'3' HOUR") + " GROUP BY " + W + ", window_time, a"));
        q.add(n("SELECT " + W + ", s, a, COUNT(*) FROM " + tumble("tj", "wts", "'10' MINUTE") + " GROUP BY " + W
                + ", s, a"));
        q.add(global(MISALIGNED, "UTC", "SELECT " + W + ", COUNT(*) FROM TABLE(TUMBLE(TABLE tj, DESCRIPTOR(wts),"
                + " INTERVAL '1' HOUR, INTERVAL '7' MINUTE)) GROUP BY " + W));
        q.add(global(MISALIGNED, "UTC", "SELECT " + W + ", SUM(b), MAX(a) FROM TABLE(CUMULATE(TABLE tj,"
                + " DESCRIPTOR(wts), INTERVAL '20' MINUTE, INTERVAL '1' HOUR, INTERVAL '5' MINUTE)) GROUP BY " + W));
        q.add(n("SELECT " + W + ", MOD(id, 7), COUNT(*), SUM(d) FROM " + tumble("tw", "wts", "'1' DAY")
                + " WHERE d IS NOT NULL GROUP BY " + W + ", MOD(id, 7)"));
        q.add(n("SELECT " + W + ", COUNT(*), MIN(b), MAX(b) FROM " + hop("tn", "wts", "'10' MINUTE", "'30' MINUTE")
                + " GROUP BY " + W));
        q.add(n("SELECT " + W + ", s, COUNT(*), SUM(a) FROM " + cumulate("tn", "wts", "'30' MINUTE", "'2' HOUR")
                + " GROUP BY " + W + ", s"));
        // the Calc above the global phase runs in its exit when it only selects (WindowExitFusionTest)
        q.add(n("SELECT s, window_end, COUNT(*) AS c, window_end AS e2, MAX(b) FROM " + day + " GROUP BY " + W
                + ", s"));
        q.add(n("SELECT window_start, COUNT(*), MAX(a) FROM " + hop("tj", "wts", "'20' MINUTE", "'1' HOUR")
                + " GROUP BY " + W + ", s"));
        q.add(n("SELECT COUNT(*) + 1, window_end FROM " + tumble("tj", "wts", "'30' MINUTE") + " GROUP BY " + W));
        // a UDF keeps the local phase (with its Calc) on Flink; the global phase still goes native
        q.add(local("has no native translation", "SELECT " + W + ", k, COUNT(*), SUM(a), AVG(d) FROM "
                + tumble("tk", "wts", "'1' HOUR") + " GROUP BY " + W + ", k"));
        q.add(local("has no native translation", "SELECT " + W + ", COUNT(*), MAX(s) FROM "
                + hop("tk", "wts", "'30' MINUTE", "'90' MINUTE") + " WHERE ka > 0 GROUP BY " + W));
        q.add(local("has no native translation", "SELECT " + W + ", k, MIN(b), COUNT(a) FROM "
                + cumulate("tk", "wts", "'20' MINUTE", "'1' HOUR") + " GROUP BY " + W + ", k"));
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
        return new Query(sql, "UTC", null, null, false, true);
    }

    private static Query nz(String zone, String sql) {
        return new Query(sql, zone, null, null, false, true);
    }

    private static Query empty(String sql) {
        return new Query(sql, "UTC", null, null, true, true);
    }

    /** Both phases stay on Flink for {@code reason}. */
    private static Query stock(String reason, String sql, boolean run) {
        return new Query(sql, "UTC", reason, reason, false, run);
    }

    private static final String MISALIGNED = "slice ends are not the trigger points of Flink's window buffer";

    /** The local phase goes native; the global one stays on Flink for {@code reason} (null: native too). */
    private static Query global(String reason, String zone, String sql) {
        return new Query(sql, zone, null, reason, false, true);
    }

    /** The local phase stays on Flink for {@code reason}, the global one goes native. */
    private static Query local(String reason, String sql) {
        return new Query(sql, "UTC", reason, null, false, true);
    }

    /** A scalar function Gatun has no translation for. */
    public static final class PlusOne extends ScalarFunction {
        public Integer eval(Integer x) {
            return x == null ? null : x + 1;
        }
    }

    private static Queries q;
    /** Per zone and side, each query's changelog (or why its job failed). */
    private static ZoneRuns runs;

    @BeforeAll
    static void tables() {
        q = new Queries();
        createTables(q);
        SETTINGS.forEach(q::set);
    }

    /** The tables and views the queries read, in {@code q}'s environment. */
    static void createTables(Queries q) {
        TestTables.createT(q, "t", 300);
        // a rowtime must not be NULL, and t.ts has NULLs
        q.sql("CREATE TEMPORARY TABLE tw (wts AS COALESCE(ts, TIMESTAMP '2000-01-01 00:00:00'),"
                + " WATERMARK FOR wts AS wts - INTERVAL '1' SECOND) LIKE t");
        q.sql("CREATE TEMPORARY TABLE tn (wts AS CAST(TIMESTAMPADD(MINUTE, CAST(id AS INT) * 7 - 1000,"
                + " TIMESTAMP '1970-01-01 00:00:00') AS TIMESTAMP(3)), WATERMARK FOR wts AS wts) LIKE t");
        // every 9th row two hours back, beyond the watermark's 30 minutes: late
        // minute by minute from 2024, each row up to 10 minutes later than that, beyond the watermark's 5: late
        q.sql("CREATE TEMPORARY TABLE tj (wts AS CAST(TIMESTAMPADD(SECOND, CAST(id AS INT) * 60"
                + " + CAST(MOD(id * 37, 600) AS INT), TIMESTAMP '2024-01-01 00:00:00') AS TIMESTAMP(3)),"
                + " WATERMARK FOR wts AS wts - INTERVAL '5' MINUTE) LIKE t");
        q.env().createTemporarySystemFunction("PLUS_ONE", PlusOne.class);
        q.sql("CREATE TEMPORARY VIEW tk AS SELECT *, PLUS_ONE(MOD(CAST(id AS INT), 4)) AS k, PLUS_ONE(a) AS ka FROM tj");
        q.sql("CREATE TEMPORARY TABLE tl (wl AS TO_TIMESTAMP_LTZ(1710000000000 + id * 600000"
                + " - CASE WHEN MOD(id, 9) = 4 THEN 7200000 ELSE 0 END, 3),"
                + " WATERMARK FOR wl AS wl - INTERVAL '30' MINUTE) LIKE t");
    }

    @AfterAll
    static void reset() {
        runs = null;
        q.set("table.local-time-zone", "default");
    }

    @Test
    void theSuiteHasAtLeast60WindowQueriesAndWithTheGroupQueries80() {
        assertTrue(QUERIES.size() >= 60, "only " + QUERIES.size());
        assertTrue(QUERIES.size() + AggregateParityTest.QUERY_COUNT >= 80,
                "only " + (QUERIES.size() + AggregateParityTest.QUERY_COUNT));
    }

    @Test
    void everyNativeGlobalWindowAggregateRan() throws Exception {
        for (String zone : ZONES) {
            long planned = QUERIES.stream().filter(x -> x.run() && x.zone().equals(zone) && x.globalFallback() == null).count();
            assertEquals(planned, runs().ran(zone), "native global window aggregates that ran in zone " + zone);
        }
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
        List<CalcDecision> globals = decisions.stream()
                .filter(d -> d.calc().startsWith("GlobalWindowAggregate")).toList();
        assertEquals(1, globals.size(), "one global window aggregate decided in " + query.sql() + ": " + decisions);
        CalcDecision global = globals.get(0);
        if (query.globalFallback() == null) {
            assertTrue(global.isNative(), "expected a native global window aggregate, got " + global);
        } else {
            assertTrue(!global.isNative() && global.reason().contains(query.globalFallback()),
                    "expected the global window aggregate to stay stock with a reason containing '"
                            + query.globalFallback() + "', got " + global);
        }
        String explained = q.explain(query.sql());
        assertEquals(query.globalFallback() == null, explained.contains("state=keyed, window="), explained);
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
        runs().assertEqualInserts(query.zone(), query.sql(), query.mayBeEmpty());
    }

    private static ZoneRuns runs() {
        if (runs == null) {
            runs = ZoneRuns.run(q, runnableByZone(), k -> k.contains("GlobalWindowAggregate"));
        }
        return runs;
    }

    /** Per zone, the SQL of the queries that run (the others are checked as plans only). */
    static Map<String, List<String>> runnableByZone() {
        Map<String, List<String>> sqls = new LinkedHashMap<>();
        for (String zone : ZONES) {
            sqls.put(zone, QUERIES.stream().filter(x -> x.run() && x.zone().equals(zone)).map(Query::sql).toList());
        }
        return sqls;
    }
}
