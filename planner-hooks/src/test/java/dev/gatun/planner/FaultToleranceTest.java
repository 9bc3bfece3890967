package dev.gatun.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.testing.CommitSinkFactory;
import dev.gatun.planner.testing.FailOnceFunction;
import dev.gatun.planner.testing.FaultyCheckpointStorage;
import dev.gatun.planner.testing.PacedSourceFactory;
import dev.gatun.planner.testing.RuntimeJobs;
import dev.gatun.planner.testing.SharedMiniCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.table.api.TableEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A checkpointed job with native Calcs whose source or sink fails once mid-stream (after a
 * checkpoint was committed) restarts from that checkpoint and commits exactly what stock Flink commits
 * without a failure: a lost or duplicated row would show in the sink that commits on
 * checkpoint completion. Nothing native stays live afterwards.
 */
@ExtendWith(LeakCheckExtension.class)
@ExtendWith(SharedMiniCluster.class)
class FaultToleranceTest {
    private static final long ROWS = 3000;
    private static final long FAIL_AT = 1200;

    /**
     * Where the one failure is injected: {@code SNAPSHOT} while the native window operator writes its
     * state into a checkpoint, {@code RESTORE} while it reads it back (after a source failure).
     */
    private enum Failure { NONE, SOURCE, SINK, GLOBAL_AGGREGATE, SNAPSHOT, RESTORE }

    /** Runs {@code insert} into table {@code sink_t} ({@code sinkColumns}); returns the committed rows. */
    private static List<String> run(boolean nativeEnabled, Failure failure, String sinkColumns, String insert)
            throws Exception {
        String run = UUID.randomUUID().toString();
        TableEnvironment tEnv = RuntimeJobs.env(nativeEnabled, RuntimeJobs.checkpointed());
        tEnv.executeSql("CREATE TEMPORARY TABLE src (" + PacedSourceFactory.COLUMNS + ") "
                + PacedSourceFactory.with("src-" + run, ROWS, 2000, failure == Failure.SOURCE ? FAIL_AT : -1, "sink-" + run));
        tEnv.executeSql("CREATE TEMPORARY TABLE sink_t (" + sinkColumns + ") " + (failure == Failure.SINK
                ? CommitSinkFactory.withFailure("sink-" + run, FAIL_AT) : CommitSinkFactory.with("sink-" + run)));
        if (nativeEnabled) {
            String plan = Gatun.explain(tEnv, insert);
            assertTrue(plan.contains("NativeCalc(") && !plan.contains("stock ("), plan);
        }
        tEnv.executeSql(insert).await();
        assertEquals(failure == Failure.SOURCE, PacedSourceFactory.failed("src-" + run), "the source failure happened");
        assertEquals(failure == Failure.SINK, CommitSinkFactory.failed("sink-" + run), "the sink failure happened");
        assertTrue(CommitSinkFactory.committedByCheckpoint("sink-" + run).size() > 1, "committed over several checkpoints");
        return CommitSinkFactory.committed("sink-" + run);
    }

    @Test
    void aStatelessJobRestartsFromItsCheckpointWithExactlyTheStockRows() throws Exception {
        String columns = "id BIGINT, v3 BIGINT, s STRING, k INT";
        String insert = "INSERT INTO sink_t SELECT id, v * 3 + 1, UPPER(s), k FROM src WHERE MOD(id, 3) <> 0";
        List<String> stock = run(false, Failure.NONE, columns, insert);
        List<String> restarted = run(true, Failure.SOURCE, columns, insert);
        assertEquals(2 * ROWS / 3, stock.size());
        assertEquals(stock, restarted, "the same rows in the same order: none lost, none twice");
        RuntimeJobs.awaitNoNativeLeaks(Duration.ofSeconds(30));
    }

