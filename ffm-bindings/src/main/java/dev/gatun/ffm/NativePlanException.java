package dev.gatun.ffm;

import java.io.Serial;

/** {@code GATUN_ERR_PLAN}: A plan (Substrait) could not be decoded or planned. */
public class NativePlanException extends NativeException {
    @Serial
    private static final long serialVersionUID = 1L;

    NativePlanException(int status, String function, String nativeMessage) {
        super(status, function, nativeMessage);
    }
}
