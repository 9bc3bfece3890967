package dev.gatun.transpose.entry;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.types.Field;
import dev.gatun.arrow.types.Schema;
import dev.gatun.arrow.vector.Int8Vector;
import dev.gatun.transpose.TransposeException;
import dev.gatun.transpose.types.TypeMapping;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinarySection;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * The entry transpose: writes each {@link RowData} straight into an Arrow batch (row-major, no
 * retained rows; the producer may reuse its row as soon as {@link #write} returns).
 *
 * <p>The batch has one column per read path, in order: {@code [i]} is top-level field {@code i},
 * {@code [i, j, k]} field {@code k} of ROW field {@code j} of ROW field {@code i}, named
 * {@code "a.b.c"} (NULL when a parent row is NULL). Only those fields are read. When row kinds are
 * carried the last column is {@value TypeMapping#ROW_KIND_COLUMN} (Int8, {@code RowKind.toByteValue()}):
 * from the first batch for a changelog input; for an insert-only input from the first non-INSERT
 * row on (rows before it in that batch are INSERT), after which {@link #carriesRowKind()} is true.
 *
 * <p>A failure while writing a row (a getter throws, a value out of range, memory) releases the
 * current batch, including its earlier rows, and throws {@link TransposeException} naming the
 * field; the writer then starts a new batch. One writer, one thread (the batch's owner).
 */
public final class BatchWriter implements AutoCloseable {
    private static final byte INSERT = RowKind.INSERT.toByteValue();

    private final NativeAllocator allocator;
    private final int batchRows;
    private final ReadPlan plan;
    private final Schema dataSchema;
    private Schema schema;
    private boolean carriesRowKind;
    private RecordBatch batch;
    private Int8Vector kinds;
    private int rowCount;
    private boolean closed;

    /**
     * @param readPaths the input fields the Calc reads, one column each (see the class comment)
     * @param batchRows rows per batch; fixed-width buffers are sized for this many
     * @param insertOnlyInput the input's changelog mode is insert-only: no row-kind column until a
     *     non-INSERT row arrives
     */
    public BatchWriter(RowType inputType, List<int[]> readPaths, TypeMapping types, int batchRows,
                       boolean insertOnlyInput, NativeAllocator allocator) {
        if (batchRows < 1) {
            throw new IllegalArgumentException("batchRows must be positive: " + batchRows);
        }
        this.allocator = allocator;
        this.batchRows = batchRows;
        this.plan = ReadPlan.of(inputType, readPaths, types, new BytesWriters.Scratch());
        this.dataSchema = new Schema(plan.fields, Map.of());
        this.carriesRowKind = !insertOnlyInput;
        this.schema = carriesRowKind ? withRowKind(dataSchema) : dataSchema;
    }

    /** The schema of the batches {@link #finish} returns from now on. */
    public Schema schema() {
        return schema;
    }

    public boolean carriesRowKind() {
        return carriesRowKind;
    }

    public int rowCount() {
        return rowCount;
    }

    public int batchRows() {
        return batchRows;
    }

    public boolean isFull() {
        return rowCount == batchRows;
    }

    /** Writes {@code row} into the current batch; see the class comment for failures. */
    public void write(RowData row) {
        ensureOpen();
        if (rowCount == batchRows) {
            throw new IllegalStateException("the batch is full (" + batchRows + " rows): call finish() first");
        }
        if (batch == null) {
            start();
        }
        int index = rowCount;
        try {
            byte[] mem = plan.root.inPlace(row);
            if (mem != null) {
                int offset = ((BinarySection) row).getOffset();
                writeKind(mem[offset], index); // the header byte is RowKind.toByteValue()
                plan.root.writeBinary(mem, offset, index);
            } else {
                writeKind(row.getRowKind().toByteValue(), index);
                plan.root.writeFields(row, index);
            }
        } catch (RuntimeException e) {
            discard();
            throw failure(e, index);
        } catch (Error e) {
            discard();
            throw e;
        }
        rowCount = index + 1;
    }

    /** Seals the current batch (possibly empty) and hands it over; the next write starts a new one. */
    public RecordBatch finish() {
        ensureOpen();
        if (batch == null) {
            start();
        }
        RecordBatch done = batch;
        int rows = rowCount;
        batch = null;
        kinds = null;
        rowCount = 0;
        boolean sealed = false;
        try {
            done.seal(rows);
            sealed = true;
        } finally {
            if (!sealed) {
                done.close();
            }
        }
        return done;
    }

    /** Releases the current batch without emitting it. */
    public void discard() {
        RecordBatch current = batch;
        batch = null;
        kinds = null;
        rowCount = 0;
        if (current != null) {
            current.close();
        }
    }

    @Override
    public void close() {
        closed = true;
        discard();
    }

    private void start() {
        RecordBatch b = null;
        try {
            b = RecordBatch.allocate(allocator, schema, batchRows);
            for (int c = 0; c < plan.columns.length; c++) {
                plan.columns[c].bind(b.column(c));
                if (plan.nullUntilWritten[c]) {
                    b.column(c).startAllNull();
                }
            }
            kinds = carriesRowKind ? b.column(plan.columns.length, Int8Vector.class) : null;
        } catch (RuntimeException e) {
            if (b != null) {
                b.close();
            }
            throw new TransposeException("entry transpose: allocating a batch of " + batchRows + " rows failed: "
                    + e.getMessage(), "", e);
        }
        batch = b;
        rowCount = 0;
    }

    private void writeKind(byte kind, int index) {
        if (kinds != null) {
            if (kind < 0 || kind > 3) {
                throw new IllegalArgumentException("row kind byte " + kind + " is no RowKind");
            }
            kinds.setByte(index, kind);
        } else if (kind != INSERT) {
            addRowKinds(index, RowKind.fromByteValue(kind));
        }
    }

    /** The safety net for an insert-only input that sends another kind: add the column mid-batch. */
    private void addRowKinds(int index, RowKind kind) {
        batch = batch.withColumn(TypeMapping.rowKindField());
        kinds = batch.column(plan.columns.length, Int8Vector.class);
        for (int i = 0; i < index; i++) {
            kinds.setByte(i, RowKind.INSERT.toByteValue());
        }
        kinds.setByte(index, kind.toByteValue());
        carriesRowKind = true;
        schema = withRowKind(dataSchema);
    }

    private static Schema withRowKind(Schema data) {
        List<Field> fields = new ArrayList<>(data.fields());
        fields.add(TypeMapping.rowKindField());
        return new Schema(fields, data.metadata());
    }

    private static TransposeException failure(RuntimeException e, int index) {
        String field = "";
        RuntimeException cause = e;
        if (e instanceof FieldFailure f) {
            field = f.path();
            cause = f.original();
        }
        String where = field.isEmpty() ? "" : " field " + field + ",";
        return new TransposeException("entry transpose failed at" + where + " row " + index + " of the batch: "
                + cause, field, cause);
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("the batch writer is closed");
        }
    }
}