    @Test
    void aStatefulJobRestartsWithExactlyTheStockChangelog() throws Exception {
        String columns = "k INT, c2 BIGINT, total BIGINT";
        String insert = "INSERT INTO sink_t SELECT k, c * 2, total FROM"
                + " (SELECT k, COUNT(*) AS c, SUM(v2) AS total FROM (SELECT k, v * 2 AS v2 FROM src WHERE v > 0) GROUP BY k)"
                + " WHERE c > 2";
        List<String> stock = run(false, Failure.NONE, columns, insert);
        List<String> restarted = run(true, Failure.SOURCE, columns, insert);
        assertTrue(stock.stream().anyMatch(r -> r.startsWith("-U")), "a changelog with retractions");
        assertEquals(stock, restarted, "the same changelog in the same order: none lost, none twice");
        RuntimeJobs.awaitNoNativeLeaks(Duration.ofSeconds(30));
    }

    /**
     * A native local aggregate (mini-batch two-phase aggregation) with {@code failure}: what the
     * committed changelog materializes to (mini-batches close on processing time, so the
     * intermediate updates differ run to run in stock Flink too).
     */
    private static List<String> runLocalAggregate(boolean nativeEnabled, Failure failure) throws Exception {
        String run = UUID.randomUUID().toString();
        Map<String, String> settings = new HashMap<>(RuntimeJobs.checkpointed());
        settings.put("table.exec.mini-batch.enabled", "true");
        settings.put("table.exec.mini-batch.allow-latency", "50 ms");
        settings.put("table.exec.mini-batch.size", "64");
        settings.put("table.optimizer.agg-phase-strategy", "TWO_PHASE");
        TableEnvironment tEnv = RuntimeJobs.env(nativeEnabled, settings);
        tEnv.executeSql("CREATE TEMPORARY TABLE src (" + PacedSourceFactory.COLUMNS + ") "
                + PacedSourceFactory.with("src-" + run, ROWS, 2000, failure == Failure.SOURCE ? FAIL_AT : -1, "sink-" + run));
        tEnv.executeSql("CREATE TEMPORARY TABLE sink_t (k INT, c BIGINT, total BIGINT, top BIGINT, mean BIGINT) "
                + (failure == Failure.SINK ? CommitSinkFactory.withFailure("sink-" + run, FAIL_AT / 10)
                        : CommitSinkFactory.with("sink-" + run)));
        String aggregate = "SELECT k, COUNT(*) AS c, SUM(v2) AS total, MAX(v2) FILTER (WHERE MOD(id, 2) = 0) AS top,"
                + " AVG(v2) AS mean FROM (SELECT id, k, v * 2 AS v2 FROM src WHERE v > 0) GROUP BY k";
        // the global aggregate's task fails: a function chained right after it throws once
        tEnv.createTemporarySystemFunction("FAIL_ONCE", FailOnceFunction.class);
        String insert = failure == Failure.GLOBAL_AGGREGATE
                ? "INSERT INTO sink_t SELECT k, FAIL_ONCE(c, '" + run + "', " + FAIL_AT / 10 + "), total, top, mean FROM ("
                        + aggregate + ")"
                : "INSERT INTO sink_t " + aggregate;
        if (nativeEnabled) {
            String plan = Gatun.explain(tEnv, insert);
            // only the Calc with the failing function stays on Flink
            assertTrue(plan.contains("native: LocalGroupAggregate(") && plan.lines().filter(l -> l.startsWith("stock ("))
                    .allMatch(l -> l.contains("FAIL_ONCE")), plan);
        }
        tEnv.executeSql(insert).await();
        assertEquals(failure == Failure.SOURCE, PacedSourceFactory.failed("src-" + run), "the source failure happened");
        assertEquals(failure == Failure.SINK, CommitSinkFactory.failed("sink-" + run), "the sink failure happened");
        assertEquals(failure == Failure.GLOBAL_AGGREGATE, FailOnceFunction.failed(run),
                "the global aggregate's failure happened");
        assertTrue(CommitSinkFactory.committedByCheckpoint("sink-" + run).size() > 1, "committed over several checkpoints");
        return PlannerModesTest.materialize(CommitSinkFactory.committed("sink-" + run));
    }

