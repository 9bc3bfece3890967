package dev.gatun.planner.testing;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.MiniClusterResource;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.util.TestStreamEnvironment;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs the jobs of a test class on the one MiniCluster of this test JVM: one TaskManager, two
 * slots (CI has 2 cores), started by the first class that uses it and closed when the JUnit run
 * ends (it lives in the root context's store).
 *
 * <p>The cluster becomes the context environment in {@code beforeAll}, before the class's own
 * {@code @BeforeAll} methods, so every {@code StreamExecutionEnvironment.getExecutionEnvironment}
 * and every {@code TableEnvironment.create} (which gets its executor through it) from then until
 * the class ends submits to it. Flink's {@code MiniClusterExtension} only does so in
 * {@code beforeEach}: an environment made in {@code @BeforeAll} started a local cluster per job.
 *
 * <p>The cluster also carries {@link GatunCounters}, the metric reporter CompiledPlanTest reads.
 */
public final class SharedMiniCluster implements BeforeAllCallback, AfterAllCallback {
    public static final int SLOTS = 2;

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SharedMiniCluster.class);
    private static final AtomicInteger STARTED = new AtomicInteger();
    private static volatile MiniCluster current;

    @Override
    public void beforeAll(ExtensionContext context) {
        TestStreamEnvironment.setAsContext(cluster(context), SLOTS);
    }

    /**
     * Leaves the cluster as the class found it: no job left running (one would hold a slot, and
     * its native memory would show up in the next class's leak check), no context environment.
     */
    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        TestStreamEnvironment.unsetAsContext();
        resource(context).cancelAllJobs();
        RuntimeJobs.awaitNoNativeLeaks(Duration.ofSeconds(30));
    }

    /** The JVM's cluster, started on first use. */
    public static MiniCluster cluster(ExtensionContext context) {
        return resource(context).getMiniCluster();
    }

    /** The running shared cluster; fails if no test class has started it. */
    public static MiniCluster current() {
        MiniCluster cluster = current;
        if (cluster == null) {
            throw new IllegalStateException("no shared MiniCluster: extend the test class with SharedMiniCluster");
        }
        return cluster;
    }

    /** How many shared clusters this JVM has started (one, once any test class used it). */
    public static int clustersStarted() {
        return STARTED.get();
    }

    private static MiniClusterResource resource(ExtensionContext context) {
        return context.getRoot().getStore(NAMESPACE)
                .getOrComputeIfAbsent(Running.class, k -> Running.start(), Running.class)
                .resource();
    }

    /** The started cluster; JUnit closes it with the root context, at the end of the run. */
    private record Running(MiniClusterResource resource) implements AutoCloseable {
        static Running start() {
            if (STARTED.get() > 0) {
                // the root store outlives every class of a run; a second start means it did not
                throw new IllegalStateException("a second shared MiniCluster in this JVM: the JUnit root context"
                        + " was closed between test classes");
            }
            Configuration configuration = GatunCounters.addTo(new Configuration());
            MiniClusterResource resource = new MiniClusterResource(new MiniClusterResourceConfiguration.Builder()
                    .setConfiguration(configuration)
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(SLOTS)
                    .build());
            try {
                resource.before();
            } catch (Exception e) {
                throw new IllegalStateException("the shared MiniCluster did not start", e);
            }
            STARTED.incrementAndGet();
            current = resource.getMiniCluster();
            return new Running(resource);
        }

        @Override
        public void close() {
            current = null;
            resource.after();
        }
    }
}
