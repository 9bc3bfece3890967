package dev.gatun.arrow.vector;

import dev.gatun.arrow.memory.BatchMemory;
import dev.gatun.arrow.types.Field;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** 32-bit values: Int32, Date32 (days), Time32 (seconds or milliseconds), Interval(YearMonth) (months). */
public final class Int32Vector extends FixedWidthVector {
    private static final ValueLayout.OfInt LAYOUT = ValueLayout.JAVA_INT_UNALIGNED;

    Int32Vector(Field field, BatchMemory memory, int capacity) {
        super(field, memory, capacity, 4);
    }

    Int32Vector(Field field, View view, MemorySegment.Scope scope) {
        super(field, view, scope, 4);
    }

    public void setInt(int index, int value) {
        data.set(LAYOUT, (long) index * 4, value);
        markValid(index);
    }

    public int getInt(int index) {
        return data.get(LAYOUT, (offset + index) * 4);
    }
}