    @Test
    void aNativeLocalAggregateRestartsWithExactlyTheStockResults() throws Exception {
        List<String> stock = runLocalAggregate(false, Failure.NONE);
        assertFalse(stock.isEmpty());
        assertEquals(stock, runLocalAggregate(true, Failure.SOURCE), "source failure: none lost, none twice");
        assertEquals(stock, runLocalAggregate(true, Failure.SINK), "sink failure: none lost, none twice");
        assertEquals(stock, runLocalAggregate(true, Failure.GLOBAL_AGGREGATE),
                "failure in the global aggregate's task: none lost, none twice");
        RuntimeJobs.awaitNoNativeLeaks(Duration.ofSeconds(30));
    }

    @Test
    void nativeWindowAggregatesRestartWithExactlyTheStockWindows() throws Exception {
        List<String> stock = runLocalWindowAggregate(false, Failure.NONE, false);
        assertFalse(stock.isEmpty());
        assertEquals(stock, runLocalWindowAggregate(true, Failure.SOURCE, false),
                "source failure: none lost, none twice");
        assertEquals(stock, runLocalWindowAggregate(true, Failure.SINK, false), "sink failure: none lost, none twice");
        assertEquals(stock, runLocalWindowAggregate(true, Failure.GLOBAL_AGGREGATE, false),
                "failure in the native window operator's task: none lost, none twice");
        RuntimeJobs.awaitNoNativeLeaks(Duration.ofSeconds(30));
    }

    @Test
    void aNativeOnePhaseWindowAggregateRestartsWithExactlyTheStockWindows() throws Exception {
        List<String> stock = runLocalWindowAggregate(false, Failure.NONE, true);
        assertFalse(stock.isEmpty());
        assertEquals(stock, runLocalWindowAggregate(true, Failure.SOURCE, true),
                "source failure: none lost, none twice");
        assertEquals(stock, runLocalWindowAggregate(true, Failure.GLOBAL_AGGREGATE, true),
                "failure in the native window operator's task: none lost, none twice");
        RuntimeJobs.awaitNoNativeLeaks(Duration.ofSeconds(30));
    }

    /**
     * A checkpoint whose native window snapshot fails (its state stream throws while a section is
     * written; no checkpoint failure is tolerated) fails the task, and the job restarts from the
     * previous checkpoint; a restore whose state stream throws at its last key group (the others
     * restored into the native handle) fails the task, and the next attempt restores. Both end with
     * the stock windows, exactly once, and nothing native live.
     */
    @Test
    void aFailureWhileTheNativeWindowStateIsSnapshottedOrRestoredRestartsWithExactlyTheStockWindows()
            throws Exception {
        List<String> stock = runLocalWindowAggregate(false, Failure.NONE, false);
        assertFalse(stock.isEmpty());
        assertEquals(stock, runLocalWindowAggregate(true, Failure.SNAPSHOT, false), "snapshot failure: none lost, none twice");
        RuntimeJobs.awaitNoNativeLeaks(Duration.ofSeconds(30));
        assertEquals(stock, runLocalWindowAggregate(true, Failure.RESTORE, false), "restore failure: none lost, none twice");
        RuntimeJobs.awaitNoNativeLeaks(Duration.ofSeconds(30));
    }

