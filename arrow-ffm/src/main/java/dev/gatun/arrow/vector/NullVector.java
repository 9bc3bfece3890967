package dev.gatun.arrow.vector;

import dev.gatun.arrow.memory.BatchMemory;
import dev.gatun.arrow.types.Field;
import java.lang.foreign.MemorySegment;

/** The Null type: no buffers, every value NULL. */
public final class NullVector extends ValueVector {
    NullVector(Field field, BatchMemory memory, int capacity) {
        super(field, memory, capacity);
    }

    NullVector(Field field, View view, MemorySegment.Scope scope) {
        super(field, view, scope);
    }

    @Override
    public boolean isNull(int index) {
        checkAlive();
        return true;
    }

    @Override
    public void setNull(int index) {
        checkWritable();
        checkAlive();
    }

    @Override
    public long nullCount() {
        return length;
    }

    @Override
    long initialNullCount(int length) {
        return length;
    }

    @Override
    void growBuffers(int newCapacity) {}

    @Override
    public int bufferCount() {
        return 0;
    }

    @Override
    public MemorySegment exportBuffer(int i) {
        throw new IndexOutOfBoundsException(i);
    }
}
