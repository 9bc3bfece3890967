package dev.gatun.arrow.vector;

import dev.gatun.arrow.memory.BatchMemory;
import dev.gatun.arrow.types.Field;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * Struct: a validity bitmap over child vectors of the same length. Rows are valid unless
 * {@link #setNull} is called, which also sets the children NULL at that row (so a NULL struct row
 * is written with that one call).
 */
public final class StructVector extends ValueVector {
    private final List<ValueVector> children;

    StructVector(Field field, BatchMemory memory, int capacity, List<ValueVector> children) {
        super(field, memory, capacity);
        this.children = List.copyOf(children);
    }

    StructVector(Field field, View view, MemorySegment.Scope scope, List<ValueVector> children) {
        super(field, view, scope);
        this.children = List.copyOf(children);
    }

    public ValueVector child(int i) {
        return children.get(i);
    }

    public int childCount() {
        return children.size();
    }

    /** Marks row {@code index} valid again after a {@link #setNull}. */
    public void setValid(int index) {
        checkWritable();
        markValid(index);
    }

    @Override
    public void setNull(int index) {
        super.setNull(index);
        for (ValueVector c : children) {
            c.setNull(index);
        }
    }

    @Override
    void growBuffers(int newCapacity) {
        for (ValueVector c : children) {
            c.ensureCapacity(newCapacity);
        }
    }

    @Override
    void finishWriting(int length) {
        for (ValueVector c : children) {
            c.seal(length);
        }
    }

    @Override
    public List<ValueVector> children() {
        return children;
    }

    @Override
    public int bufferCount() {
        return 1;
    }

    @Override
    public MemorySegment exportBuffer(int i) {
        if (i != 0) {
            throw new IndexOutOfBoundsException(i);
        }
        return exportValidity();
    }
}
