package dev.gatun.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.nodes.StreamExecNativeCalc;
import dev.gatun.planner.testing.CommitSinkFactory;
import dev.gatun.planner.testing.PacedSourceFactory;
import dev.gatun.planner.testing.RuntimeJobs;
import dev.gatun.planner.testing.SharedMiniCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.table.api.PlanReference;
import org.apache.flink.table.api.TableEnvironment;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A Calc between a checkpointed source and a GROUP BY aggregate: a savepoint taken with Gatun
 * off restores with it on, and the reverse, and the committed changelog equals an uninterrupted
 * stock run's exactly. Restoring fails outright if an operator's identity changed (its state
 * could not be mapped), and a lost source or aggregate state would change the counts.
 */
@ExtendWith(LeakCheckExtension.class)
@ExtendWith(SharedMiniCluster.class)
class SavepointCompatibilityTest {
    private static final long ROWS = 2000;
    private static final String SINK_COLUMNS = "k INT, c BIGINT, total BIGINT";
    private static final String INSERT = "INSERT INTO sink_t SELECT k, COUNT(*), SUM(v3) FROM"
            + " (SELECT k, v * 3 + 1 AS v3 FROM src WHERE MOD(id, 5) <> 0) GROUP BY k";

    private static TableEnvironment job(boolean nativeEnabled, String run, double rowsPerSecond, String restoreFrom) {
        Map<String, String> conf = new HashMap<>(RuntimeJobs.checkpointed());
        if (restoreFrom != null) {
            conf.put("execution.state-recovery.path", restoreFrom);
        }
        TableEnvironment tEnv = RuntimeJobs.env(nativeEnabled, conf);
        tEnv.executeSql("CREATE TEMPORARY TABLE src (" + PacedSourceFactory.COLUMNS + ") "
                + PacedSourceFactory.with("src-" + run, ROWS, rowsPerSecond, -1, null));
        tEnv.executeSql("CREATE TEMPORARY TABLE sink_t (" + SINK_COLUMNS + ") " + CommitSinkFactory.with("sink-" + run));
        String plan = Gatun.explain(tEnv, INSERT);
        assertEquals(nativeEnabled, plan.contains("NativeCalc("), plan);
        return tEnv;
    }

    @ParameterizedTest(name = "native {0} -> native {1}")
    @CsvSource({"false, true", "true, false"})
    void aSavepointRestoresAcrossGatunOnAndOff(boolean nativeBefore, boolean nativeAfter, @TempDir Path dir)
            throws Exception {
        String uninterrupted = UUID.randomUUID().toString();
        job(false, uninterrupted, 0, null).executeSql(INSERT).await();
        List<String> expected = CommitSinkFactory.committed("sink-" + uninterrupted);

        String run = UUID.randomUUID().toString();
        JobClient first = job(nativeBefore, run, 1000, null).executeSql(INSERT).getJobClient().orElseThrow();
        RuntimeJobs.await("rows before the savepoint", Duration.ofSeconds(60),
                () -> CommitSinkFactory.received("sink-" + run) >= 300);
        String savepoint = first.stopWithSavepoint(false, dir.toUri().toString(), SavepointFormatType.CANONICAL).get();
        int committedBefore = CommitSinkFactory.committed("sink-" + run).size();

        job(nativeAfter, run, 0, savepoint).executeSql(INSERT).await();
        List<String> restored = CommitSinkFactory.committed("sink-" + run);

        assertTrue(committedBefore > 0 && committedBefore < expected.size(),
                "the savepoint was taken mid-stream: " + committedBefore + " of " + expected.size());
        assertTrue(expected.stream().anyMatch(r -> r.startsWith("+U")), "an updating aggregate");
        assertEquals(expected, restored, "the changelog of an uninterrupted stock run");
        RuntimeJobs.awaitNoNativeLeaks(Duration.ofSeconds(30));
    }

    /**
     * One plan compiled with Gatun, run with native off (its Calc translates as the stock Calc it
     * carries) and with native on: a savepoint of either run restores into the other.
     */
    @ParameterizedTest(name = "compiled plan, native {0} -> native {1}")
    @CsvSource({"false, true", "true, false"})
    void aSavepointOfACompiledPlanRestoresAcrossGatunOnAndOff(boolean nativeBefore, boolean nativeAfter,
                                                            @TempDir Path dir) throws Exception {
        String uninterrupted = UUID.randomUUID().toString();
        job(false, uninterrupted, 0, null).executeSql(INSERT).await();
        List<String> expected = CommitSinkFactory.committed("sink-" + uninterrupted);

        String compiling = UUID.randomUUID().toString();
        String plan = job(true, compiling, 0, null).compilePlanSql(INSERT).asJsonString();
        assertTrue(plan.contains("\"" + StreamExecNativeCalc.TYPE_NAME + "_1\""), plan);

        String run = UUID.randomUUID().toString();
        JobClient first = job(nativeBefore, run, 1000, null).loadPlan(PlanReference.fromJsonString(plan)).execute()
                .getJobClient().orElseThrow();
        RuntimeJobs.await("rows before the savepoint", Duration.ofSeconds(60),
                () -> CommitSinkFactory.received("sink-" + run) >= 300);
        String savepoint = first.stopWithSavepoint(false, dir.toUri().toString(), SavepointFormatType.CANONICAL).get();
        int committedBefore = CommitSinkFactory.committed("sink-" + run).size();

        job(nativeAfter, run, 0, savepoint).loadPlan(PlanReference.fromJsonString(plan)).execute().await();
        List<String> restored = CommitSinkFactory.committed("sink-" + run);

        assertTrue(committedBefore > 0 && committedBefore < expected.size(),
                "the savepoint was taken mid-stream: " + committedBefore + " of " + expected.size());
        assertEquals(expected, restored, "the changelog of an uninterrupted stock run");
        RuntimeJobs.awaitNoNativeLeaks(Duration.ofSeconds(30));
    }
}
