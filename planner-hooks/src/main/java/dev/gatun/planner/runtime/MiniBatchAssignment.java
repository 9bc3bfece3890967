package dev.gatun.planner.runtime;

/**
 * The work of a processing-time MiniBatchAssigner absorbed into a local-aggregate island, as
 * Flink's {@code ProcTimeMiniBatchAssignerOperator} does it: a row, or a timer firing, in a newer
 * interval than the last watermark (processing time rounded down to the interval) emits that
 * interval's start as a watermark first; watermarks from below are dropped except the final
 * {@code Long.MAX_VALUE}, once. Nothing of it is checkpointed, as in Flink.
 */
final class MiniBatchAssignment {
    static final long NONE = Long.MIN_VALUE;

    private final long interval;
    private long current;

    MiniBatchAssignment(long interval) {
        if (interval <= 0) {
            throw new IllegalArgumentException("mini-batch interval must be positive: " + interval);
        }
        this.interval = interval;
    }

    long interval() {
        return interval;
    }

    /** The watermark to emit at processing time {@code now}, or {@link #NONE}. */
    long due(long now) {
        long batch = now - now % interval;
        if (batch > current) {
            current = batch;
            return batch;
        }
        return NONE;
    }

    /** When the assigner's timer fires next after it fired at {@code now}. */
    long nextTimer(long now) {
        return now - now % interval + interval;
    }

    /** Whether a watermark from below passes: only the final one, and only once. */
    boolean passes(long upstream) {
        if (upstream == Long.MAX_VALUE && current != Long.MAX_VALUE) {
            current = Long.MAX_VALUE;
            return true;
        }
        return false;
    }
}
