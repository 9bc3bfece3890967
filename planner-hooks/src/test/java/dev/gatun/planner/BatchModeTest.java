package dev.gatun.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.configured.GatunFromConfiguration;
import dev.gatun.planner.nodes.BatchExecNativeCalc;
import dev.gatun.planner.rewrite.CalcDecision;
import dev.gatun.planner.rewrite.CostRule;
import dev.gatun.planner.runtime.IslandOperator;
import dev.gatun.planner.runtime.NativeCalcSpec;
import dev.gatun.planner.testing.CollectSinkFactory;
import dev.gatun.planner.testing.GatunCounters;
import dev.gatun.planner.testing.Queries;
import dev.gatun.planner.testing.ReusedRowSourceFactory;
import dev.gatun.planner.testing.SharedMiniCluster;
import dev.gatun.planner.testing.TestTables;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.runtime.OperatorIDPair;
import org.apache.flink.runtime.jobgraph.JobVertex;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.PlanReference;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamStatementSet;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Batch mode ({@code execution.runtime-mode: batch}): a {@code BatchPhysicalCalc} becomes a native
 * island with the streaming admission, reasons and cost rule, the island runs with stock's results,
 * and its input edge is Flink's own (no entry borrowing: batch jobs always reuse objects). Part of
 * the flink-smoke subset, so it also runs against the other Flink version.
 */
@Tag("flink-smoke")
@ExtendWith(LeakCheckExtension.class)
@ExtendWith(SharedMiniCluster.class)
class BatchModeTest {
    private static final String NATIVE_QUERY = "SELECT id, a + 1, UPPER(s) FROM t WHERE a > 0";
    private static Queries batch;

    @BeforeAll
    static void tables() {
        batch = new Queries(EnvironmentSettings.inBatchMode());
        TestTables.createT(batch, "t", 200);
        TestTables.createT(batch, "t2", 150);
        batch.sql("CREATE TEMPORARY TABLE reused (" + ReusedRowSourceFactory.COLUMNS
                + ") WITH ('connector' = 'gatun-test-reused', 'rows' = '3000')");
    }

    @Test
    void aBatchCalcRunsAsANativeIslandWithStockResults() throws Exception {
        String plan = batch.explain(NATIVE_QUERY);
        assertTrue(plan.contains("NativeCalc(") && plan.contains("== Gatun ==\nnative: Calc("), plan);
        List<CalcDecision> decisions = batch.decisions(NATIVE_QUERY);
        assertEquals(1, decisions.size(), decisions.toString());
        NativeCalcSpec spec = decisions.get(0).spec();
        assertEquals(0, spec.latencyMillis(), "a batch island needs no latency timer: its input ends");
        assertTrue(spec.insertOnlyInput() && !spec.assignsWatermarks(), spec.explainSummary());

        List<String> stock = batch.runAll(List.of(NATIVE_QUERY), false, null).get(NATIVE_QUERY);
        List<String> gatun = batch.runAll(List.of(NATIVE_QUERY), true, null).get(NATIVE_QUERY);
        assertFalse(stock.isEmpty());
        assertEquals(stock, gatun);
        assertEquals(200, rowsIn(batch), "the island read every row of t");
    }

    @Test
    void aCalcWithoutATranslationStaysStockWithItsReason() throws Exception {
        String sql = "SELECT id, MD5(s), a + 1 FROM t";
        String plan = batch.explain(sql);
        assertTrue(plan.contains("stock (MD5(STRING) has no native translation): Calc("), plan);
        assertFalse(plan.contains("NativeCalc("), plan);
        assertEquals(batch.run(sql, false), batch.run(sql, true));
    }

