package dev.gatun.arrow.vector;

import dev.gatun.arrow.memory.BatchMemory;
import dev.gatun.arrow.types.Field;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** FixedSizeBinary(n): n bytes per value. */
public final class FixedSizeBinaryVector extends FixedWidthVector {
    FixedSizeBinaryVector(Field field, BatchMemory memory, int capacity, int width) {
        super(field, memory, capacity, width);
    }

    FixedSizeBinaryVector(Field field, View view, MemorySegment.Scope scope, int width) {
        super(field, view, scope, width);
    }

    /** Writes {@code value}, which must be exactly {@link #byteWidth()} long. */
    public void setBytes(int index, byte[] value) {
        if (value.length != byteWidth) {
            throw new IllegalArgumentException(field.name() + ": value of " + value.length
                    + " bytes for FixedSizeBinary(" + byteWidth + ")");
        }
        MemorySegment.copy(value, 0, data, ValueLayout.JAVA_BYTE, (long) index * byteWidth, byteWidth);
        markValid(index);
    }

    /** Copies {@link #byteWidth()} bytes from {@code src} at {@code srcOffset}. */
    public void setBytes(int index, MemorySegment src, long srcOffset) {
        MemorySegment.copy(src, srcOffset, data, (long) index * byteWidth, byteWidth);
        markValid(index);
    }

    public byte[] getBytes(int index) {
        byte[] out = new byte[byteWidth];
        MemorySegment.copy(data, ValueLayout.JAVA_BYTE, (offset + index) * byteWidth, out, 0, byteWidth);
        return out;
    }

    /** The value in place (sealed or imported vectors only). */
    public MemorySegment getSlice(int index) {
        checkSealed("a zero-copy slice");
        return data.asSlice((offset + index) * byteWidth, byteWidth);
    }
}
