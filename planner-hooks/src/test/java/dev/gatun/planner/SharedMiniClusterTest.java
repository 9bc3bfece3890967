package dev.gatun.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.testing.Queries;
import dev.gatun.planner.testing.SharedMiniCluster;
import dev.gatun.planner.testing.TestTables;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.client.JobStatusMessage;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.util.TestStreamEnvironment;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Jobs of environments made in {@code @BeforeAll} run on the JVM's one shared MiniCluster: the
 * cluster lists their job ids. The same check does see a job that ran elsewhere (a local
 * environment starts a cluster of its own), so it can fail.
 */
@ExtendWith(LeakCheckExtension.class)
@ExtendWith(SharedMiniCluster.class)
class SharedMiniClusterTest {
    private static final String QUERY = "SELECT id, a + 1 FROM t WHERE a > 0";

    private static Queries q;
    private static StreamExecutionEnvironment streamEnv;

    @BeforeAll
    static void environments() {
        q = new Queries();
        TestTables.createT(q, "t", 50);
        streamEnv = StreamExecutionEnvironment.getExecutionEnvironment(new Configuration());
    }

    private static Set<JobID> jobsOnTheSharedCluster() throws Exception {
        return SharedMiniCluster.current().listJobs().get().stream()
                .map(JobStatusMessage::getJobId)
                .collect(Collectors.toSet());
    }

    /** Runs {@code QUERY} on {@code tEnv} to the end; returns its job id. */
    private static JobID run(TableEnvironment tEnv) throws Exception {
        TableResult result = tEnv.executeSql(QUERY);
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = result.collect()) {
            it.forEachRemaining(r -> rows.add(r.toString()));
        }
        assertFalse(rows.isEmpty());
        JobID job = result.getJobClient().orElseThrow().getJobID();
        result.getJobClient().orElseThrow().getJobExecutionResult().get();
        return job;
    }

    @Test
    void aTableEnvironmentMadeInBeforeAllRunsItsJobsOnTheSharedCluster() throws Exception {
        Set<JobID> before = jobsOnTheSharedCluster();
        JobID job = run(q.env());
        Set<JobID> after = jobsOnTheSharedCluster();
        assertFalse(before.contains(job));
        assertTrue(after.contains(job), "job " + job + " did not run on the shared cluster: " + after);
        assertEquals(before.size() + 1, after.size(), after.toString());
    }

    @Test
    void aStreamEnvironmentMadeInBeforeAllSubmitsToTheSharedCluster() throws Exception {
        assertInstanceOf(TestStreamEnvironment.class, streamEnv);
        Set<JobID> before = jobsOnTheSharedCluster();
        streamEnv.fromData(1L, 2L, 3L).sinkTo(new DiscardingSink<>());
        JobClient client = streamEnv.executeAsync("shared-cluster-check");
        client.getJobExecutionResult().get();
        JobID job = client.getJobID();
        assertTrue(jobsOnTheSharedCluster().contains(job), "job " + job + " did not run on the shared cluster");
        assertFalse(before.contains(job));
    }

    @Test
    void aJobOfALocalEnvironmentIsNotOnTheSharedCluster() throws Exception {
        Configuration conf = new Configuration();
        conf.setString("parallelism.default", "1");
        // Flink refuses a local environment while a test cluster is the context
        TestStreamEnvironment.unsetAsContext();
        JobID job;
        try {
            StreamTableEnvironment local = StreamTableEnvironment.create(StreamExecutionEnvironment.createLocalEnvironment(conf));
            TestTables.createT(local, "t", 50);
            job = run(local);
        } finally {
            TestStreamEnvironment.setAsContext(SharedMiniCluster.current(), SharedMiniCluster.SLOTS);
        }
        assertFalse(jobsOnTheSharedCluster().contains(job), "a local environment's job was seen on the shared cluster");
    }

    @Test
    void theJvmStartedOneSharedCluster() {
        assertEquals(1, SharedMiniCluster.clustersStarted());
    }
}
