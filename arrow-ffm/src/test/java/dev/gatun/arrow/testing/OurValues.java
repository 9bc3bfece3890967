package dev.gatun.arrow.testing;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Schema;
import dev.gatun.arrow.vector.BoolVector;
import dev.gatun.arrow.vector.DecimalVector;
import dev.gatun.arrow.vector.FixedSizeBinaryVector;
import dev.gatun.arrow.vector.Float32Vector;
import dev.gatun.arrow.vector.Float64Vector;
import dev.gatun.arrow.vector.Int16Vector;
import dev.gatun.arrow.vector.Int32Vector;
import dev.gatun.arrow.vector.Int64Vector;
import dev.gatun.arrow.vector.Int8Vector;
import dev.gatun.arrow.vector.ListVector;
import dev.gatun.arrow.vector.MapVector;
import dev.gatun.arrow.vector.NullVector;
import dev.gatun.arrow.vector.StructVector;
import dev.gatun.arrow.vector.ValueVector;
import dev.gatun.arrow.vector.VarBinaryVector;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Writes canonical values ({@link TestValues}) into Gatun vectors and reads them back. */
public final class OurValues {
    private OurValues() {}

    /** A sealed batch holding {@code columns} (one canonical value list per field). */
    public static RecordBatch batch(Schema schema, List<List<Object>> columns, int rows) {
        RecordBatch batch = RecordBatch.allocate(schema, rows);
        boolean success = false;
        try {
            for (int r = 0; r < rows; r++) {
                for (int c = 0; c < schema.size(); c++) {
                    write(batch.column(c), r, columns.get(c).get(r));
                }
            }
            batch.seal(rows);
            success = true;
            return batch;
        } finally {
            if (!success) {
                batch.close();
            }
        }
    }

    @SuppressWarnings("unchecked")
    public static void write(ValueVector v, int row, Object value) {
        if (value == null) {
            v.setNull(row);
            return;
        }
        switch (v) {
            case NullVector n -> throw new IllegalArgumentException("non-null value for Null: " + value);
            case BoolVector b -> b.setBoolean(row, (Boolean) value);
            case Int8Vector x -> x.setByte(row, (Byte) value);
            case Int16Vector x -> x.setShort(row, (Short) value);
            case Int32Vector x -> x.setInt(row, (Integer) value);
            case Int64Vector x -> x.setLong(row, (Long) value);
            case Float32Vector x -> x.setFloat(row, (Float) value);
            case Float64Vector x -> x.setDouble(row, (Double) value);
            case DecimalVector x -> x.setDecimal(row, (BigDecimal) value);
            case FixedSizeBinaryVector x -> x.setBytes(row, ((Bin) value).bytes());
            case VarBinaryVector x -> {
                if (x.field().type() instanceof ArrowType.Utf8) {
                    x.setUtf8(row, (String) value);
                } else {
                    x.setBytes(row, ((Bin) value).bytes());
                }
            }
            case MapVector m -> {
                List<List<Object>> entries = (List<List<Object>>) value;
                int base = m.startMap(row, entries.size());
                for (int k = 0; k < entries.size(); k++) {
                    write(m.keys(), base + k, entries.get(k).get(0));
                    write(m.values(), base + k, entries.get(k).get(1));
                }
            }
            case ListVector l -> {
                List<Object> items = (List<Object>) value;
                int base = l.startList(row, items.size());
                for (int k = 0; k < items.size(); k++) {
                    write(l.child(), base + k, items.get(k));
                }
            }
            case StructVector s -> {
                List<Object> fields = (List<Object>) value;
                for (int c = 0; c < s.childCount(); c++) {
                    write(s.child(c), row, fields.get(c));
                }
            }
        }
    }

    public static Object read(ValueVector v, int row) {
        if (v.isNull(row)) {
            return null;
        }
        return switch (v) {
            case NullVector n -> null;
            case BoolVector b -> b.getBoolean(row);
            case Int8Vector x -> x.getByte(row);
            case Int16Vector x -> x.getShort(row);
            case Int32Vector x -> x.getInt(row);
            case Int64Vector x -> x.getLong(row);
            case Float32Vector x -> x.getFloat(row);
            case Float64Vector x -> x.getDouble(row);
            case DecimalVector x -> x.getDecimal(row);
            case FixedSizeBinaryVector x -> new Bin(x.getBytes(row));
            case VarBinaryVector x -> x.field().type() instanceof ArrowType.Utf8 ? x.getUtf8(row) : new Bin(x.getBytes(row));
            case MapVector m -> {
                List<Object> entries = new ArrayList<>();
                for (int k = m.listStart(row); k < m.listEnd(row); k++) {
                    entries.add(Arrays.asList(read(m.keys(), k), read(m.values(), k)));
                }
                yield entries;
            }
            case ListVector l -> {
                List<Object> items = new ArrayList<>();
                for (int k = l.listStart(row); k < l.listEnd(row); k++) {
                    items.add(read(l.child(), k));
                }
                yield items;
            }
            case StructVector s -> {
                List<Object> fields = new ArrayList<>();
                for (int c = 0; c < s.childCount(); c++) {
                    fields.add(read(s.child(c), row));
                }
                yield fields;
            }
        };
    }

    /** Every column of {@code batch} as canonical values. */
    public static List<List<Object>> columns(RecordBatch batch) {
        List<List<Object>> out = new ArrayList<>();
        for (int c = 0; c < batch.columnCount(); c++) {
            List<Object> values = new ArrayList<>();
            for (int r = 0; r < batch.rowCount(); r++) {
                values.add(read(batch.column(c), r));
            }
            out.add(values);
        }
        return out;
    }
}
