package dev.gatun.arrow.memory;

import dev.gatun.ffm.NativeMemory;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One raw allocation from a {@link NativeAllocator}: 64-byte aligned, size padded to 64. Java
 * reaches its bytes only through a {@linkplain #view view} scoped to an arena; {@link #free} may
 * run on any thread (release callbacks) and runs at most once.
 */
public final class NativeBuffer {
    private final NativeAllocator allocator;
    private final MemorySegment raw;
    private final long size;
    private final AtomicBoolean freed = new AtomicBoolean();

    NativeBuffer(NativeAllocator allocator, MemorySegment raw, long size) {
        this.allocator = allocator;
        this.raw = raw;
        this.size = size;
    }

    /** Padded size in bytes. */
    public long size() {
        return size;
    }

    /** A zero-length segment carrying the address, for C structs ({@code buffers[i]}, pointers). */
    public MemorySegment address() {
        return raw;
    }

    /** The bytes as a segment that dies with {@code arena}. Freeing stays this buffer's job. */
    public MemorySegment view(Arena arena) {
        return raw.reinterpret(size, arena, null);
    }

    /**
     * The bytes as an always-alive segment, for code that controls the lifetime itself (export
     * metadata written before hand-off, release handlers). Never hand it to callers.
     */
    public MemorySegment unscopedView() {
        return raw.reinterpret(size);
    }

    /** Returns the memory to the C library and the bytes to the allocator; later calls do nothing. */
    public void free() {
        if (freed.compareAndSet(false, true)) {
            NativeMemory.free(raw);
            allocator.released(size);
        }
    }

    @Override
    public String toString() {
        return "NativeBuffer[0x" + Long.toHexString(raw.address()) + ", " + size + " bytes" + (freed.get() ? ", freed]" : "]");
    }
}
