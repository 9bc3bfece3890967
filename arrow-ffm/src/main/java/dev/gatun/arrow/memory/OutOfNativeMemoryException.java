package dev.gatun.arrow.memory;

/** An allocation would exceed the allocator's limit, or the C library is out of memory. */
public final class OutOfNativeMemoryException extends RuntimeException {
    private final long requested;
    private final long live;
    private final long limit;

    public OutOfNativeMemoryException(String message, long requested, long live, long limit) {
        super(message);
        this.requested = requested;
        this.live = live;
        this.limit = limit;
    }

    /** Bytes asked for (after padding). */
    public long requested() {
        return requested;
    }

    /** Java-produced bytes live when the request failed. */
    public long live() {
        return live;
    }

    /** The limit in force, or {@code Long.MAX_VALUE} when there is none. */
    public long limit() {
        return limit;
    }
}
