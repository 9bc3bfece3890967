package dev.gatun.transpose.exit;

import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RawValueData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.types.variant.Variant;

/** An ARRAY value: elements {@code [start, start + size)} of a list's child vector. */
final class ColumnarArray implements ArrayData {
    private final Accessor element;
    private final int start;
    private final int size;

    ColumnarArray(Accessor element, int start, int size) {
        this.element = element;
        this.start = start;
        this.size = size;
    }

    @Override
    public int size() {
        return size;
    }

    private int at(int pos) {
        if (pos < 0 || pos >= size) {
            throw new IndexOutOfBoundsException("element " + pos + " of an array of " + size);
        }
        return start + pos;
    }

    @Override
    public boolean isNullAt(int pos) {
        return element.isNull(at(pos));
    }

    @Override
    public boolean getBoolean(int pos) {
        return element.getBoolean(at(pos));
    }

    @Override
    public byte getByte(int pos) {
        return element.getByte(at(pos));
    }

    @Override
    public short getShort(int pos) {
        return element.getShort(at(pos));
    }

    @Override
    public int getInt(int pos) {
        return element.getInt(at(pos));
    }

    @Override
    public long getLong(int pos) {
        return element.getLong(at(pos));
    }

    @Override
    public float getFloat(int pos) {
        return element.getFloat(at(pos));
    }

    @Override
    public double getDouble(int pos) {
        return element.getDouble(at(pos));
    }

    @Override
    public StringData getString(int pos) {
        return element.getString(at(pos));
    }

    @Override
    public DecimalData getDecimal(int pos, int precision, int scale) {
        return element.getDecimal(at(pos));
    }

    @Override
    public TimestampData getTimestamp(int pos, int precision) {
        return element.getTimestamp(at(pos));
    }

    @Override
    public <T> RawValueData<T> getRawValue(int pos) {
        throw new UnsupportedOperationException("RAW values do not cross the Arrow boundary");
    }

    @Override
    public Variant getVariant(int pos) {
        throw new UnsupportedOperationException("VARIANT values do not cross the Arrow boundary");
    }

    @Override
    public byte[] getBinary(int pos) {
        return element.getBinary(at(pos));
    }

    @Override
    public ArrayData getArray(int pos) {
        return element.getArray(at(pos));
    }

    @Override
    public MapData getMap(int pos) {
        return element.getMap(at(pos));
    }

    @Override
    public RowData getRow(int pos, int numFields) {
        return element.getRow(at(pos));
    }

    // Flink's contract for toXxxArray: primitive arrays without NULL elements.

    @Override
    public boolean[] toBooleanArray() {
        boolean[] out = new boolean[size];
        for (int i = 0; i < size; i++) {
            out[i] = element.getBoolean(start + i);
        }
        return out;
    }

    @Override
    public byte[] toByteArray() {
        byte[] out = new byte[size];
        for (int i = 0; i < size; i++) {
            out[i] = element.getByte(start + i);
        }
        return out;
    }

    @Override
    public short[] toShortArray() {
        short[] out = new short[size];
        for (int i = 0; i < size; i++) {
            out[i] = element.getShort(start + i);
        }
        return out;
    }

    @Override
    public int[] toIntArray() {
        int[] out = new int[size];
        for (int i = 0; i < size; i++) {
            out[i] = element.getInt(start + i);
        }
        return out;
    }

    @Override
    public long[] toLongArray() {
        long[] out = new long[size];
        for (int i = 0; i < size; i++) {
            out[i] = element.getLong(start + i);
        }
        return out;
    }

    @Override
    public float[] toFloatArray() {
        float[] out = new float[size];
        for (int i = 0; i < size; i++) {
            out[i] = element.getFloat(start + i);
        }
        return out;
    }

    @Override
    public double[] toDoubleArray() {
        double[] out = new double[size];
        for (int i = 0; i < size; i++) {
            out[i] = element.getDouble(start + i);
        }
        return out;
    }
}
