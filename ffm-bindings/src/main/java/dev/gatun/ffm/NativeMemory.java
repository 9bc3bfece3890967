package dev.gatun.ffm;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Raw, 64-byte-aligned native memory from the C library ({@code aligned_alloc}/{@code free}).
 *
 * <p>The segments returned here have length zero and carry only the address: callers give them
 * a size and a lifetime with {@code reinterpret(size, arena, null)} (a confined arena, so every
 * Java access is liveness-checked) and free them with {@link #free} when the raw memory is no
 * longer reachable from any arena or consumer. {@code aligned_alloc} instead of
 * {@code posix_memalign} because it needs no out-parameter (no scratch memory per call); its size
 * must be a multiple of the alignment, which callers get from {@link #paddedSize}.
 */
public final class NativeMemory {
    /** Alignment and padding of every allocation, as the Arrow format recommends. */
    public static final long ALIGNMENT = 64;

    private static final MethodHandle ALIGNED_ALLOC;
    private static final MethodHandle FREE;

    static {
        GatunLibrary.requireNativeAccess();
        Linker linker = Linker.nativeLinker();
        SymbolLookup libc = linker.defaultLookup();
        // critical: short libc calls that never call back into Java; skips the thread-state dance.
        Linker.Option critical = Linker.Option.critical(false);
        ALIGNED_ALLOC = linker.downcallHandle(find(libc, "aligned_alloc"),
                FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG), critical);
        FREE = linker.downcallHandle(find(libc, "free"),
                FunctionDescriptor.ofVoid(ValueLayout.ADDRESS), critical);
    }

    private NativeMemory() {}

    private static MemorySegment find(SymbolLookup lookup, String name) {
        return lookup.find(name).orElseThrow(() ->
                new UnsatisfiedLinkError("the C library has no " + name));
    }

    /** {@code size} rounded up to a multiple of {@link #ALIGNMENT}; at least one alignment unit. */
    public static long paddedSize(long size) {
        if (size < 0) {
            throw new IllegalArgumentException("negative size " + size);
        }
        if (size > Long.MAX_VALUE - ALIGNMENT) {
            throw new IllegalArgumentException("size too large: " + size);
        }
        long padded = (size + ALIGNMENT - 1) & -ALIGNMENT;
        return padded == 0 ? ALIGNMENT : padded;
    }

    /**
     * Allocates {@code paddedSize(size)} bytes aligned to {@link #ALIGNMENT}, not zeroed.
     *
     * @return a zero-length segment with the address, or {@link MemorySegment#NULL} when the C
     *     library is out of memory
     */
    public static MemorySegment allocate(long size) {
        long padded = paddedSize(size);
        try {
            return (MemorySegment) ALIGNED_ALLOC.invokeExact(ALIGNMENT, padded);
        } catch (Throwable e) {
            throw new AssertionError("aligned_alloc cannot throw", e);
        }
    }

    /** Frees memory from {@link #allocate}; any segment with the same address will do. NULL is ignored. */
    public static void free(MemorySegment raw) {
        if (raw.address() == 0) {
            return;
        }
        try {
            FREE.invokeExact(MemorySegment.ofAddress(raw.address()));
        } catch (Throwable e) {
            throw new AssertionError("free cannot throw", e);
        }
    }
}
