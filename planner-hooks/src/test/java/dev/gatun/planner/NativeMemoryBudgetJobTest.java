package dev.gatun.planner;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.testing.CommitSinkFactory;
import dev.gatun.planner.testing.PacedSourceFactory;
import dev.gatun.planner.testing.RuntimeJobs;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A TaskManager with a task off-heap budget smaller than one native batch: the job fails with
 * a message naming {@code taskmanager.memory.task.off-heap.size}, and nothing native leaks. The
 * budget is TaskManager configuration that would fail the jobs of every other test, so this class
 * runs a cluster of its own (Flink's extension; its environments are made in the test method, after
 * the extension's {@code beforeEach} made that cluster the context), not {@code SharedMiniCluster}.
 */
@ExtendWith(LeakCheckExtension.class)
class NativeMemoryBudgetJobTest {
    private static final MemorySize BUDGET = MemorySize.parse("32 kb");

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setConfiguration(budget())
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(1)
            .build());

    private static Configuration budget() {
        Configuration conf = new Configuration();
        conf.set(TaskManagerOptions.TASK_OFF_HEAP_MEMORY, BUDGET);
        return conf;
    }

    @Test
    void aBatchBeyondTheBudgetFailsTheJobNamingIt() throws Exception {
        String run = UUID.randomUUID().toString();
        TableEnvironment tEnv = RuntimeJobs.env(true, Map.of("gatun.batch.rows", "4096", "restart-strategy.type", "none"));
        tEnv.executeSql("CREATE TEMPORARY TABLE src (" + PacedSourceFactory.COLUMNS + ") "
                + PacedSourceFactory.with("src-" + run, 100, 0, -1, null));
        tEnv.executeSql("CREATE TEMPORARY TABLE sink_t (id BIGINT, v2 BIGINT) " + CommitSinkFactory.with("sink-" + run));
        String insert = "INSERT INTO sink_t SELECT id, v * 2 FROM src WHERE k <> 3";
        assertTrue(Gatun.explain(tEnv, insert).contains("NativeCalc("));
        Exception e = assertThrows(Exception.class, () -> tEnv.executeSql(insert).await());
        String message = ExceptionUtils.stringifyException(e);
        assertTrue(message.contains("beyond the task off-heap budget taskmanager.memory.task.off-heap.size = "
                + BUDGET.toHumanReadableString()), message);
        RuntimeJobs.awaitNoNativeLeaks(Duration.ofSeconds(30));
    }
}
