package dev.gatun.planner.runtime;

import dev.gatun.arrow.memory.NativeAllocator;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MeterView;
import org.apache.flink.metrics.MetricGroup;

/**
 * Per-operator metrics, in the operator's metric group under {@code gatun}: rows in and out,
 * batches, native bytes live now and at their peak (entry batch plus imported result, taken
 * while a result is held), and the entry conversion time, sampled on one row in
 * {@value #SAMPLE_EVERY} so the hot path reads no clock per row. An island with native state adds
 * its state gauges there and Flink's late-row metrics in the operator's own group.
 */
final class NativeCalcMetrics {
    static final int SAMPLE_EVERY = 1024;
    static final String GROUP = "gatun";
    static final String LATE_RECORDS_DROPPED = "numLateRecordsDropped";
    static final String LATE_RECORDS_DROPPED_RATE = "lateRecordsDroppedRate";

    private final Counter rowsIn;
    private final Counter rowsOut;
    private final Counter batches;
    private final NativeAllocator allocator;
    private final MetricGroup group;
    private final MetricGroup operatorGroup;
    private Counter lateRecordsDropped;
    private long lateRowsCounted;
    private long peakBytes;
    private volatile long stateKeys;
    private volatile long stateSlices;
    private volatile long stateBytes;
    private volatile long snapshotBytes;
    private volatile long snapshotNanos;
    private volatile long restoreBytes;
    private volatile long restoreNanos;
    private long sampledNanos;
    private long samples;
    private long sampleStart;
    private int untilSample = SAMPLE_EVERY;

    NativeCalcMetrics(MetricGroup group, NativeAllocator allocator) {
        this.allocator = allocator;
        this.operatorGroup = group;
        MetricGroup g = group.addGroup(GROUP);
        this.group = g;
        rowsIn = g.counter("rowsIn");
        rowsOut = g.counter("rowsOut");
        batches = g.counter("batches");
        g.gauge("nativeBytesLive", (Gauge<Long>) () -> allocator.javaBytes() + allocator.importedBytes());
        g.gauge("nativeBytesPeak", (Gauge<Long>) () -> peakBytes);
        g.gauge("entryNanosPerRowSampled", (Gauge<Long>) () -> samples == 0 ? 0 : sampledNanos / samples);
        g.gauge("entryRowsSampled", (Gauge<Long>) () -> samples);
    }

    /**
     * The gauges of an island with native state: live keys, (key, slice) entries, state bytes, and the
     * last snapshot's and restore's bytes and duration. The task thread sets the values (the metric
     * reporter's thread never calls into the native handle).
     */
    void stateGauges() {
        group.gauge("stateKeys", (Gauge<Long>) () -> stateKeys);
        group.gauge("stateSlices", (Gauge<Long>) () -> stateSlices);
        group.gauge("stateBytes", (Gauge<Long>) () -> stateBytes);
        group.gauge("lastSnapshotBytes", (Gauge<Long>) () -> snapshotBytes);
        group.gauge("lastSnapshotMillis", (Gauge<Long>) () -> snapshotNanos / 1_000_000);
        group.gauge("restoredBytes", (Gauge<Long>) () -> restoreBytes);
        group.gauge("restoreMillis", (Gauge<Long>) () -> restoreNanos / 1_000_000);
    }

    /**
     * The late-row metrics of Flink's window operators ({@code WindowAggOperator}), under Flink's names
     * and in the operator's own group, so dashboards built for the stock operator read them: the
     * rows dropped as late, and their rate.
     */
    void lateRecordMetrics() {
        lateRecordsDropped = operatorGroup.counter(LATE_RECORDS_DROPPED);
        operatorGroup.meter(LATE_RECORDS_DROPPED_RATE, new MeterView(lateRecordsDropped));
    }

    /** {@code total}: the late rows the kernel has dropped since it was created. */
    void lateRows(long total) {
        if (total > lateRowsCounted) {
            lateRecordsDropped.inc(total - lateRowsCounted);
            lateRowsCounted = total;
        }
    }

    void state(long keys, long slices, long bytes) {
        stateKeys = keys;
        stateSlices = slices;
        stateBytes = bytes;
    }

    void snapshotted(long bytes, long nanos) {
        snapshotBytes = bytes;
        snapshotNanos = nanos;
    }

    void restored(long bytes, long nanos) {
        restoreBytes = bytes;
        restoreNanos = nanos;
    }

    long lastSnapshotBytes() {
        return snapshotBytes;
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

    /** Called while the batch's result is still held, when native memory is at its peak. */
    void resultHeld() {
        peakBytes = Math.max(peakBytes, allocator.javaBytes() + allocator.importedBytes());
    }

    void batchDone(int rows) {
        batches.inc();
        rowsOut.inc(rows);
    }
}
