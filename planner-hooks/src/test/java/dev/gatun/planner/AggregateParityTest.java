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
import dev.gatun.planner.testing.TypeTables;
import java.util.ArrayList;
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
 * The native local aggregate against stock Flink: two-phase group aggregation under mini-batch
 * (small bundles, so every query crosses many flushes), each query's final materialized result
 * stock vs Gatun. Mini-batches close on processing time, so the intermediate updates differ from
 * run to run in stock Flink too; what the changelogs materialize to may not. Each query also states
 * its planning: a native local aggregate, or the reason it stays on Flink (in EXPLAIN too).
 */
@ExtendWith(LeakCheckExtension.class)
@ExtendWith(SharedMiniCluster.class)
class AggregateParityTest {
    /** A query, and the reason its local aggregate stays on Flink (null: it runs natively). */
    private record Query(String sql, String fallback, boolean mayBeEmpty) {}

    private static final Map<String, String> SETTINGS = Map.of(
            "table.exec.mini-batch.enabled", "true",
            "table.exec.mini-batch.allow-latency", "1 h",
            "table.exec.mini-batch.size", "23",
            "table.optimizer.agg-phase-strategy", "TWO_PHASE");

    private static final List<Query> QUERIES = List.of(
            // every function over t's columns, NULL keys and values
            n("SELECT MOD(id, 7) AS k, COUNT(*) FROM t GROUP BY MOD(id, 7)"),
            n("SELECT s, COUNT(*), COUNT(a), SUM(a), MIN(a), MAX(a), AVG(a) FROM t GROUP BY s"),
            n("SELECT MOD(id, 5), COUNT(b), SUM(b), MIN(b), MAX(b), AVG(b) FROM t GROUP BY MOD(id, 5)"),
            n("SELECT MOD(id, 3), COUNT(d), SUM(d), MIN(d), MAX(d), AVG(d) FROM t GROUP BY MOD(id, 3)"),
            n("SELECT MOD(id, 4), COUNT(amount), SUM(amount), MIN(amount), MAX(amount), AVG(amount) FROM t"
                    + " GROUP BY MOD(id, 4)"),
            n("SELECT MOD(id, 3), COUNT(s), MIN(s), MAX(s) FROM t GROUP BY MOD(id, 3)"),
            n("SELECT MOD(id, 6), MIN(ts), MAX(ts), COUNT(ts) FROM t GROUP BY MOD(id, 6)"),
            n("SELECT a, COUNT(*), SUM(b) FROM t GROUP BY a"),
            n("SELECT d, COUNT(*) FROM t GROUP BY d"),
            n("SELECT amount, COUNT(*), MAX(s) FROM t GROUP BY amount"),
            n("SELECT ts, COUNT(*) FROM t GROUP BY ts"),
            n("SELECT a, s, COUNT(*), MIN(d) FROM t GROUP BY a, s"),
            n("SELECT t.r.x, COUNT(*), SUM(t.r.z.w) FROM t GROUP BY t.r.x"),
            // no keys: one global group
            n("SELECT COUNT(*), SUM(a), MAX(s), AVG(d) FROM t"),
            // computed keys and arguments, and the Calc's filter
            n("SELECT UPPER(s), SUM(a * 2), AVG(CAST(a AS DOUBLE)), COUNT(s || 'x') FROM t GROUP BY UPPER(s)"),
            n("SELECT s, COUNT(*), SUM(b) FROM t WHERE a > 0 GROUP BY s"),
            n("SELECT MOD(id, 3), MAX(a) FROM t WHERE s LIKE '%a%' OR d < 0 GROUP BY MOD(id, 3)"),
            empty("SELECT a, COUNT(*), SUM(b) FROM t WHERE id < 0 GROUP BY a"),
            empty("SELECT COUNT(*), SUM(b) FROM t WHERE id < 0"),
            // FILTER clauses
            n("SELECT MOD(id, 4), COUNT(*) FILTER (WHERE a > 0), SUM(b) FILTER (WHERE s LIKE '%a%'),"
                    + " MAX(d) FILTER (WHERE a IS NULL), COUNT(s) FILTER (WHERE id > 100) FROM t GROUP BY MOD(id, 4)"),
            n("SELECT s, AVG(amount) FILTER (WHERE amount > 0), MIN(ts) FILTER (WHERE a < 0), COUNT(*)"
                    + " FROM t GROUP BY s"),
            n("SELECT COUNT(*) FILTER (WHERE id < 0), SUM(a) FILTER (WHERE id < 0), COUNT(*) FROM t"),
            // every admitted type of ty: integers (wrapping sums), floats, decimals
            n("SELECT MOD(id, 2), SUM(ti), SUM(si), SUM(i), SUM(bi) FROM ty GROUP BY MOD(id, 2)"),
            n("SELECT MOD(id, 3), AVG(ti), AVG(si), AVG(i), AVG(bi) FROM ty GROUP BY MOD(id, 3)"),
            n("SELECT MOD(id, 3), MIN(ti), MAX(ti), MIN(si), MAX(si), MIN(i), MAX(i), MIN(bi), MAX(bi) FROM ty"
                    + " GROUP BY MOD(id, 3)"),
            n("SELECT MOD(id, 4), SUM(f), AVG(f), MIN(f), MAX(f), SUM(d), AVG(d), MIN(d), MAX(d) FROM ty"
                    + " GROUP BY MOD(id, 4)"),
            n("SELECT MOD(id, 3), SUM(de), AVG(de), MIN(de), MAX(de) FROM ty GROUP BY MOD(id, 3)"),
            n("SELECT MOD(id, 3), SUM(dbig), MIN(dbig), MAX(dbig) FROM ty GROUP BY MOD(id, 3)"),
            n("SELECT MOD(id, 3), SUM(dbig), AVG(dbig), MIN(dbig) FROM ty GROUP BY MOD(id, 3)"),
            n("SELECT MOD(id, 2), MIN(bo), MAX(bo), COUNT(bo) FROM ty GROUP BY MOD(id, 2)"),
            n("SELECT MOD(id, 3), MIN(ch), MAX(ch), MIN(vc), MAX(vc), MIN(s), MAX(s) FROM ty GROUP BY MOD(id, 3)"),
            n("SELECT bin, vb, COUNT(*), COUNT(bin) FROM ty GROUP BY bin, vb"),
            n("SELECT MOD(id, 3), MIN(dt), MAX(dt), MIN(tm), MAX(tm) FROM ty GROUP BY MOD(id, 3)"),
            n("SELECT MOD(id, 3), MIN(ts), MAX(ts), MIN(ts6), MAX(ts6), MIN(ltz), MAX(ltz) FROM ty GROUP BY MOD(id, 3)"),
            n("SELECT MOD(id, 5), COUNT(arr), COUNT(m), COUNT(r), COUNT(vb) FROM ty GROUP BY MOD(id, 5)"),
            // keys of every flat type, NULL keys included
            n("SELECT ti, si, COUNT(*) FROM ty GROUP BY ti, si"),
            n("SELECT bo, f, COUNT(*), SUM(i) FROM ty GROUP BY bo, f"),
            n("SELECT de, dbig, COUNT(*) FROM ty GROUP BY de, dbig"),
            n("SELECT vc, bin, COUNT(*) FROM ty GROUP BY vc, bin"),
            n("SELECT dt, tm, ts, ltz, COUNT(*) FROM ty GROUP BY dt, tm, ts, ltz"),
            // what stays on Flink, and why
            stock("DISTINCT aggregates are not admitted natively",
                    "SELECT MOD(id, 3), COUNT(DISTINCT a) FROM t GROUP BY MOD(id, 3)"),
            stock("aggregate function LISTAGG",
                    "SELECT MOD(id, 3), LISTAGG(s) FROM t GROUP BY MOD(id, 3)"),
            stock("changelog",
                    "SELECT m, COUNT(*) FROM (SELECT s, MAX(a) AS m FROM t GROUP BY s) GROUP BY m"),
            stock("gatun.types.nanosecond-timestamps", "SELECT MOD(id, 3), MAX(ts9) FROM ty GROUP BY MOD(id, 3)"));

