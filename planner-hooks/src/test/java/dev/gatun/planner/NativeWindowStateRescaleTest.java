package dev.gatun.planner;

import static dev.gatun.planner.WindowSavepointCompatibilityTest.INSERT;
import static dev.gatun.planner.WindowSavepointCompatibilityTest.job;
import static dev.gatun.planner.WindowSavepointCompatibilityTest.sorted;
import static dev.gatun.planner.WindowSavepointCompatibilityTest.uninterruptedStockWindows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.testing.CommitSinkFactory;
import dev.gatun.planner.testing.RuntimeJobs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
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
}
