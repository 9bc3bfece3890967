package dev.gatun.arrow.vector;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Bitmap helpers (Arrow bit order: least significant bit first). */
final class Bits {
    private Bits() {}

    static long bytesFor(long bits) {
        return (bits + 7) >>> 3;
    }

    static boolean get(MemorySegment bitmap, long index) {
        return ((bitmap.get(ValueLayout.JAVA_BYTE, index >>> 3) >> (index & 7)) & 1) != 0;
    }

    static void set(MemorySegment bitmap, long index) {
        long b = index >>> 3;
        bitmap.set(ValueLayout.JAVA_BYTE, b, (byte) (bitmap.get(ValueLayout.JAVA_BYTE, b) | (1 << (index & 7))));
    }

    static void clear(MemorySegment bitmap, long index) {
        long b = index >>> 3;
        bitmap.set(ValueLayout.JAVA_BYTE, b, (byte) (bitmap.get(ValueLayout.JAVA_BYTE, b) & ~(1 << (index & 7))));
    }

    static void put(MemorySegment bitmap, long index, boolean value) {
        if (value) {
            set(bitmap, index);
        } else {
            clear(bitmap, index);
        }
    }

    /** Number of set bits in {@code [from, from + count)}. */
    static long countSet(MemorySegment bitmap, long from, long count) {
        long i = from;
        long end = from + count;
        long n = 0;
        while (i < end && (i & 7) != 0) {
            n += get(bitmap, i) ? 1 : 0;
            i++;
        }
        while (end - i >= 64) {
            n += Long.bitCount(bitmap.get(ValueLayout.JAVA_LONG_UNALIGNED, i >>> 3));
            i += 64;
        }
        while (end - i >= 8) {
            n += Integer.bitCount(bitmap.get(ValueLayout.JAVA_BYTE, i >>> 3) & 0xFF);
            i += 8;
        }
        while (i < end) {
            n += get(bitmap, i) ? 1 : 0;
            i++;
        }
        return n;
    }

    /** Clears the bits from {@code length} to the end of its byte, so padding bits are zero. */
    static void clearTail(MemorySegment bitmap, long length) {
        for (long i = length; (i & 7) != 0; i++) {
            clear(bitmap, i);
        }
    }
}
