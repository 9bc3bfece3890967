package dev.gatun.ffm;

import java.io.Serial;

/** {@code GATUN_ERR_PANIC}: The native code panicked; the panic was caught at the boundary and the JVM is unaffected. */
public class NativePanicException extends NativeException {
    @Serial
    private static final long serialVersionUID = 1L;

    NativePanicException(int status, String function, String nativeMessage) {
        super(status, function, nativeMessage);
    }
}
