package dev.gatun.arrow.operator;

import dev.gatun.ffm.internal.GatunWatermarkProgress;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;

/**
 * The state of Flink's {@code WatermarkAssignerOperator} across the batches of one
 * {@link NativeOperator} whose plan assigns watermarks ({@code GatunWatermarkProgress}): the
 * highest watermark seen ({@code currentWatermark}), the last one emitted ({@code lastWatermark}),
 * both starting at 0 as in Flink's {@code open()}, the emit interval
 * ({@code pipeline.auto-watermark-interval}, ms) and, after each call, the watermark to emit after
 * the batch's last output row ({@link #NONE} for none). {@link NativeOperator#process} updates it
 * in place on success only. Not thread-safe: one operator thread owns it.
 */
public final class WatermarkProgress {
    /** No watermark ({@code INT64_MIN}). */
    public static final long NONE = Long.MIN_VALUE;

    private long current;
    private long last;
    private long interval;
    private long after = NONE;
    private long miniBatchNext;

    /** A fresh progress (current and last 0) with the emit interval {@code interval} (ms, may be 0). */
    public WatermarkProgress(long interval) {
        this(0, 0, interval);
    }

    public WatermarkProgress(long current, long last, long interval) {
        this.current = current;
        this.last = last;
        this.interval = interval;
    }

    /** The highest watermark seen so far. */
    public long current() {
        return current;
    }

    /** The last watermark emitted. */
    public long last() {
        return last;
    }

    /** The emit interval in milliseconds. */
    public long interval() {
        return interval;
    }

    /**
     * An absorbed row-time mini-batch assigner's {@code nextWatermark} (the kernel moves it; unused
     * when the island absorbed none).
     */
    public long miniBatchNext() {
        return miniBatchNext;
    }

    /** Sets the absorbed mini-batch assigner's {@code nextWatermark} (its start, or after a forward). */
    public void miniBatchNext(long next) {
        this.miniBatchNext = next;
    }

    /** The watermark to emit after the last output row of the last batch, or {@link #NONE}. */
    public long after() {
        return after;
    }

    /**
     * Flink's {@code advanceWatermark}: when the watermark advanced past the last one emitted, that
     * one becomes the last and is returned for emitting; otherwise {@link #NONE}.
     */
    public long advance() {
        if (current > last) {
            last = current;
            return current;
        }
        return NONE;
    }

    /**
     * The end-of-input watermark ({@code Long.MAX_VALUE}) arrived: true, and the current watermark
     * becomes it, unless it already is (it passes once).
     */
    public boolean endOfInput() {
        if (current == Long.MAX_VALUE) {
            return false;
        }
        current = Long.MAX_VALUE;
        return true;
    }

    /** A {@code GatunWatermarkProgress} holding this state, allocated with {@code allocator}. */
    MemorySegment toStruct(SegmentAllocator allocator) {
        MemorySegment struct = GatunWatermarkProgress.allocate(allocator);
        GatunWatermarkProgress.current(struct, current);
        GatunWatermarkProgress.last(struct, last);
        GatunWatermarkProgress.interval(struct, interval);
        GatunWatermarkProgress.after(struct, NONE);
        GatunWatermarkProgress.mini_batch_next(struct, miniBatchNext);
        return struct;
    }

    /** Takes the state a successful call left in {@code struct}. */
    void updateFrom(MemorySegment struct) {
        current = GatunWatermarkProgress.current(struct);
        last = GatunWatermarkProgress.last(struct);
        after = GatunWatermarkProgress.after(struct);
        miniBatchNext = GatunWatermarkProgress.mini_batch_next(struct);
    }

    @Override
    public String toString() {
        return "WatermarkProgress[current=" + current + ", last=" + last + ", interval=" + interval + ", after="
                + (after == NONE ? "NONE" : after) + "]";
    }
}
