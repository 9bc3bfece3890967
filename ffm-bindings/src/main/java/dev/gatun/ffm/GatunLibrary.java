package dev.gatun.ffm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The Gatun native library, loaded once per class loader.
 *
 * <p>Loading order: the system property {@value #PATH_PROPERTY} (a path; when set it is the
 * only candidate, so a wrong path is never hidden by the bundled copy) or else the bundled
 * resource {@code native/<os>-<arch>/<library file>}, extracted once to a content-hashed file.
 * The library is opened with {@link SymbolLookup#libraryLookup(Path, java.lang.foreign.Arena)},
 * never {@code System.load}, so every class loader (a Flink job) can open it again.
 */
public final class GatunLibrary {
    /** A path to the native library; overrides the bundled resource. */
    public static final String PATH_PROPERTY = "gatun.native.library";
    /** Where the bundled resource is extracted; default {@code java.io.tmpdir/gatun-native}. */
    public static final String EXTRACT_DIR_PROPERTY = "gatun.native.extract.dir";

    private GatunLibrary() {}

    private static final class Holder {
        static final NativeLibrary LIBRARY;
        static final NativeLibraryLoadException FAILURE;

        static {
            NativeLibrary library = null;
            NativeLibraryLoadException failure = null;
            try {
                library = NativeLibraryLoader.loadDefault();
            } catch (NativeLibraryLoadException e) {
                failure = e;
            }
            LIBRARY = library;
            FAILURE = failure;
        }
    }

    /**
     * Symbols of the loaded library. Resolution is lazy: the generated header class takes this
     * lookup in its static initializer, and loading must not start from there (loading reads
     * the header's ABI version constant).
     */
    public static SymbolLookup lookup() {
        requireNativeAccess();
        return GatunLibrary::find;
    }

    private static Optional<MemorySegment> find(String name) {
        return library().lookup().find(name);
    }

    /** The file the library was opened from. */
    public static Path path() {
        return library().path();
    }

    /** Calls {@code gatun_abi_version()} (checked against the header at load). */
    public static int abiVersion() {
        return GatunNative.abiVersion();
    }

    /** The native resource counters ({@code gatun_native_stats}). */
    public static NativeStats stats() {
        return GatunNative.stats();
    }

    /**
     * Opens the library at {@code path} on its own, with the same ABI check as the default
     * load. For tests and tools; the rest of Gatun uses the default library.
     */
    public static NativeLibrary open(Path path) {
        requireNativeAccess();
        return NativeLibrary.open(path);
    }

    /** The default library, loading it on first use; throws the same failure on every call. */
    static NativeLibrary library() {
        requireNativeAccess();
        NativeLibraryLoadException failure = Holder.FAILURE;
        if (failure != null) {
            throw new NativeLibraryLoadException(failure.getMessage(), failure);
        }
        return Holder.LIBRARY;
    }

    /**
     * On JDK 22-25 a restricted call without native access only warns (and then enables it for
     * the module), so this check has to run before the first restricted call.
     */
    static void requireNativeAccess() {
        Module module = GatunLibrary.class.getModule();
        if (!module.isNativeAccessEnabled()) {
            String who = module.isNamed() ? module.getName() : "ALL-UNNAMED";
            throw new NativeAccessException("Native access is not enabled for "
                    + (module.isNamed() ? "module " + who : "the class path (unnamed module)")
                    + ": Gatun calls its native library through the FFM API; start the JVM with"
                    + " --enable-native-access=" + who);
        }
    }
}
