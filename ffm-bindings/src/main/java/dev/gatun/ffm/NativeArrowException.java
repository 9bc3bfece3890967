package dev.gatun.ffm;

import java.io.Serial;

/** {@code GATUN_ERR_ARROW}: Arrow data crossing the boundary was invalid or could not be converted. */
public class NativeArrowException extends NativeException {
    @Serial
    private static final long serialVersionUID = 1L;

    NativeArrowException(int status, String function, String nativeMessage) {
        super(status, function, nativeMessage);
    }
}
