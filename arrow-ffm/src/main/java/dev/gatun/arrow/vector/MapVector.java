package dev.gatun.arrow.vector;

import dev.gatun.arrow.memory.BatchMemory;
import dev.gatun.arrow.types.Field;
import java.lang.foreign.MemorySegment;

/** Map: a list of non-null "entries" structs of (key, value); keys are never NULL. */
public final class MapVector extends ListVector {
    MapVector(Field field, BatchMemory memory, int capacity, StructVector entries) {
        super(field, memory, capacity, entries);
    }

    MapVector(Field field, View view, MemorySegment.Scope scope, StructVector entries) {
        super(field, view, scope, entries);
    }

    /** Starts map {@code index} with {@code size} entries; returns the entry index of the first. */
    public int startMap(int index, int size) {
        return startList(index, size);
    }

    public StructVector entries() {
        return (StructVector) child();
    }

    public ValueVector keys() {
        return entries().child(0);
    }

    public ValueVector values() {
        return entries().child(1);
    }
}
