package dev.gatun.transpose.exit;

import dev.gatun.arrow.batch.BatchState;
import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.operator.NativeOperator;
import dev.gatun.arrow.operator.WatermarkProgress;
import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Field;
import dev.gatun.arrow.vector.Int64Vector;
import dev.gatun.arrow.vector.Int8Vector;
import dev.gatun.transpose.types.TypeMapping;
import java.util.List;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * The exit transpose: a reused {@link org.apache.flink.table.data.RowData} over one row of an
 * Arrow batch (imported from native code, or sealed by the entry transpose), reading the batch's
 * memory in place.
 *
 * <p>Columns are the fields of the row type in order, then {@value TypeMapping#ROW_KIND_COLUMN}
 * when present (the row kind is INSERT otherwise), then {@value NativeOperator#WATERMARK_COLUMN}
 * when present (the watermark to emit before each row: {@link #watermarkBefore}). {@link #bind} a batch, then
 * {@link #setRow} to each row. Values returned by getters: primitives directly; strings and bytes
 * as heap copies ({@code BinaryStringData} over a copied {@code byte[]}); ARRAY, MAP and ROW as
 * small views into the batch, valid while it is. Like any reused Flink row, a consumer that keeps
 * the row copies it ({@link #copy()}). Every read after the batch is released or exported throws
 * {@link IllegalStateException}; freed memory is never read. One view, one thread.
 */
public final class ColumnarRowView extends AccessorRow {
    private final RowType type;
    private final List<Field> expected;
    private RecordBatch batch;
    private Int8Vector kinds;
    private Int64Vector watermarks;
    private int rowCount;
    private RowKind kindOverride;
    private RowCopier copier;

    public ColumnarRowView(RowType type, TypeMapping types) {
        this(type, types.fields(type));
    }

    private ColumnarRowView(RowType type, List<Field> expected) {
        super(accessors(type, expected));
        this.type = type;
        this.expected = expected;
    }

    /** A view over {@code batch}, positioned at row 0. */
    public static ColumnarRowView over(RecordBatch batch, RowType type, TypeMapping types) {
        return new ColumnarRowView(type, types).bind(batch);
    }

    private static Accessor[] accessors(RowType type, List<Field> fields) {
        Accessor[] out = new Accessor[fields.size()];
        for (int c = 0; c < out.length; c++) {
            out[c] = Accessors.create(type.getTypeAt(c), fields.get(c));
        }
        return out;
    }

    /**
     * Points the view at {@code batch} (SEALED or IMPORTED), row 0. The batch's columns must have
     * the Arrow types {@code TypeMapping} gives the row type's fields.
     */
    public ColumnarRowView bind(RecordBatch batch) {
        int columns = batch.columnCount();
        if (columns < fields.length || columns > fields.length + 2) {
            throw new IllegalArgumentException("a batch of " + columns + " columns for a row of " + fields.length
                    + " fields: " + batch.schema().fields());
        }
        for (int c = 0; c < fields.length; c++) {
            Field actual = batch.schema().field(c);
            if (!sameShape(expected.get(c), actual)) {
                throw new IllegalArgumentException("column " + c + " (" + type.getFieldNames().get(c) + " "
                        + type.getTypeAt(c).asSummaryString() + ") needs " + expected.get(c) + ", the batch has "
                        + actual);
            }
        }
        int next = fields.length;
        Int8Vector kindColumn = null;
        if (next < columns && isColumn(batch, next, TypeMapping.ROW_KIND_COLUMN, ArrowType.INT8)) {
            kindColumn = batch.column(next++, Int8Vector.class);
        }
        Int64Vector watermarkColumn = null;
        if (next < columns && isColumn(batch, next, NativeOperator.WATERMARK_COLUMN, ArrowType.INT64)) {
            watermarkColumn = batch.column(next++, Int64Vector.class);
        }
        if (next != columns) {
            throw new IllegalArgumentException("the extra columns must be Int8 " + TypeMapping.ROW_KIND_COLUMN
                    + " and/or Int64 " + NativeOperator.WATERMARK_COLUMN + ", in this order; the batch has "
                    + batch.schema().fields().subList(fields.length, columns));
        }
        int rows = batch.rowCount();
        for (int c = 0; c < fields.length; c++) {
            fields[c].bind(batch.column(c));
        }
        this.batch = batch;
        this.kinds = kindColumn;
        this.watermarks = watermarkColumn;
        this.rowCount = rows;
        this.index = 0;
        this.kindOverride = null;
        return this;
    }

    private static boolean isColumn(RecordBatch batch, int c, String name, ArrowType type) {
        Field f = batch.schema().field(c);
        return f.name().equals(name) && f.type().equals(type);
    }

    /** Whether the bound batch carries {@value NativeOperator#WATERMARK_COLUMN}. */
    public boolean hasWatermarks() {
        return watermarks != null;
    }

    /**
     * The watermark to emit before row {@code row} of the bound batch, or
     * {@link WatermarkProgress#NONE} (none, or no watermark column).
     */
    public long watermarkBefore(int row) {
        if (row < 0 || row >= rowCount) {
            throw new IndexOutOfBoundsException("row " + row + " of a batch of " + rowCount);
        }
        if (watermarks == null) {
            checkReadable();
            return WatermarkProgress.NONE;
        }
        return watermarks.isNull(row) ? WatermarkProgress.NONE : watermarks.getLong(row);
    }

    /** Types and children alike; names, nullability and metadata are not compared. */
    private static boolean sameShape(Field a, Field b) {
        if (!a.type().equals(b.type()) || a.children().size() != b.children().size()) {
            return false;
        }
        for (int i = 0; i < a.children().size(); i++) {
            if (!sameShape(a.child(i), b.child(i))) {
                return false;
            }
        }
        return true;
    }

    public RecordBatch batch() {
        return batch;
    }

    public int rowCount() {
        return rowCount;
    }

    /** The row the view shows. */
    public int row() {
        return index;
    }

    public void setRow(int row) {
        if (row < 0 || row >= rowCount) {
            throw new IndexOutOfBoundsException("row " + row + " of a batch of " + rowCount);
        }
        index = row;
        kindOverride = null;
    }

    @Override
    public RowKind getRowKind() {
        if (kindOverride != null) {
            return kindOverride;
        }
        if (kinds != null) {
            return RowKind.fromByteValue(kinds.getByte(index));
        }
        checkReadable();
        return RowKind.INSERT;
    }

    /** Overrides the kind of the current row until the next {@link #setRow}. */
    @Override
    public void setRowKind(RowKind kind) {
        kindOverride = kind;
    }

    /** The current row as an independent {@link BinaryRowData}, values and row kind. */
    public BinaryRowData copy() {
        if (copier == null) {
            copier = new RowCopier(type);
        }
        return copier.copy(this);
    }

    private void checkReadable() {
        if (batch == null) {
            throw new IllegalStateException("no batch bound");
        }
        BatchState s = batch.state();
        if (s == BatchState.RELEASED || s == BatchState.EXPORTED) {
            throw new IllegalStateException("the view's batch is " + s + ": its rows can no longer be read");
        }
    }
}
