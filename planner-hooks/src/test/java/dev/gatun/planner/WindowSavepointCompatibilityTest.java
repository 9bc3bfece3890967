package dev.gatun.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.testing.CommitSinkFactory;
import dev.gatun.planner.testing.PacedSourceFactory;
import dev.gatun.planner.testing.RuntimeJobs;
import dev.gatun.planner.testing.SharedMiniCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.table.api.TableEnvironment;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A savepoint of a job with a two-phase window aggregate restores across Gatun on and off while the
 * global phase stays on Flink ({@code gatun.aggregate.window.enabled=false}; the native local window
 * aggregate keeps the stock operator's identity and holds nothing at a barrier); a
 * stock savepoint fails to restore into it, and into the native one-phase window aggregate, with a
 * message naming the operator and the way out. Each restored run ends with the windows of an
 * uninterrupted stock run, exactly once.
 */
@ExtendWith(LeakCheckExtension.class)
@ExtendWith(SharedMiniCluster.class)
class WindowSavepointCompatibilityTest {
    private static final long ROWS = 2000;
    static final String INSERT = "INSERT INTO sink_w SELECT k, window_end, COUNT(*), SUM(v * 3 + 1)"
            + " FROM TABLE(TUMBLE(TABLE src, DESCRIPTOR(ts), INTERVAL '10' SECOND)) WHERE MOD(id, 5) <> 0"
            + " GROUP BY window_start, window_end, k";

    private static TableEnvironment job(boolean nativeEnabled, String run, double rowsPerSecond, String restoreFrom) {
        return job(nativeEnabled, false, 1, run, rowsPerSecond, restoreFrom);
    }

    /** @param nativeGlobal whether the global window aggregate goes native too (its state then is native) */
    static TableEnvironment job(boolean nativeEnabled, boolean nativeGlobal, int parallelism, String run,
                                        double rowsPerSecond, String restoreFrom) {
        return job(nativeEnabled, nativeGlobal, parallelism, run, rowsPerSecond, restoreFrom, Map.of(), "ts");
    }

    /**
     * @param extra more job configuration ({@code table.optimizer.agg-phase-strategy=ONE_PHASE} plans the window
     *     aggregate in one phase; its native operator is then that window aggregate, gated as the global phase is)
     * @param watermark the source's watermark expression
     */
    static TableEnvironment job(boolean nativeEnabled, boolean nativeGlobal, int parallelism, String run,
                                double rowsPerSecond, String restoreFrom, Map<String, String> extra, String watermark) {
        Map<String, String> conf = new HashMap<>(RuntimeJobs.checkpointed());
        conf.put("table.optimizer.agg-phase-strategy", "TWO_PHASE");
        conf.putAll(extra);
        boolean onePhase = "ONE_PHASE".equals(conf.get("table.optimizer.agg-phase-strategy"));
        conf.put("parallelism.default", Integer.toString(parallelism));
        conf.put("gatun.aggregate.window.enabled", Boolean.toString(nativeGlobal));
        if (restoreFrom != null) {
            conf.put("execution.state-recovery.path", restoreFrom);
        }
        TableEnvironment tEnv = RuntimeJobs.env(nativeEnabled, conf);
        tEnv.getConfig().set("gatun.aggregate.window.enabled", Boolean.toString(nativeGlobal));
        tEnv.executeSql("CREATE TEMPORARY TABLE src (" + PacedSourceFactory.COLUMNS + ", WATERMARK FOR ts AS "
                + watermark + ") " + PacedSourceFactory.with("src-" + run, ROWS, rowsPerSecond, -1, null));
        tEnv.executeSql("CREATE TEMPORARY TABLE sink_w (k INT, we TIMESTAMP(3), c BIGINT, total BIGINT) "
                + CommitSinkFactory.with("sink-" + run));
        String plan = Gatun.explain(tEnv, INSERT);
        if (onePhase) {
            assertTrue(!plan.contains("LocalWindowAggregate(") && plan.contains("WindowAggregate("), plan);
            assertEquals(nativeEnabled && nativeGlobal, plan.contains("native: WindowAggregate("), plan);
        } else {
            assertEquals(nativeEnabled, plan.contains("native: LocalWindowAggregate("), plan);
            assertEquals(nativeEnabled && nativeGlobal, plan.contains("native: GlobalWindowAggregate("), plan);
        }
        return tEnv;
    }

    static List<String> uninterruptedStockWindows() throws Exception {
        return uninterruptedStockWindows("ts", Map.of());
    }

    static List<String> uninterruptedStockWindows(String watermark, Map<String, String> extra) throws Exception {
        String uninterrupted = UUID.randomUUID().toString();
        job(false, false, 1, uninterrupted, 0, null, extra, watermark).executeSql(INSERT).await();
        return sorted(CommitSinkFactory.committed("sink-" + uninterrupted));
    }

    /** Runs until some windows are committed, then stops with a savepoint; returns its path. */
    static String savepointMidStream(TableEnvironment tEnv, String run, Path dir) throws Exception {
        JobClient first = tEnv.executeSql(INSERT).getJobClient().orElseThrow();
        RuntimeJobs.await("windows before the savepoint", Duration.ofSeconds(60),
                () -> CommitSinkFactory.received("sink-" + run) >= 100);
        return first.stopWithSavepoint(false, dir.toUri().toString(), SavepointFormatType.CANONICAL).get();
    }

    /** @param phases {@code TWO_PHASE} (the native global phase) or {@code ONE_PHASE} (the native one window aggregate) */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"TWO_PHASE", "ONE_PHASE"})
    void aStockSavepointDoesNotRestoreIntoTheNativeWindowAggregateAndTheMessageSaysWhy(String phases,
                                                                                       @TempDir Path dir)
            throws Exception {
        Map<String, String> extra = Map.of("table.optimizer.agg-phase-strategy", phases);
        String run = UUID.randomUUID().toString();
        String savepoint = savepointMidStream(job(false, false, 1, run, 1000, null, extra, "ts"), run, dir);
        Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class,
                () -> job(true, true, 1, run, 0, savepoint, extra, "ts").executeSql(INSERT).await());
        String message = org.apache.flink.util.ExceptionUtils.stringifyException(e);
        assertTrue(message.contains("was not written by Gatun's native window aggregate")
                && message.contains("gatun.aggregate.window.enabled=false"), message);
        String operator = phases.equals("ONE_PHASE") ? "'NativeWindowAggregate[" : "'NativeGlobalWindowAggregate[";
        assertTrue(message.contains(operator), "the message names the operator: " + message);
        RuntimeJobs.awaitNoNativeLeaks(Duration.ofSeconds(30));
    }

    static List<String> sorted(List<String> rows) {
        List<String> out = new ArrayList<>(rows);
        out.sort(null);
        return out;
    }

    @ParameterizedTest(name = "native {0} -> native {1}")
    @CsvSource({"false, true", "true, false"})
    void aSavepointRestoresAcrossGatunOnAndOff(boolean nativeBefore, boolean nativeAfter, @TempDir Path dir)
            throws Exception {
        List<String> expected = uninterruptedStockWindows();

        String run = UUID.randomUUID().toString();
        String savepoint = savepointMidStream(job(nativeBefore, run, 1000, null), run, dir);
        int committedBefore = CommitSinkFactory.committed("sink-" + run).size();

        job(nativeAfter, run, 0, savepoint).executeSql(INSERT).await();
        List<String> restored = sorted(CommitSinkFactory.committed("sink-" + run));

        assertTrue(committedBefore > 0 && committedBefore < expected.size(),
                "the savepoint was taken mid-stream: " + committedBefore + " of " + expected.size());
        assertTrue(expected.stream().allMatch(r -> r.startsWith("+I")), "a window aggregate inserts");
        assertEquals(expected, restored, "the windows of an uninterrupted stock run");
        RuntimeJobs.awaitNoNativeLeaks(Duration.ofSeconds(30));
    }
}
