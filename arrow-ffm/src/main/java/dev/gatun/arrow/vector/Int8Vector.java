package dev.gatun.arrow.vector;

import dev.gatun.arrow.memory.BatchMemory;
import dev.gatun.arrow.types.Field;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Int8 values. */
public final class Int8Vector extends FixedWidthVector {
    private static final ValueLayout.OfByte LAYOUT = ValueLayout.JAVA_BYTE;

    Int8Vector(Field field, BatchMemory memory, int capacity) {
        super(field, memory, capacity, 1);
    }

    Int8Vector(Field field, View view, MemorySegment.Scope scope) {
        super(field, view, scope, 1);
    }

    public void setByte(int index, byte value) {
        data.set(LAYOUT, (long) index * 1, value);
        markValid(index);
    }

    public byte getByte(int index) {
        return data.get(LAYOUT, (offset + index) * 1);
    }
}
