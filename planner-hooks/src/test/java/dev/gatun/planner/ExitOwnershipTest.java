package dev.gatun.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.runtime.NativeCalcSpec;
import dev.gatun.planner.testing.CollectSinkFactory;
import dev.gatun.planner.testing.RuntimeJobs;
import dev.gatun.planner.testing.SharedMiniCluster;
import dev.gatun.planner.testing.TestRowsFactory;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.api.TableEnvironment;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The rows an island emits stay valid for downstream operators that keep them: Flink's own
 * buffering consumers (a mini-batch two-phase aggregate whose local phase is chained to the island,
 * an event-time window) under both object-reuse settings, and a sink that holds the row objects
 * until it flushes (with object reuse off, where Flink hands it rows it owns). Small native batches
 * ({@code gatun.batch.rows=7}) make every consumer see rows of many result batches.
 */
@ExtendWith(LeakCheckExtension.class)
@ExtendWith(SharedMiniCluster.class)
class ExitOwnershipTest {
    private static final String GROUPED = "SELECT k, COUNT(*) AS c, SUM(v2) AS total, MAX(s) AS top, MIN(s) AS low"
            + " FROM v GROUP BY k";

    private static Map<String, String> settings(boolean objectReuse, Map<String, String> more) {
        Map<String, String> settings = new HashMap<>(more);
        settings.put("pipeline.object-reuse", Boolean.toString(objectReuse));
        settings.put("gatun.batch.rows", "7");
        return settings;
    }

    private static List<String> run(boolean nativeEnabled, String with, Map<String, String> settings, String query,
                                    String sinkOptions) throws Exception {
        TableEnvironment tEnv = WatermarkFusionTest.env(nativeEnabled, with, settings);
        if (nativeEnabled) {
            List<NativeCalcSpec> specs = RuntimeJobs.nativeSpecs(tEnv, query);
            assertTrue(specs.stream().anyMatch(NativeCalcSpec::flinkRowsExit), "no island with the rows exit: " + specs);
        }
        String id = CollectSinkFactory.newId();
        String columns = String.join(", ", tEnv.sqlQuery(query).getResolvedSchema().getColumns().stream()
                .map(c -> "`" + c.getName() + "` " + c.getDataType().getLogicalType().copy(true)
                        .asSerializableString().replace(" *ROWTIME*", "")).toList());
        tEnv.executeSql("CREATE TEMPORARY TABLE out_t (" + columns + ") WITH ('connector' = 'gatun-test-collect',"
                + " 'id' = '" + id + "'" + sinkOptions + ")");
        tEnv.executeSql("INSERT INTO out_t " + query).await();
        RuntimeJobs.awaitNoNativeLeaks(Duration.ofSeconds(10));
        return CollectSinkFactory.take(id);
    }

    @ParameterizedTest(name = "object reuse {0}")
    @ValueSource(booleans = {false, true})
    void aMiniBatchTwoPhaseAggregateChainedToTheIslandGetsStocksResults(boolean objectReuse) throws Exception {
        String with = TestRowsFactory.register(WatermarkFusionTest.events(3000, 11, false));
        Map<String, String> s = settings(objectReuse, Map.of("table.exec.mini-batch.enabled", "true",
                "table.exec.mini-batch.allow-latency", "100 ms", "table.exec.mini-batch.size", "50",
                "table.optimizer.agg-phase-strategy", "TWO_PHASE"));
        String plan = Gatun.explain(WatermarkFusionTest.env(true, with, s), GROUPED);
        assertTrue(plan.contains("LocalGroupAggregate"), plan);
        // mini-batches close on processing time, so compare what the changelogs materialize to
        List<String> gatun = PlannerModesTest.materialize(run(true, with, s, GROUPED, ""));
        List<String> stock = PlannerModesTest.materialize(run(false, with, s, GROUPED, ""));
        assertFalse(stock.isEmpty());
        assertEquals(stock, gatun);
    }

    @ParameterizedTest(name = "object reuse {0}")
    @ValueSource(booleans = {false, true})
    void anEventTimeWindowGetsStocksResults(boolean objectReuse) throws Exception {
        String with = TestRowsFactory.register(WatermarkFusionTest.events(3000, 12, false));
        Map<String, String> s = settings(objectReuse, Map.of("pipeline.auto-watermark-interval", "0 ms"));
        List<String> stock = run(false, with, s, WatermarkFusionTest.WINDOWS, "");
        List<String> gatun = run(true, with, s, WatermarkFusionTest.WINDOWS, "");
        assertFalse(stock.isEmpty());
        assertEquals(stock, gatun);
    }

    @ParameterizedTest(name = "buffered until flush: {0}")
    @ValueSource(booleans = {false, true})
    void aSinkThatHoldsTheRowsItIsHandedGetsStocksRows(boolean buffer) throws Exception {
        String with = TestRowsFactory.register(WatermarkFusionTest.events(2000, 13, false));
        Map<String, String> s = settings(false, Map.of());
        String query = "SELECT * FROM v";
        String options = ", 'buffer' = '" + buffer + "'";
        List<String> stock = run(false, with, s, query, options);
        List<String> gatun = run(true, with, s, query, options);
        assertFalse(stock.isEmpty());
        assertEquals(stock.size(), gatun.size());
        assertTrue(stock.equals(gatun), "the held rows differ from stock's");
    }
}
