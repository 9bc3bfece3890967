package dev.gatun.arrow.vector;

import dev.gatun.arrow.memory.BatchMemory;
import dev.gatun.arrow.memory.NativeBuffer;
import dev.gatun.arrow.types.Field;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.Collection;

/**
 * Utf8 and Binary: int32 offsets ({@code length + 1} of them) and a data buffer that grows
 * geometrically. Values are written in index order; an index skipped over becomes NULL.
 * Utf8 content is not validated here (the writer is trusted to pass UTF-8).
 */
public final class VarBinaryVector extends ValueVector {
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final int DEFAULT_BYTES_PER_VALUE = 16;

    private BatchMemory.Allocation offsetsAlloc;
    private BatchMemory.Allocation dataAlloc;
    private MemorySegment offsets;
    private MemorySegment data;
    private int count;
    private int dataEnd;

    VarBinaryVector(Field field, BatchMemory memory, int capacity) {
        super(field, memory, capacity);
        offsetsAlloc = memory.allocate(((long) capacity + 1) * 4);
        offsets = offsetsAlloc.segment();
        offsets.set(INT, 0, 0);
        dataAlloc = memory.allocate((long) capacity * DEFAULT_BYTES_PER_VALUE);
        data = dataAlloc.segment();
    }

    VarBinaryVector(Field field, View view, MemorySegment.Scope scope) {
        super(field, view, scope);
        offsets = view.buffers()[1];
        data = view.buffers()[2];
    }

    /** Index of the next value {@link #appendBytes} writes. */
    public int valueCount() {
        return sealed ? length : count;
    }

    /** Copies {@code len} bytes of {@code src} from {@code srcOffset} as value {@code index}. */
    public void setBytes(int index, MemorySegment src, long srcOffset, int len) {
        int start = beginValue(index, len);
        MemorySegment.copy(src, srcOffset, data, start, len);
        endValue(index, start + len);
    }

    public void setBytes(int index, byte[] src, int srcOffset, int len) {
        int start = beginValue(index, len);
        MemorySegment.copy(src, srcOffset, data, ValueLayout.JAVA_BYTE, start, len);
        endValue(index, start + len);
    }

    public void setBytes(int index, byte[] value) {
        setBytes(index, value, 0, value.length);
    }

    /** Writes {@code value} encoded as UTF-8. */
    public void setUtf8(int index, String value) {
        setBytes(index, value.getBytes(StandardCharsets.UTF_8));
    }

    public void appendBytes(MemorySegment src, long srcOffset, int len) {
        setBytes(count, src, srcOffset, len);
    }

    public void appendBytes(byte[] src, int srcOffset, int len) {
        setBytes(count, src, srcOffset, len);
    }

    public void appendUtf8(String value) {
        setUtf8(count, value);
    }

    public void appendNull() {
        setNull(count);
    }

    @Override
    public void setNull(int index) {
        checkWritable();
        fillTo(index);
        ensureValidity();
        Bits.clear(validity, index);
        offsets.set(INT, ((long) index + 1) << 2, dataEnd);
        count = index + 1;
    }

    private int beginValue(int index, int len) {
        checkWritable();
        if (len < 0) {
            throw new IllegalArgumentException("negative length " + len);
        }
        fillTo(index);
        long end = (long) dataEnd + len;
        if (end > Integer.MAX_VALUE) {
            throw new IllegalStateException(field.name() + ": more than 2 GiB of data in one vector");
        }
        if (end > data.byteSize()) {
            growData(end);
        }
        return dataEnd;
    }

    private void endValue(int index, int end) {
        offsets.set(INT, ((long) index + 1) << 2, end);
        dataEnd = end;
        count = index + 1;
        markValid(index);
    }

    /** Values are written in order; indexes skipped over become NULL. */
    private void fillTo(int index) {
        if (index < count) {
            throw new IllegalStateException(field.name() + ": value " + index
                    + " was already written (variable-width values are written in index order; next is " + count + ")");
        }
        if (index > count) {
            ensureValidity();
            for (int i = count; i < index; i++) {
                Bits.clear(validity, i);
                offsets.set(INT, ((long) i + 1) << 2, dataEnd);
            }
            count = index;
        }
    }

    /**
     * Makes room for at least {@code bytes} of value data now (one reallocation instead of repeated
     * geometric growth), e.g. sized from the previous batch. Smaller requests do nothing.
     */
    public void reserveData(long bytes) {
        checkWritable();
        if (bytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(field.name() + ": cannot reserve " + bytes + " bytes (2 GiB per vector)");
        }
        if (bytes > data.byteSize()) {
            dataAlloc = memory.grow(dataAlloc, bytes, dataEnd);
            data = dataAlloc.segment();
        }
    }

    private void growData(long needed) {
        long newSize = Math.min(Integer.MAX_VALUE, Math.max(needed, 2 * data.byteSize()));
        dataAlloc = memory.grow(dataAlloc, newSize, dataEnd);
        data = dataAlloc.segment();
    }

    @Override
    void growBuffers(int newCapacity) {
        offsetsAlloc = memory.grow(offsetsAlloc, ((long) newCapacity + 1) * 4, ((long) count + 1) * 4);
        offsets = offsetsAlloc.segment();
    }

    @Override
    void finishWriting(int length) {
        if (count > length) {
            throw new IllegalStateException(field.name() + ": " + count + " values written but the row count is " + length);
        }
        if (length > count) {
            fillTo(length);
        }
    }

    @Override
    void makeReadOnly() {
        offsets = offsets.asReadOnly();
        data = data.asReadOnly();
    }

    /** Start of value {@code index} in {@link #dataSegment()}. */
    public int valueStart(int index) {
        return offsets.get(INT, (offset + index) << 2);
    }

    public int valueEnd(int index) {
        return offsets.get(INT, (offset + index + 1) << 2);
    }

    public int valueLength(int index) {
        return valueEnd(index) - valueStart(index);
    }

    public byte[] getBytes(int index) {
        int start = valueStart(index);
        byte[] out = new byte[valueEnd(index) - start];
        MemorySegment.copy(data, ValueLayout.JAVA_BYTE, start, out, 0, out.length);
        return out;
    }

    public String getUtf8(int index) {
        return new String(getBytes(index), StandardCharsets.UTF_8);
    }

    /** The value in place, read-only (sealed or imported vectors only). */
    public MemorySegment getSlice(int index) {
        checkSealed("a zero-copy slice");
        int start = valueStart(index);
        return data.asSlice(start, valueEnd(index) - start);
    }

    /**
     * The offsets from this vector's first value on ({@code length + 1} int32s, native order; the
     * first need not be 0), read-only (sealed or imported vectors only).
     */
    public MemorySegment offsetsSegment() {
        checkSealed("the offsets segment");
        return offsets.asSlice(offset << 2, ((long) length + 1) << 2);
    }

    /** The data buffer, read-only (sealed or imported vectors only). */
    public MemorySegment dataSegment() {
        checkSealed("the data segment");
        return data;
    }

    @Override
    public int bufferCount() {
        return 3;
    }

    @Override
    public MemorySegment exportBuffer(int i) {
        return switch (i) {
            case 0 -> exportValidity();
            case 1 -> address(offsetsAlloc);
            case 2 -> address(dataAlloc);
            default -> throw new IndexOutOfBoundsException(i);
        };
    }

    @Override
    public void collectBuffers(Collection<NativeBuffer> out) {
        super.collectBuffers(out);
        if (offsetsAlloc != null) {
            out.add(offsetsAlloc.buffer());
            out.add(dataAlloc.buffer());
        }
    }
}
