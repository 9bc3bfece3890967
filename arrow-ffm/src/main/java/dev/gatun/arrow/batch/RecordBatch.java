package dev.gatun.arrow.batch;

import dev.gatun.arrow.memory.BatchMemory;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.memory.NativeBuffer;
import dev.gatun.arrow.memory.Tracking;
import dev.gatun.arrow.types.Field;
import dev.gatun.arrow.types.Schema;
import dev.gatun.arrow.vector.ValueVector;
import dev.gatun.arrow.vector.Vectors;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A struct of columns plus a row count (a batch without columns still has one). One batch = one
 * owner thread = one confined arena; see {@link BatchState} for the life cycle. Reading an
 * exported or released batch throws {@link IllegalStateException} and never touches freed memory.
 */
public final class RecordBatch implements AutoCloseable {
    private final NativeAllocator allocator;
    private final Schema schema;
    private final List<ValueVector> columns;
    private final BatchMemory memory;
    private final Arena importArena;
    private final long importedBytes;
    private final Thread owner;
    private final int rowCapacity;
    private final Tracking tracking;
    private volatile BatchState state;
    private int rowCount;

    private RecordBatch(NativeAllocator allocator, Schema schema, List<ValueVector> columns, BatchMemory memory,
                        Arena importArena, long importedBytes, int rowCapacity, int rowCount, BatchState state) {
        this.allocator = allocator;
        this.schema = schema;
        this.columns = List.copyOf(columns);
        this.memory = memory;
        this.importArena = importArena;
        this.importedBytes = importedBytes;
        this.owner = Thread.currentThread();
        this.rowCapacity = rowCapacity;
        this.rowCount = rowCount;
        this.state = state;
        this.tracking = allocator.track(importArena == null
                ? NativeAllocator.Kind.BATCH : NativeAllocator.Kind.IMPORTED_BATCH, this);
    }

    /** A batch to write, from the {@linkplain NativeAllocator#root() root} allocator. */
    public static RecordBatch allocate(Schema schema, int rowCapacity) {
        return allocate(NativeAllocator.root(), schema, rowCapacity);
    }

    /**
     * A batch to write: every column pre-sized to {@code rowCapacity} rows, owned by the calling
     * thread. Failure-atomic: on any failure everything allocated so far is freed.
     */
    public static RecordBatch allocate(NativeAllocator allocator, Schema schema, int rowCapacity) {
        if (rowCapacity < 0) {
            throw new IllegalArgumentException("negative row capacity " + rowCapacity);
        }
        BatchMemory memory = new BatchMemory(allocator);
        boolean success = false;
        try {
            List<ValueVector> columns = new ArrayList<>(schema.size());
            for (int i = 0; i < schema.size(); i++) {
                columns.add(Vectors.allocate(schema.field(i), memory, rowCapacity));
            }
            RecordBatch batch = new RecordBatch(allocator, schema, columns, memory, null, 0, rowCapacity, -1,
                    BatchState.WRITING);
            success = true;
            return batch;
        } finally {
            if (!success) {
                memory.close();
            }
        }
    }

    /**
     * For the C Data importer: a batch over validated views whose {@code arena}'s close gives the
     * memory back to the producer. Takes ownership of {@code arena} only on success.
     */
    public static RecordBatch imported(NativeAllocator allocator, Schema schema, List<ValueVector> columns,
                                       int rowCount, Arena arena, long importedBytes) {
        RecordBatch batch = new RecordBatch(allocator, schema, columns, null, arena, importedBytes, rowCount,
                rowCount, BatchState.IMPORTED);
        allocator.reserveImported(importedBytes);
        return batch;
    }

    public Schema schema() {
        return schema;
    }

    public BatchState state() {
        return state;
    }

    public NativeAllocator allocator() {
        return allocator;
    }

    public int columnCount() {
        return columns.size();
    }

    public int rowCapacity() {
        return rowCapacity;
    }

    /** The row count, once sealed (or imported). */
    public int rowCount() {
        checkReadable();
        if (state == BatchState.WRITING) {
            throw new IllegalStateException("the row count is fixed by seal(); batch is still WRITING");
        }
        return rowCount;
    }

    public ValueVector column(int i) {
        checkReadable();
        return columns.get(i);
    }

