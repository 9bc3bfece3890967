package dev.gatun.bench.e2e;

import dev.gatun.bench.probe.TaskCpu;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.bench.nexmark.Nexmark;
import dev.gatun.bench.nexmark.NexmarkEventSourceFactory;
import dev.gatun.bench.nexmark.NexmarkGenerator;
import dev.gatun.bench.rows.RowFormat;
import dev.gatun.bench.rows.RowShape;
import dev.gatun.bench.rows.Shapes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.ValidationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The source and sink connectors in a real (tiny) Flink job, and every query on both engines; no timing. */
class E2eJobTest {
    private static final long ROWS = 2000;
    /** Nexmark events per job when the engines are compared: 200 epochs, q2's MOD(auction, 123) = 0 matches. */
    private static final long EVENTS = 10_000;

    /**
     * The queries whose Calc stays on Flink even under {@code gatun.native.force} (none today).
     * The one list to change: a query listed here must stay stock, every other one must run native.
     */
    static final Set<String> EXPECTED_STOCK_UNDER_FORCE = Set.of();

    private static Checksums.Checksum run(String sql, String key, RowFormat format) throws Exception {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tEnv.getConfig().set("parallelism.default", "1");
        tEnv.executeSql(NexmarkSourceFactory.createTableDdl("bid", Shapes.BID, ROWS, 42, format));
        tEnv.executeSql("CREATE TEMPORARY TABLE sink (" + NexmarkSourceFactory.columnsDdl(Shapes.BID)
                + ") WITH ('connector' = 'gatun-blackhole', 'key' = '" + key + "')");
        tEnv.executeSql("INSERT INTO sink " + sql).await();
        assertTrue(TaskCpu.take(key) > 0, "the sink records its task thread's CPU time");
        assertEquals(Boolean.FALSE, Checksums.takeObjectReuse(key), "object reuse is off by default");
        return Checksums.take(key);
    }

    @Test
    void theSinkSeesExactlyTheGeneratedRows() throws Exception {
        RowHasher hasher = RowHasher.of(Shapes.BID.rowType());
        long expected = 0;
        for (long i = 0; i < ROWS; i++) {
            expected += hasher.hash(Shapes.BID.row(42, i));
        }
        Checksums.Checksum generic = run("SELECT * FROM bid", "test-generic", RowFormat.GENERIC);
        assertEquals(new Checksums.Checksum(ROWS, expected), generic);
        assertEquals(generic, run("SELECT * FROM bid", "test-binary", RowFormat.BINARY));
    }

    @Test
    void theNexmarkSinkSeesExactlyTheGeneratedEventsAtAnyParallelism() throws Exception {
        RowHasher hasher = RowHasher.of(Nexmark.EVENT_TYPE);
        NexmarkGenerator generator = new NexmarkGenerator(RowShape.BASE_MILLIS, Nexmark.DEFAULT_EVENTS_PER_SECOND);
        long expected = 0;
        for (long i = 0; i < ROWS; i++) {
            expected += hasher.hash(generator.event(i));
        }
        for (String parallelism : List.of("1", "2")) {
            for (RowFormat format : RowFormat.values()) {
                String key = "events-" + parallelism + "-" + format;
                TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
                tEnv.getConfig().set("parallelism.default", parallelism);
                tEnv.executeSql(NexmarkEventSourceFactory.createTableDdl(ROWS, Nexmark.DEFAULT_EVENTS_PER_SECOND,
                        format));
                tEnv.executeSql("CREATE TEMPORARY TABLE sink (event_type INT, person "
                        + Nexmark.PERSON_TYPE.asSerializableString() + ", auction "
                        + Nexmark.AUCTION_TYPE.asSerializableString() + ", bid " + Nexmark.BID_TYPE.asSerializableString()
                        + ") WITH ('connector' = 'gatun-blackhole', 'key' = '" + key + "')");
                tEnv.executeSql("INSERT INTO sink SELECT event_type, person, auction, bid FROM datagen").await();
                assertEquals(new Checksums.Checksum(ROWS, expected), Checksums.take(key), key);
            }
        }
    }

