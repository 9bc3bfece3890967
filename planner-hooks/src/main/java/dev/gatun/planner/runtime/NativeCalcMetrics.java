package dev.gatun.planner.runtime;

import dev.gatun.arrow.memory.NativeAllocator;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;

/**
 * Per-operator metrics: rows in and out, batches, native bytes live, and the entry conversion
 * time, sampled on one row in {@value #SAMPLE_EVERY} so the hot path reads no clock per row.
 */
final class NativeCalcMetrics {
    static final int SAMPLE_EVERY = 1024;

    private final Counter rowsIn;
    private final Counter rowsOut;
    private final Counter batches;
    private long sampledNanos;
    private long samples;
    private long sampleStart;
    private int untilSample = SAMPLE_EVERY;

    NativeCalcMetrics(MetricGroup group, NativeAllocator allocator) {
        MetricGroup g = group.addGroup("gatun");
        rowsIn = g.counter("rowsIn");
        rowsOut = g.counter("rowsOut");
        batches = g.counter("batches");
        g.gauge("nativeBytesLive", (Gauge<Long>) () -> allocator.javaBytes() + allocator.importedBytes());
        g.gauge("entryNanosPerRowSampled", (Gauge<Long>) () -> samples == 0 ? 0 : sampledNanos / samples);
    }

    void beforeWrite() {
        rowsIn.inc();
        if (--untilSample == 0) {
            sampleStart = System.nanoTime();
        }
    }

    void afterWrite() {
        if (untilSample == 0) {
            sampledNanos += System.nanoTime() - sampleStart;
            samples++;
            untilSample = SAMPLE_EVERY;
        }
    }

    void batchDone(int rows) {
        batches.inc();
        rowsOut.inc(rows);
    }
}
