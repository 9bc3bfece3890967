package dev.gatun.planner.runtime;

import dev.gatun.arrow.batch.RecordBatch;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.TimeZone;
import org.apache.flink.table.runtime.util.TimeWindowUtil;

/**
 * Where a window-aggregate island's rows reach its state: where Flink's window buffer
 * ({@code RecordsWindowBuffer} in {@code AbstractSliceSyncStateWindowAggProcessor}) flushes into the
 * state, not one row earlier. That is at a watermark above the earlier ones that reaches the next trigger
 * point ({@code TimeWindowUtil.getNextTriggerWatermark} of the slice interval, which ignores a window's
 * offset and, without daylight saving time, the zone) once the earliest buffered slice has fired, before
 * a checkpoint barrier, and when the buffer is full ({@link #MAX_HELD_BATCHES} sealed batches here). Flink registers a window's timer only when it
 * flushes rows of a window that has not fired, so rows flushed after their window fired are never
 * emitted; the island processes the rows at the same points and the kernel drops them as late.
 */
final class WindowBuffer implements AutoCloseable {
    /** Sealed entry batches held before the buffer counts as full (Flink's buffer is bounded too). */
    static final int MAX_HELD_BATCHES = 256;

    private final long interval;
    private final ZoneId shiftZone;
    private final boolean daylightSaving;
    private final List<RecordBatch> held = new ArrayList<>();
    private long progress = Long.MIN_VALUE;
    private long nextTrigger = Long.MIN_VALUE;
    /** The earliest slice end of the buffered rows Flink buffers (not those it drops on arrival). */
    private long minSliceEnd = Long.MAX_VALUE;

    WindowBuffer(long interval, String shiftZone) {
        this.interval = interval;
        this.shiftZone = ZoneId.of(shiftZone);
        this.daylightSaving = TimeZone.getTimeZone(this.shiftZone).useDaylightTime();
    }

    /** A row with slice end {@code sliceEnd} was buffered. */
    void buffered(long sliceEnd) {
        // a row whose slice fired is late: Flink drops (TUMBLE) or re-targets it, so it sets no minimum
        if (sliceEnd < minSliceEnd && !TimeWindowUtil.isWindowFired(sliceEnd, progress, shiftZone)) {
            minSliceEnd = sliceEnd;
        }
    }

    /** Whether the buffer flushes at {@code watermark} (at a trigger point it computes the next one). */
    boolean flushesAt(long watermark) {
        if (watermark <= progress) {
            return false;
        }
        progress = watermark;
        if (watermark < nextTrigger) {
            return false;
        }
        nextTrigger = TimeWindowUtil.getNextTriggerWatermark(watermark, interval, shiftZone, daylightSaving);
        return TimeWindowUtil.isWindowFired(minSliceEnd, watermark, shiftZone);
    }

    /** The buffer was flushed (at a trigger point, a barrier, the end of input or when full). */
    void flushed() {
        minSliceEnd = Long.MAX_VALUE;
    }

    /** Holds a sealed batch; true when the buffer is now full (the caller flushes). */
    boolean hold(RecordBatch batch) {
        held.add(batch);
        return held.size() >= MAX_HELD_BATCHES;
    }

    /** The held batches, oldest first, now the caller's (it processes and closes each). */
    List<RecordBatch> take() {
        List<RecordBatch> out = new ArrayList<>(held);
        held.clear();
        return out;
    }

    /** Releases the held batches unprocessed (close, failure). */
    @Override
    public void close() {
        List<RecordBatch> out = take();
        for (RecordBatch b : out) {
            b.close();
        }
    }
}
