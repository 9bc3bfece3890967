package dev.gatun.sql;

import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/**
 * How many rows native islands have read on the test cluster so far: the sum of every
 * {@code gatun.rowsIn} counter any job registered, kept after the job ends. A query ran natively
 * iff the sum grew while it ran (the tests run one query at a time).
 */
public final class NativeRowsReporter implements MetricReporter {
    private static final List<Counter> ROWS_IN = new CopyOnWriteArrayList<>();

    static Configuration addTo(Configuration configuration) {
        configuration.setString("metrics.reporter.gatun-native-rows.factory.class", Factory.class.getName());
        return configuration;
    }

    /** Rows read by native islands of every job so far. */
    static long total() {
        return ROWS_IN.stream().mapToLong(Counter::getCount).sum();
    }

    @Override
    public void open(MetricConfig config) {}

    @Override
    public void close() {}

    @Override
    public void notifyOfAddedMetric(Metric metric, String metricName, MetricGroup group) {
        if (metric instanceof Counter counter && group.getMetricIdentifier(metricName).endsWith(".gatun.rowsIn")) {
            ROWS_IN.add(counter);
        }
    }

    @Override
    public void notifyOfRemovedMetric(Metric metric, String metricName, MetricGroup group) {
        // kept: a bounded query's job has ended by the time the test reads the sum
    }

    /** Found through META-INF/services and the reporter's factory.class key. */
    public static final class Factory implements MetricReporterFactory {
        @Override
        public MetricReporter createMetricReporter(Properties properties) {
            return new NativeRowsReporter();
        }
    }
}
