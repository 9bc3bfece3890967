package dev.gatun.planner.testing;

import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/**
 * A metric reporter on the shared cluster that keeps the counters of Gatun's operators
 * (group {@code gatun}), and every operator's {@code numLateRecordsDropped}, by job, also after the
 * job ended, so a test can read them afterwards.
 * It keeps nothing else: a reporter keeping every metric of every job of the run would also keep
 * what their gauges reference.
 */
public final class GatunCounters implements MetricReporter {
    private static final String NAME = "gatun-counters";
    private static final Map<JobID, Map<String, Counter>> BY_JOB = new ConcurrentHashMap<>();

    /** {@code configuration} with this reporter added. */
    public static Configuration addTo(Configuration configuration) {
        configuration.setString("metrics.reporter." + NAME + ".factory.class", Factory.class.getName());
        return configuration;
    }

    /** The Gatun counters of {@code job}, by metric identifier ({@code ...gatun.rowsIn}); empty if none. */
    public static Map<String, Counter> of(JobID job) {
        return Map.copyOf(BY_JOB.getOrDefault(job, Map.of()));
    }

    @Override
    public void open(MetricConfig config) {}

    @Override
    public void close() {}

    @Override
    public void notifyOfAddedMetric(Metric metric, String metricName, MetricGroup group) {
        String identifier = group.getMetricIdentifier(metricName);
        String job = group.getAllVariables().get("<job_id>");
        if (metric instanceof Counter counter && job != null
                && (identifier.contains(".gatun.") || metricName.equals("numLateRecordsDropped"))) {
            BY_JOB.computeIfAbsent(JobID.fromHexString(job), k -> new ConcurrentHashMap<>()).put(identifier, counter);
        }
    }

    @Override
    public void notifyOfRemovedMetric(Metric metric, String metricName, MetricGroup group) {
        // kept on purpose: tests read a job's counters after it finished
    }

    /** Found through META-INF/services and {@code metrics.reporter.gatun-counters.factory.class}. */
    public static final class Factory implements MetricReporterFactory {
        @Override
        public MetricReporter createMetricReporter(Properties properties) {
            return new GatunCounters();
        }
    }
}
