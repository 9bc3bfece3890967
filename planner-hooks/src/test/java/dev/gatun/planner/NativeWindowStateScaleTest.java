package dev.gatun.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.testing.ChecksumSinkFactory;
import dev.gatun.planner.testing.PacedSourceFactory;
import dev.gatun.planner.testing.RuntimeJobs;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.testutils.MiniClusterResource;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.util.TestStreamEnvironment;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One window holding a million distinct keys (a 100-day TUMBLE window over a million rows, one per
 * second of event time, grouped by their distinct id), with the local and the global window aggregate
 * native: within a task off-heap budget that fits the state the job completes with the stock windows
 * (compared as row count and order-independent checksum: a lost, repeated or different row shows),
 * and with one that does not it fails with the message naming the budget key, never a crash. Each
 * test runs its own cluster (the budget is TaskManager configuration): one TaskManager, one slot.
 */
@ExtendWith(LeakCheckExtension.class)
class NativeWindowStateScaleTest {
    private static final long KEYS = 1_000_000;
    private static final String INSERT = "INSERT INTO sink_c SELECT id, window_end, COUNT(*), SUM(v)"
            + " FROM TABLE(TUMBLE(TABLE src, DESCRIPTOR(ts), INTERVAL '100' DAY(3)))"
            + " GROUP BY window_start, window_end, id";

    /** Runs {@code test} with a cluster whose TaskManager has the task off-heap {@code budget}. */
    private static void withCluster(MemorySize budget, ThrowingRunnable test) throws Exception {
        Configuration conf = new Configuration();
        conf.set(TaskManagerOptions.TASK_OFF_HEAP_MEMORY, budget);
        MiniClusterResource cluster = new MiniClusterResource(new MiniClusterResourceConfiguration.Builder()
                .setConfiguration(conf)
                .setNumberTaskManagers(1)
                .setNumberSlotsPerTaskManager(1)
                .build());
        cluster.before();
        TestStreamEnvironment.setAsContext(cluster.getMiniCluster(), 1);
        try {
            test.run();
        } finally {
            TestStreamEnvironment.unsetAsContext();
            cluster.after();
        }
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    /** The table environment of a run writing into checksum sink {@code sink}. */
    private static TableEnvironment job(boolean nativeEnabled, String sink) {
        TableEnvironment tEnv = RuntimeJobs.env(nativeEnabled, Map.of(
                "table.optimizer.agg-phase-strategy", "TWO_PHASE", "restart-strategy.type", "none"));
        tEnv.executeSql("CREATE TEMPORARY TABLE src (" + PacedSourceFactory.COLUMNS + ", WATERMARK FOR ts AS ts) "
                + PacedSourceFactory.with("src-" + sink, KEYS, 0, -1, null));
        tEnv.executeSql("CREATE TEMPORARY TABLE sink_c (id BIGINT, we TIMESTAMP(3), c BIGINT, total BIGINT) "
                + ChecksumSinkFactory.with(sink));
        if (nativeEnabled) {
            String plan = Gatun.explain(tEnv, INSERT);
            assertTrue(plan.contains("native: LocalWindowAggregate(") && plan.contains("native: GlobalWindowAggregate("),
                    plan);
        }
        return tEnv;
    }

    /**
     * 512 MB: the window state's share is three quarters of it (one slot), 384 MB; a million keys of this
     * query did not fit the 192 MB share of a 256 MB budget.
     */
    @Test
    void aMillionKeysInOneWindowFitTheBudgetAndEqualStock() throws Exception {
        withCluster(MemorySize.parse("512 mb"), () -> {
            String stock = UUID.randomUUID().toString();
            job(false, stock).executeSql(INSERT).await();
            String gatun = UUID.randomUUID().toString();
            job(true, gatun).executeSql(INSERT).await();
            assertEquals(KEYS, ChecksumSinkFactory.of(stock).rows(), "one window per key");
            assertEquals(ChecksumSinkFactory.of(stock), ChecksumSinkFactory.of(gatun), "the stock windows");
            RuntimeJobs.awaitNoNativeLeaks(Duration.ofSeconds(30));
        });
    }

    /** Small, so that the job fails early: the local phase's groups leave early, and the window state crosses its share. */
    @Test
    void aBudgetTooSmallForTheKeysFailsTheJobNamingIt() throws Exception {
        withCluster(MemorySize.parse("8 mb"), () -> {
            String gatun = UUID.randomUUID().toString();
            Exception e = assertThrows(Exception.class, () -> job(true, gatun).executeSql(INSERT).await());
            String message = ExceptionUtils.stringifyException(e);
            assertTrue(message.contains("NativeMemoryBudgetException")
                    && message.contains("taskmanager.memory.task.off-heap.size"), message);
            assertTrue(ChecksumSinkFactory.of(gatun).rows() < KEYS, "the job failed before its windows fired");
            RuntimeJobs.awaitNoNativeLeaks(Duration.ofSeconds(30));
        });
    }
}