    /**
     * Native window aggregates over HOP windows with {@code failure}: two-phase (local and global, the
     * global one's state native), or {@code onePhase} (one native window aggregate over the raw rows, its
     * state native); the committed windows, sorted.
     */
    private static List<String> runLocalWindowAggregate(boolean nativeEnabled, Failure failure, boolean onePhase)
            throws Exception {
        String run = UUID.randomUUID().toString();
        Map<String, String> settings = new HashMap<>(RuntimeJobs.checkpointed());
        settings.put("table.optimizer.agg-phase-strategy", onePhase ? "ONE_PHASE" : "TWO_PHASE");
        if (failure == Failure.SNAPSHOT || failure == Failure.RESTORE) {
            settings.putAll(FaultyCheckpointStorage.options(run, failure == Failure.SNAPSHOT
                    ? FaultyCheckpointStorage.Mode.SNAPSHOT : FaultyCheckpointStorage.Mode.RESTORE, "sink-" + run));
            settings.put("execution.checkpointing.tolerable-failed-checkpoints", "0");
        }
        boolean sourceFails = failure == Failure.SOURCE || failure == Failure.RESTORE;
        TableEnvironment tEnv = RuntimeJobs.env(nativeEnabled, settings);
        tEnv.executeSql("CREATE TEMPORARY TABLE src (" + PacedSourceFactory.COLUMNS + ", WATERMARK FOR ts AS ts) "
                + PacedSourceFactory.with("src-" + run, ROWS, 2000, sourceFails ? FAIL_AT : -1, "sink-" + run));
        tEnv.executeSql("CREATE TEMPORARY TABLE sink_t (k INT, we TIMESTAMP(3), c BIGINT, total BIGINT, top BIGINT)"
                + " " + (failure == Failure.SINK ? CommitSinkFactory.withFailure("sink-" + run, FAIL_AT / 10)
                        : CommitSinkFactory.with("sink-" + run)));
        String windows = "SELECT k, window_end AS we, COUNT(*) AS c, SUM(v * 2) AS total,"
                + " MAX(v) FILTER (WHERE MOD(id, 2) = 0) AS top"
                + " FROM TABLE(HOP(TABLE src, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '20' SECOND)) WHERE v > 0"
                + " GROUP BY window_start, window_end, k";
        // the window operator's task fails: a function chained right after it throws once
        tEnv.createTemporarySystemFunction("FAIL_ONCE", FailOnceFunction.class);
        String insert = failure == Failure.GLOBAL_AGGREGATE
                ? "INSERT INTO sink_t SELECT k, we, FAIL_ONCE(c, '" + run + "', " + FAIL_AT / 20 + "), total, top FROM ("
                        + windows + ")"
                : "INSERT INTO sink_t " + windows;
        if (nativeEnabled) {
            String plan = Gatun.explain(tEnv, insert);
            boolean nativeWindows = onePhase
                    ? plan.contains("native: WindowAggregate(") && !plan.contains("LocalWindowAggregate(")
                    : plan.contains("native: LocalWindowAggregate(") && plan.contains("native: GlobalWindowAggregate(");
            assertTrue(nativeWindows && plan.lines().filter(l -> l.startsWith("stock (")).allMatch(l -> l.contains("FAIL_ONCE")),
                    plan);
        }
        tEnv.executeSql(insert).await();
        assertEquals(sourceFails, PacedSourceFactory.failed("src-" + run), "the source failure happened");
        assertEquals(failure == Failure.SINK, CommitSinkFactory.failed("sink-" + run), "the sink failure happened");
        assertEquals(failure == Failure.GLOBAL_AGGREGATE, FailOnceFunction.failed(run),
                "the window operator's failure happened");
        String injected = FaultyCheckpointStorage.injected(run);
        if (failure == Failure.SNAPSHOT) {
            assertTrue(injected != null && injected.contains("NativeOperator.snapshot"),
                    "the failure hit the native snapshot: " + injected);
        } else if (failure == Failure.RESTORE) {
            assertTrue(injected != null && injected.contains("KeyedIslandOperator.restore"),
                    "the failure hit the native restore: " + injected);
        }
        assertTrue(CommitSinkFactory.committedByCheckpoint("sink-" + run).size() > 1, "committed over several checkpoints");
        List<String> rows = new ArrayList<>(CommitSinkFactory.committed("sink-" + run));
        rows.sort(null);
        return rows;
    }

    @Test
    void aDownstreamFailureWhileNativeBatchesArePartialRestartsWithExactlyTheStockRows() throws Exception {
        String columns = "id BIGINT, v3 BIGINT, s STRING, k INT";
        String insert = "INSERT INTO sink_t SELECT id, v * 3 + 1, UPPER(s), k FROM src WHERE MOD(id, 3) <> 0";
        List<String> stock = run(false, Failure.NONE, columns, insert);
        List<String> restarted = run(true, Failure.SINK, columns, insert);
        assertEquals(stock, restarted, "the same rows in the same order: none lost, none twice");
        RuntimeJobs.awaitNoNativeLeaks(Duration.ofSeconds(30));
    }
}
