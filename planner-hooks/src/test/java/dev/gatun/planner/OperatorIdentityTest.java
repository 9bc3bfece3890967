package dev.gatun.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.planner.runtime.IslandOperator;
import dev.gatun.planner.testing.CommitSinkFactory;
import dev.gatun.planner.testing.PacedSourceFactory;
import dev.gatun.planner.testing.TestRowsFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.OperatorIDPair;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobgraph.JobVertex;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;
import org.apache.flink.table.api.bridge.java.StreamStatementSet;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeContext;
import org.junit.jupiter.api.Test;

/**
 * The job graph of a query with a native Calc has the same operators, operator IDs and chains
 * as stock Flink's, with and without uids ({@code table.exec.uid.generation}), so state in
 * savepoints maps to the same operators either way; also after a legacy (own-thread) source
 * such as {@code VALUES}, where the native Calc chains exactly like the stock one.
 */
class OperatorIdentityTest {
    private static final String PACED = "CREATE TEMPORARY TABLE src (" + PacedSourceFactory.COLUMNS + ") "
            + PacedSourceFactory.with("identity", 10, 0, -1, null);
    private static final String SINK = "CREATE TEMPORARY TABLE sink_t (k INT, c BIGINT, total BIGINT) "
            + CommitSinkFactory.with("identity");
    private static final String AGGREGATE = "INSERT INTO sink_t SELECT k, COUNT(*), SUM(v3) FROM"
            + " (SELECT k, v * 3 + 1 AS v3 FROM src WHERE MOD(id, 5) <> 0) GROUP BY k";
    private static final Map<String, String> WINDOW_MINI_BATCH = Map.of(
            "table.exec.mini-batch.enabled", "true",
            "table.exec.mini-batch.allow-latency", "1 s",
            "table.exec.mini-batch.size", "1000",
            "table.optimizer.agg-phase-strategy", "TWO_PHASE");
    private static final String FROM_VALUES = "INSERT INTO sink_t SELECT k, COUNT(*), SUM(v3) FROM"
            + " (SELECT k, v * 3 + 1 AS v3 FROM (VALUES (1, CAST(2 AS BIGINT)), (2, CAST(5 AS BIGINT))) AS t(k, v)"
            + " WHERE k <> 3) GROUP BY k";

    /**
     * Job vertices in topological order, each as its name and the operator IDs chained in it, and
     * the names of the operators the native islands read from.
     */
    private record Graph(List<String> vertices, List<List<String>> operatorIds, List<String> islandInputs) {}

    private static Graph graph(boolean nativeEnabled, String uidGeneration, String insert) {
        return graph(nativeEnabled, uidGeneration, insert, Map.of(), "NativeCalc(");
    }

    /** As above, with table {@code settings}; a native plan's EXPLAIN shows {@code nativeMarker}. */
    private static Graph graph(boolean nativeEnabled, String uidGeneration, String insert,
                               Map<String, String> settings, String nativeMarker) {
        return graph(nativeEnabled, uidGeneration, List.of(), insert, settings, nativeMarker);
    }

    /** As above, after the statements {@code ddl}; {@code insert} may be several, split by {@code ;}. */
    private static Graph graph(boolean nativeEnabled, String uidGeneration, List<String> ddl, String insert,
                               Map<String, String> settings, String nativeMarker) {
        Configuration conf = new Configuration();
        conf.setString("parallelism.default", "1");
        conf.setString("table.exec.uid.generation", uidGeneration);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        tEnv.getConfig().set("table.exec.uid.generation", uidGeneration);
        tEnv.getConfig().set(GatunOptions.FORCE, true);
        assertTrue(Gatun.enable(tEnv));
        tEnv.getConfig().set(GatunOptions.NATIVE_ENABLED, nativeEnabled);
        settings.forEach(tEnv.getConfig()::set);
        tEnv.executeSql(PACED);
        tEnv.executeSql("CREATE TEMPORARY TABLE srcw (WATERMARK FOR ts AS ts) LIKE src");
        tEnv.executeSql(SINK);
        ddl.forEach(tEnv::executeSql);
        String[] inserts = insert.split(";");
        assertEquals(nativeEnabled, Gatun.explain(tEnv, inserts[0]).contains(nativeMarker));
        StreamStatementSet set = tEnv.createStatementSet();
        for (String one : inserts) {
            set.addInsertSql(one);
        }
        // ALWAYS uids embed exec node ids from a JVM-wide counter; a fresh client JVM starts it at 0
        ExecNodeContext.resetIdCounter();
        set.attachAsDataStream();
        StreamGraph streamGraph = env.getStreamGraph();
        List<String> islandInputs = new ArrayList<>();
        for (StreamNode node : streamGraph.getStreamNodes()) {
            if (node.getOperatorFactory() instanceof SimpleOperatorFactory<?> simple
                    && simple.getOperator() instanceof IslandOperator) {
                node.getInEdges().forEach(e -> islandInputs.add(streamGraph.getSourceVertex(e).getOperatorName()));
            }
        }
        JobGraph jobGraph = streamGraph.getJobGraph();
        List<String> names = new ArrayList<>();
        List<List<String>> ids = new ArrayList<>();
        for (JobVertex v : jobGraph.getVerticesSortedTopologicallyFromSources()) {
            names.add(v.getName());
            ids.add(v.getOperatorIDs().stream().map(OperatorIDPair::getGeneratedOperatorID).map(Object::toString).toList());
        }
        return new Graph(names, ids, islandInputs);
    }

