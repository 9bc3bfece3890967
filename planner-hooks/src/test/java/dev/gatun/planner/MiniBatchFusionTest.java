package dev.gatun.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.rewrite.CostRule;
import dev.gatun.planner.runtime.NativeCalcSpec;
import dev.gatun.planner.testing.CollectSinkFactory;
import dev.gatun.planner.testing.RuntimeJobs;
import dev.gatun.planner.testing.SharedMiniCluster;
import dev.gatun.planner.testing.TestRowsFactory;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A two-phase group aggregate over a view of a wide event table whose rowtime is a computed
 * column (the Nexmark shape, with its mini-batch configuration): the local aggregate, its Calc, the
 * processing-time MiniBatchAssigner, the WatermarkAssigner and the computed-column Calc run as ONE
 * native island that reads the source's rows. Mini-batches close on processing time, so the
 * intermediate updates differ from run to run: the materialized results must equal stock's.
 */
@ExtendWith(LeakCheckExtension.class)
@ExtendWith(SharedMiniCluster.class)
class MiniBatchFusionTest {
    private static final String AGGREGATE = "SELECT k, COUNT(*) AS c, SUM(v2) AS total, MAX(s) AS top_s,"
            + " COUNT(*) FILTER (WHERE v2 > 500) AS big FROM v GROUP BY k";
    private static final Map<String, String> MINI_BATCH = Map.of(
            "table.exec.mini-batch.enabled", "true",
            "table.exec.mini-batch.allow-latency", "5 ms",
            "table.exec.mini-batch.size", "40",
            "table.optimizer.agg-phase-strategy", "TWO_PHASE",
            "gatun.batch.rows", "16");

    private static Map<String, String> settings(Map<String, String> more) {
        Map<String, String> all = new HashMap<>(MINI_BATCH);
        all.putAll(more);
        return all;
    }

    private static List<String> run(boolean nativeEnabled, String with, Map<String, String> settings)
            throws Exception {
        TableEnvironment tEnv = WatermarkFusionTest.env(nativeEnabled, with, settings);
        String id = CollectSinkFactory.newId();
        tEnv.executeSql("CREATE TEMPORARY TABLE out_t (k INT, c BIGINT, total BIGINT, top_s STRING, big BIGINT)"
                + " WITH ('connector' = 'gatun-test-collect', 'id' = '" + id + "')");
        tEnv.executeSql("INSERT INTO out_t " + AGGREGATE).await();
        RuntimeJobs.awaitNoNativeLeaks(Duration.ofSeconds(10));
        return PlannerModesTest.materialize(CollectSinkFactory.take(id));
    }

    @Test
    void theAggregateAbsorbsBothAssignersAndTheComputedColumns() {
        String with = TestRowsFactory.register(WatermarkFusionTest.events(10, 1, false));
        String plan = Gatun.explain(WatermarkFusionTest.env(true, with, MINI_BATCH), AGGREGATE);
        String physical = plan.substring(plan.indexOf("== Optimized Physical Plan =="),
                plan.indexOf("== Optimized Execution Plan =="));
        for (String node : List.of("FusedMiniBatchAssigner(", "FusedWatermarkAssigner(", "FusedCalc(")) {
            assertTrue(physical.contains(node), node + " in " + physical);
        }
        assertEquals(4, physical.split("fused into the native LocalGroupAggregate above", -1).length - 1,
                "the view's Calc, both assigners and the computed-column Calc: " + physical);
        List<NativeCalcSpec> specs = RuntimeJobs.nativeSpecs(WatermarkFusionTest.env(true, with, MINI_BATCH),
                AGGREGATE);
        assertEquals(1, specs.size(), specs.toString());
        // the source's rows, only the fields used: kind, the payload, other.ts for the rowtime's NULL check
        assertEquals("reads=[kind, payload.k, payload.v, payload.s, payload.ts, other.ts], exit=rows, bundle=40,"
                + " miniBatch=5ms, batch=16", specs.get(0).explainSummary());
    }

    @Test
    void theMaterializedResultEqualsStock() throws Exception {
        String with = TestRowsFactory.register(WatermarkFusionTest.events(3000, 7, false));
        List<String> stock = run(false, with, MINI_BATCH);
        assertTrue(stock.size() >= 4, stock.toString());
        assertEquals(stock, run(true, with, MINI_BATCH));
    }

    @Test
    void aNullRowtimeFailsTheJobAsStockDoes() {
        String with = TestRowsFactory.register(WatermarkFusionTest.events(200, 3, true));
        String expected = "RowTime field should not be null, please convert it to a non-null long value.";
        for (boolean nativeEnabled : new boolean[] {false, true}) {
            Exception e = assertThrows(Exception.class, () -> run(nativeEnabled, with, MINI_BATCH));
            assertTrue(ExceptionUtils.findThrowableWithMessage(e, expected).isPresent(),
                    (nativeEnabled ? "gatun: " : "stock: ") + ExceptionUtils.stringifyException(e));
        }
    }

    @Test
    void theCostRuleUsesTheAggregateFiguresAndSaysWhy() {
        String with = TestRowsFactory.register(WatermarkFusionTest.events(10, 1, false));
        double measured = CostRule.measured(CostRule.AggregatePlanning.ABSORBED_ASSIGNERS, false);
        String above = String.format(Locale.ROOT, "%.2f", measured + 0.01);
        TableEnvironment tEnv = WatermarkFusionTest.env(true, with, settings(Map.of("gatun.cost.min-speedup", above)));
        tEnv.getConfig().set("gatun.native.force", "false");
        String plan = Gatun.explain(tEnv, AGGREGATE);
        assertTrue(plan.contains(String.format(Locale.ROOT, "cost rule: a local aggregate with its Calc and the"
                + " assigners under it measured %.2fx stock with pipeline.object-reuse=false, below"
                + " gatun.cost.min-speedup=%s", measured, above)), plan);
        tEnv = WatermarkFusionTest.env(true, with, MINI_BATCH);
        tEnv.getConfig().set("gatun.native.force", "false");
        plan = Gatun.explain(tEnv, AGGREGATE);
        assertTrue(plan.contains("FusedMiniBatchAssigner(") && plan.contains("native: LocalGroupAggregate("),
                "native by default (" + measured + "x measured): " + plan);
    }

    @Test
    void anIdleTimeoutKeepsTheAssignersStockSayingWhy() throws Exception {
        String with = TestRowsFactory.register(WatermarkFusionTest.events(500, 5, false));
        Map<String, String> idle = settings(Map.of("table.exec.source.idle-timeout", "5 s"));
        String plan = Gatun.explain(WatermarkFusionTest.env(true, with, idle), AGGREGATE);
        assertTrue(plan.contains("not fused with the MiniBatchAssigner below: table.exec.source.idle-timeout"), plan);
        assertFalse(plan.contains("FusedMiniBatchAssigner("), plan);
        assertEquals(run(false, with, idle), run(true, with, idle));
    }
}
