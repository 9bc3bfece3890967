package dev.gatun.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.nodes.BatchExecFusedCalc;
import dev.gatun.planner.nodes.BatchExecNativeLocalHashAggregate;
import dev.gatun.planner.rewrite.CalcDecision;
import dev.gatun.planner.testing.CollectSinkFactory;
import dev.gatun.planner.testing.GatunCounters;
import dev.gatun.planner.testing.LineitemTable;
import dev.gatun.planner.testing.Queries;
import dev.gatun.planner.testing.SharedMiniCluster;
import dev.gatun.planner.testing.TestTables;
import dev.gatun.planner.testing.TypeTables;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobID;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.PlanReference;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The native batch local hash aggregate against stock Flink in batch mode (bounded tables,
 * two-phase aggregation forced): each query's rows stock vs Gatun, and its planning: a native
 * {@code LocalHashAggregate} (EXPLAIN shows its group limit; the native job's local aggregate islands
 * read rows), or the reason it stays on Flink. The group limit is tiny and batches are small, so
 * most queries emit partial groups many times before the end of input.
 */
@ExtendWith(LeakCheckExtension.class)
@ExtendWith(SharedMiniCluster.class)
class BatchAggregateParityTest {
    /** A query, and the reason its local aggregate stays on Flink (null: it runs natively). */
    private record Query(String sql, String fallback, boolean mayBeEmpty) {}

    private static final String SORT = "a local sort aggregate is not admitted natively";

    private static final String AUX = "SELECT k, c, COUNT(*), SUM(m) FROM (SELECT MOD(id, 7) AS k, COUNT(*) AS c,"
            + " MAX(b) AS m FROM t GROUP BY MOD(id, 7)) GROUP BY k, c";

    private static final Map<String, String> SETTINGS = Map.of(
            "table.optimizer.agg-phase-strategy", "TWO_PHASE",
            "gatun.aggregate.batch.group-limit", "7",
            "gatun.batch.rows", "64");

