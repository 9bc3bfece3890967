package dev.gatun.ffm;

import java.io.Serial;

/**
 * The JVM was started without {@code --enable-native-access} for Gatun's module. Unlike a library
 * that does not exist for this platform, this is a launch mistake the message tells how to fix.
 */
public final class NativeAccessException extends NativeLibraryLoadException {
    @Serial
    private static final long serialVersionUID = 1L;

    public NativeAccessException(String message) {
        super(message);
    }
}