    public <V extends ValueVector> V column(int i, Class<V> type) {
        return type.cast(column(i));
    }

    public List<ValueVector> columns() {
        checkReadable();
        return columns;
    }

    /**
     * Fixes the row count: gaps in variable-width and list columns become NULL, null counts become
     * exact, buffers read-only. {@code WRITING → SEALED}.
     */
    public void seal(int rows) {
        checkOwner();
        if (state != BatchState.WRITING) {
            throw new IllegalStateException("seal() needs a WRITING batch; this one is " + state);
        }
        if (rows < 0 || rows > rowCapacity) {
            throw new IllegalArgumentException("row count " + rows + " outside 0.." + rowCapacity);
        }
        for (ValueVector c : columns) {
            c.seal(rows);
        }
        rowCount = rows;
        state = BatchState.SEALED;
    }

    /**
     * Appends a column to a WRITING batch: the vector is allocated now, in this batch's memory and
     * with its row capacity, and the returned batch owns every column and all the memory. This
     * object is retired ({@code RELEASED}, nothing freed). For a column that only becomes necessary
     * mid-batch (a row-kind sidecar): the caller fills the rows already written. If the allocation
     * fails this batch is unchanged and still owns its memory (partial buffers are freed with it).
     */
    public RecordBatch withColumn(Field field) {
        checkOwner();
        if (state != BatchState.WRITING) {
            throw new IllegalStateException("withColumn() needs a WRITING batch; this one is " + state);
        }
        ValueVector column = Vectors.allocate(field, memory, rowCapacity);
        List<Field> fields = new ArrayList<>(schema.fields());
        fields.add(field);
        List<ValueVector> widened = new ArrayList<>(columns);
        widened.add(column);
        RecordBatch batch = new RecordBatch(allocator, new Schema(fields, schema.metadata()), widened, memory, null, 0,
                rowCapacity, -1, BatchState.WRITING);
        state = BatchState.RELEASED;
        tracking.close();
        return batch;
    }

    /**
     * Frees a batch that was not exported (WRITING, SEALED) or gives an imported one back to its
     * producer. Does nothing for an exported batch (its consumer's release frees it) or a released
     * one. Owner thread only.
     */
    @Override
    public void close() {
        BatchState s = state;
        if (s == BatchState.EXPORTED || s == BatchState.RELEASED) {
            return;
        }
        checkOwner();
        state = BatchState.RELEASED;
        try {
            if (memory != null) {
                memory.close();
            } else {
                try {
                    importArena.close();
                } finally {
                    allocator.releaseImported(importedBytes);
                }
            }
        } finally {
            tracking.close();
        }
    }

    // ---- hooks for the C Data exporter (dev.gatun.arrow.cdata) ----

    /** Throws unless this batch is SEALED and the caller is its owner thread. */
    public void checkExportable() {
        checkOwner();
        if (state != BatchState.SEALED) {
            throw new IllegalStateException("only a SEALED batch can be exported; this one is " + state);
        }
    }

    /** {@code SEALED → EXPORTED}: closes the arena and hands {@code claimed} to the release handlers. */
    public void completeExport(Set<NativeBuffer> claimed) {
        checkExportable();
        memory.handOff(claimed);
        state = BatchState.EXPORTED;
    }

    /** Called by the root release handler, from any thread: {@code EXPORTED → RELEASED}. */
    public void exportReleased() {
        state = BatchState.RELEASED;
        tracking.close();
    }

    private void checkReadable() {
        BatchState s = state;
        if (s == BatchState.EXPORTED || s == BatchState.RELEASED) {
            throw new IllegalStateException("batch is " + s + ": its memory is no longer Java's to read");
        }
    }

    private void checkOwner() {
        if (Thread.currentThread() != owner) {
            throw new IllegalStateException("batch is owned by thread " + owner.getName() + ", used from "
                    + Thread.currentThread().getName());
        }
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("RecordBatch[").append(state);
        if (rowCount >= 0) {
            sb.append(", ").append(rowCount).append(" rows");
        }
        sb.append(", columns ");
        for (int i = 0; i < schema.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(schema.field(i).name());
        }
        return sb.append(", owner ").append(owner.getName()).append(']').toString();
    }
}
