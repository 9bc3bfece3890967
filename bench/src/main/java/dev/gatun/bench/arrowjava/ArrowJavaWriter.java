package dev.gatun.bench.arrowjava;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * The Arrow Java baselines of the entry transpose: rows are written row-major into a fresh
 * {@link VectorSchemaRoot} per batch (a batch that is handed on may still be read downstream,
 * so its buffers are never reused), with column writers chosen once per schema.
 *
 * <ul>
 *   <li>{@link Mode#GROWING}: the shape of Flink's Python Arrow writers — vectors start at Arrow
 *       Java's default allocation and grow through {@code setSafe} as rows arrive; strings go
 *       through {@code StringData.toBytes()}; decimals through {@code BigDecimal}.
 *   <li>{@link Mode#PRESIZED}: the shape the seed project and Comet moved to — fixed-width
 *       vectors sized to the batch and written with unchecked {@code set}; variable-width data
 *       pre-sized to the previous batch's bytes (growing only when a batch is larger), strings
 *       copied straight from the row's heap segment; compact decimals as unscaled longs.
 * </ul>
 */
public final class ArrowJavaWriter {
    /** How vectors are sized and written. */
    public enum Mode { GROWING, PRESIZED }

    private static final long DEFAULT_VAR_BYTES_PER_ROW = 32;

    private final BufferAllocator allocator;
    private final Mode mode;
    private final Schema schema;
    private final int[] selected;
    private final LogicalType[] types;
    private final long[] varBytesHint;

    public ArrowJavaWriter(BufferAllocator allocator, Mode mode, RowType rowType, int[] selected) {
        this.allocator = allocator;
        this.mode = mode;
        this.schema = ArrowJavaTypes.schema(rowType, selected);
        this.selected = selected.clone();
        this.types = new LogicalType[selected.length];
        for (int i = 0; i < selected.length; i++) {
            types[i] = rowType.getTypeAt(selected[i]);
        }
        this.varBytesHint = new long[selected.length];
    }

    public Schema schema() {
        return schema;
    }

    /** Writes {@code rows} into a new root that the caller owns and closes. */
    public VectorSchemaRoot write(RowData[] rows) {
        int count = rows.length;
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        boolean ok = false;
        try {
            ArrowJavaColumns.Column[] columns = new ArrowJavaColumns.Column[selected.length];
            for (int c = 0; c < columns.length; c++) {
                FieldVector vector = root.getVector(c);
                allocate(vector, c, count);
                columns[c] = mode == Mode.GROWING
                        ? ArrowJavaColumns.growing(types[c], selected[c], vector)
                        : ArrowJavaColumns.presized(types[c], selected[c], vector);
            }
            for (int r = 0; r < count; r++) {
                RowData row = rows[r];
                for (ArrowJavaColumns.Column column : columns) {
                    column.write(row, r);
                }
            }
            for (int c = 0; c < columns.length; c++) {
                columns[c].finish(count);
                if (root.getVector(c) instanceof BaseVariableWidthVector v) {
                    varBytesHint[c] = v.getOffsetBuffer().getInt((long) count * BaseVariableWidthVector.OFFSET_WIDTH);
                }
            }
            root.setRowCount(count);
            ok = true;
            return root;
        } finally {
            if (!ok) {
                root.close();
            }
        }
    }

    private void allocate(FieldVector vector, int column, int count) {
        if (mode == Mode.GROWING) {
            vector.allocateNew();
        } else if (vector instanceof BaseVariableWidthVector v) {
            long bytes = varBytesHint[column] > 0 ? varBytesHint[column] : DEFAULT_VAR_BYTES_PER_ROW * count;
            v.allocateNew(bytes, count);
        } else {
            vector.setInitialCapacity(count);
            vector.allocateNew();
        }
    }
}
