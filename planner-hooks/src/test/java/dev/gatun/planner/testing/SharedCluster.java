package dev.gatun.planner.testing;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;

/** The embedded cluster of a test class: one TaskManager, two slots (CI has 2 cores). */
public final class SharedCluster {
    private SharedCluster() {}

    public static MiniClusterExtension extension() {
        return extension(new Configuration());
    }

    /** The same cluster with extra configuration (e.g. a metric reporter). */
    public static MiniClusterExtension extension(Configuration configuration) {
        return new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                .setConfiguration(configuration)
                .setNumberTaskManagers(1)
                .setNumberSlotsPerTaskManager(2)
                .build());
    }
}
