package dev.gatun.arrow.memory;

import java.util.concurrent.atomic.AtomicBoolean;

/** An owner registered with {@link NativeAllocator#track}; {@link #close} ends the tracking once. */
public final class Tracking implements AutoCloseable {
    private final NativeAllocator allocator;
    private final long id;
    private final NativeAllocator.Kind kind;
    private final Object owner;
    private final Throwable site;
    private final AtomicBoolean closed = new AtomicBoolean();

    Tracking(NativeAllocator allocator, long id, NativeAllocator.Kind kind, Object owner, Throwable site) {
        this.allocator = allocator;
        this.id = id;
        this.kind = kind;
        this.owner = owner;
        this.site = site;
    }

    long id() {
        return id;
    }

    NativeAllocator.Kind kind() {
        return kind;
    }

    Throwable site() {
        return site;
    }

    String describe() {
        try {
            return String.valueOf(owner);
        } catch (RuntimeException e) {
            return owner.getClass().getName() + " (toString failed: " + e + ")";
        }
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            allocator.untrack(this);
        }
    }
}