    @Test
    void aDeclaredSchemaThatDoesNotMatchTheKindIsRejected() {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tEnv.executeSql("CREATE TEMPORARY TABLE bad (auction BIGINT) WITH ('connector' = 'gatun-nexmark', 'kind' = 'bid')");
        ValidationException e = assertThrows(ValidationException.class, () -> tEnv.sqlQuery("SELECT * FROM bad").explain());
        assertTrue(rootMessage(e).contains("`channel` VARCHAR(2147483647)"), rootMessage(e));
        tEnv.executeSql("CREATE TEMPORARY TABLE bad_events (event_type INT, bid ROW<auction BIGINT>)"
                + " WITH ('connector' = 'gatun-nexmark-events')");
        e = assertThrows(ValidationException.class, () -> tEnv.sqlQuery("SELECT * FROM bad_events").explain());
        assertTrue(rootMessage(e).contains("Nexmark events are"), rootMessage(e));
    }

    @Test
    void everyQueryPlansOnItsSource() {
        for (Query q : Queries.ALL) {
            TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
            q.ddl().statements(10, 1, RowFormat.GENERIC).forEach(tEnv::executeSql);
            assertTrue(tEnv.sqlQuery(q.sql()).explain().contains("Calc"), q.id());
        }
        assertEquals(List.of("q1", "q2", "flatq1"), Queries.select("q1,q2,flatq1").stream().map(Query::id).toList());
        // the ratio tool matches q1 to ids ending in -q1 or _q1: no other query may end so
        for (Query q : Queries.ALL) {
            assertTrue(q.id().matches("q\\d+") || !q.id().matches(".*[-_]q\\d+"), q.id());
        }
        assertEquals(Set.of("q0", "q1", "q2", "q21", "q22", "q17", "q7w", "q5w"), Queries.ALL.stream()
                .filter(q -> q.source().equals(Query.NEXMARK)).map(Query::id).collect(Collectors.toSet()));
    }

    /** Issue #14's batch aggregates: in batch mode the local hash aggregate and the Calc below it are one island. */
    @Test
    void everyBatchAggregateRunsItsLocalAggregateNativelyInBatchMode() {
        GatunEngine gatun = new GatunEngine();
        assertTrue(gatun.unavailableReason().isEmpty(), () -> gatun.unavailableReason().get());
        for (Query q : Queries.BATCH_AGGREGATES) {
            TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
            gatun.configure(tEnv);
            gatun.forceNative(tEnv);
            q.ddl().statements(10, 1, RowFormat.GENERIC).forEach(tEnv::executeSql);
            String plan = gatun.explain(tEnv, q.sql());
            assertTrue(plan.contains("native: LocalHashAggregate(") && plan.contains(" fused with Calc("), q.id() + "\n"
                    + plan);
            assertTrue(PlanDecisions.of(plan).allNative(), q.id() + " is not all native:\n" + plan);
            assertFalse(Queries.ALL.contains(q), q.id() + " is a Calc query's id too");
        }
        assertEquals(Queries.BATCH_AGGREGATES, Queries.select("batch-aggregates"));
        assertEquals(List.of("tpch1", "q1"), Queries.select("tpch1,q1").stream().map(Query::id).toList());
    }

