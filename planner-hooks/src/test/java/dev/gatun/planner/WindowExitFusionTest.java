package dev.gatun.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.rewrite.CalcDecision;
import dev.gatun.planner.testing.Queries;
import dev.gatun.planner.testing.SharedMiniCluster;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The projection-only Calc above a native window aggregate runs in the aggregate's exit: EXPLAIN
 * marks the Calc fused and the aggregate projecting, and a Calc that computes stays a Calc with the
 * reason. Results against stock: the queries of {@link WindowAggregateParityTest} (two phases) and
 * {@link OnePhaseWindowAggregateParityTest}, whose Calcs above the aggregate are mostly projections.
 */
@ExtendWith(LeakCheckExtension.class)
@ExtendWith(SharedMiniCluster.class)
class WindowExitFusionTest {
    private static final String FUSED = "fused into the exit of the native window aggregate below";
    private static Queries twoPhase;
    private static Queries onePhase;

    @BeforeAll
    static void tables() {
        twoPhase = new Queries();
        WindowAggregateParityTest.createTables(twoPhase);
        WindowAggregateParityTest.SETTINGS.forEach(twoPhase::set);
        onePhase = new Queries();
        WindowAggregateParityTest.createTables(onePhase);
        onePhase.set("table.optimizer.agg-phase-strategy", "ONE_PHASE");
    }

    private static final String DAY = "TABLE(TUMBLE(TABLE tw, DESCRIPTOR(wts), INTERVAL '1' DAY))";

    @Test
    void aReorderingCalcRunsInTheGlobalAggregatesExit() {
        String sql = "SELECT window_start, window_end, s, COUNT(*) AS c, MAX(a) AS m FROM " + DAY
                + " GROUP BY window_start, window_end, s";
        String explained = twoPhase.explain(sql);
        assertTrue(explained.contains("FusedCalc(select=[window_start, window_end, s, c, m]") && explained.contains(FUSED),
                explained);
        assertTrue(explained.contains("projects=[window_start, window_end, s, c, m]"), explained);
        List<CalcDecision> decisions = twoPhase.decisions(sql);
        assertTrue(decisions.stream().anyMatch(d -> d.isNative() && d.calc().contains("fused into the exit")),
                decisions.toString());
        assertTrue(decisions.stream().allMatch(CalcDecision::isNative), decisions.toString());
    }

    @Test
    void aCalcThatDropsKeysAndPropertiesAndRepeatsAColumnRunsInTheOnePhaseAggregatesExit() {
        String sql = "SELECT window_end, COUNT(*) AS c, window_end AS e2 FROM " + DAY
                + " GROUP BY window_start, window_end, s";
        String explained = onePhase.explain(sql);
        assertTrue(explained.contains(FUSED) && explained.contains("projects=[window_end, c, e2]"), explained);
        assertFalse(explained.contains("LocalWindowAggregate"), explained);
    }

    @Test
    void aCalcThatComputesStaysACalcWithTheReason() {
        String sql = "SELECT window_end, COUNT(*) + 1 AS c FROM " + DAY + " GROUP BY window_start, window_end";
        String explained = twoPhase.explain(sql);
        assertFalse(explained.contains(FUSED), explained);
        assertFalse(explained.contains("projects=["), explained);
        assertTrue(explained.contains("not fused into the exit of the window aggregate below: the Calc above the"
                + " window aggregate computes a column"), explained);
        List<CalcDecision> calcs = twoPhase.decisions(sql).stream().filter(d -> d.calc().startsWith("Calc(")).toList();
        assertEquals(1, calcs.size(), calcs.toString());
    }
}
