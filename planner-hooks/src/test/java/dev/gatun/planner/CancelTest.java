package dev.gatun.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.testing.CommitSinkFactory;
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

    private static JobStatus status(JobClient job) {
        try {
            return job.getJobStatus().get();
        } catch (Exception e) {
            throw new AssertionError("job status unavailable", e);
        }
    }
}
