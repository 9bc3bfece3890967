package dev.gatun.arrow.vector;

import dev.gatun.arrow.memory.BatchMemory;
import dev.gatun.arrow.memory.NativeBuffer;
import dev.gatun.arrow.types.Field;
import java.lang.foreign.MemorySegment;
import java.util.Collection;

/**
 * Values of one fixed byte width in a data buffer pre-sized to the capacity: setters write without
 * a capacity check of their own (the segment's bounds check still guards memory).
 */
public abstract sealed class FixedWidthVector extends ValueVector
        permits Int8Vector, Int16Vector, Int32Vector, Int64Vector, Float32Vector, Float64Vector,
                DecimalVector, FixedSizeBinaryVector {
    final int byteWidth;
    BatchMemory.Allocation dataAlloc;
    MemorySegment data;

    FixedWidthVector(Field field, BatchMemory memory, int capacity, int byteWidth) {
        super(field, memory, capacity);
        this.byteWidth = byteWidth;
        this.dataAlloc = memory.allocate((long) capacity * byteWidth);
        this.data = dataAlloc.segment();
    }

    FixedWidthVector(Field field, View view, MemorySegment.Scope scope, int byteWidth) {
        super(field, view, scope);
        this.byteWidth = byteWidth;
        this.data = view.buffers()[1];
    }

    /** Bytes per value. */
    public final int byteWidth() {
        return byteWidth;
    }

    /** The data buffer, read-only, starting at physical index 0 (add {@link #offset()}). */
    public final MemorySegment dataSegment() {
        checkSealed("the data segment");
        return data;
    }

    @Override
    void growBuffers(int newCapacity) {
        dataAlloc = memory.grow(dataAlloc, (long) newCapacity * byteWidth, (long) capacity * byteWidth);
        data = dataAlloc.segment();
    }

    @Override
    void makeReadOnly() {
        data = data.asReadOnly();
    }

    @Override
    public final int bufferCount() {
        return 2;
    }

    @Override
    public final MemorySegment exportBuffer(int i) {
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
