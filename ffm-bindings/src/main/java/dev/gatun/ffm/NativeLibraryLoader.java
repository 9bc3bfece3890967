package dev.gatun.ffm;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Finds and opens the default native library; one exception lists every failed attempt. */
final class NativeLibraryLoader {
    static final String LIBRARY_NAME = "gatun_native";

    private NativeLibraryLoader() {}

    private record Attempt(String what, RuntimeException failure) {}

    static NativeLibrary loadDefault() {
        List<Attempt> failed = new ArrayList<>();
        String explicit = System.getProperty(GatunLibrary.PATH_PROPERTY);
        if (explicit != null && !explicit.isBlank()) {
            String what = "system property " + GatunLibrary.PATH_PROPERTY + "=" + explicit;
            try {
                return NativeLibrary.open(Path.of(explicit));
            } catch (RuntimeException e) {
                failed.add(new Attempt(what, e));
            }
            throw failure(failed, "the bundled library is not tried while " + GatunLibrary.PATH_PROPERTY + " is set");
        }
        String resource = resourceName();
        String what = "bundled resource " + resource;
        try {
            Path file = ResourceExtractor.extract(NativeLibraryLoader.class.getClassLoader(), resource, extractDir());
            what += " (extracted to " + file + ")";
            return NativeLibrary.open(file);
        } catch (IOException | RuntimeException e) {
            failed.add(new Attempt(what, e instanceof RuntimeException r ? r
                    : new NativeLibraryLoadException("cannot extract: " + e, e)));
        }
        throw failure(failed, "set " + GatunLibrary.PATH_PROPERTY + " to a built library (e.g. the cargo target"
                + " directory's " + System.mapLibraryName(LIBRARY_NAME) + ") or put gatun-native on the class path");
    }

    private static NativeLibraryLoadException failure(List<Attempt> failed, String hint) {
        StringBuilder message = new StringBuilder("cannot load the Gatun native library; tried:");
        for (Attempt attempt : failed) {
            message.append("\n  - ").append(attempt.what()).append(": ").append(attempt.failure().getMessage());
        }
        message.append("\n(").append(hint).append(')');
        NativeLibraryLoadException exception = new NativeLibraryLoadException(message.toString());
        failed.forEach(attempt -> exception.addSuppressed(attempt.failure()));
        return exception;
    }

    static String resourceName() {
        return "native/" + platform() + "/" + System.mapLibraryName(LIBRARY_NAME);
    }

    /** The {@code <os>-<arch>} folder the native module packages the library under. */
    static String platform() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        String osPart = os.startsWith("mac") ? "macos" : os.startsWith("windows") ? "windows" : os.replace(' ', '_');
        String archPart = switch (arch) {
            case "amd64", "x86_64", "x64" -> "x86_64";
            case "arm64", "aarch64" -> "aarch64";
            default -> arch;
        };
        return osPart + "-" + archPart;
    }

    static Path extractDir() {
        String dir = System.getProperty(GatunLibrary.EXTRACT_DIR_PROPERTY);
        return dir != null && !dir.isBlank()
                ? Path.of(dir)
                : Path.of(System.getProperty("java.io.tmpdir"), "gatun-native");
    }
}