    /**
     * The aggregate queries run as {@code Gatun.enable} plans them (no force switch), and that plan
     * has every aggregate native; the Calc queries keep the force switch.
     */
    @Test
    void aggregateQueriesRunAsPlannedWithEveryAggregateNative() {
        GatunEngine gatun = new GatunEngine();
        assertTrue(gatun.unavailableReason().isEmpty(), () -> gatun.unavailableReason().get());
        List<Query> all = new java.util.ArrayList<>(Queries.ALL);
        all.addAll(Queries.BATCH_AGGREGATES);
        for (Query q : all) {
            assertEquals(q.sql().contains("GROUP BY"), !q.forced(), q.id());
            if (q.forced()) {
                continue;
            }
            boolean batch = Queries.BATCH_AGGREGATES.contains(q);
            TableEnvironment tEnv = TableEnvironment.create(batch ? EnvironmentSettings.inBatchMode()
                    : EnvironmentSettings.inStreamingMode());
            q.config().forEach(tEnv.getConfig()::set);
            gatun.configure(tEnv);
            q.ddl().statements(10, 1, RowFormat.GENERIC).forEach(tEnv::executeSql);
            String plan = gatun.explain(tEnv, q.sql());
            String gatunSection = plan.substring(plan.indexOf("== Gatun =="));
            assertTrue(gatunSection.lines().filter(l -> l.contains("Aggregate(")).allMatch(l -> l.startsWith("native: "))
                    && gatunSection.contains("Aggregate("), q.id() + "\n" + plan);
        }
    }

    @Test
    void everyQueryRunsAsANativeIslandUnderGatun() {
        GatunEngine gatun = new GatunEngine();
        assertTrue(gatun.unavailableReason().isEmpty(), () -> gatun.unavailableReason().get());
        for (Query q : Queries.ALL) {
            TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
            q.config().forEach(tEnv.getConfig()::set);
            gatun.configure(tEnv);
            gatun.forceNative(tEnv);
            q.ddl().statements(10, 1, RowFormat.GENERIC).forEach(tEnv::executeSql);
            String plan = gatun.explain(tEnv, q.sql());
            PlanDecisions decisions = PlanDecisions.of(plan);
            if (EXPECTED_STOCK_UNDER_FORCE.contains(q.id())) {
                assertFalse(decisions.allNative(), q.id() + " now runs natively: remove it from"
                        + " EXPECTED_STOCK_UNDER_FORCE\n" + plan);
                assertFalse(decisions.stockCalcs().isEmpty(), q.id() + "\n" + plan);
            } else {
                assertTrue(decisions.allNative(), q.id() + " is not all native:\n" + plan);
            }
            // the Nexmark table's computed dateTime is a Calc under the WatermarkAssigner: one island with the
            // query's Calc and the assigner (a local aggregate's island also absorbs the MiniBatchAssigner
            // between them, a local window aggregate's the row-time one), so no separate decision for it
            assertEquals(q.source().equals(Query.NEXMARK),
                    decisions.nativeCalcs().stream()
                    .anyMatch(c -> c.contains(" fused with WatermarkAssigner(") || c.contains(" and WatermarkAssigner(")),
                    q.id() + "\n" + plan);
            assertTrue(decisions.watermarkInputCalcs().isEmpty(), q.id() + "\n" + plan);
            assertFalse(EngineConfigurer.STOCK.runsNative(plan));
        }
    }

    /**
     * Every Nexmark query through the harness itself on a small stream: both engines, both
     * object-reuse settings, equal results (the runner's check), and a recorded default decision.
     */
    @Test
    void nexmarkQueriesAgreeAcrossEnginesAndObjectReuse(@TempDir Path plans) throws Exception {
        List<Query> nexmark = Queries.ALL.stream().filter(q -> q.source().equals(Query.NEXMARK)).toList();
        E2eRunner runner = new E2eRunner(new E2eRunner.Settings(EVENTS, 42, 0, 1, 1, RowFormat.GENERIC,
                List.of(false, true), plans), List.of(EngineConfigurer.STOCK, new GatunEngine()));
        for (Query q : nexmark) {
            List<Trial> trials = runner.run(q);
            assertEquals(4, trials.size(), q.id());
            assertEquals(Set.of(false, true), trials.stream().map(Trial::objectReuse).collect(Collectors.toSet()));
            assertTrue(trials.get(0).resultRows() > 0, q.id() + " produced no rows");
            String plan = Files.readString(plans.resolve(q.id() + "-gatun-reuse-on.txt"));
            assertEquals(!EXPECTED_STOCK_UNDER_FORCE.contains(q.id()),
                    plan.contains("NativeCalc(") || plan.contains("NativeLocalGroupAggregate(")
                            || plan.contains("NativeLocalWindowAggregate("), q.id());
            for (Trial t : trials) {
                // a two-phase aggregate runs in two tasks (before and after the shuffle), the others in one
                boolean twoTasks = plan.contains("Exchange(");
                assertTrue(twoTasks ? t.taskCpuMillis() > t.sourceTaskCpuMillis()
                        : t.taskCpuMillis() == t.sourceTaskCpuMillis(), q.id() + " " + t);
            }
            assertNotNull(runner.defaults().get(q.id()), q.id());
            assertTrue(Files.readString(plans.resolve(q.id() + "-gatun-default.txt")).startsWith("default: "));
        }
        assertEquals(List.of(), runner.problems());
        Map<String, String> notNative = runner.notNative();
        assertEquals(EXPECTED_STOCK_UNDER_FORCE, notNative.keySet(), notNative.toString());
    }

