package dev.gatun.arrow.vector;

import dev.gatun.arrow.memory.BatchMemory;
import dev.gatun.arrow.types.Field;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Float32 values. */
public final class Float32Vector extends FixedWidthVector {
    private static final ValueLayout.OfFloat LAYOUT = ValueLayout.JAVA_FLOAT_UNALIGNED;

    Float32Vector(Field field, BatchMemory memory, int capacity) {
        super(field, memory, capacity, 4);
    }

    Float32Vector(Field field, View view, MemorySegment.Scope scope) {
        super(field, view, scope, 4);
    }

    public void setFloat(int index, float value) {
        data.set(LAYOUT, (long) index * 4, value);
        markValid(index);
    }

    public float getFloat(int index) {
        return data.get(LAYOUT, (offset + index) * 4);
    }
}
