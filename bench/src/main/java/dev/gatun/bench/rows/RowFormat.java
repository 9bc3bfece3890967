package dev.gatun.bench.rows;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;

/** How an input row is laid out: a {@link GenericRowData} of objects or Flink's {@code BinaryRowData}. */
public enum RowFormat {
    GENERIC,
    BINARY;

    public static RowFormat of(String name) {
        return valueOf(name.toUpperCase(java.util.Locale.ROOT));
    }

    /** A converter for rows of {@code type}; not thread-safe (the serializer reuses its writer). */
    public Converter converter(RowType type) {
        if (this == GENERIC) {
            return row -> row;
        }
        RowDataSerializer serializer = new RowDataSerializer(type);
        return row -> serializer.toBinaryRow(row).copy();
    }

    /** Turns a generated row into this format. */
    @FunctionalInterface
    public interface Converter {
        RowData convert(GenericRowData row);
    }

    /**
     * Replaces lazy strings with their UTF-8 bytes. A lazy {@link BinaryStringData} encodes and
     * caches its bytes the first time they are read, so a fixture read many times must start
     * materialized for every pass to do the same work.
     */
    public static GenericRowData materializeStrings(GenericRowData row) {
        for (int i = 0; i < row.getArity(); i++) {
            if (row.getField(i) instanceof StringData s) {
                row.setField(i, BinaryStringData.fromBytes(s.toBytes()));
            }
        }
        return row;
    }
}
