package dev.gatun.transpose.exit;

import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.MapData;

/** A MAP value: entries {@code [start, start + size)} of a (key, value) struct. */
final class ColumnarMap implements MapData {
    private final Accessor key;
    private final Accessor value;
    private final int start;
    private final int size;

    ColumnarMap(Accessor key, Accessor value, int start, int size) {
        this.key = key;
        this.value = value;
        this.start = start;
        this.size = size;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public ArrayData keyArray() {
        return new ColumnarArray(key, start, size);
    }

    @Override
    public ArrayData valueArray() {
        return new ColumnarArray(value, start, size);
    }
}
