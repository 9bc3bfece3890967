package dev.gatun.planner;

import static dev.gatun.planner.WindowSavepointCompatibilityTest.INSERT;
import static dev.gatun.planner.WindowSavepointCompatibilityTest.job;
import static dev.gatun.planner.WindowSavepointCompatibilityTest.sorted;
import static dev.gatun.planner.WindowSavepointCompatibilityTest.uninterruptedStockWindows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.testing.CommitSinkFactory;
import dev.gatun.planner.testing.GatunCounters;
import dev.gatun.planner.testing.PacedSourceFactory;
import dev.gatun.planner.testing.RuntimeJobs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.writer.BinaryRowWriter;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The native window aggregate's state (global phase, or one-phase aggregate), stopped with a savepoint at
 * one parallelism and restored at another (its key groups split and merge), ends with the windows of an uninterrupted
 * stock run, exactly once. A cluster of its own with four slots (the shared one has two).
 */
@ExtendWith(LeakCheckExtension.class)
class NativeWindowStateRescaleTest {
    /**
     * Operator IDs generated without uids hash the chaining, which differs between parallelism 1 (the
     * commit sink's committer chains) and more: unchained, the IDs do not depend on the parallelism.
     */
    private static final java.util.Map<String, String> UNCHAINED = java.util.Map.of(
            "pipeline.operator-chaining.enabled", "false");

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setConfiguration(GatunCounters.addTo(new Configuration()))
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(4)
            .build());

    /**
     * A watermark behind every row of the run: a source subtask restored with several splits reads them
     * one after the other, out of event-time order, and no row may turn late for it. So no window fires
     * before the savepoint: every window's state crosses it.
     */
    private static final String LATE_WATERMARK = "ts - INTERVAL '45' MINUTE";

    /** @param phases {@code TWO_PHASE} (the native global phase) or {@code ONE_PHASE} (the native one window aggregate) */
    @ParameterizedTest(name = "{0}: parallelism {1} -> {2}")
    @CsvSource({"TWO_PHASE, 2, 4", "TWO_PHASE, 4, 1", "ONE_PHASE, 2, 4", "ONE_PHASE, 4, 1"})
    void theNativeWindowStateRestoresAtAnotherParallelism(String phases, int before, int after, @TempDir Path dir)
            throws Exception {
        java.util.Map<String, String> conf = new java.util.HashMap<>(UNCHAINED);
        conf.put("table.optimizer.agg-phase-strategy", phases);
        List<String> expected = uninterruptedStockWindows(LATE_WATERMARK, conf);
        String run = UUID.randomUUID().toString();
        JobClient first = job(true, true, before, run, 1000, null, conf, LATE_WATERMARK).executeSql(INSERT)
                .getJobClient().orElseThrow();
        Thread.sleep(1500); // about half of the rows
        String savepoint = first.stopWithSavepoint(false, dir.toUri().toString(), SavepointFormatType.CANONICAL).get();
        assertEquals(0, CommitSinkFactory.committed("sink-" + run).size(), "no window fired before the savepoint");
        job(true, true, after, run, 0, savepoint, conf, LATE_WATERMARK).executeSql(INSERT).await();
        assertTrue(expected.size() > 100, "windows: " + expected.size());
        assertEquals(expected, sorted(CommitSinkFactory.committed("sink-" + run)),
                "the windows of an uninterrupted stock run");
        RuntimeJobs.awaitNoNativeLeaks(Duration.ofSeconds(30));
    }

    /**
     * Rows of the late-row job: rows from {@link #LATE_FROM} on with {@code MOD(id, 10) = 3} are late.
     * Without the restored progress, the late rows reaching the subtask without state before the
     * restored job's first watermark would make windows.
     */
    private static final long LATE_ROWS_JOB_ROWS = 3000;
    private static final long LATE_FROM = 1000;
    private static final String LATE = "id >= " + LATE_FROM + " AND MOD(id, 10) = 3";
    /** On time, key 0; late, the keys 103, 113, ..., 173, each of which had no state before. */
    private static final String LATE_ROWS_INSERT = "INSERT INTO sink_l SELECT g, window_end, COUNT(*), SUM(v)"
            + " FROM TABLE(TUMBLE(TABLE src_l, DESCRIPTOR(et), INTERVAL '10' SECOND))"
            + " GROUP BY window_start, window_end, g";

    /**
     * A job whose late rows (event time at row 0's, in windows that fired long before) carry keys
     * that never hold state, all other rows key 0.
     */
    private static TableEnvironment lateRowsJob(boolean nativeEnabled, int parallelism, String run,
                                                double rowsPerSecond, String restoreFrom) {
        Map<String, String> conf = new HashMap<>(RuntimeJobs.checkpointed());
        conf.putAll(UNCHAINED);
        conf.put("table.optimizer.agg-phase-strategy", "TWO_PHASE");
        conf.put("parallelism.default", Integer.toString(parallelism));
        if (restoreFrom != null) {
            conf.put("execution.state-recovery.path", restoreFrom);
        }
        TableEnvironment tEnv = RuntimeJobs.env(nativeEnabled, conf);
        tEnv.getConfig().set("gatun.aggregate.window.enabled", "true");
        tEnv.executeSql("CREATE TEMPORARY TABLE src_l (" + PacedSourceFactory.COLUMNS + ","
                + " g AS CASE WHEN " + LATE + " THEN 100 + CAST(MOD(id, 80) AS INT) ELSE 0 END,"
                + " et AS CAST(CASE WHEN " + LATE + " THEN TIMESTAMP '2023-11-14 22:13:20' ELSE ts END AS TIMESTAMP(3)),"
                + " WATERMARK FOR et AS et) "
                + PacedSourceFactory.with("src-" + run, LATE_ROWS_JOB_ROWS, rowsPerSecond, -1, null));
        tEnv.executeSql("CREATE TEMPORARY TABLE sink_l (g INT, we TIMESTAMP(3), c BIGINT, total BIGINT) "
                + CommitSinkFactory.with("sink-" + run));
        if (nativeEnabled) {
            String plan = Gatun.explain(tEnv, LATE_ROWS_INSERT);
            assertTrue(plan.contains("native: GlobalWindowAggregate("), plan);
        }
        return tEnv;
    }

    /** The subtask of {@code parallelism} (max parallelism 128) that owns INT group key {@code g}. */
    private static int subtaskOf(int g, int parallelism) {
        BinaryRowData key = new BinaryRowData(1);
        BinaryRowWriter writer = new BinaryRowWriter(key);
        writer.writeInt(0, g);
        writer.complete();
        return KeyGroupRangeAssignment.assignKeyToParallelOperator(key, 128, parallelism);
    }

    /**
     * Stopped at parallelism 1 once windows fired and restored at 2, the subtask that does not own key 0
     * receives no state. It must still continue from the watermark of the savepoint (Flink keeps every
     * subtask's watermark in union operator state and restores the lowest), so the late rows it then
     * receives are dropped exactly as stock Flink drops them, and the committed windows equal an
     * uninterrupted stock run's.
     */
    @Test
    void aSubtaskWithoutRestoredStateDropsLateRowsAsStockDoes(@TempDir Path dir) throws Exception {
        int owner = subtaskOf(0, 2);
        assertTrue(IntStream.range(0, 8).map(i -> subtaskOf(103 + 10 * i, 2)).anyMatch(s -> s != owner),
                "a late key lands on the subtask without state");
        String uninterrupted = UUID.randomUUID().toString();
        // paced, so that watermarks are well past row 0's window before the first late row
        lateRowsJob(false, 1, uninterrupted, 1000, null).executeSql(LATE_ROWS_INSERT).await();
        List<String> expected = sorted(CommitSinkFactory.committed("sink-" + uninterrupted));
        assertTrue(expected.size() > 250 && expected.stream().allMatch(r -> r.startsWith("+I[0, ")),
                "key 0's windows; every late row dropped: " + expected.size());

        String run = UUID.randomUUID().toString();
        JobClient first = lateRowsJob(true, 1, run, 1000, null).executeSql(LATE_ROWS_INSERT)
                .getJobClient().orElseThrow();
        // late rows have begun: the restored job receives some before its first watermark
        RuntimeJobs.await("windows before the savepoint", Duration.ofSeconds(60),
                () -> CommitSinkFactory.received("sink-" + run) >= LATE_FROM / 10 + 10);
        String savepoint = first.stopWithSavepoint(false, dir.toUri().toString(), SavepointFormatType.CANONICAL).get();
        JobClient restored = lateRowsJob(true, 2, run, 0, savepoint).executeSql(LATE_ROWS_INSERT)
                .getJobClient().orElseThrow();
        restored.getJobExecutionResult().get();
        assertEquals(expected, sorted(CommitSinkFactory.committed("sink-" + run)),
                "the windows of an uninterrupted stock run: no late row made a window");
        assertTrue(lateRowsDropped(restored.getJobID(), 1 - owner) > 0,
                "the subtask restored without state dropped late rows");
        RuntimeJobs.awaitNoNativeLeaks(Duration.ofSeconds(30));
    }

    /** {@code numLateRecordsDropped} of the global window aggregate's {@code subtask} in {@code job}. */
    private static long lateRowsDropped(JobID job, int subtask) {
        long total = 0;
        for (Map.Entry<String, Counter> e : GatunCounters.of(job).entrySet()) {
            String[] parts = e.getKey().split("\\.");
            if (e.getKey().contains("GlobalWindowAggregate") && parts[parts.length - 1].equals("numLateRecordsDropped")
                    && parts[parts.length - 2].equals(Integer.toString(subtask))) {
                total += e.getValue().getCount();
            }
        }
        return total;
    }
}
