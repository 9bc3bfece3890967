package dev.gatun.sql;

import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.ffm.GatunLibrary;
import java.net.URI;
import java.time.Duration;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;

/**
 * A MiniCluster whose REST endpoint listens on a free loopback port, as the cluster the SQL
 * Gateway and the SQL Client submit to ({@code execution.target: remote}), with
 * {@link NativeRowsReporter} on its TaskManager.
 */
final class LoopbackCluster implements AutoCloseable {
    static final String HOST = "127.0.0.1";

    private final MiniCluster cluster;
    private final URI rest;

    private LoopbackCluster(MiniCluster cluster, URI rest) {
        this.cluster = cluster;
        this.rest = rest;
    }

    static LoopbackCluster start() throws Exception {
        Configuration configuration = NativeRowsReporter.addTo(new Configuration());
        configuration.set(RestOptions.BIND_ADDRESS, HOST);
        configuration.set(RestOptions.ADDRESS, HOST);
        configuration.set(RestOptions.BIND_PORT, "0");
        MiniCluster cluster = new MiniCluster(new MiniClusterConfiguration.Builder()
                .setConfiguration(configuration)
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(2)
                .build());
        cluster.start();
        return new LoopbackCluster(cluster, cluster.getRestAddress().get());
    }

    /** The configuration a client of this cluster needs: where to submit. */
    Configuration clientConfiguration() {
        Configuration configuration = new Configuration();
        configuration.setString("execution.target", "remote");
        configuration.set(RestOptions.ADDRESS, rest.getHost());
        configuration.set(RestOptions.PORT, rest.getPort());
        return configuration;
    }

    /** Waits until no native handle, exported array or Gatun batch is live in this JVM, or fails. */
    static void awaitNoNativeLeaks(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            String live = GatunLibrary.stats().hasNoLiveResources() ? "" : GatunLibrary.stats().describeLiveResources();
            long batches = NativeAllocator.openAllocators().stream()
                    .filter(a -> a.name().startsWith("gatun ")).mapToLong(a -> a.usage().liveBatches()).sum();
            if (live.isEmpty() && batches == 0) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("native resources still live " + timeout + " after the queries: " + live
                        + ", live batches=" + batches);
            }
            Thread.sleep(20);
        }
    }

    @Override
    public void close() throws Exception {
        cluster.close();
    }
}