    /**
     * Batch mode through the harness: every query that computes (q1 over the bounded Nexmark
     * generator and every other Calc shape) runs as a native island on both engines, the batch
     * results equal the streaming ones (the runner checks every run of a query against the first),
     * and every batch trial ran with object reuse, as Flink's batch executor sets it.
     */
    @Test
    void calcQueriesRunNativelyInBatchModeWithTheStreamingResults(@TempDir Path plans) throws Exception {
        E2eRunner runner = new E2eRunner(new E2eRunner.Settings(EVENTS, 42, 0, 1, 1, RowFormat.GENERIC,
                List.of(false), plans, List.of(Trial.STREAMING, Trial.BATCH)),
                List.of(EngineConfigurer.STOCK, new GatunEngine()));
        for (Query q : Queries.select("q1,q2,q21,flatq1,case,decimal")) {
            List<Trial> trials = runner.run(q);
            List<Trial> batch = trials.stream().filter(Trial::batch).toList();
            assertEquals(2, batch.size(), q.id());
            assertTrue(batch.stream().allMatch(Trial::objectReuse), q.id() + ": " + batch);
            assertTrue(batch.get(0).resultRows() > 0, q.id() + " produced no rows");
            String plan = Files.readString(plans.resolve(q.id() + "-batch-gatun-reuse-on.txt"));
            assertTrue(plan.contains("NativeCalc(") && !plan.contains("WatermarkAssigner"), q.id() + "\n" + plan);
            assertNotNull(runner.defaults().get(q.id() + "-batch"), q.id());
        }
        assertEquals(List.of(), runner.problems());
        assertEquals(Map.of(), runner.notNative());
    }

    /**
     * A stateful query with one checkpoint per job, its source stopped after half the events: every
     * job checkpointed some bytes on the backend it was given (the runner checks the job's
     * checkpoint configuration) and the results agree. Heap only, to keep the test short: the window
     * benchmark's RocksDB jobs checkpoint through the same probe (docs/bench/window).
     */
    @Test
    void windowQueryCheckpointsHalfway(@TempDir Path plans) throws Exception {
        E2eRunner runner = new E2eRunner(new E2eRunner.Settings(EVENTS, 42, 0, 1, 1, RowFormat.GENERIC,
                List.of(false), plans, List.of(Trial.STREAMING), List.of(Trial.HEAP), true),
                List.of(EngineConfigurer.STOCK, new GatunEngine()));
        List<Trial> trials = runner.run(Queries.select("q7w").get(0));
        assertEquals(2, trials.size());
        for (Trial t : trials) {
            assertTrue(t.checkpointBytes() > 0 && t.checkpointMillis() >= 0, t.toString());
        }
        assertEquals(List.of(), runner.problems());
    }

    private static String rootMessage(Throwable t) {
        StringBuilder all = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            all.append(c.getMessage()).append(" | ");
        }
        return all.toString();
    }
}
