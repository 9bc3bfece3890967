package dev.gatun.ffm;

import java.io.Serial;

/** The Gatun native library could not be loaded (or is not the one these bindings expect). */
public class NativeLibraryLoadException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    public NativeLibraryLoadException(String message) {
        super(message);
    }

    public NativeLibraryLoadException(String message, Throwable cause) {
        super(message, cause);
    }
}
