package dev.gatun.transpose.exit;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;

/**
 * Materializes a row (typically a {@link ColumnarRowView}) into an independent
 * {@link BinaryRowData}, for consumers that keep rows past the view's batch. Uses Flink's own
 * serializer, so the bytes are exactly those Flink would produce. One copier, one thread.
 */
public final class RowCopier {
    private final RowDataSerializer serializer;

    public RowCopier(RowType type) {
        this.serializer = new RowDataSerializer(type);
    }

    /** A copy of {@code row} (values and row kind) that owns its memory. */
    public BinaryRowData copy(RowData row) {
        return serializer.toBinaryRow(row).copy();
    }
}
