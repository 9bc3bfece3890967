package dev.gatun.transpose.exit;

import dev.gatun.arrow.batch.BatchState;
import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.operator.NativeOperator;
import dev.gatun.arrow.operator.WatermarkProgress;
import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Field;
import dev.gatun.arrow.vector.Int64Vector;
import dev.gatun.arrow.vector.VarBinaryVector;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * The exit for result batches in the Flink-rows format ({@code OutputFormat.FLINK_ROWS}): Rust
 * wrote each output row in Flink's {@code BinaryRowData} format into one Binary column; {@link #bind}
 * copies all of them with one bulk copy into a fresh heap {@code byte[]} and the rows are then
 * {@link BinaryRowData}s pointing into it. Flink's downstream copy of such a row is one memcpy
 * ({@code BinaryRowData.copy}), and consumers with object reuse read Flink's own format.
 *
 * <p>Contract: after {@link #bind} returns, the rows no longer depend on the batch, so the caller
 * closes it at once, before emitting. Every bound batch gets its own array, never reused: rows
 * handed out stay valid (and unchanged) for as long as anyone holds them, also after later binds.
 * {@link #reusedRow} repositions one reused object (for emitting); {@link #row} makes a new one.
 * A batch of an operator that assigns watermarks has a second column,
 * {@value NativeOperator#WATERMARK_COLUMN}: {@link #watermarkBefore} gives its values, copied at
 * bind too. One exit, one thread.
 */
public final class BinaryRowExit {
    private static final ValueLayout.OfInt OFFSET = ValueLayout.JAVA_INT_UNALIGNED;

    private final int arity;
    private final int fixedSize;
    private final BinaryRowData reused;
    private org.apache.flink.core.memory.MemorySegment[] segments;
    private int[] offsets = new int[1];
    private int rowCount;
    /** The watermark before each row of the bound batch, or null without a watermark column. */
    private long[] watermarks;

    /** An exit for rows of {@code arity} fields (the Calc's output row type). */
    public BinaryRowExit(int arity) {
        if (arity < 0) {
            throw new IllegalArgumentException("negative arity " + arity);
        }
        this.arity = arity;
        this.fixedSize = BinaryRowData.calculateFixPartSizeInBytes(arity);
        this.reused = new BinaryRowData(arity);
    }

    /**
     * True when the native encoder writes every field of {@code type} (flat types only: no ARRAY,
     * MAP, MULTISET or ROW), so a Calc of this output type may use the Flink-rows format. The type
     * must also map to Arrow ({@code TypeMapping}), as for any native Calc.
     */
    public static boolean supports(RowType type) {
        for (LogicalType field : type.getChildren()) {
            if (!flat(field)) {
                return false;
            }
        }
        return true;
    }

    private static boolean flat(LogicalType type) {
        return switch (type.getTypeRoot()) {
            case BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, FLOAT, DOUBLE, DECIMAL, CHAR, VARCHAR, BINARY,
                 VARBINARY, DATE, TIME_WITHOUT_TIME_ZONE, TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE,
                 INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME, NULL -> true;
            default -> false;
        };
    }

    public int arity() {
        return arity;
    }

    /**
     * Copies the rows of {@code batch} (SEALED or IMPORTED, one non-null Binary column
     * {@value NativeOperator#FLINK_ROW_COLUMN}, then optionally the Int64 column
     * {@value NativeOperator#WATERMARK_COLUMN}) to the heap: one copy of the values, one of the
     * offsets (and one of the watermarks). The batch may be closed as soon as this returns; rows of
     * earlier binds stay valid.
     *
     * @throws IllegalArgumentException when the batch is not in the Flink-rows format, or a row is
     *     shorter than the fixed part of {@link #arity()} fields or not a whole number of words
     */
    public BinaryRowExit bind(RecordBatch batch) {
        BatchState state = batch.state();
        if (state != BatchState.SEALED && state != BatchState.IMPORTED) {
            throw new IllegalStateException("cannot read a " + state + " batch");
        }
        int columns = batch.columnCount();
        if (columns != 1 && (columns != 2 || !isWatermarkColumn(batch.schema().field(1)))) {
            throw notFlinkRows(batch);
        }
        Field field = batch.schema().field(0);
        if (!field.name().equals(NativeOperator.FLINK_ROW_COLUMN) || !field.type().equals(ArrowType.BINARY)) {
            throw notFlinkRows(batch);
        }
        VarBinaryVector column = batch.column(0, VarBinaryVector.class);
        if (column.nullCount() != 0) {
            throw new IllegalArgumentException("the Flink-row column has " + column.nullCount() + " NULLs");
        }
        int rows = batch.rowCount();
        int[] ends = offsets.length > rows ? offsets : new int[rows + 1];
        MemorySegment.copy(column.offsetsSegment(), OFFSET, 0, ends, 0, rows + 1);
        int base = ends[0];
        byte[] bytes = new byte[ends[rows] - base];
        MemorySegment.copy(column.dataSegment(), ValueLayout.JAVA_BYTE, base, bytes, 0, bytes.length);
        for (int i = 0; i <= rows; i++) {
            ends[i] -= base;
        }
        for (int i = 0; i < rows; i++) {
            int size = ends[i + 1] - ends[i];
            if (size < fixedSize || (size & 7) != 0) {
                throw new IllegalArgumentException("row " + i + " has " + size + " bytes: not a Flink row of "
                        + arity + " fields (at least " + fixedSize + " bytes, whole words)");
            }
        }
        long[] marks = columns == 2 ? watermarks(batch.column(1, Int64Vector.class), rows) : null;
        this.offsets = ends;
        this.segments = new org.apache.flink.core.memory.MemorySegment[] {MemorySegmentFactory.wrap(bytes)};
        this.rowCount = rows;
        this.watermarks = marks;
        return this;
    }

    private static boolean isWatermarkColumn(Field field) {
        return field.name().equals(NativeOperator.WATERMARK_COLUMN) && field.type().equals(ArrowType.INT64);
    }

    private static long[] watermarks(Int64Vector column, int rows) {
        long[] marks = new long[rows];
        for (int i = 0; i < rows; i++) {
            marks[i] = column.isNull(i) ? WatermarkProgress.NONE : column.getLong(i);
        }
        return marks;
    }

    private static IllegalArgumentException notFlinkRows(RecordBatch batch) {
        return new IllegalArgumentException("not a batch of Flink rows (one Binary column "
                + NativeOperator.FLINK_ROW_COLUMN + ", optionally then Int64 " + NativeOperator.WATERMARK_COLUMN
                + "): " + batch.schema().fields());
    }

    /** Rows of the bound batch. */
    public int rowCount() {
        return rowCount;
    }

    /** Whether the bound batch had {@value NativeOperator#WATERMARK_COLUMN}. */
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
        return watermarks == null ? WatermarkProgress.NONE : watermarks[row];
    }

    /** Row {@code i} of the bound batch as the one reused {@link BinaryRowData} (repositioned). */
    public BinaryRowData reusedRow(int i) {
        return pointTo(reused, i);
    }

    /** Row {@code i} of the bound batch as a new {@link BinaryRowData} (sharing the batch's array). */
    public BinaryRowData row(int i) {
        return pointTo(new BinaryRowData(arity), i);
    }

    /** Points {@code row} (of {@link #arity()} fields) at row {@code i} of the bound batch. */
    public BinaryRowData pointTo(BinaryRowData row, int i) {
        if (i < 0 || i >= rowCount) {
            throw new IndexOutOfBoundsException("row " + i + " of a batch of " + rowCount);
        }
        int start = offsets[i];
        row.pointTo(segments, start, offsets[i + 1] - start);
        return row;
    }
}
