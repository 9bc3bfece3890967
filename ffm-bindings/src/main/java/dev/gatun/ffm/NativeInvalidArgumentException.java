package dev.gatun.ffm;

import java.io.Serial;

/** {@code GATUN_ERR_INVALID_ARGUMENT}: The native side rejected an argument. */
public class NativeInvalidArgumentException extends NativeException {
    @Serial
    private static final long serialVersionUID = 1L;

    NativeInvalidArgumentException(int status, String function, String nativeMessage) {
        super(status, function, nativeMessage);
    }
}
