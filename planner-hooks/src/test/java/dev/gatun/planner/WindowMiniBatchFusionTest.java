package dev.gatun.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.runtime.NativeCalcSpec;
import dev.gatun.planner.testing.RuntimeJobs;
import dev.gatun.planner.testing.SharedMiniCluster;
import dev.gatun.planner.testing.TestRowsFactory;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A two-phase window aggregate over a view of a wide event table whose rowtime is a computed column,
 * with mini-batch on (the Nexmark windowed shape): the local window aggregate, the view's Calc, the
 * row-time MiniBatchAssigner, the WatermarkAssigner and the computed-column Calc run as ONE native
 * island that reads the source's rows and computes the watermarks the assigners would forward.
 * With {@code pipeline.auto-watermark-interval = 0} the watermarks depend on the rows only, so the
 * windows (late rows dropped) must equal stock's exactly.
 */
@ExtendWith(LeakCheckExtension.class)
@ExtendWith(SharedMiniCluster.class)
class WindowMiniBatchFusionTest {
    private static final Map<String, String> SETTINGS = Map.of(
            "table.exec.mini-batch.enabled", "true",
            "table.exec.mini-batch.allow-latency", "1 s",
            "table.exec.mini-batch.size", "1000",
            "table.optimizer.agg-phase-strategy", "TWO_PHASE",
            "pipeline.auto-watermark-interval", "0 ms",
            "gatun.batch.rows", "64");
    private static final String HOPS = "SELECT window_start, window_end, COUNT(*) AS c, MAX(v2) AS top"
            + " FROM TABLE(HOP(TABLE v, DESCRIPTOR(`rowtime`), INTERVAL '2' SECOND, INTERVAL '6' SECOND))"
            + " GROUP BY window_start, window_end";
    private static final String OFFSET = "SELECT window_start, window_end, k, COUNT(*) AS c"
            + " FROM TABLE(TUMBLE(TABLE v, DESCRIPTOR(`rowtime`), INTERVAL '5' SECOND, INTERVAL '2' SECOND))"
            + " GROUP BY window_start, window_end, k";

    private static String physical(String with, String query) {
        String plan = Gatun.explain(WatermarkFusionTest.env(true, with, SETTINGS), query);
        return plan.substring(plan.indexOf("== Optimized Physical Plan =="),
                plan.indexOf("== Optimized Execution Plan =="));
    }

    @Test
    void theLocalWindowAggregateAbsorbsBothAssignersAndTheComputedColumns() {
        String with = TestRowsFactory.register(WatermarkFusionTest.events(10, 1, false));
        // the source's rows, only the fields used: kind, the payload's, other.ts for the rowtime's NULL check
        Map<String, String> reads = Map.of(WatermarkFusionTest.WINDOWS, "[kind, payload.k, payload.v, payload.ts, other.ts]",
                HOPS, "[kind, payload.v, payload.ts, other.ts]");
        for (String query : List.of(WatermarkFusionTest.WINDOWS, HOPS)) {
            String physical = physical(with, query);
            for (String node : List.of("FusedMiniBatchAssigner(", "FusedWatermarkAssigner(", "FusedCalc(")) {
                assertTrue(physical.contains(node), node + " in " + physical);
            }
            assertEquals(4, physical.split("fused into the native LocalWindowAggregate above", -1).length - 1,
                    "the view's Calc, both assigners and the computed-column Calc: " + physical);
            List<NativeCalcSpec> local = RuntimeJobs.nativeSpecs(WatermarkFusionTest.env(true, with, SETTINGS), query)
                    .stream().filter(NativeCalcSpec::localAggregate).toList();
            assertEquals(1, local.size(), local.toString());
            assertTrue(local.get(0).assignsWatermarks() && local.get(0).miniBatchIntervalMillis() == 1_000,
                    local.get(0).explainSummary());
            assertTrue(local.get(0).explainSummary().startsWith("reads=" + reads.get(query) + ", watermarks, exit=rows,"),
                    local.get(0).explainSummary());
        }
    }

    @Test
    void theWindowsEqualStocksLateRowsIncluded() throws Exception {
        String with = TestRowsFactory.register(WatermarkFusionTest.events(3000, 7, false));
        for (String query : List.of(WatermarkFusionTest.WINDOWS, HOPS)) {
            List<String> stock = WatermarkFusionTest.run(false, with, SETTINGS, query);
            assertTrue(stock.size() > 100, stock.toString());
            assertEquals(stock, WatermarkFusionTest.run(true, with, SETTINGS, query), query);
        }
    }

    /**
     * Without chaining, the island (at the lowest absorbed node) and each node above it are tasks of
     * their own: the groups cross the network typed as the island's output, the source rows typed as
     * the source's.
     */
    @Test
    void withoutOperatorChainingTheWindowsEqualStocksToo() throws Exception {
        String with = TestRowsFactory.register(WatermarkFusionTest.events(3000, 7, false));
        Map<String, String> unchained = new java.util.HashMap<>(SETTINGS);
        unchained.put("pipeline.operator-chaining.enabled", "false");
        List<String> stock = WatermarkFusionTest.run(false, with, unchained, WatermarkFusionTest.WINDOWS);
        assertTrue(stock.size() > 100, stock.toString());
        assertEquals(stock, WatermarkFusionTest.run(true, with, unchained, WatermarkFusionTest.WINDOWS));
    }

    @Test
    void aMisalignedWindowKeepsTheAssignersStockSayingWhy() throws Exception {
        String with = TestRowsFactory.register(WatermarkFusionTest.events(3000, 7, false));
        String plan = Gatun.explain(WatermarkFusionTest.env(true, with, SETTINGS), OFFSET);
        assertTrue(plan.contains("not fused with the MiniBatchAssigner below: a window whose slice ends are not"
                + " the trigger points of Flink's window buffer needs every watermark"), plan);
        assertFalse(plan.contains("FusedMiniBatchAssigner("), plan);
        assertTrue(plan.contains("native: LocalWindowAggregate("), plan);
        List<String> stock = WatermarkFusionTest.run(false, with, SETTINGS, OFFSET);
        assertFalse(stock.isEmpty());
        assertEquals(stock, WatermarkFusionTest.run(true, with, SETTINGS, OFFSET));
    }
}