    /** How many group-aggregate queries there are (the window ones are in WindowAggregateParityTest). */
    static final int QUERY_COUNT = QUERIES.size();

    private static Query n(String sql) {
        return new Query(sql, null, false);
    }

    private static Query empty(String sql) {
        return new Query(sql, null, true);
    }

    private static Query stock(String reason, String sql) {
        return new Query(sql, reason, false);
    }

    private static Queries q;
    private static Map<String, Object> stockRows;
    private static Map<String, Object> nativeRows;

    @BeforeAll
    static void tables() {
        q = new Queries();
        TestTables.createT(q, "t", 300);
        TypeTables.create(q, "ty", 120);
        SETTINGS.forEach(q::set);
    }

    @AfterAll
    static void reset() {
        stockRows = null;
        nativeRows = null;
    }

    @Test
    void theSuiteHasAtLeast40Queries() {
        assertTrue(QUERIES.size() >= 40, "only " + QUERIES.size());
    }

    @TestFactory
    Stream<DynamicTest> nativeEqualsStock() {
        return QUERIES.stream().map(query -> DynamicTest.dynamicTest(query.sql(), () -> check(query)));
    }

    private static void check(Query query) throws Exception {
        List<CalcDecision> decisions = q.decisions(query.sql());
        List<CalcDecision> aggregates = decisions.stream()
                .filter(d -> d.calc().startsWith("LocalGroupAggregate")).toList();
        assertFalse(aggregates.isEmpty(), "no local aggregate decided in " + query.sql() + ": " + decisions);
        String explained = q.explain(query.sql());
        if (query.fallback() == null) {
            for (CalcDecision d : aggregates) {
                assertTrue(d.isNative(), "expected a native local aggregate, got " + d);
            }
            assertTrue(explained.contains(", bundle=23, batch="),
                    "EXPLAIN shows no native local aggregate: " + explained);
        } else {
            assertTrue(aggregates.stream().anyMatch(d -> !d.isNative() && d.reason().contains(query.fallback())),
                    "expected the local aggregate to stay stock with a reason containing '" + query.fallback()
                            + "', got " + aggregates);
        }
        for (CalcDecision d : decisions) {
            assertTrue(d.isNative() || explained.contains("stock (" + d.reason() + ")"), explained);
        }
        runAll();
        Object stock = stockRows.get(query.sql());
        Object gatun = nativeRows.get(query.sql());
        if (stock instanceof Throwable t) {
            fail("stock Flink failed on " + query.sql() + ": " + ExceptionUtils.stringifyException(t));
        }
        if (gatun instanceof Throwable t) {
            fail("Gatun failed on " + query.sql() + ": " + ExceptionUtils.stringifyException(t));
        }
        @SuppressWarnings("unchecked")
        List<String> expected = PlannerModesTest.materialize((List<String>) stock);
        @SuppressWarnings("unchecked")
        List<String> actual = PlannerModesTest.materialize((List<String>) gatun);
        assertEquals(expected, actual, query.sql());
        assertEquals(query.mayBeEmpty(), expected.isEmpty(), "rows of " + query.sql() + ": " + expected);
    }

    /** Every query once per side, as one job per side; a failed job is rerun query by query. */
    private static void runAll() throws Exception {
        if (stockRows == null) {
            stockRows = runSide(false);
            nativeRows = runSide(true);
        }
    }

    private static Map<String, Object> runSide(boolean nativeEnabled) throws Exception {
        List<String> sqls = QUERIES.stream().map(Query::sql).toList();
        Map<String, Object> out = new LinkedHashMap<>();
        try {
            out.putAll(q.runAll(sqls, nativeEnabled, null));
        } catch (Exception groupFailure) {
            for (String sql : new ArrayList<>(sqls)) {
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
