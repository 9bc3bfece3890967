package dev.gatun.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.ffm.internal.gatun_h;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A Rust panic is caught at the boundary, reported with its message, and the JVM lives on. */
@ExtendWith(NoLiveNativeResources.class)
class PanicTest {
    @Test
    void panicBecomesNativePanicExceptionAndTheLibraryStillWorks() {
        NativePanicException e = assertThrows(NativePanicException.class, () -> GatunNative.debugPanic("boom ✓"));

        assertTrue(e.getMessage().contains("boom ✓"), e.getMessage());
        assertTrue(e.getMessage().contains("gatun_debug_panic"), e.getMessage());
        assertEquals(gatun_h.GATUN_ERR_PANIC(), e.status());
        assertEquals("gatun_debug_panic", e.function());
        assertEquals(gatun_h.GATUN_ABI_VERSION(), GatunLibrary.abiVersion());
    }

    @Test
    void longMessageIsTruncatedAtAUtf8Boundary() {
        String message = "✓".repeat(3000); // 9000 bytes, more than the 4096-byte error buffer

        NativePanicException e = assertThrows(NativePanicException.class, () -> GatunNative.debugPanic(message));

        String nativeMessage = e.nativeMessage();
        assertTrue(nativeMessage.getBytes(StandardCharsets.UTF_8).length < CallScratch.ERR_CAP, "NUL fits");
        assertTrue(nativeMessage.contains("✓✓✓"), nativeMessage);
        assertFalse(nativeMessage.contains("\uFFFD"), "a UTF-8 sequence was cut: " + nativeMessage);
    }
}
