package dev.gatun.bench.rows;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.BinaryRowDataSerializer;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;

/**
 * A fixed batch of input rows for one shape and layout, e.g. {@code "bid/binary"}: the same rows
 * for every implementation that a benchmark compares.
 *
 * <p>Layouts: {@code generic} ({@code GenericRowData}, materialized strings); {@code binary}
 * (each row converted by {@code RowDataSerializer} and copied: one {@code byte[]} per row,
 * allocated among the generator's garbage); {@code stream} (the same rows serialized into one byte
 * stream and read back one by one with Flink's {@code BinaryRowDataSerializer}, as a network or
 * file deserializer hands them over: each row's bytes allocated right after the previous row's);
 * {@code packed} (every row a {@code BinaryRowData} pointing into one shared {@code byte[]} at
 * consecutive offsets, as Flink's sort and spill buffers hold them). All four hold equal rows.
 */
public record RowBatch(RowShape shape, RowFormat format, String layout, RowData[] rows) {
    /** Rows per batch: the batch size every transpose benchmark writes. */
    public static final int ROWS = 4096;
    public static final long SEED = 42;

    /** {@code spec} is {@code shape/layout}, e.g. {@code bid/generic}, {@code bid/stream} or {@code wide40/binary}. */
    public static RowBatch of(String spec) {
        String[] parts = spec.split("/");
        if (parts.length != 2) {
            throw new IllegalArgumentException("row batch spec must be shape/layout, got '" + spec + "'");
        }
        RowShape shape = Shapes.byName(parts[0]);
        return switch (parts[1]) {
            case "stream" -> deserialized(shape, ROWS, SEED);
            case "packed" -> packed(shape, ROWS, SEED);
            default -> of(shape, RowFormat.of(parts[1]), ROWS, SEED);
        };
    }

    public static RowBatch of(RowShape shape, RowFormat format, int rows, long seed) {
        RowFormat.Converter converter = format.converter(shape.rowType());
        RowData[] out = new RowData[rows];
        for (int i = 0; i < rows; i++) {
            GenericRowData row = RowFormat.materializeStrings(shape.row(seed, i));
            out[i] = converter.convert(row);
        }
        return new RowBatch(shape, format, format.name().toLowerCase(java.util.Locale.ROOT), out);
    }

    /** Rows read back one by one from one serialized stream ({@code BinaryRowDataSerializer.deserialize}). */
    public static RowBatch deserialized(RowShape shape, int rows, long seed) {
        DataOutputSerializer stream = serialize(shape, rows, seed);
        BinaryRowDataSerializer serializer = new BinaryRowDataSerializer(shape.rowType().getFieldCount());
        DataInputDeserializer in = new DataInputDeserializer(stream.getSharedBuffer(), 0, stream.length());
        RowData[] out = new RowData[rows];
        try {
            for (int i = 0; i < rows; i++) {
                out[i] = serializer.deserialize(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new RowBatch(shape, RowFormat.BINARY, "stream", out);
    }

    /** Rows pointing into one shared buffer, each at its offset in the serialized stream. */
    public static RowBatch packed(RowShape shape, int rows, long seed) {
        DataOutputSerializer stream = serialize(shape, rows, seed);
        MemorySegment all = MemorySegmentFactory.wrap(stream.getCopyOfBuffer());
        int arity = shape.rowType().getFieldCount();
        RowData[] out = new RowData[rows];
        int at = 0;
        for (int i = 0; i < rows; i++) {
            int size = all.getIntBigEndian(at);
            BinaryRowData row = new BinaryRowData(arity);
            row.pointTo(all, at + 4, size);
            out[i] = row;
            at += 4 + size;
        }
        return new RowBatch(shape, RowFormat.BINARY, "packed", out);
    }

    /** Each row as {@code BinaryRowDataSerializer} writes it: a 4-byte big-endian size, then the row's bytes. */
    private static DataOutputSerializer serialize(RowShape shape, int rows, long seed) {
        RowDataSerializer toBinary = new RowDataSerializer(shape.rowType());
        BinaryRowDataSerializer serializer = new BinaryRowDataSerializer(shape.rowType().getFieldCount());
        DataOutputSerializer stream = new DataOutputSerializer(1 << 20);
        try {
            for (int i = 0; i < rows; i++) {
                serializer.serialize(toBinary.toBinaryRow(RowFormat.materializeStrings(shape.row(seed, i))), stream);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return stream;
    }

    public String spec() {
        return shape.name() + "/" + layout;
    }
}
