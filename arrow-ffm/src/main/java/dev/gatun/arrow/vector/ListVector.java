package dev.gatun.arrow.vector;

import dev.gatun.arrow.memory.BatchMemory;
import dev.gatun.arrow.memory.NativeBuffer;
import dev.gatun.arrow.types.Field;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Collection;
import java.util.List;

/**
 * List: int32 offsets into one child vector. Lists are written in index order: {@link #startList}
 * reserves room in the child and returns where the elements go; an index skipped over becomes NULL.
 */
public sealed class ListVector extends ValueVector permits MapVector {
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;

    private final ValueVector child;
    private BatchMemory.Allocation offsetsAlloc;
    private MemorySegment offsets;
    private int count;
    private int childEnd;

    ListVector(Field field, BatchMemory memory, int capacity, ValueVector child) {
        super(field, memory, capacity);
        this.child = child;
        offsetsAlloc = memory.allocate(((long) capacity + 1) * 4);
        offsets = offsetsAlloc.segment();
        offsets.set(INT, 0, 0);
    }

    ListVector(Field field, View view, MemorySegment.Scope scope, ValueVector child) {
        super(field, view, scope);
        this.child = child;
        offsets = view.buffers()[1];
    }

    public ValueVector child() {
        return child;
    }

    /**
     * Starts list {@code index} with {@code size} elements: grows the child to hold them and
     * returns the child index of the first one. The caller then writes child values
     * {@code [start, start + size)}; child values left unwritten are NULL (variable-width) or
     * undefined (fixed-width).
     */
    public int startList(int index, int size) {
        checkWritable();
        if (size < 0) {
            throw new IllegalArgumentException("negative list size " + size);
        }
        fillTo(index);
        long end = (long) childEnd + size;
        if (end > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException(field.name() + ": too many list elements");
        }
        child.ensureCapacity((int) end);
        int start = childEnd;
        offsets.set(INT, ((long) index + 1) << 2, (int) end);
        childEnd = (int) end;
        count = index + 1;
        markValid(index);
        return start;
    }

    @Override
    public void setNull(int index) {
        checkWritable();
        fillTo(index);
        ensureValidity();
        Bits.clear(validity, index);
        offsets.set(INT, ((long) index + 1) << 2, childEnd);
        count = index + 1;
    }

    private void fillTo(int index) {
        if (index < count) {
            throw new IllegalStateException(field.name() + ": list " + index
                    + " was already written (lists are written in index order; next is " + count + ")");
        }
        if (index > count) {
            ensureValidity();
            for (int i = count; i < index; i++) {
                Bits.clear(validity, i);
                offsets.set(INT, ((long) i + 1) << 2, childEnd);
            }
            count = index;
        }
    }

    @Override
    void growBuffers(int newCapacity) {
        offsetsAlloc = memory.grow(offsetsAlloc, ((long) newCapacity + 1) * 4, ((long) count + 1) * 4);
        offsets = offsetsAlloc.segment();
    }

    @Override
    void finishWriting(int length) {
        if (count > length) {
            throw new IllegalStateException(field.name() + ": " + count + " lists written but the row count is " + length);
        }
        if (length > count) {
            fillTo(length);
        }
        child.seal(childEnd);
    }

    @Override
    void makeReadOnly() {
        offsets = offsets.asReadOnly();
    }

    /** Child index of the first element of list {@code index}. */
    public int listStart(int index) {
        return offsets.get(INT, (offset + index) << 2);
    }

    /** Child index after the last element of list {@code index}. */
    public int listEnd(int index) {
        return offsets.get(INT, (offset + index + 1) << 2);
    }

    public int listSize(int index) {
        return listEnd(index) - listStart(index);
    }

    @Override
    public List<ValueVector> children() {
        return List.of(child);
    }

    @Override
    public int bufferCount() {
        return 2;
    }

    @Override
    public MemorySegment exportBuffer(int i) {
        return switch (i) {
            case 0 -> exportValidity();
            case 1 -> address(offsetsAlloc);
            default -> throw new IndexOutOfBoundsException(i);
        };
    }

    @Override
    public void collectBuffers(Collection<NativeBuffer> out) {
        super.collectBuffers(out);
        if (offsetsAlloc != null) {
            out.add(offsetsAlloc.buffer());
        }
    }
}
