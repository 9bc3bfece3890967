package dev.gatun.arrow.vector;

import dev.gatun.arrow.memory.BatchMemory;
import dev.gatun.arrow.memory.NativeBuffer;
import dev.gatun.arrow.types.Field;
import java.lang.foreign.MemorySegment;
import java.util.Collection;

/** Bool, bit-packed; the value bitmap is zeroed at allocation. */
public final class BoolVector extends ValueVector {
    private BatchMemory.Allocation dataAlloc;
    private MemorySegment data;

    BoolVector(Field field, BatchMemory memory, int capacity) {
        super(field, memory, capacity);
        dataAlloc = memory.allocateFilled(Bits.bytesFor(capacity), (byte) 0);
        data = dataAlloc.segment();
    }

    BoolVector(Field field, View view, MemorySegment.Scope scope) {
        super(field, view, scope);
        data = view.buffers()[1];
    }

    public void setBoolean(int index, boolean value) {
        Bits.put(data, index, value);
        markValid(index);
    }

    public boolean getBoolean(int index) {
        return Bits.get(data, offset + index);
    }

    @Override
    void growBuffers(int newCapacity) {
        long oldBytes = Bits.bytesFor(capacity);
        dataAlloc = memory.grow(dataAlloc, Bits.bytesFor(newCapacity), oldBytes);
        data = dataAlloc.segment();
        data.asSlice(oldBytes).fill((byte) 0);
    }

    @Override
    void finishWriting(int length) {
        Bits.clearTail(data, length);
    }

    @Override
    void makeReadOnly() {
        data = data.asReadOnly();
    }

    @Override
    public int bufferCount() {
        return 2;
    }

    @Override
    public MemorySegment exportBuffer(int i) {
        return switch (i) {
            case 0 -> exportValidity();
            case 1 -> address(dataAlloc);
            default -> throw new IndexOutOfBoundsException(i);
        };
    }

    @Override
    public void collectBuffers(Collection<NativeBuffer> out) {
        super.collectBuffers(out);
        if (dataAlloc != null) {
            out.add(dataAlloc.buffer());
        }
    }
}
