package dev.gatun.bench.rows;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;

/**
 * A fixed batch of input rows for one shape and format, e.g. {@code "bid/binary"}: the same rows
 * for every implementation that a benchmark compares.
 */
public record RowBatch(RowShape shape, RowFormat format, RowData[] rows) {
    /** Rows per batch: the batch size every transpose benchmark writes. */
    public static final int ROWS = 4096;
    public static final long SEED = 42;

    /** {@code spec} is {@code shape/format}, e.g. {@code bid/generic} or {@code wide40/binary}. */
    public static RowBatch of(String spec) {
        String[] parts = spec.split("/");
        if (parts.length != 2) {
            throw new IllegalArgumentException("row batch spec must be shape/format, got '" + spec + "'");
        }
        return of(Shapes.byName(parts[0]), RowFormat.of(parts[1]), ROWS, SEED);
    }

    public static RowBatch of(RowShape shape, RowFormat format, int rows, long seed) {
        RowFormat.Converter converter = format.converter(shape.rowType());
        RowData[] out = new RowData[rows];
        for (int i = 0; i < rows; i++) {
            GenericRowData row = RowFormat.materializeStrings(shape.row(seed, i));
            out[i] = converter.convert(row);
        }
        return new RowBatch(shape, format, out);
    }

    public String spec() {
        return shape.name() + "/" + format.name().toLowerCase(java.util.Locale.ROOT);
    }
}
