package dev.gatun.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.WindowAggregateParityTest.Query;
import dev.gatun.planner.rewrite.CalcDecision;
import dev.gatun.planner.testing.GatunCounters;
import dev.gatun.planner.testing.Queries;
import dev.gatun.planner.testing.SharedMiniCluster;
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
 * The native one-phase window aggregate against stock Flink: the queries of {@link WindowAggregateParityTest}
 * planned with {@code table.optimizer.agg-phase-strategy=ONE_PHASE}, so each is one window aggregate over
 * the raw rows (no local phase), each query's whole changelog stock vs Gatun. Late rows (dropped by the
 * one window operator), out-of-order input, {@code TIMESTAMP_LTZ} windows in three zones and the window
 * properties are those of the two-phase suite. Each query states its planning: a native window aggregate,
 * or the reason it stays on Flink (the reasons of the two-phase suite's global phase: windows whose slice
 * ends are not Flink's buffer trigger points, DISTINCT, LISTAGG), also in EXPLAIN; every native window
 * aggregate of a job ran.
 */
@ExtendWith(LeakCheckExtension.class)
@ExtendWith(SharedMiniCluster.class)
class OnePhaseWindowAggregateParityTest {
    private static final List<Query> QUERIES = WindowAggregateParityTest.QUERIES;
    private static final String[] ZONES = WindowAggregateParityTest.ZONES;

    private static Queries q;
    /** Per zone and side, each query's changelog (or why its job failed). */
    private static Map<String, Map<String, Object>> stockRows;
    private static Map<String, Map<String, Object>> nativeRows;
    /** Per zone, "n of m": native window aggregates that reported rows, of those planned. */
    private static final Map<String, String> RAN = new HashMap<>();

    @BeforeAll
    static void tables() {
        q = new Queries();
        WindowAggregateParityTest.createTables(q);
        q.set("table.optimizer.agg-phase-strategy", "ONE_PHASE");
    }

    @AfterAll
    static void reset() {
        stockRows = null;
        nativeRows = null;
        q.set("table.local-time-zone", "default");
    }

    /** The reason {@code query}'s one-phase aggregate stays on Flink: its global phase's, two-phase; null for native. */
    private static String fallback(Query query) {
        return query.globalFallback();
    }

    @Test
    void atLeast30QueriesRunNatively() {
        long natives = QUERIES.stream().filter(x -> x.run() && fallback(x) == null).count();
        assertTrue(natives >= 30, "only " + natives);
    }

    @Test
    void everyNativeWindowAggregateRan() throws Exception {
        runAll();
        for (String zone : ZONES) {
            String ran = RAN.get(zone);
            assertTrue(ran != null, "the native job of zone " + zone + " failed as a whole");
            String[] counts = ran.split(" of ");
            assertEquals(counts[1], counts[0], "native one-phase window aggregates that ran in zone " + zone);
        }
    }

    @TestFactory
    Stream<DynamicTest> nativeEqualsStock() {
        return QUERIES.stream().map(query -> DynamicTest.dynamicTest(
                "[" + query.zone() + "] " + query.sql(), () -> check(query)));
    }

    /** Whether the metric {@code identifier} is a one-phase window aggregate's (operator {@code WindowAggregate[n]}). */
    private static boolean isOnePhase(String identifier) {
        return identifier.contains("WindowAggregate") && !identifier.contains("LocalWindowAggregate")
                && !identifier.contains("GlobalWindowAggregate");
    }

    private static void check(Query query) throws Exception {
        q.set("table.local-time-zone", query.zone());
        List<CalcDecision> decisions = q.decisions(query.sql());
        assertTrue(decisions.stream().noneMatch(d -> d.calc().startsWith("LocalWindowAggregate")
                || d.calc().startsWith("GlobalWindowAggregate")), "a two-phase plan: " + decisions);
        List<CalcDecision> windows = decisions.stream().filter(d -> d.calc().startsWith("WindowAggregate(")).toList();
        assertEquals(1, windows.size(), "one window aggregate decided in " + query.sql() + ": " + decisions);
        CalcDecision window = windows.get(0);
        String explained = q.explain(query.sql());
        if (fallback(query) == null) {
            assertTrue(window.isNative(), "expected a native window aggregate, got " + window);
            assertTrue(explained.contains("native: WindowAggregate("), explained);
        } else {
            assertTrue(!window.isNative() && window.reason().contains(fallback(query)),
                    "expected the window aggregate to stay stock with a reason containing '" + fallback(query)
                            + "', got " + window);
        }
        assertEquals(fallback(query) == null, explained.contains("state=keyed, window="), explained);
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
            if (!(gatun.get(zone).get(sqls.get(0)) instanceof Throwable)) {
                long planned = QUERIES.stream().filter(x -> x.run() && x.zone().equals(zone) && fallback(x) == null)
                        .count();
                // every native window aggregate of the zone's job reports its rows (runSide's job is last)
                RAN.put(zone, GatunCounters.of(q.lastJob()).keySet().stream()
                        .filter(k -> isOnePhase(k) && k.endsWith(".gatun.rowsIn")).count() + " of " + planned);
            }
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