    @Test
    void theCostRuleUsesTheBatchMeasurementsAndSaysBatchMode() {
        Map<String, CostRule.Shape> shapes = new LinkedHashMap<>();
        shapes.put("SELECT id, b * 0.908 FROM t WHERE a > 0", CostRule.Shape.CHEAP_PROJECTION);
        shapes.put("SELECT id, a FROM t WHERE a % 123 = 0", CostRule.Shape.CHEAP_FILTER);
        shapes.put("SELECT id, UPPER(s), a + 1 FROM t", CostRule.Shape.STRINGS);
        shapes.put("SELECT id, EXTRACT(YEAR FROM ts) FROM t", CostRule.Shape.OTHER);
        batch.set("gatun.native.force", "false");
        try {
            for (var e : shapes.entrySet()) {
                String sql = e.getKey();
                double measured = CostRule.measured(e.getValue(), CostRule.Planning.BATCH_FLAT, false).orElseThrow();
                batch.set("gatun.cost.min-speedup", String.format(Locale.ROOT, "%.2f", measured + 0.01));
                String rejected = batch.explain(sql);
                assertTrue(rejected.contains(String.format(Locale.ROOT, "stock (cost rule: a Calc of %s measured %.2fx"
                        + " stock in batch mode (where Flink always reuses objects)", e.getValue().description(),
                        measured)), rejected);
                batch.set("gatun.cost.min-speedup", String.format(Locale.ROOT, "%.2f", Math.max(0, measured - 0.01)));
                assertTrue(batch.explain(sql).contains("native: Calc("), batch.explain(sql));
                batch.set("gatun.cost.min-speedup", "1.10");
                String byDefault = batch.explain(sql);
                assertEquals(measured >= 1.10, byDefault.contains("native: Calc("), byDefault);
            }
        } finally {
            batch.set("gatun.cost.min-speedup", "1.10");
            batch.set("gatun.native.force", "true");
        }
    }

    /** By default (no force switch) a batch filter reading ROW fields goes native; the same filter over flat columns stays stock. */
    @Test
    void byDefaultABatchFilterGoesNativeOnlyWhenItReadsRowFields() {
        String nested = "SELECT id, t.r.x FROM t WHERE t.r.x > 3";
        String flat = "SELECT id, a FROM t WHERE a > 3";
        batch.set("gatun.native.force", "false");
        try {
            String nestedPlan = batch.explain(nested);
            assertTrue(nestedPlan.contains("native: Calc("), nestedPlan);
            String flatPlan = batch.explain(flat);
            assertTrue(flatPlan.contains(String.format(Locale.ROOT, "stock (cost rule: a Calc of %s measured %.2fx stock in"
                    + " batch mode", CostRule.Shape.CHEAP_FILTER.description(), CostRule.measured(
                            CostRule.Shape.CHEAP_FILTER, CostRule.Planning.BATCH_FLAT, false).orElseThrow())), flatPlan);
        } finally {
            batch.set("gatun.native.force", "true");
        }
    }

    /** A compiled batch plan names the batch island's node, and the plan read back runs it with stock's rows. */
    @Test
    void aCompiledBatchPlanKeepsItsIslandAndRunsIt() throws Exception {
        String stockSink = CollectSinkFactory.newId();
        String gatunSink = CollectSinkFactory.newId();
        for (String[] sink : new String[][] {{"compiled_stock", stockSink}, {"compiled_gatun", gatunSink}}) {
            batch.sql("CREATE TEMPORARY TABLE " + sink[0] + " (id BIGINT NOT NULL, a1 INT, s STRING)"
                    + " WITH ('connector' = 'gatun-test-collect', 'id' = '" + sink[1] + "')");
        }
        batch.set("gatun.native.enabled", "false");
        try {
            batch.env().executeSql("INSERT INTO compiled_stock " + NATIVE_QUERY).await();
        } finally {
            batch.set("gatun.native.enabled", "true");
        }
        String json = batch.env().compilePlanSql("INSERT INTO compiled_gatun " + NATIVE_QUERY).asJsonString();
        assertTrue(json.contains("\"" + BatchExecNativeCalc.TYPE_NAME + "_1\""), json);
        assertFalse(json.contains("\"batch-exec-calc_1\""), "the Calc stayed stock: " + json);
        assertTrue(json.contains("\"nativeCalc\"") && json.contains("\"substraitPlan\""), json);
        TableResult result = batch.env().loadPlan(PlanReference.fromJsonString(json)).execute();
        result.await();
        assertEquals(200, GatunCounters.of(result.getJobClient().orElseThrow().getJobID()).entrySet().stream()
                .filter(e -> e.getKey().endsWith(".gatun.rowsIn")).mapToLong(e -> e.getValue().getCount()).sum());
        List<String> expected = CollectSinkFactory.take(stockSink);
        assertFalse(expected.isEmpty());
        assertEquals(expected, CollectSinkFactory.take(gatunSink));
    }

