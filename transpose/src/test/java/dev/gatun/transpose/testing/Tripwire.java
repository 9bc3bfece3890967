package dev.gatun.transpose.testing;

import java.util.Map;
import java.util.Set;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RawValueData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.types.RowKind;
import org.apache.flink.types.variant.Variant;

/**
 * A row whose fields outside {@code spec.readable} throw on any access, even {@code isNullAt}; a
 * ROW field with a nested spec is itself wrapped.
 */
public final class Tripwire implements RowData {
    /** The fields that may be read, and the specs of nested ROW fields (others are not wrapped). */
    public record Spec(Set<Integer> readable, Map<Integer, Spec> nested) {
        public static Spec of(Set<Integer> readable) {
            return new Spec(readable, Map.of());
        }
    }

    private final RowData row;
    private final Spec spec;

    public Tripwire(RowData row, Spec spec) {
        this.row = row;
        this.spec = spec;
    }

    private int check(int pos) {
        if (!spec.readable().contains(pos)) {
            throw new IllegalStateException("unread field " + pos + " was read");
        }
        return pos;
    }

    @Override
    public int getArity() {
        return row.getArity();
    }

    @Override
    public RowKind getRowKind() {
        return row.getRowKind();
    }

    @Override
    public void setRowKind(RowKind kind) {
        row.setRowKind(kind);
    }

    @Override
    public boolean isNullAt(int pos) {
        return row.isNullAt(check(pos));
    }

    @Override
    public boolean getBoolean(int pos) {
        return row.getBoolean(check(pos));
    }

    @Override
    public byte getByte(int pos) {
        return row.getByte(check(pos));
    }

    @Override
    public short getShort(int pos) {
        return row.getShort(check(pos));
    }

    @Override
    public int getInt(int pos) {
        return row.getInt(check(pos));
    }

    @Override
    public long getLong(int pos) {
        return row.getLong(check(pos));
    }

    @Override
    public float getFloat(int pos) {
        return row.getFloat(check(pos));
    }

    @Override
    public double getDouble(int pos) {
        return row.getDouble(check(pos));
    }

    @Override
    public StringData getString(int pos) {
        return row.getString(check(pos));
    }

    @Override
    public DecimalData getDecimal(int pos, int precision, int scale) {
        return row.getDecimal(check(pos), precision, scale);
    }

    @Override
    public TimestampData getTimestamp(int pos, int precision) {
        return row.getTimestamp(check(pos), precision);
    }

    @Override
    public <T> RawValueData<T> getRawValue(int pos) {
        return row.getRawValue(check(pos));
    }

    @Override
    public byte[] getBinary(int pos) {
        return row.getBinary(check(pos));
    }

    @Override
    public ArrayData getArray(int pos) {
        return row.getArray(check(pos));
    }

    @Override
    public MapData getMap(int pos) {
        return row.getMap(check(pos));
    }

    @Override
    public RowData getRow(int pos, int numFields) {
        RowData inner = row.getRow(check(pos), numFields);
        Spec inside = spec.nested().get(pos);
        return inside == null || inner == null ? inner : new Tripwire(inner, inside);
    }

    @Override
    public Variant getVariant(int pos) {
        return row.getVariant(check(pos));
    }
}
