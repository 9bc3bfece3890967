package dev.gatun.planner.testing;

import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.Gatun;
import dev.gatun.planner.GatunOptions;
import dev.gatun.planner.rewrite.CalcDecision;
import dev.gatun.planner.rewrite.PlanReport;
import dev.gatun.planner.runtime.NativeCalcSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;

/** Table environments, plan inspection and polling for the runtime tests (jobs on the shared MiniCluster). */
public final class RuntimeJobs {
    private RuntimeJobs() {}

    /**
     * A fresh streaming environment (parallelism 1, Gatun enabled and forced) whose
     * configuration also carries {@code settings}: job-level keys such as checkpointing or a
     * state-recovery path reach the submitted job this way.
     */
    public static TableEnvironment env(boolean nativeEnabled, Map<String, String> settings) {
        Configuration conf = new Configuration();
        conf.setString("parallelism.default", "1");
        settings.forEach(conf::setString);
        TableEnvironment tEnv = TableEnvironment.create(
                EnvironmentSettings.newInstance().inStreamingMode().withConfiguration(conf).build());
        tEnv.getConfig().set(GatunOptions.FORCE, true);
        if (!Gatun.enable(tEnv)) {
            throw new IllegalStateException("the native library did not load");
        }
        tEnv.getConfig().set(GatunOptions.NATIVE_ENABLED, nativeEnabled);
        return tEnv;
    }

    /** Checkpoints every 100 ms, with restarts, for jobs whose sink commits on checkpoints. */
    public static Map<String, String> checkpointed() {
        return Map.of(
                "execution.checkpointing.interval", "100 ms",
                "restart-strategy.type", "fixed-delay",
                "restart-strategy.fixed-delay.attempts", "3",
                "restart-strategy.fixed-delay.delay", "50 ms");
    }

    /** The specs of the Calcs Gatun sends native in {@code statement}'s plan. */
    public static List<NativeCalcSpec> nativeSpecs(TableEnvironment tEnv, String statement) {
        PlanReport report = PlanReport.start();
        try {
            tEnv.explainSql(statement);
            return report.decisions().stream().filter(CalcDecision::isNative).map(CalcDecision::spec).toList();
        } finally {
            report.stop();
        }
    }

    /** Polls {@code condition} every 20 ms; fails with {@code what} after {@code timeout}. */
    public static void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what);
            }
            Thread.sleep(20);
        }
    }

    /**
     * Waits until no native handle, batch or byte is live (tasks of a finished or cancelled job
     * release theirs while they shut down); fails naming what is still live.
     */
    public static void awaitNoNativeLeaks(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String report = LeakCheckExtension.liveReport();
        while (!report.isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("native memory still live " + timeout + " after the job ended:\n" + report);
            }
            Thread.sleep(20);
            report = LeakCheckExtension.liveReport();
        }
    }

    /** Whether some Gatun operator holds a partially written batch right now. */
    public static boolean aGatunOperatorIsMidBatch() {
        return NativeAllocator.openAllocators().stream()
                .anyMatch(a -> a.name().startsWith("gatun ") && a.usage().liveBatches() > 0);
    }
}