    /** A broadcast join and its probe side become one Flink multiple-input operator; the island inside it runs. */
    @Test
    void islandsInsideABatchMultipleInputOperatorRunWithStockResults() throws Exception {
        // a broadcast join, planned as such (not adaptively): its probe side's island joins the operator
        String sql = "SELECT /*+ BROADCAST(r) */ l.id, l.a + 1, UPPER(r.s) FROM (SELECT id, a FROM t WHERE a > 0) l"
                + " JOIN (SELECT id, s FROM t2 WHERE s LIKE '%a%') r ON l.id = r.id";
        batch.set("table.optimizer.adaptive-broadcast-join.strategy", "none");
        try {
            String plan = batch.explain(sql);
            String execution = plan.substring(plan.indexOf("== Optimized Execution Plan =="));
            assertTrue(execution.contains("MultipleInput(") && execution.contains("NativeCalc("), plan);
            assertTrue(batch.decisions(sql).stream().allMatch(CalcDecision::isNative), plan);
            List<String> stock = batch.run(sql, false);
            assertFalse(stock.isEmpty());
            assertEquals(stock, batch.run(sql, true));
            // with Flink's operator-fusion code generation on, the island (no generated code) keeps
            // the multiple-input operator unfused, and it still runs
            batch.set("table.exec.operator-fusion-codegen.enabled", "true");
            assertEquals(stock, batch.runAll(List.of(sql), true, null).get(sql));
            assertEquals(3, GatunCounters.of(batch.lastJob()).entrySet().stream()
                    .filter(e -> e.getKey().endsWith(".gatun.rowsIn") && e.getValue().getCount() > 0).count(),
                    "every island of the plan ran: " + GatunCounters.of(batch.lastJob()).keySet());
        } finally {
            batch.set("table.exec.operator-fusion-codegen.enabled", "false");
            batch.set("table.optimizer.adaptive-broadcast-join.strategy", "auto");
        }
    }

    @Test
    void theConfigurationPathPlansBatchIslandsAndPutsReasonsIntoFlinksExplain() {
        Configuration conf = new Configuration();
        conf.setString("gatun.native.enabled", "true");
        conf.setString("gatun.native.force", "true");
        TableEnvironment tEnv = TableEnvironment.create(
                EnvironmentSettings.newInstance().inBatchMode().withConfiguration(conf).build());
        assertTrue(GatunFromConfiguration.apply(tEnv.getConfig()));
        TestTables.createT(tEnv, "t", 10);
        String plan = tEnv.explainSql("SELECT id, MD5(s) FROM t WHERE a > 0 UNION ALL SELECT id, UPPER(s) FROM t");
        assertTrue(plan.contains("NativeCalc("), plan);
        assertTrue(plan.contains("gatun=[stock: MD5(STRING) has no native translation]"), plan);
    }

