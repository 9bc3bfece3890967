package dev.gatun.arrow.vector;

import dev.gatun.arrow.memory.BatchMemory;
import dev.gatun.arrow.types.Field;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Int16 values. */
public final class Int16Vector extends FixedWidthVector {
    private static final ValueLayout.OfShort LAYOUT = ValueLayout.JAVA_SHORT_UNALIGNED;

    Int16Vector(Field field, BatchMemory memory, int capacity) {
        super(field, memory, capacity, 2);
    }

    Int16Vector(Field field, View view, MemorySegment.Scope scope) {
        super(field, view, scope, 2);
    }

    public void setShort(int index, short value) {
        data.set(LAYOUT, (long) index * 2, value);
        markValid(index);
    }

    public short getShort(int index) {
        return data.get(LAYOUT, (offset + index) * 2);
    }
}
