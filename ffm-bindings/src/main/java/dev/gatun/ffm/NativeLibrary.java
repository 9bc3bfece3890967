package dev.gatun.ffm;

import dev.gatun.ffm.internal.gatun_h;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;

/** A Gatun native library opened from a file, with its ABI version checked. */
public final class NativeLibrary {
    // Not gatun_h.gatun_abi_version$descriptor(): that would resolve the symbol through the
    // default library, which may be the one being opened right now.
    private static final FunctionDescriptor ABI_VERSION = FunctionDescriptor.of(ValueLayout.JAVA_INT);

    private final Path path;
    private final SymbolLookup lookup;
    private final int abiVersion;

    private NativeLibrary(Path path, SymbolLookup lookup, int abiVersion) {
        this.path = path;
        this.lookup = lookup;
        this.abiVersion = abiVersion;
    }

    static NativeLibrary open(Path file) {
        Path path = file.toAbsolutePath();
        if (!Files.isRegularFile(path)) {
            throw new NativeLibraryLoadException("no such file: " + path);
        }
        SymbolLookup lookup;
        try {
            lookup = SymbolLookup.libraryLookup(path, Arena.global());
        } catch (IllegalArgumentException e) {
            throw new NativeLibraryLoadException("cannot open " + path + ": " + e.getMessage(), e);
        }
        MemorySegment symbol = lookup.find("gatun_abi_version").orElseThrow(() ->
                new NativeLibraryLoadException(path + " has no gatun_abi_version: not a Gatun native library"));
        int actual = callAbiVersion(symbol);
        int expected = gatun_h.GATUN_ABI_VERSION();
        if (actual != expected) {
            throw new NativeLibraryLoadException("stale native library " + path + ": its ABI version is "
                    + Integer.toUnsignedString(actual) + " but these bindings need " + expected
                    + " (rebuild native/ or point " + GatunLibrary.PATH_PROPERTY + " at a current build)");
        }
        return new NativeLibrary(path, lookup, actual);
    }

    private static int callAbiVersion(MemorySegment symbol) {
        try {
            return (int) Linker.nativeLinker().downcallHandle(symbol, ABI_VERSION).invokeExact();
        } catch (Throwable e) {
            throw new AssertionError("gatun_abi_version cannot throw", e);
        }
    }

    public Path path() {
        return path;
    }

    /** Symbols of this library only. */
    public SymbolLookup lookup() {
        return lookup;
    }

    /** The {@code gatun_abi_version()} read when the library was opened. */
    public int abiVersion() {
        return abiVersion;
    }

    @Override
    public String toString() {
        return "NativeLibrary[" + path + ", ABI " + abiVersion + "]";
    }
}