    /**
     * Entry borrowing skips the copy Flink makes into a chained consumer when object reuse is off.
     * Flink's batch executor turns object reuse on for every batch job whatever
     * {@code pipeline.object-reuse} says, so there is no copy to skip: the batch island keeps Flink's
     * input edge and serializer, and the job graph equals stock's.
     */
    @Test
    void batchJobsReuseObjectsSoTheIslandKeepsFlinksInputEdge() throws Exception {
        batch.set("pipeline.object-reuse", "false");
        String sql = "SELECT id, UPPER(s), r.a + 1, r.b FROM reused WHERE id % 3 <> 0";
        String sink = CollectSinkFactory.newId();
        batch.sql("CREATE TEMPORARY TABLE reuse_probe (id BIGINT, s STRING, a INT, b STRING)"
                + " WITH ('connector' = 'gatun-test-collect', 'id' = '" + sink + "')");
        batch.env().executeSql("INSERT INTO reuse_probe " + sql).await();
        assertEquals(Boolean.TRUE, CollectSinkFactory.takeObjectReuse(sink), "a batch job ran without object reuse");
        CollectSinkFactory.take(sink);
        // the island copies what it reads at once, so a source overwriting one row object is fine
        List<String> stock = batch.run(sql, false);
        assertEquals(2000, stock.size());
        assertEquals(stock, batch.run(sql, true));

        StreamGraph graph = batchStreamGraph(true);
        StreamNode island = graph.getStreamNodes().stream().filter(n -> n.getOperatorName().contains("NativeCalc"))
                .findFirst().orElseThrow(() -> new AssertionError("no island in " + graph.getStreamNodes()));
        assertInstanceOf(RowDataSerializer.class, island.getTypeSerializersIn()[0]);
        assertEquals(jobVertices(batchStreamGraph(false)), jobVertices(graph),
                "the batch island changes the job graph (chains, operator ids)");
    }

    /** The native local hash aggregate and its fused Calc keep the stock operators' ids and chains. */
    @Test
    void aNativeLocalHashAggregateKeepsTheStockJobGraph() {
        String insert = "INSERT INTO agg_out SELECT MOD(id, 5), COUNT(*), SUM(b) FROM t WHERE a > 0 GROUP BY MOD(id, 5)";
        String sink = "CREATE TEMPORARY TABLE agg_out (k INT, c BIGINT, total BIGINT) WITH ('connector' = 'blackhole')";
        StreamGraph graph = batchStreamGraph(true, insert, sink);
        assertTrue(graph.getStreamNodes().stream().anyMatch(n -> n.getOperatorName().contains("LocalHashAggregate")
                        && n.getOperatorFactory() instanceof SimpleOperatorFactory<?> f
                        && f.getOperator() instanceof IslandOperator),
                "no island in " + graph.getStreamNodes());
        assertEquals(jobVertices(batchStreamGraph(false, insert, sink)), jobVertices(graph),
                "the native local aggregate changes the job graph (chains, operator ids)");
    }

    private static StreamGraph batchStreamGraph(boolean nativeEnabled) {
        return batchStreamGraph(nativeEnabled, "INSERT INTO out_t " + NATIVE_QUERY,
                "CREATE TEMPORARY TABLE out_t (id BIGINT, a INT, s STRING) WITH ('connector' = 'blackhole')");
    }

    private static StreamGraph batchStreamGraph(boolean nativeEnabled, String insert, String sinkDdl) {
        Configuration conf = new Configuration();
        conf.setString("parallelism.default", "1");
        conf.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.BATCH);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env, EnvironmentSettings.inBatchMode());
        tEnv.getConfig().set(GatunOptions.FORCE, true);
        assertTrue(Gatun.enable(tEnv));
        tEnv.getConfig().set(GatunOptions.NATIVE_ENABLED, nativeEnabled);
        tEnv.getConfig().set("table.optimizer.agg-phase-strategy", "TWO_PHASE");
        TestTables.createT(tEnv, "t", 10);
        tEnv.executeSql(sinkDdl);
        StreamStatementSet set = tEnv.createStatementSet();
        set.addInsertSql(insert);
        set.attachAsDataStream();
        return env.getStreamGraph();
    }

    /** Each job vertex as the operator ids chained in it, in topological order. */
    private static List<List<String>> jobVertices(StreamGraph graph) {
        return graph.getJobGraph().getVerticesSortedTopologicallyFromSources().stream()
                .map(JobVertex::getOperatorIDs)
                .map(ids -> ids.stream().map(OperatorIDPair::getGeneratedOperatorID).map(Object::toString).toList())
                .toList();
    }

    /** The rows the islands of the job {@code q} ran last read. */
    private static long rowsIn(Queries q) {
        return GatunCounters.of(q.lastJob()).entrySet().stream().filter(e -> e.getKey().endsWith(".gatun.rowsIn"))
                .mapToLong(e -> e.getValue().getCount()).sum();
    }
}
