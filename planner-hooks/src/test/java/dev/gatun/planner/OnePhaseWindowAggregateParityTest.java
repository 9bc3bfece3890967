package dev.gatun.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.WindowAggregateParityTest.Query;
import dev.gatun.planner.rewrite.CalcDecision;
import dev.gatun.planner.testing.Queries;
import dev.gatun.planner.testing.SharedMiniCluster;
import dev.gatun.planner.testing.ZoneRuns;
import java.util.List;
import java.util.stream.Stream;
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
    private static ZoneRuns runs;

    @BeforeAll
    static void tables() {
        q = new Queries();
        WindowAggregateParityTest.createTables(q);
        q.set("table.optimizer.agg-phase-strategy", "ONE_PHASE");
    }

    @AfterAll
    static void reset() {
        runs = null;
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
        for (String zone : ZONES) {
            long planned = QUERIES.stream().filter(x -> x.run() && x.zone().equals(zone) && fallback(x) == null).count();
            assertEquals(planned, runs().ran(zone), "native one-phase window aggregates that ran in zone " + zone);
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
        runs().assertEqualInserts(query.zone(), query.sql(), query.mayBeEmpty());
    }

    private static ZoneRuns runs() {
        if (runs == null) {
            runs = ZoneRuns.run(q, WindowAggregateParityTest.runnableByZone(), OnePhaseWindowAggregateParityTest::isOnePhase);
        }
        return runs;
    }
}
