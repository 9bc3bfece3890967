package dev.gatun.planner.runtime;

import dev.gatun.arrow.operator.WatermarkProgress;
import org.apache.flink.streaming.api.watermark.Watermark;

/**
 * The work of a WatermarkAssigner fused into an island, as Flink's {@code WatermarkAssignerOperator}
 * does it. The rowtime and watermark of each row are computed natively, which also places the eager
 * emissions between the output rows ({@link IslandExit}); here is the rest: the watermark starts at
 * 0, is emitted periodically ({@code pipeline.auto-watermark-interval}) when it advanced, and
 * upstream watermarks are dropped except the final {@code Long.MAX_VALUE}. Behind it, a row-time
 * mini-batch assigner absorbed with it (into a local window aggregate) forwards a watermark only once
 * it reaches the end of a mini-batch interval: the kernel applies that rule within a batch, here
 * for the periodic emissions. As in Flink, nothing of it is checkpointed.
 */
final class WatermarkAssignment {
    private final WatermarkProgress progress;
    private long lastPeriodicEmit;

    /** Flink's {@code RowTimeMiniBatchAssginerOperator} behind the assigner, if absorbed: its interval, else 0. */
    private final long miniBatchInterval;

    WatermarkAssignment(long interval, long now, long miniBatchInterval) {
        this.progress = new WatermarkProgress(interval);
        this.lastPeriodicEmit = now;
        this.miniBatchInterval = miniBatchInterval;
        if (miniBatchInterval > 0) {
            progress.miniBatchNext(miniBatchEnd(0)); // the mini-batch assigner's open()
        }
    }

    /**
     * Whether the absorbed row-time mini-batch assigner forwards {@code watermark}, the assigner's
     * (always, when none was absorbed); if so, it moves to the end of the next interval.
     */
    boolean miniBatchForwards(long watermark) {
        if (miniBatchInterval <= 0 || watermark == Long.MAX_VALUE) {
            return true;
        }
        if (watermark < progress.miniBatchNext()) {
            return false;
        }
        long end = miniBatchEnd(watermark);
        progress.miniBatchNext(end > watermark ? end : end + miniBatchInterval);
        return true;
    }

    /** {@code getMiniBatchStart(watermark) + interval - 1}, in Java long arithmetic as Flink computes it. */
    private long miniBatchEnd(long watermark) {
        return watermark - (watermark + miniBatchInterval) % miniBatchInterval + miniBatchInterval - 1;
    }

    /** The progress the native call reads and updates. */
    WatermarkProgress progress() {
        return progress;
    }

    long interval() {
        return progress.interval();
    }

    /** Whether the periodic emission is due at {@code now}; if so it counts as done now. */
    boolean periodicDue(long now) {
        if (progress.interval() > 0 && lastPeriodicEmit + progress.interval() <= now) {
            lastPeriodicEmit = now;
            return true;
        }
        return false;
    }

    /** The watermark to emit now, or null when it did not advance. */
    Watermark advance() {
        long watermark = progress.advance();
        return watermark == WatermarkProgress.NONE ? null : new Watermark(watermark);
    }

    /** Whether an upstream watermark passes: only the final one, and only once. */
    boolean isFinal(Watermark upstream) {
        return upstream.getTimestamp() == Long.MAX_VALUE && progress.current() != Long.MAX_VALUE;
    }

    /** The final watermark passed: the watermark is at its end. */
    void passFinal() {
        progress.endOfInput();
    }
}
