package dev.gatun.arrow.vector;

import dev.gatun.arrow.memory.BatchMemory;
import dev.gatun.arrow.memory.NativeBuffer;
import dev.gatun.arrow.types.Field;
import java.lang.foreign.MemorySegment;
import java.util.Collection;
import java.util.List;

/**
 * A column (or child) of Arrow values. A vector is either <em>written</em> (its buffers belong to
 * a batch being built; fixed-width buffers are pre-sized to a row capacity) or a read-only
 * <em>view</em> of imported buffers, possibly with a non-zero {@code offset}.
 *
 * <p>Validity: a written vector allocates its bitmap on the first {@link #setNull} (all bits set,
 * then cleared per null), so a column without NULLs never touches it. The exact null count is
 * computed at {@link #seal} with a popcount over the bitmap, which stays exact whatever the order
 * of writes. All access goes through segments of the batch's confined arena: after the batch is
 * exported or closed, every read or write throws {@link IllegalStateException}. After sealing the
 * segments are read-only: a fixed-width write then fails in the segment's own check
 * ({@link IllegalArgumentException}, no extra branch per value); variable-width and nested
 * writes, which check capacity anyway, throw {@link IllegalStateException}.
 */
public abstract sealed class ValueVector
        permits NullVector, BoolVector, FixedWidthVector, VarBinaryVector, ListVector, StructVector {
    final Field field;
    final BatchMemory memory;
    final MemorySegment.Scope scope;
    int capacity;
    int length;
    long offset;
    long nullCount;
    BatchMemory.Allocation validityAlloc;
    MemorySegment validity;
    /** Rows are NULL until written ({@link #startAllNull}): new bitmap bytes are cleared, not set. */
    boolean nullUntilWritten;
    boolean sealed;

    /** A written vector. */
    ValueVector(Field field, BatchMemory memory, int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("negative capacity " + capacity);
        }
        this.field = field;
        this.memory = memory;
        this.scope = memory.scope();
        this.capacity = capacity;
    }

    /** A read-only view of imported buffers in {@code scope}; {@code nullCount} -1 means unknown. */
    ValueVector(Field field, View view, MemorySegment.Scope scope) {
        this.field = field;
        this.memory = null;
        this.scope = scope;
        this.capacity = view.length();
        this.length = view.length();
        this.offset = view.offset();
        this.nullCount = view.nullCount();
        this.validity = view.validity();
        this.sealed = true;
    }

    public final Field field() {
        return field;
    }

    /** Value count: set by {@link #seal} or the import; 0 while writing. */
    public final int length() {
        return length;
    }

    /** Rows that may be written without {@link #ensureCapacity}. */
    public final int capacity() {
        return capacity;
    }

    /** Logical offset into the buffers (non-zero only for imported slices). */
    public final long offset() {
        return offset;
    }

    public final boolean isSealed() {
        return sealed;
    }

    public final boolean isImported() {
        return memory == null;
    }

    public boolean isNull(int index) {
        MemorySegment v = validity;
        if (v == null) {
            checkAlive(); // no memory to read, but access after export or close must still fail
            return false;
        }
        return !Bits.get(v, offset + index);
    }

    final void checkAlive() {
        if (!scope.isAlive()) {
            throw new IllegalStateException("Already closed: the batch of " + field.name()
                    + " was exported, released or closed");
        }
    }

    /** Exact number of NULLs among the {@link #length} values (computed on first use for views). */
    public long nullCount() {
        if (nullCount < 0) {
            nullCount = validity == null ? 0 : length - Bits.countSet(validity, offset, length);
        }
        return nullCount;
    }

    /** Marks {@code index} NULL. Fixed-width vectors accept any index below the capacity. */
    public void setNull(int index) {
        checkWritable();
        ensureValidity();
        Bits.clear(validity, index);
    }

    /**
     * Makes every row NULL until a value is written at it: the bitmap is allocated now with every
     * bit clear, so a writer may skip the rows that are NULL (the NULL ROW above a nested field, in
     * one step for all its fields). For vectors whose NULL is the bitmap's bit alone: fixed-width
     * and boolean. Call it before the first write (earlier values would turn NULL).
     */
    public final void startAllNull() {
        checkWritable();
        if (!(this instanceof FixedWidthVector || this instanceof BoolVector)) {
            throw new IllegalStateException(field.name() + ": only fixed-width and boolean vectors can start all NULL, not "
                    + getClass().getSimpleName());
        }
        if (validity == null) {
            validityAlloc = memory.allocateFilled(Bits.bytesFor(capacity), (byte) 0);
            validity = validityAlloc.segment();
        } else {
            validity.fill((byte) 0);
        }
        nullUntilWritten = true;
    }

    /** Grows the buffers to hold at least {@code rows} values (geometrically). */
    public final void ensureCapacity(int rows) {
        if (rows <= capacity) {
            return;
        }
        checkWritable();
        int newCapacity = (int) Math.min(Integer.MAX_VALUE - 8, Math.max((long) rows, 2L * capacity));
        growValidity(newCapacity);
        growBuffers(newCapacity);
        capacity = newCapacity;
    }

    /**
     * Ends writing: the vector has {@code length} values; computes the exact null count and makes
     * the buffers read-only. Nested vectors seal their children.
     */
    public final void seal(int length) {
        checkWritable();
        if (length < 0 || length > capacity) {
            throw new IllegalArgumentException(field.name() + ": row count " + length + " outside 0.." + capacity);
        }
        finishWriting(length);
        this.length = length;
        if (validity != null) {
            Bits.clearTail(validity, length);
            nullCount = length - Bits.countSet(validity, 0, length);
            validity = validity.asReadOnly();
        } else {
            nullCount = initialNullCount(length);
        }
        makeReadOnly();
        sealed = true;
    }

    long initialNullCount(int length) {
        return 0;
    }

    /** Subclass hook for {@link #seal}: fill gaps, seal children. */
    void finishWriting(int length) {}

    /** Subclass hook for {@link #seal}: replace data segments by read-only views. */
    void makeReadOnly() {}

    abstract void growBuffers(int newCapacity);

    /** Sets the validity bit of {@code index} if there is a bitmap (one branch per value otherwise). */
    final void markValid(int index) {
        MemorySegment v = validity;
        if (v != null) {
            Bits.set(v, index);
        }
    }

    final void ensureValidity() {
        if (validity == null) {
            validityAlloc = memory.allocateFilled(Bits.bytesFor(capacity), (byte) 0xFF);
            validity = validityAlloc.segment();
        }
    }

    private void growValidity(int newCapacity) {
        if (validityAlloc == null) {
            return;
        }
        long oldBytes = Bits.bytesFor(capacity);
        long newBytes = Bits.bytesFor(newCapacity);
        validityAlloc = memory.grow(validityAlloc, newBytes, oldBytes);
        validity = validityAlloc.segment();
        validity.asSlice(oldBytes).fill((byte) (nullUntilWritten ? 0 : 0xFF));
    }

    final void checkWritable() {
        if (sealed) {
            throw new IllegalStateException(field.name() + ": vector is "
                    + (memory == null ? "an imported, read-only view" : "sealed"));
        }
    }

    final void checkSealed(String what) {
        if (!sealed) {
            throw new IllegalStateException(field.name() + ": " + what
                    + " is available once the batch is sealed (a growing buffer would move)");
        }
    }

    // ---- C Data export support (used by dev.gatun.arrow.cdata) ----

    /** {@code n_buffers} of the C Data Interface. */
    public abstract int bufferCount();

    /**
     * The address of C Data buffer {@code i} as a zero-length segment; {@link MemorySegment#NULL}
     * for an omitted validity bitmap. Written, sealed vectors only.
     */
    public abstract MemorySegment exportBuffer(int i);

    /** Child vectors (list element, struct fields, map entries). */
    public List<ValueVector> children() {
        return List.of();
    }

    /** Adds the raw buffers this vector (not its children) owns to {@code out}. */
    public void collectBuffers(Collection<NativeBuffer> out) {
        if (validityAlloc != null) {
            out.add(validityAlloc.buffer());
        }
    }

    final MemorySegment exportValidity() {
        return nullCount() == 0 || validityAlloc == null ? MemorySegment.NULL : validityAlloc.buffer().address();
    }

    static MemorySegment address(BatchMemory.Allocation a) {
        return a.buffer().address();
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + field + ", length " + length + (sealed ? "" : ", writing") + "]";
    }

    /** What an importer knows about one array: its extent and its validated buffers. */
    public record View(int length, long offset, long nullCount, MemorySegment validity, MemorySegment[] buffers) {}
}