    private static final List<Query> QUERIES = List.of(
            // every function over t's columns, NULL keys and values
            n("SELECT MOD(id, 7) AS k, COUNT(*) FROM t GROUP BY MOD(id, 7)"),
            n("SELECT MOD(id, 5), COUNT(a), SUM(a), MIN(a), MAX(a), AVG(a) FROM t GROUP BY MOD(id, 5)"),
            n("SELECT MOD(id, 5), COUNT(b), SUM(b), MIN(b), MAX(b), AVG(b) FROM t GROUP BY MOD(id, 5)"),
            n("SELECT MOD(id, 3), COUNT(d), SUM(d), MIN(d), MAX(d), AVG(d) FROM t GROUP BY MOD(id, 3)"),
            n("SELECT MOD(id, 4), COUNT(amount), SUM(amount), MIN(amount), MAX(amount), AVG(amount) FROM t"
                    + " GROUP BY MOD(id, 4)"),
            n("SELECT MOD(id, 6), MIN(ts), MAX(ts), COUNT(ts) FROM t GROUP BY MOD(id, 6)"),
            n("SELECT a, COUNT(*), SUM(b) FROM t GROUP BY a"),
            n("SELECT d, COUNT(*) FROM t GROUP BY d"),
            n("SELECT amount, COUNT(*), MAX(b) FROM t GROUP BY amount"),
            n("SELECT ts, COUNT(*) FROM t GROUP BY ts"),
            n("SELECT a, s, COUNT(*), MIN(d) FROM t GROUP BY a, s"),
            n("SELECT t.r.x, COUNT(*), SUM(t.r.z.w) FROM t GROUP BY t.r.x"),
            // no keys: one global group, also over no rows
            n("SELECT COUNT(*), SUM(a), AVG(d) FROM t"),
            n("SELECT COUNT(*), SUM(b), MIN(a) FROM t WHERE id < 0"),
            // computed keys and arguments, and the Calc's filter (one that drops every row)
            n("SELECT UPPER(s), SUM(a * 2), AVG(CAST(a AS DOUBLE)), COUNT(s || 'x') FROM t GROUP BY UPPER(s)"),
            n("SELECT s, COUNT(*), SUM(b) FROM t WHERE a > 0 GROUP BY s"),
            empty("SELECT a, COUNT(*), SUM(b) FROM t WHERE id < 0 GROUP BY a"),
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
            n("SELECT MOD(id, 3), SUM(dbig), AVG(dbig), MIN(dbig), MAX(dbig) FROM ty GROUP BY MOD(id, 3)"),
            n("SELECT MOD(id, 2), MIN(bo), MAX(bo), COUNT(bo) FROM ty GROUP BY MOD(id, 2)"),
            n("SELECT MOD(id, 3), MIN(dt), MAX(dt), MIN(tm), MAX(tm) FROM ty GROUP BY MOD(id, 3)"),
            stock(SORT, "SELECT MOD(id, 3), MIN(ts6), MAX(ts6), MIN(ltz), MAX(ltz) FROM ty GROUP BY MOD(id, 3)"),
            n("SELECT MOD(id, 5), COUNT(arr), COUNT(m), COUNT(r), COUNT(vb) FROM ty GROUP BY MOD(id, 5)"),
            // keys of every flat type, NULL keys included
            n("SELECT ti, si, COUNT(*) FROM ty GROUP BY ti, si"),
            n("SELECT bo, f, COUNT(*), SUM(i) FROM ty GROUP BY bo, f"),
            n("SELECT de, dbig, COUNT(*) FROM ty GROUP BY de, dbig"),
            n("SELECT vc, bin, COUNT(*) FROM ty GROUP BY vc, bin"),
            n("SELECT dt, tm, ts, ltz, COUNT(*) FROM ty GROUP BY dt, tm, ts, ltz"),
            // grouping sets (an Expand below the aggregate), DISTINCT (rewritten into two aggregates)
            n("SELECT a, s, COUNT(*), SUM(b) FROM t GROUP BY GROUPING SETS ((a), (s), ())"),
            n("SELECT MOD(id, 3), COUNT(DISTINCT a), SUM(b) FROM t GROUP BY MOD(id, 3)"),
            // auxiliary grouping: c depends on k, the unique key of the inner aggregate
            n(AUX),
            // TPC-H query 1
            n(String.format(LineitemTable.Q1, "lineitem")),
            // what stays on Flink, and why
            stock(SORT, "SELECT MOD(id, 3), COUNT(s), MIN(s), MAX(s) FROM t GROUP BY MOD(id, 3)"),
            stock(SORT, "SELECT MOD(id, 3), MAX(ts9) FROM ty GROUP BY MOD(id, 3)"),
            stock("gatun.types.nanosecond-timestamps", "SELECT ts9, COUNT(*) FROM ty GROUP BY ts9"));

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
    private static JobID nativeJob;

    @BeforeAll
    static void tables() {
        q = new Queries(EnvironmentSettings.inBatchMode());
        TestTables.createT(q, "t", 300);
        TypeTables.create(q, "ty", 120);
        LineitemTable.create(q, "lineitem", 2000);
        SETTINGS.forEach(q::set);
    }

    @AfterAll
    static void reset() {
        stockRows = null;
        nativeRows = null;
        nativeJob = null;
    }

    @Test
    void theSuiteHasAtLeast20NativeQueries() {
        assertTrue(QUERIES.stream().filter(query -> query.fallback() == null).count() >= 20);
    }

    @Test
    void theNativeLocalAggregatesReadRows() throws Exception {
        runAll();
        assertTrue(nativeJob != null, "the native side did not run as one job");
        long expected = QUERIES.stream().filter(query -> query.fallback() == null).count();
        List<String> ran = GatunCounters.of(nativeJob).entrySet().stream()
                .filter(e -> e.getKey().endsWith(".gatun.rowsIn") && e.getValue().getCount() > 0)
                .map(Map.Entry::getKey)
                .filter(key -> key.contains("LocalHashAggregate"))
                .toList();
        assertTrue(ran.size() >= expected - 2, ran.size() + " local aggregate islands read rows, expected one per"
                + " native query except the two whose filter drops every row: " + GatunCounters.of(nativeJob).keySet());
    }

    @Test
    void auxiliaryGroupingColumnsAreKeysOfTheIsland() {
        String explained = q.explain(AUX);
        assertTrue(explained.contains("auxGrouping=[c]") && explained.contains(", groupLimit=7"), explained);
    }

