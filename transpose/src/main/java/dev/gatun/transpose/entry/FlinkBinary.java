package dev.gatun.transpose.entry;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.table.data.binary.BinaryArrayData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySection;

/**
 * Reads Flink's binary row, array and map formats straight from one heap {@code byte[]}.
 *
 * <p>Layouts (Flink writes them in native byte order): a row is a header byte and null bits
 * ({@link BinaryRowData#calculateBitSetWidthInBytes}), then one 8-byte slot per field holding a
 * fixed-width value or an offset-and-size word into the variable part; an array is a 4-byte
 * element count, null bits rounded to 4 bytes, then packed elements
 * ({@link BinaryArrayData#calculateFixLengthPartSize}); a map is the byte size of its key array,
 * the key array, then the value array. Offsets in words are relative to the start of the
 * enclosing row or array. A word whose top bit is set holds up to 7 bytes inline (their length in
 * bits 56..62), which on little-endian machines start at the word itself.
 */
final class FlinkBinary {
    /** The inline-bytes layout read here is the little-endian one; elsewhere rows go through getters. */
    static final boolean SUPPORTED = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG_BE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle FLOAT = MethodHandles.byteArrayViewVarHandle(float[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle DOUBLE = MethodHandles.byteArrayViewVarHandle(double[].class, ByteOrder.LITTLE_ENDIAN);

    private static final long INLINE_MARK = 0x8000_0000_0000_0000L;

    private FlinkBinary() {}

    /**
     * The heap bytes holding all of {@code section}, or null when it is off-heap, spans segments,
     * or the byte order is not the one read here: such values take the getter path.
     */
    static byte[] heapBytes(BinarySection section) {
        if (!SUPPORTED) {
            return null;
        }
        MemorySegment first = section.getSegments()[0];
        if (first.isOffHeap() || section.getOffset() + section.getSizeInBytes() > first.size()) {
            return null;
        }
        return first.getArray();
    }

    static long getLong(byte[] mem, int at) {
        return (long) LONG.get(mem, at);
    }

    /** Big-endian, as Flink stores the unscaled bytes of wide decimals. */
    static long getLongBigEndian(byte[] mem, int at) {
        return (long) LONG_BE.get(mem, at);
    }

    static int getInt(byte[] mem, int at) {
        return (int) INT.get(mem, at);
    }

    static short getShort(byte[] mem, int at) {
        return (short) SHORT.get(mem, at);
    }

    static float getFloat(byte[] mem, int at) {
        return (float) FLOAT.get(mem, at);
    }

    static double getDouble(byte[] mem, int at) {
        return (double) DOUBLE.get(mem, at);
    }

    /** Null bit {@code bit} of a bitmap starting at {@code bits}. */
    static boolean isNull(byte[] mem, int bits, int bit) {
        return (mem[bits + (bit >>> 3)] & (1 << (bit & 7))) != 0;
    }

    /** A row field's null bit comes after the 8 header bits. */
    static boolean isNullField(byte[] mem, int row, int pos) {
        return isNull(mem, row, pos + BinaryRowData.HEADER_SIZE_IN_BITS);
    }

    static boolean isInline(long word) {
        return (word & INLINE_MARK) != 0;
    }

    static int inlineLength(long word) {
        return (int) ((word >>> 56) & 0x7F);
    }

    /** Start of the variable-part value a word points to. */
    static int target(int base, long word) {
        return base + (int) (word >>> 32);
    }

    /** Size part of an offset-and-size word. */
    static int size(long word) {
        return (int) word;
    }

    static int arrayElements(byte[] mem, int array) {
        return getInt(mem, array);
    }

    /** Start of the packed elements of an array of {@code n} elements. */
    static int arrayData(int array, int n) {
        return array + BinaryArrayData.calculateHeaderInBytes(n);
    }
}
