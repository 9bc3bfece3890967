package dev.gatun.arrow.memory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The memory of one batch being written: raw buffers seen through one confined arena owned by the
 * creating thread. Closing frees everything; {@link #handOff} closes the arena (revoking every
 * Java view) and gives the claimed buffers to the caller, which frees them later from any thread.
 */
public final class BatchMemory implements AutoCloseable {
    private final NativeAllocator allocator;
    private final Arena arena;
    private final Thread owner;
    private final List<NativeBuffer> live = new ArrayList<>();
    private boolean closed;

    public BatchMemory(NativeAllocator allocator) {
        this.allocator = allocator;
        this.arena = Arena.ofConfined();
        this.owner = Thread.currentThread();
    }

    public NativeAllocator allocator() {
        return allocator;
    }

    /** The scope of the batch's arena: alive until the batch is exported or closed. */
    public MemorySegment.Scope scope() {
        return arena.scope();
    }

    /** Allocates a buffer of at least {@code bytes} (padded to 64), not zeroed. */
    public Allocation allocate(long bytes) {
        ensureOpen();
        NativeBuffer buffer = allocator.allocate(bytes);
        try {
            MemorySegment view = buffer.view(arena);
            live.add(buffer);
            return new Allocation(buffer, view);
        } catch (RuntimeException | Error e) {
            buffer.free();
            throw e;
        }
    }

    /** Like {@link #allocate} with every byte set to {@code fill}. */
    public Allocation allocateFilled(long bytes, byte fill) {
        Allocation a = allocate(bytes);
        a.segment().fill(fill);
        return a;
    }

    /**
     * Replaces {@code old} by a buffer of at least {@code bytes}, copying its first
     * {@code keepBytes} and freeing it. Failure-atomic: on failure {@code old} stays as it was.
     */
    public Allocation grow(Allocation old, long bytes, long keepBytes) {
        Allocation grown = allocate(bytes);
        boolean success = false;
        try {
            FaultHook.hit(FaultPoint.GROW);
            MemorySegment.copy(old.segment(), 0, grown.segment(), 0, keepBytes);
            success = true;
        } finally {
            if (!success) {
                release(grown.buffer());
            }
        }
        // The old view stays valid until the arena closes; callers drop every reference to it now.
        release(old.buffer());
        return grown;
    }

    private void release(NativeBuffer buffer) {
        live.remove(buffer);
        buffer.free();
    }

    /** Frees every buffer and closes the arena. Idempotent; owner thread only. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        checkOwner();
        closed = true;
        try {
            arena.close();
        } finally {
            for (NativeBuffer b : live) {
                b.free();
            }
            live.clear();
        }
    }

    /**
     * Closes the arena and hands {@code claimed} over to the caller; live buffers not claimed are
     * freed now. Owner thread only.
     */
    public void handOff(Set<NativeBuffer> claimed) {
        ensureOpen();
        int known = 0;
        for (NativeBuffer b : live) {
            if (claimed.contains(b)) {
                known++;
            }
        }
        if (known != claimed.size()) { // every live buffer is distinct, so some claimed one is not live
            for (NativeBuffer c : claimed) {
                if (!live.contains(c)) {
                    throw new IllegalArgumentException("buffer not owned by this batch: " + c);
                }
            }
        }
        closed = true;
        arena.close();
        for (NativeBuffer b : live) {
            if (!claimed.contains(b)) {
                b.free();
            }
        }
        live.clear();
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("batch memory is closed");
        }
        checkOwner();
    }

    private void checkOwner() {
        if (Thread.currentThread() != owner) {
            throw new IllegalStateException("batch memory is owned by thread " + owner.getName()
                    + " and was used from " + Thread.currentThread().getName());
        }
    }

    /** A buffer and its view in this batch's arena. */
    public record Allocation(NativeBuffer buffer, MemorySegment segment) {}
}
