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
 * A native global window aggregate whose window holds more distinct keys than the slot's share of
 * the task off-heap budget: the job fails with a message naming {@code taskmanager.memory.task.off-heap.size},
 * the operator and the key, never a crash, and nothing native leaks. A cluster of its own, as in
 * {@link NativeMemoryBudgetJobTest}.
 */
@ExtendWith(LeakCheckExtension.class)
class NativeWindowStateBudgetJobTest {
    private static final MemorySize BUDGET = MemorySize.parse("2 mb");

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
    void aWindowWithMoreKeysThanTheBudgetHoldsFailsTheJobNamingTheBudgetAndTheKey() throws Exception {
        String run = UUID.randomUUID().toString();
        // the local phase stays on Flink: it would hold the window's keys natively too, and hit the budget first
        TableEnvironment tEnv = RuntimeJobs.env(true, Map.of("gatun.batch.rows", "256", "restart-strategy.type",
                "none", "table.optimizer.agg-phase-strategy", "TWO_PHASE", "gatun.aggregate.local.enabled", "false"));
        tEnv.getConfig().set("gatun.aggregate.local.enabled", "false");
        tEnv.executeSql("CREATE TEMPORARY TABLE src (" + PacedSourceFactory.COLUMNS + ", WATERMARK FOR ts AS ts) "
                + PacedSourceFactory.with("src-" + run, 300_000, 0, -1, null));
        tEnv.executeSql("CREATE TEMPORARY TABLE sink_t (id BIGINT, c BIGINT, total BIGINT) "
                + CommitSinkFactory.with("sink-" + run));
        // windows of 4 days sliding by the hour: 300,000 distinct keys in hourly slices, flushed hourly
        String insert = "INSERT INTO sink_t SELECT id, COUNT(*), SUM(v) FROM TABLE(HOP(TABLE src, DESCRIPTOR(ts),"
                + " INTERVAL '1' HOUR, INTERVAL '4' DAY)) GROUP BY window_start, window_end, id";
        assertTrue(Gatun.explain(tEnv, insert).contains("native: GlobalWindowAggregate("), Gatun.explain(tEnv, insert));
        Exception e = assertThrows(Exception.class, () -> tEnv.executeSql(insert).await());
        String message = ExceptionUtils.stringifyException(e);
        assertTrue(message.contains("the native window state of operator") && message.contains("GlobalWindowAggregate")
                && message.contains("taskmanager.memory.task.off-heap.size") && message.contains("key"), message);
        RuntimeJobs.awaitNoNativeLeaks(Duration.ofSeconds(30));
    }
}
