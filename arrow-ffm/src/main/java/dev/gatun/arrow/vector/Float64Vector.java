package dev.gatun.arrow.vector;

import dev.gatun.arrow.memory.BatchMemory;
import dev.gatun.arrow.types.Field;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Float64 values. */
public final class Float64Vector extends FixedWidthVector {
    private static final ValueLayout.OfDouble LAYOUT = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    Float64Vector(Field field, BatchMemory memory, int capacity) {
        super(field, memory, capacity, 8);
    }

    Float64Vector(Field field, View view, MemorySegment.Scope scope) {
        super(field, view, scope, 8);
    }

    public void setDouble(int index, double value) {
        data.set(LAYOUT, (long) index * 8, value);
        markValid(index);
    }

    public double getDouble(int index) {
        return data.get(LAYOUT, (offset + index) * 8);
    }
}
