package dev.gatun.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.ffm.internal.gatun_h;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A Rust panic comes back as {@code GATUN_ERR_PANIC} with its message in the error buffer (the guard
 * that catches it is tested in Rust, src/ffi/debug.rs, since the shipped library has no entry point
 * that panics); here: that status becomes a {@link NativePanicException} carrying the message.
 */
class PanicTest {
    private static MemorySegment errBuf(Arena arena, String message) {
        MemorySegment buf = arena.allocate(CallScratch.ERR_CAP);
        byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
        MemorySegment.copy(bytes, 0, buf, ValueLayout.JAVA_BYTE, 0, bytes.length);
        buf.set(ValueLayout.JAVA_BYTE, bytes.length, (byte) 0);
        return buf;
    }

    @Test
    void panicStatusBecomesNativePanicExceptionWithTheMessage() {
        try (Arena arena = Arena.ofConfined()) {
            String text = "panic in gatun_operator_process: boom ✓ (at src/ops/calc.rs:1:1)";
            NativePanicException e = assertThrows(NativePanicException.class,
                    () -> NativeStatus.check(gatun_h.GATUN_ERR_PANIC(), errBuf(arena, text), "gatun_operator_process"));
            assertEquals(text, e.nativeMessage());
            assertTrue(e.getMessage().contains("boom ✓"), e.getMessage());
            assertEquals(gatun_h.GATUN_ERR_PANIC(), e.status());
            assertEquals("gatun_operator_process", e.function());
        }
    }

    @Test
    void aMessageFillingTheBufferIsReadToItsEnd() {
        try (Arena arena = Arena.ofConfined()) {
            String text = "✓".repeat((int) (CallScratch.ERR_CAP - 1) / 3); // 4095 bytes and the NUL
            NativePanicException e = assertThrows(NativePanicException.class,
                    () -> NativeStatus.check(gatun_h.GATUN_ERR_PANIC(), errBuf(arena, text), "f"));
            assertEquals(text, e.nativeMessage());
        }
    }
}