    @Test
    void aNativeCalcKeepsTheOperatorIdsAndChainsOfTheStockCalc() {
        for (String uids : List.of("PLAN_ONLY", "ALWAYS")) {
            Graph stock = graph(false, uids, AGGREGATE);
            Graph gatun = graph(true, uids, AGGREGATE);
            assertEquals(stock.operatorIds(), gatun.operatorIds(), "uid generation " + uids);
            assertEquals(stock.vertices().size(), gatun.vertices().size(), gatun.vertices().toString());
        }
    }

    @Test
    void aNativeLocalAggregateKeepsTheOperatorIdsAndChainsOfTheStockLocalAggregateAndCalc() {
        Map<String, String> twoPhase = Map.of(
                "table.exec.mini-batch.enabled", "true",
                "table.exec.mini-batch.allow-latency", "100 ms",
                "table.exec.mini-batch.size", "100",
                "table.optimizer.agg-phase-strategy", "TWO_PHASE");
        for (String uids : List.of("PLAN_ONLY", "ALWAYS")) {
            Graph stock = graph(false, uids, AGGREGATE, twoPhase, "native: LocalGroupAggregate(");
            Graph gatun = graph(true, uids, AGGREGATE, twoPhase, "native: LocalGroupAggregate(");
            assertEquals(stock.operatorIds(), gatun.operatorIds(), "uid generation " + uids);
            assertEquals(stock.vertices().size(), gatun.vertices().size(), gatun.vertices().toString());
        }
    }

    @Test
    void nativeLocalAndGlobalWindowAggregatesKeepTheOperatorIdsAndChainsOfTheStockOnes() {
        String window = "INSERT INTO sink_t SELECT k, COUNT(*), SUM(v * 3 + 1) FROM TABLE(CUMULATE(TABLE srcw,"
                + " DESCRIPTOR(ts), INTERVAL '10' SECOND, INTERVAL '1' MINUTE)) WHERE MOD(id, 5) <> 0"
                + " GROUP BY window_start, window_end, k";
        Map<String, String> twoPhase = Map.of("table.optimizer.agg-phase-strategy", "TWO_PHASE");
        for (String uids : List.of("PLAN_ONLY", "ALWAYS")) {
            Graph stock = graph(false, uids, window, twoPhase, "native: GlobalWindowAggregate(");
            Graph gatun = graph(true, uids, window, twoPhase, "native: GlobalWindowAggregate(");
            assertEquals(stock.operatorIds(), gatun.operatorIds(), "uid generation " + uids);
            assertEquals(stock.vertices().size(), gatun.vertices().size(), gatun.vertices().toString());
        }
    }

    @Test
    void aNativeOnePhaseWindowAggregateKeepsTheOperatorIdsAndChainsOfTheStockOne() {
        String window = "INSERT INTO sink_t SELECT k, COUNT(*), SUM(v * 3 + 1) FROM TABLE(HOP(TABLE srcw,"
                + " DESCRIPTOR(ts), INTERVAL '10' SECOND, INTERVAL '1' MINUTE)) WHERE MOD(id, 5) <> 0"
                + " GROUP BY window_start, window_end, k";
        Map<String, String> onePhase = Map.of("table.optimizer.agg-phase-strategy", "ONE_PHASE");
        for (String uids : List.of("PLAN_ONLY", "ALWAYS")) {
            Graph stock = graph(false, uids, window, onePhase, "native: WindowAggregate(");
            Graph gatun = graph(true, uids, window, onePhase, "native: WindowAggregate(");
            assertEquals(stock.operatorIds(), gatun.operatorIds(), "uid generation " + uids);
            assertEquals(stock.vertices().size(), gatun.vertices().size(), gatun.vertices().toString());
        }
    }

