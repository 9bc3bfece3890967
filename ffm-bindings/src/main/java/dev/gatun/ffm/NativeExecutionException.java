package dev.gatun.ffm;

import java.io.Serial;

/** {@code GATUN_ERR_EXECUTION}: Native execution failed. */
public class NativeExecutionException extends NativeException {
    @Serial
    private static final long serialVersionUID = 1L;

    NativeExecutionException(int status, String function, String nativeMessage) {
        super(status, function, nativeMessage);
    }
}
