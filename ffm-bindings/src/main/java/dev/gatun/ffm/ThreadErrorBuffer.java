package dev.gatun.ffm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The error buffer of per-batch calls: one per thread, allocated once and reused. A confined
 * arena per call (what {@link CallScratch} does for the rare calls) costs about a microsecond,
 * half of the whole crossing budget. Native code writes the buffer only on failure, and it is read
 * on the calling thread right after the call returns, before any other call can reuse it.
 */
final class ThreadErrorBuffer {
    private static final ThreadLocal<MemorySegment> BUFFER =
            ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(CallScratch.ERR_CAP));

    private ThreadErrorBuffer() {}

    static MemorySegment get() {
        return BUFFER.get();
    }

    static long capacity() {
        return CallScratch.ERR_CAP;
    }
}