    /**
     * A compiled batch plan names the native local hash aggregate and the Calc fused into it; read
     * back, it runs natively, or stock with gatun.native.enabled=false, with stock's rows either way.
     */
    @Test
    void aCompiledBatchPlanCarriesTheNativeLocalAggregateAndRunsItNativelyOrStock() throws Exception {
        String query = "SELECT MOD(id, 5) AS k, COUNT(*) AS c, SUM(b) AS total FROM t WHERE a > 0 GROUP BY MOD(id, 5)";
        assertTrue(q.explain(query).contains("native: LocalHashAggregate("), q.explain(query));
        List<String> expected = q.run(query, false);
        assertFalse(expected.isEmpty());
        for (boolean nativeEnabled : new boolean[] {true, false}) {
            String id = CollectSinkFactory.newId();
            q.sql("DROP TEMPORARY TABLE IF EXISTS agg_sink");
            q.sql("CREATE TEMPORARY TABLE agg_sink (k INT, c BIGINT, total BIGINT)"
                    + " WITH ('connector' = 'gatun-test-collect', 'id' = '" + id + "')");
            String json = q.env().compilePlanSql("INSERT INTO agg_sink " + query).asJsonString();
            assertTrue(json.contains("\"" + BatchExecNativeLocalHashAggregate.TYPE_NAME + "_1\"")
                    && json.contains("\"" + BatchExecFusedCalc.TYPE_NAME + "_1\"")
                    && json.contains("\"nativeLocalAggregate\"") && json.contains("\"groupLimit\" : 7")
                    && json.contains("\"auxGrouping\""), json);
            q.env().getConfig().set(GatunOptions.NATIVE_ENABLED, nativeEnabled);
            try {
                TableResult result = q.env().loadPlan(PlanReference.fromJsonString(json)).execute();
                result.await();
                JobID job = result.getJobClient().orElseThrow().getJobID();
                List<String> rows = new ArrayList<>(CollectSinkFactory.take(id));
                rows.sort(null);
                assertEquals(expected, rows, "native enabled: " + nativeEnabled);
                long rowsIn = GatunCounters.of(job).entrySet().stream().filter(e -> e.getKey().endsWith(".gatun.rowsIn"))
                        .mapToLong(e -> e.getValue().getCount()).sum();
                assertEquals(nativeEnabled, rowsIn > 0, "native enabled: " + nativeEnabled);
            } finally {
                q.env().getConfig().set(GatunOptions.NATIVE_ENABLED, true);
            }
        }
    }

    @TestFactory
    Stream<DynamicTest> nativeEqualsStock() {
        return QUERIES.stream().map(query -> DynamicTest.dynamicTest(query.sql(), () -> check(query)));
    }

    private static void check(Query query) throws Exception {
        List<CalcDecision> decisions = q.decisions(query.sql());
        List<CalcDecision> aggregates = decisions.stream()
                .filter(d -> d.calc().startsWith("LocalHashAggregate") || d.calc().startsWith("LocalSortAggregate"))
                .toList();
        assertFalse(aggregates.isEmpty(), "no local aggregate decided in " + query.sql() + ": " + decisions);
        String explained = q.explain(query.sql());
        if (query.fallback() == null) {
            for (CalcDecision d : aggregates) {
                assertTrue(d.isNative(), "expected a native local aggregate, got " + d);
            }
            assertTrue(explained.contains(", groupLimit=7, batch=64"),
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
        assertEquals(stock, gatun, query.sql());
        assertEquals(query.mayBeEmpty(), ((List<?>) stock).isEmpty(), "rows of " + query.sql() + ": " + stock);
    }

    /** Every query once per side, as one job per side; a failed job is rerun query by query. */
    private static void runAll() throws Exception {
        if (stockRows == null) {
            stockRows = runSide(false);
            nativeRows = runSide(true);
        }
    }

    private static Map<String, Object> runSide(boolean nativeEnabled) {
        List<String> sqls = QUERIES.stream().map(Query::sql).toList();
        Map<String, Object> out = new LinkedHashMap<>();
        try {
            out.putAll(q.runAll(sqls, nativeEnabled, null));
            if (nativeEnabled) {
                nativeJob = q.lastJob();
            }
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
