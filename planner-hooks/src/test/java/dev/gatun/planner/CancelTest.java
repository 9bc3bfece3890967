package dev.gatun.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.testing.CommitSinkFactory;
import dev.gatun.planner.testing.GatunCounters;
import dev.gatun.planner.testing.PacedSourceFactory;
import dev.gatun.planner.testing.RuntimeJobs;
import dev.gatun.planner.testing.SharedMiniCluster;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.table.api.TableEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Cancelling a running job while its native Calcs hold partial batches leaves nothing native live. */
@ExtendWith(LeakCheckExtension.class)
@ExtendWith(SharedMiniCluster.class)
class CancelTest {
    @Test
    void cancellingMidBatchLeaksNothing() throws Exception {
        String run = UUID.randomUUID().toString();
        // small batches keep rows flowing to the second Calc; the 1 h latency keeps the last batch partial
        TableEnvironment tEnv = RuntimeJobs.env(true, Map.of("gatun.batch.rows", "64", "gatun.batch.latency", "1 h"));
        tEnv.executeSql("CREATE TEMPORARY TABLE src (" + PacedSourceFactory.COLUMNS + ") "
                + PacedSourceFactory.with("src-" + run, 0, 2000, -1, null));
        tEnv.executeSql("CREATE TEMPORARY TABLE sink_t (k INT, c2 BIGINT, c1 BIGINT) " + CommitSinkFactory.with("sink-" + run));
        String insert = "INSERT INTO sink_t SELECT k, c * 2, c + 1 FROM"
                + " (SELECT k, COUNT(*) AS c FROM (SELECT k FROM src WHERE v > 0) GROUP BY k) WHERE c > 3";
        String plan = Gatun.explain(tEnv, insert);
        assertEquals(2, plan.split("native: ", -1).length - 1, plan);

        JobClient job = tEnv.executeSql(insert).getJobClient().orElseThrow();
        RuntimeJobs.await("rows through both native Calcs", Duration.ofSeconds(60),
                () -> CommitSinkFactory.received("sink-" + run) > 0);
        RuntimeJobs.await("a native Calc holding a partial batch", Duration.ofSeconds(30),
                RuntimeJobs::aGatunOperatorIsMidBatch);
        job.cancel().get();
        RuntimeJobs.await("the job to be cancelled", Duration.ofSeconds(60), () -> status(job) == JobStatus.CANCELED);
        RuntimeJobs.awaitNoNativeLeaks(Duration.ofSeconds(30));
    }

    @Test
    void cancellingANativeLocalAggregateHoldingGroupsLeaksNothing() throws Exception {
        String run = UUID.randomUUID().toString();
        // bundles that never fill and mini-batches that never close: the native groups stay held
        TableEnvironment tEnv = RuntimeJobs.env(true, Map.of("gatun.batch.rows", "64",
                "table.exec.mini-batch.enabled", "true", "table.exec.mini-batch.allow-latency", "1 h",
                "table.exec.mini-batch.size", "1000000", "table.optimizer.agg-phase-strategy", "TWO_PHASE"));
        tEnv.executeSql("CREATE TEMPORARY TABLE src (" + PacedSourceFactory.COLUMNS + ") "
                + PacedSourceFactory.with("src-" + run, 0, 2000, -1, null));
        tEnv.executeSql("CREATE TEMPORARY TABLE sink_t (k INT, c BIGINT, total BIGINT) "
                + CommitSinkFactory.with("sink-" + run));
        String insert = "INSERT INTO sink_t SELECT k, COUNT(*), SUM(v) FROM src WHERE v > 0 GROUP BY k";
        String plan = Gatun.explain(tEnv, insert);
        assertTrue(plan.contains("native: LocalGroupAggregate("), plan);

        JobClient job = tEnv.executeSql(insert).getJobClient().orElseThrow();
        RuntimeJobs.await("batches folded into the native groups", Duration.ofSeconds(60),
                () -> rowsIn(job) >= 640);
        job.cancel().get();
        RuntimeJobs.await("the job to be cancelled", Duration.ofSeconds(60), () -> status(job) == JobStatus.CANCELED);
        assertEquals(0, CommitSinkFactory.received("sink-" + run), "the groups were held, never emitted");
        RuntimeJobs.awaitNoNativeLeaks(Duration.ofSeconds(30));
    }

    /** Rows the native islands of {@code job} received ({@code gatun.rowsIn}). */
    private static long rowsIn(JobClient job) {
        return GatunCounters.of(job.getJobID()).entrySet().stream()
                .filter(e -> e.getKey().endsWith(".gatun.rowsIn"))
                .mapToLong(e -> e.getValue().getCount()).sum();
    }

    private static JobStatus status(JobClient job) {
        try {
            return job.getJobStatus().get();
        } catch (Exception e) {
            throw new AssertionError("job status unavailable", e);
        }
    }
}