    /**
     * The Nexmark windowed shape: the local window aggregate absorbed the view's Calc, the row-time
     * mini-batch assigner, the WatermarkAssigner and the computed-column Calc. The island runs at the
     * lowest of them, straight after the source, and the four nodes above hand its groups on.
     */
    @Test
    void aLocalWindowAggregateThatAbsorbedTheAssignersRunsRightAfterTheSourceWithTheStockIds() {
        for (String uids : List.of("PLAN_ONLY", "ALWAYS")) {
            Graph gatun = windowGraphWithStockIds(uids, "INSERT INTO sink_w " + WatermarkFusionTest.WINDOWS);
            assertTrue(gatun.islandInputs().stream().anyMatch(name -> name.startsWith("Source")),
                    "the local island reads the source: " + gatun);
        }
    }

    /**
     * Two window queries of one job over the same view: Flink shares their equal Calc and assigner
     * nodes, each local island keeps running at its top node (the shared nodes hand the source's rows
     * to both), and the job graph is still stock's.
     */
    @Test
    void localWindowAggregatesSharingTheAbsorbedNodesRunAtTheirTopsWithTheStockIds() {
        String both = "INSERT INTO sink_w " + WatermarkFusionTest.WINDOWS + ";INSERT INTO sink_w "
                + WatermarkFusionTest.WINDOWS.replace("SUM(v2)", "MAX(v2)");
        for (String uids : List.of("PLAN_ONLY", "ALWAYS")) {
            Graph gatun = windowGraphWithStockIds(uids, both);
            assertTrue(gatun.islandInputs().stream().filter(name -> name.startsWith("FusedCalc")).count() == 2
                            && gatun.islandInputs().stream().noneMatch(name -> name.startsWith("Source")),
                    "both local islands read the shared nodes: " + gatun);
        }
    }

    /**
     * Gatun's graph of {@code insert} over the wide event table of {@link WatermarkFusionTest} (its view
     * {@code v}, a sink {@code sink_w} for its windows), after checking it has stock's operator IDs and
     * chains; stock's runs no island.
     */
    private static Graph windowGraphWithStockIds(String uids, String insert) {
        String with = TestRowsFactory.register(WatermarkFusionTest.events(10, 1, false));
        List<String> ddl = List.of("CREATE TEMPORARY TABLE ev (" + WatermarkFusionTest.COLUMNS + ") " + with,
                "CREATE TEMPORARY VIEW v AS " + WatermarkFusionTest.VIEW_QUERY,
                "CREATE TEMPORARY TABLE sink_w (ws TIMESTAMP(3), we TIMESTAMP(3), k INT, c BIGINT, total BIGINT)"
                        + " WITH ('connector' = 'blackhole')");
        Graph stock = graph(false, uids, ddl, insert, WINDOW_MINI_BATCH, "FusedWatermarkAssigner(");
        Graph gatun = graph(true, uids, ddl, insert, WINDOW_MINI_BATCH, "FusedWatermarkAssigner(");
        assertEquals(stock.operatorIds(), gatun.operatorIds(), "uid generation " + uids);
        assertEquals(stock.vertices().size(), gatun.vertices().size(), gatun.vertices().toString());
        assertTrue(stock.islandInputs().isEmpty(), stock.toString());
        return gatun;
    }

    @Test
    void afterALegacySourceTheNativeCalcChainsAndKeepsItsIdsToo() {
        for (String uids : List.of("PLAN_ONLY", "ALWAYS")) {
            Graph stock = graph(false, uids, FROM_VALUES);
            Graph gatun = graph(true, uids, FROM_VALUES);
            assertEquals(stock.operatorIds(), gatun.operatorIds(), "uid generation " + uids);
            assertEquals(stock.vertices().size(), gatun.vertices().size(), gatun.vertices().toString());
        }
    }
}
