package dev.gatun.ffm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Scratch memory for one native call: a confined arena, closed when the call returns, holding
 * the error buffer and any argument the call needs only while it runs.
 */
final class CallScratch implements AutoCloseable {
    static final long ERR_CAP = 4096;

    private final Arena arena = Arena.ofConfined();
    private final MemorySegment errBuf = arena.allocate(ERR_CAP);

    Arena arena() {
        return arena;
    }

    MemorySegment errBuf() {
        return errBuf;
    }

    long errCap() {
        return ERR_CAP;
    }

    void check(int status, String function) {
        NativeStatus.check(status, errBuf, function);
    }

    @Override
    public void close() {
        arena.close();
    }
}
