package dev.gatun.arrow.vector;

import dev.gatun.arrow.memory.BatchMemory;
import dev.gatun.arrow.types.Field;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** 64-bit values: Int64, Timestamp and Duration (in their unit). */
public final class Int64Vector extends FixedWidthVector {
    private static final ValueLayout.OfLong LAYOUT = ValueLayout.JAVA_LONG_UNALIGNED;

    Int64Vector(Field field, BatchMemory memory, int capacity) {
        super(field, memory, capacity, 8);
    }

    Int64Vector(Field field, View view, MemorySegment.Scope scope) {
        super(field, view, scope, 8);
    }

    public void setLong(int index, long value) {
        data.set(LAYOUT, (long) index * 8, value);
        markValid(index);
    }

    public long getLong(int index) {
        return data.get(LAYOUT, (offset + index) * 8);
    }
}
