package dev.gatun.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.nodes.PlanNodesFactory;
import dev.gatun.planner.nodes.StreamExecNativeCalc;
import dev.gatun.planner.nodes.StreamExecNativeWindowAggregate;
import dev.gatun.planner.runtime.IslandOperator;
import dev.gatun.planner.testing.CollectSinkFactory;
import dev.gatun.planner.testing.GatunCounters;
import dev.gatun.planner.testing.Queries;
import dev.gatun.planner.testing.SharedMiniCluster;
import dev.gatun.planner.testing.TestTables;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;
import org.apache.flink.streaming.api.operators.StreamOperatorFactory;
import org.apache.flink.streaming.api.transformations.OneInputTransformation;
import org.apache.flink.streaming.api.transformations.PhysicalTransformation;
import org.apache.flink.table.api.CompiledPlan;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.PlanReference;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableException;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.internal.TableEnvironmentImpl;
import org.apache.flink.table.delegation.InternalPlan;
import org.apache.flink.table.delegation.Planner;
import org.apache.flink.table.factories.Factory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compiled plans ({@code COMPILE PLAN}, {@code EXECUTE PLAN}, {@code compilePlanSql},
 * {@code loadPlan}) carry native Calcs as {@code gatun-stream-exec-native-calc} nodes, run them
 * natively (seen in the operators' {@code gatun.rowsIn} metric), fall back to the stock Calc they
 * carry where native cannot run, and keep the stock Calc's uids.
 */
@ExtendWith(LeakCheckExtension.class)
@ExtendWith(SharedMiniCluster.class)
class CompiledPlanTest {
    private static final String NODE_TYPE = "\"" + StreamExecNativeCalc.TYPE_NAME + "_1\"";
    private static final String SELECT = "SELECT id, a + 1 AS a1, b * 2 AS b2, t.r.z.w + 1 AS w1 FROM t"
            + " WHERE a > 0 AND UPPER(s) <> 'FIG'";
    private static final String SINK_COLUMNS = "(id BIGINT NOT NULL, a1 INT, b2 BIGINT, w1 BIGINT)";

    private static List<String> stockRows;
    private Queries q;

    /** A table environment per test: tests change its tables and configuration. */
    @BeforeEach
    void tables() {
        q = new Queries();
        TestTables.createT(q, "t", 300);
    }

    /** The stock rows of {@link #SELECT}, run once. */
    private List<String> stock() throws Exception {
        if (stockRows == null) {
            stockRows = q.run(SELECT, false);
            assertFalse(stockRows.isEmpty());
        }
        return stockRows;
    }

    /** A fresh sink; returns its id. */
    private String sink(String name) {
        String id = CollectSinkFactory.newId();
        q.sql("CREATE TEMPORARY TABLE " + name + " " + SINK_COLUMNS
                + " WITH ('connector' = 'gatun-test-collect', 'id' = '" + id + "')");
        return id;
    }

    /** Rows the native Calcs of {@code job} read, from their {@code gatun.rowsIn} metrics. */
    private static long nativeRowsIn(JobID job) {
        long rows = 0;
        int counters = 0;
        for (var e : GatunCounters.of(job).entrySet()) {
            if (e.getKey().endsWith(".gatun.rowsIn")) {
                rows += e.getValue().getCount();
                counters++;
            }
        }
        return counters == 0 ? -1 : rows;
    }

    private static JobID await(TableResult result) throws Exception {
        result.await();
        return result.getJobClient().orElseThrow().getJobID();
    }

    @Test
    void aCompiledPlanCarriesTheNativeLocalAggregateAndRunsItNativelyOrStock() throws Exception {
        q.set("table.exec.mini-batch.enabled", "true");
        q.set("table.exec.mini-batch.allow-latency", "1 h");
        q.set("table.exec.mini-batch.size", "19");
        q.set("table.optimizer.agg-phase-strategy", "TWO_PHASE");
        String query = "SELECT MOD(id, 5) AS k, COUNT(*) AS c, SUM(b) AS total FROM t WHERE a > 0 GROUP BY MOD(id, 5)";
        assertTrue(q.explain(query).contains("native: LocalGroupAggregate("), q.explain(query));
        List<String> expected = PlannerModesTest.materialize(q.run(query, false));
        assertFalse(expected.isEmpty());
        for (boolean nativeEnabled : new boolean[] {true, false}) {
            String id = CollectSinkFactory.newId();
            q.sql("DROP TEMPORARY TABLE IF EXISTS agg_sink");
            q.sql("CREATE TEMPORARY TABLE agg_sink (k INT, c BIGINT, total BIGINT)"
                    + " WITH ('connector' = 'gatun-test-collect', 'id' = '" + id + "')");
            String json = q.env().compilePlanSql("INSERT INTO agg_sink " + query).asJsonString();
            assertTrue(json.contains("\"gatun-stream-exec-native-local-group-aggregate_1\"")
                    && json.contains("\"gatun-stream-exec-fused-calc_1\"")
                    && json.contains("\"nativeLocalAggregate\"") && json.contains("\"aggCalls\"")
                    && !json.contains("\"stream-exec-local-group-aggregate_1\""), json);
            q.env().getConfig().set(GatunOptions.NATIVE_ENABLED, nativeEnabled);
            try {
                JobID job = await(q.env().loadPlan(PlanReference.fromJsonString(json)).execute());
                assertEquals(expected, PlannerModesTest.materialize(CollectSinkFactory.take(id)),
                        "native enabled: " + nativeEnabled);
                assertEquals(nativeEnabled, nativeRowsIn(job) > 0, "native enabled: " + nativeEnabled);
            } finally {
                q.env().getConfig().set(GatunOptions.NATIVE_ENABLED, true);
            }
        }
    }

    @Test
    void aCompiledPlanCarriesTheNativeWindowAggregatesAndRunsThemNativelyOrStock() throws Exception {
        q.set("table.optimizer.agg-phase-strategy", "TWO_PHASE");
        q.set("table.local-time-zone", "America/Los_Angeles");
        q.sql("CREATE TEMPORARY TABLE tl (wl AS TO_TIMESTAMP_LTZ(1710000000000 + id * 600000"
                + " - CASE WHEN MOD(id, 9) = 4 THEN 7200000 ELSE 0 END, 3),"
                + " WATERMARK FOR wl AS wl - INTERVAL '30' MINUTE) LIKE t");
        String query = "SELECT window_start, window_end, MOD(id, 5) AS k, COUNT(*) AS c, SUM(b) AS total"
                + " FROM TABLE(HOP(TABLE tl, DESCRIPTOR(wl), INTERVAL '2' HOUR, INTERVAL '6' HOUR)) WHERE a > 0"
                + " GROUP BY window_start, window_end, MOD(id, 5)";
        assertTrue(q.explain(query).contains("native: LocalWindowAggregate(")
                && q.explain(query).contains("native: GlobalWindowAggregate("), q.explain(query));
        List<String> expected = q.run(query, false);
        assertFalse(expected.isEmpty());
        for (boolean nativeEnabled : new boolean[] {true, false}) {
            String id = CollectSinkFactory.newId();
            q.sql("DROP TEMPORARY TABLE IF EXISTS window_sink");
            q.sql("CREATE TEMPORARY TABLE window_sink (ws TIMESTAMP(3), we TIMESTAMP(3), k INT, c BIGINT,"
                    + " total BIGINT) WITH ('connector' = 'gatun-test-collect', 'id' = '" + id + "')");
            // compiled in Los Angeles, executed in UTC: the plan keeps the zone its windows were planned in
            q.set("table.local-time-zone", "America/Los_Angeles");
            String json = q.env().compilePlanSql("INSERT INTO window_sink " + query).asJsonString();
            assertTrue(json.contains("\"gatun-stream-exec-native-local-window-aggregate_1\"")
                    && json.contains("\"nativeLocalAggregate\"") && json.contains("\"windowing\"")
                    && json.contains("HOP(size=21600000ms, slide=7200000ms, zone=America/Los_Angeles)")
                    && !json.contains("\"stream-exec-local-window-aggregate_1\"")
                    && json.contains("\"gatun-stream-exec-native-global-window-aggregate_1\"")
                    && json.contains("\"namedWindowProperties\"")
                    && !json.contains("\"stream-exec-global-window-aggregate_1\"")
                    // the Calc above (window_start first) runs in the global aggregate's exit, or stock with it
                    && json.contains("\"exitProjection\"") && json.contains("\"gatun-stream-exec-fused-calc_1\""),
                    json);
            q.set("table.local-time-zone", "UTC");
            q.env().getConfig().set(GatunOptions.NATIVE_ENABLED, nativeEnabled);
            try {
                JobID job = await(q.env().loadPlan(PlanReference.fromJsonString(json)).execute());
                List<String> rows = new ArrayList<>(CollectSinkFactory.take(id));
                rows.sort(null);
                assertEquals(expected, rows, "native enabled: " + nativeEnabled);
                assertEquals(nativeEnabled, nativeRowsIn(job) > 0, "native enabled: " + nativeEnabled);
                assertEquals(nativeEnabled, GatunCounters.of(job).entrySet().stream().anyMatch(e -> e.getKey()
                        .contains("GlobalWindowAggregate") && e.getKey().endsWith(".gatun.rowsIn")
                        && e.getValue().getCount() > 0), "the native global window aggregate ran: " + nativeEnabled);
            } finally {
                q.env().getConfig().set(GatunOptions.NATIVE_ENABLED, true);
            }
        }
    }

    /**
     * A one-phase window aggregate is a {@code gatun-stream-exec-native-window-aggregate_1} node: it runs
     * natively, or as the stock node it carries with Gatun disabled, and keeps the stock node's uid (also
     * with a uid format that names the node type).
     */
    @Test
    void aCompiledPlanCarriesTheNativeOnePhaseWindowAggregateAndRunsItNativelyOrStock() throws Exception {
        q.set("table.optimizer.agg-phase-strategy", "ONE_PHASE");
        q.sql("CREATE TEMPORARY TABLE tw (wts AS COALESCE(ts, TIMESTAMP '2000-01-01 00:00:00'),"
                + " WATERMARK FOR wts AS wts - INTERVAL '1' SECOND) LIKE t");
        String query = "SELECT window_start, window_end, MOD(id, 5) AS k, COUNT(*) AS c, SUM(b) AS total"
                + " FROM TABLE(CUMULATE(TABLE tw, DESCRIPTOR(wts), INTERVAL '6' HOUR, INTERVAL '1' DAY)) WHERE a > 0"
                + " GROUP BY window_start, window_end, MOD(id, 5)";
        String explain = q.explain(query);
        assertTrue(explain.contains("native: WindowAggregate(") && !explain.contains("LocalWindowAggregate("),
                explain);
        List<String> expected = q.run(query, false);
        expected.sort(null);
        assertFalse(expected.isEmpty());
        String node = "\"" + StreamExecNativeWindowAggregate.TYPE_NAME + "_1\"";
        String json = null;
        for (boolean nativeEnabled : new boolean[] {true, false}) {
            String id = CollectSinkFactory.newId();
            q.sql("DROP TEMPORARY TABLE IF EXISTS window_sink");
            q.sql("CREATE TEMPORARY TABLE window_sink (ws TIMESTAMP(3), we TIMESTAMP(3), k INT, c BIGINT,"
                    + " total BIGINT) WITH ('connector' = 'gatun-test-collect', 'id' = '" + id + "')");
            ExecNodeContext.resetIdCounter();
            json = q.env().compilePlanSql("INSERT INTO window_sink " + query).asJsonString();
            assertTrue(json.contains(node) && json.contains("\"nativeLocalAggregate\"")
                    && json.contains("CUMULATE(size=86400000ms, step=21600000ms)")
                    && !json.contains("\"stream-exec-window-aggregate_1\""), json);
            q.env().getConfig().set(GatunOptions.NATIVE_ENABLED, nativeEnabled);
            try {
                JobID job = await(q.env().loadPlan(PlanReference.fromJsonString(json)).execute());
                List<String> rows = new ArrayList<>(CollectSinkFactory.take(id));
                rows.sort(null);
                assertEquals(expected, rows, "native enabled: " + nativeEnabled);
                assertEquals(nativeEnabled, GatunCounters.of(job).entrySet().stream().anyMatch(e -> e.getKey()
                        .contains("NativeWindowAggregate") && e.getKey().endsWith(".gatun.rowsIn")
                        && e.getValue().getCount() > 0), "the native window aggregate ran: " + nativeEnabled);
            } finally {
                q.env().getConfig().set(GatunOptions.NATIVE_ENABLED, true);
            }
        }
        q.set(GatunOptions.NATIVE_ENABLED.key(), "false");
        String stockJson;
        try {
            ExecNodeContext.resetIdCounter();
            stockJson = q.env().compilePlanSql("INSERT INTO window_sink " + query).asJsonString();
        } finally {
            q.set(GatunOptions.NATIVE_ENABLED.key(), "true");
        }
        assertTrue(stockJson.contains("\"stream-exec-window-aggregate_1\"") && !stockJson.contains(node), stockJson);
        for (String format : List.of("<id>_<transformation>", "<id>_<type>_<version>_<transformation>")) {
            q.set("table.exec.uid.format", format);
            List<String> stockUids = uids(translate(q.env(), stockJson));
            String windowUid = format.contains("<type>") ? "_stream-exec-window-aggregate_1_window-aggregate"
                    : "_window-aggregate";
            assertTrue(stockUids.stream().anyMatch(u -> u.endsWith(windowUid)), stockUids.toString());
            assertEquals(stockUids, uids(translate(q.env(), json)), format);
        }
    }

    @Test
    void compilePlanSqlCarriesTheNativeCalcAndLoadPlanRunsItNatively() throws Exception {
        String id = sink("compiled_sink");
        String json = q.env().compilePlanSql("INSERT INTO compiled_sink " + SELECT).asJsonString();
        assertTrue(json.contains(NODE_TYPE), json);
        assertFalse(json.contains("\"stream-exec-calc_1\""), "the Calc stayed stock: " + json);
        for (String field : List.of("\"nativeCalc\"", "\"substraitPlan\"", "\"readPaths\"", "\"inputType\"",
                "\"projection\"", "\"condition\"")) {
            assertTrue(json.contains(field), field + " missing: " + json);
        }

        CompiledPlan restored = q.env().loadPlan(PlanReference.fromJsonString(json));
        JobID job = await(restored.execute());
        assertEquals(stock(), CollectSinkFactory.take(id));
        assertTrue(nativeRowsIn(job) > 0, "the native Calc did not run: " + nativeRowsIn(job));
        // a plan read back writes the same JSON
        assertEquals(json, restored.asJsonString());
    }

    /** A plan compiled before the batch group limit existed (no {@code groupLimit} in its spec) still loads and runs natively. */
    @Test
    void aPlanWithoutTheGroupLimitFieldRunsNatively() throws Exception {
        String id = sink("no_limit_sink");
        String json = q.env().compilePlanSql("INSERT INTO no_limit_sink " + SELECT).asJsonString();
        String older = json.replaceAll(",\\s*\"groupLimit\"\\s*:\\s*0", "");
        assertTrue(json.contains("\"groupLimit\"") && !older.contains("\"groupLimit\""), json);
        JobID job = await(q.env().loadPlan(PlanReference.fromJsonString(older)).execute());
        assertEquals(stock(), CollectSinkFactory.take(id));
        assertTrue(nativeRowsIn(job) > 0, "the native Calc did not run: " + nativeRowsIn(job));
    }

    @Test
    void compileAndExecutePlanStatementsRunNatively(@TempDir Path dir) throws Exception {
        String id = sink("statement_sink");
        Path file = dir.resolve("plan.json");
        q.sql("COMPILE PLAN '" + file + "' FOR INSERT INTO statement_sink " + SELECT);
        assertTrue(Files.readString(file).contains(NODE_TYPE));

        JobID job = await(q.env().executeSql("EXECUTE PLAN '" + file + "'"));
        assertEquals(stock(), CollectSinkFactory.take(id));
        assertTrue(nativeRowsIn(job) > 0, "the native Calc did not run: " + nativeRowsIn(job));
    }

    @Test
    void aCompiledPlanExecutedWithGatunDisabledRunsTheStockCalc() throws Exception {
        String id = sink("disabled_sink");
        String json = q.env().compilePlanSql("INSERT INTO disabled_sink " + SELECT).asJsonString();
        assertTrue(json.contains(NODE_TYPE), json);
        q.set(GatunOptions.NATIVE_ENABLED.key(), "false");
        try {
            assertFalse(hasNativeOperator(translate(q.env(), json)));
            JobID job = await(q.env().loadPlan(PlanReference.fromJsonString(json)).execute());
            assertEquals(stock(), CollectSinkFactory.take(id));
            assertEquals(-1, nativeRowsIn(job), "a native Calc ran");
        } finally {
            q.set(GatunOptions.NATIVE_ENABLED.key(), "true");
        }
    }

    @Test
    void aSubstraitPlanTheLibraryRefusesRunsTheStockCalc() throws Exception {
        String id = sink("refused_sink");
        String json = q.env().compilePlanSql("INSERT INTO refused_sink " + SELECT).asJsonString();
        Matcher plan = Pattern.compile("\"substraitPlan\"\\s*:\\s*\"([^\"]+)\"").matcher(json);
        assertTrue(plan.find(), json);
        String garbage = Base64.getEncoder().encodeToString("not a Substrait plan".getBytes(StandardCharsets.UTF_8));
        String tampered = json.substring(0, plan.start(1)) + garbage + json.substring(plan.end(1));

        assertFalse(hasNativeOperator(translate(q.env(), tampered)));
        JobID job = await(q.env().loadPlan(PlanReference.fromJsonString(tampered)).execute());
        assertEquals(stock(), CollectSinkFactory.take(id));
        assertEquals(-1, nativeRowsIn(job), "a native Calc ran");
    }

    @Test
    void theNativeCalcKeepsTheUidsAndOperatorsOfTheStockCompiledPlan() {
        sink("uid_sink");
        String insert = "INSERT INTO uid_sink " + SELECT;
        q.set(GatunOptions.NATIVE_ENABLED.key(), "false");
        String stockJson;
        try {
            // compiled node ids come from a JVM-wide counter: start both plans from the same id
            ExecNodeContext.resetIdCounter();
            stockJson = q.env().compilePlanSql(insert).asJsonString();
        } finally {
            q.set(GatunOptions.NATIVE_ENABLED.key(), "true");
        }
        ExecNodeContext.resetIdCounter();
        String nativeJson = q.env().compilePlanSql(insert).asJsonString();
        assertFalse(stockJson.contains(NODE_TYPE), stockJson);
        assertTrue(nativeJson.contains(NODE_TYPE), nativeJson);

        // the default uid format, and one that names the node type (stream-exec-calc for both)
        for (String format : List.of("<id>_<transformation>", "<id>_<type>_<version>_<transformation>")) {
            q.set("table.exec.uid.format", format);
            List<Transformation<?>> stockPlan = translate(q.env(), stockJson);
            List<Transformation<?>> nativePlan = translate(q.env(), nativeJson);
            assertFalse(hasNativeOperator(stockPlan));
            assertTrue(hasNativeOperator(nativePlan));
            List<String> stockUids = uids(stockPlan);
            String calcUid = format.contains("<type>") ? "_stream-exec-calc_1_calc" : "_calc";
            assertTrue(stockUids.stream().anyMatch(u -> u.endsWith(calcUid)), stockUids.toString());
            assertEquals(stockUids, uids(nativePlan), format);
        }
    }

    /**
     * What Flink says when a plan names a node type it has no class for: a node version this Gatun
     * does not know here, and equally any Gatun node where Gatun is not on the class path. Flink's
     * message quotes the whole plan (so the type is in it); its cause points at the node.
     */
    @Test
    void aPlanNamingAnUnknownGatunNodeVersionFailsAtLoadQuotingIt() {
        sink("unknown_sink");
        String json = q.env().compilePlanSql("INSERT INTO unknown_sink " + SELECT).asJsonString();
        String future = json.replace(NODE_TYPE, "\"" + StreamExecNativeCalc.TYPE_NAME + "_99\"");
        TableException e = assertThrows(TableException.class,
                () -> q.env().loadPlan(PlanReference.fromJsonString(future)));
        assertTrue(e.getMessage().startsWith("Cannot load Plan")
                && e.getMessage().contains(StreamExecNativeCalc.TYPE_NAME + "_99"), e.getMessage());
        assertTrue(String.valueOf(e.getCause()).contains("JsonPlanGraph[\"nodes\"]"), String.valueOf(e.getCause()));
    }

    @Test
    void aTableEnvironmentThatNeverEnabledGatunRunsNativePlans() throws Exception {
        // Flink's factory discovery instantiates Gatun's service entry, which registers the node type
        Factory entry = FactoryUtil.discoverFactory(Thread.currentThread().getContextClassLoader(), Factory.class,
                "gatun-plan-nodes");
        assertInstanceOf(PlanNodesFactory.class, entry);

        String id = sink("plain_sink");
        String json = q.env().compilePlanSql("INSERT INTO plain_sink " + SELECT).asJsonString();
        List<String> expected = stock();
        TableEnvironment plain = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        plain.getConfig().set("parallelism.default", "1");
        // the plan names temporary tables: the reading environment declares them too
        TestTables.createT(plain, "t", 300);
        plain.executeSql("CREATE TEMPORARY TABLE plain_sink " + SINK_COLUMNS
                + " WITH ('connector' = 'gatun-test-collect', 'id' = '" + id + "')");
        assertTrue(hasNativeOperator(translate(plain, json)));
        JobID job = await(plain.loadPlan(PlanReference.fromJsonString(json)).execute());
        assertEquals(expected, CollectSinkFactory.take(id));
        assertTrue(nativeRowsIn(job) > 0, "the native Calc did not run: " + nativeRowsIn(job));
    }

    private static List<Transformation<?>> translate(TableEnvironment env, String json) {
        Planner planner = ((TableEnvironmentImpl) env).getPlanner();
        try {
            InternalPlan plan = planner.loadPlan(PlanReference.fromJsonString(json));
            return planner.translatePlan(plan);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Every transformation from the sinks back to the sources, depth first. */
    private static List<Transformation<?>> all(List<Transformation<?>> sinks) {
        List<Transformation<?>> out = new ArrayList<>();
        for (Transformation<?> sink : sinks) {
            collect(sink, out);
        }
        return out;
    }

    private static void collect(Transformation<?> t, List<Transformation<?>> out) {
        out.add(t);
        for (Transformation<?> input : t.getInputs()) {
            collect(input, out);
        }
    }

    /**
     * The uids of the transformations that become operators; virtual ones (such as the borrowing
     * entry edge in front of a native Calc) carry no state and no uid.
     */
    private static List<String> uids(List<Transformation<?>> sinks) {
        return all(sinks).stream().filter(t -> t instanceof PhysicalTransformation<?>)
                .map(Transformation::getUid).toList();
    }

    private static boolean hasNativeOperator(List<Transformation<?>> sinks) {
        for (Transformation<?> t : all(sinks)) {
            if (t instanceof OneInputTransformation<?, ?> one) {
                StreamOperatorFactory<?> factory = one.getOperatorFactory();
                if (factory instanceof SimpleOperatorFactory<?> simple
                        && simple.getOperator() instanceof IslandOperator) {
                    return true;
                }
            }
        }
        return false;
    }
}
