package dev.gatun.ffm;

import java.io.Serial;

/**
 * A native call returned an error status. The subclasses name the status; {@link NativeStatus}
 * maps status codes to them in one place.
 */
public class NativeException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final int status;
    private final String function;
    private final String nativeMessage;

    NativeException(int status, String function, String nativeMessage) {
        super(function + " failed with " + NativeStatus.name(status) + ": " + nativeMessage);
        this.status = status;
        this.function = function;
        this.nativeMessage = nativeMessage;
    }

    /** The status code the native function returned (a {@code GATUN_ERR_*}). */
    public int status() {
        return status;
    }

    /** The native function that failed, e.g. {@code gatun_roundtrip}. */
    public String function() {
        return function;
    }

    /** The message the native side wrote into the error buffer. */
    public String nativeMessage() {
        return nativeMessage;
    }
}
