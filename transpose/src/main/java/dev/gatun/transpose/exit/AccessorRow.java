package dev.gatun.transpose.exit;

import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RawValueData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.types.variant.Variant;

/**
 * A {@link RowData} whose field {@code pos} is value {@link #index} of accessor {@code pos}. The
 * precision and scale arguments of the getters are those of the accessor's type.
 */
abstract class AccessorRow implements RowData {
    final Accessor[] fields;
    int index;

    AccessorRow(Accessor[] fields) {
        this.fields = fields;
    }

    @Override
    public int getArity() {
        return fields.length;
    }

    @Override
    public boolean isNullAt(int pos) {
        return fields[pos].isNull(index);
    }

    @Override
    public boolean getBoolean(int pos) {
        return fields[pos].getBoolean(index);
    }

    @Override
    public byte getByte(int pos) {
        return fields[pos].getByte(index);
    }

    @Override
    public short getShort(int pos) {
        return fields[pos].getShort(index);
    }

    @Override
    public int getInt(int pos) {
        return fields[pos].getInt(index);
    }

    @Override
    public long getLong(int pos) {
        return fields[pos].getLong(index);
    }

    @Override
    public float getFloat(int pos) {
        return fields[pos].getFloat(index);
    }

    @Override
    public double getDouble(int pos) {
        return fields[pos].getDouble(index);
    }

    @Override
    public StringData getString(int pos) {
        return fields[pos].getString(index);
    }

    @Override
    public DecimalData getDecimal(int pos, int precision, int scale) {
        return fields[pos].getDecimal(index);
    }

    @Override
    public TimestampData getTimestamp(int pos, int precision) {
        return fields[pos].getTimestamp(index);
    }

    @Override
    public <T> RawValueData<T> getRawValue(int pos) {
        throw new UnsupportedOperationException("RAW values do not cross the Arrow boundary");
    }

    @Override
    public byte[] getBinary(int pos) {
        return fields[pos].getBinary(index);
    }

    @Override
    public ArrayData getArray(int pos) {
        return fields[pos].getArray(index);
    }

    @Override
    public MapData getMap(int pos) {
        return fields[pos].getMap(index);
    }

    @Override
    public RowData getRow(int pos, int numFields) {
        return fields[pos].getRow(index);
    }

    @Override
    public Variant getVariant(int pos) {
        throw new UnsupportedOperationException("VARIANT values do not cross the Arrow boundary");
    }
}
