package dev.gatun.transpose.entry;

import dev.gatun.arrow.vector.ListVector;
import dev.gatun.arrow.vector.StructVector;
import dev.gatun.arrow.vector.ValueVector;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryMapData;

/**
 * MAP and MULTISET (element to INT count) into a list of (key, value) entries: an Arrow Map when
 * keys are NOT NULL, a List of Struct otherwise (both a list vector over a struct vector).
 * Entries keep the order of Flink's key and value arrays.
 */
final class MapWriter extends ValueWriter {
    private final ValueWriter key;
    private final ValueWriter value;
    private final int keySize;
    private final int valueSize;
    private ListVector vector;

    MapWriter(String name, boolean nullable, ValueWriter key, int keySize, ValueWriter value, int valueSize) {
        super(name, nullable);
        this.key = key;
        this.value = value;
        this.keySize = keySize;
        this.valueSize = valueSize;
    }

    @Override
    void bind(ValueVector v) {
        vector = (ListVector) v;
        StructVector entries = (StructVector) vector.child();
        key.bind(entries.child(0));
        value.bind(entries.child(1));
    }

    @Override
    void setNull(int index) {
        vector.setNull(index);
    }

    @Override
    void fromRow(RowData row, int pos, int index) {
        write(row.getMap(pos), index);
    }

    @Override
    void fromArray(ArrayData array, int i, int index) {
        write(array.getMap(i), index);
    }

    @Override
    void fromBinary(byte[] mem, int base, int at, int index) {
        writeBinary(mem, FlinkBinary.target(base, FlinkBinary.getLong(mem, at)), index);
    }

    private void write(MapData map, int index) {
        if (map instanceof BinaryMapData binary) {
            byte[] mem = FlinkBinary.heapBytes(binary);
            if (mem != null) {
                writeBinary(mem, binary.getOffset(), index);
                return;
            }
        }
        int n = map.size();
        ArrayData keys = map.keyArray();
        ArrayData values = map.valueArray();
        int start = vector.startList(index, n);
        int i = 0;
        try {
            for (; i < n; i++) {
                key.writeElement(keys, i, start + i);
            }
        } catch (RuntimeException e) {
            throw FieldFailure.at(key.name + "[" + i + "]", e);
        }
        try {
            for (i = 0; i < n; i++) {
                value.writeElement(values, i, start + i);
            }
        } catch (RuntimeException e) {
            throw FieldFailure.at(value.name + "[" + i + "]", e);
        }
    }

    /** A binary map: the byte size of the key array, the key array, the value array. */
    private void writeBinary(byte[] mem, int map, int index) {
        int keys = map + 4;
        int values = keys + FlinkBinary.getInt(mem, map);
        int n = FlinkBinary.arrayElements(mem, keys);
        int start = vector.startList(index, n);
        try {
            ListWriter.writeBinaryElements(mem, keys, n, key, keySize, start);
        } catch (RuntimeException e) {
            throw FieldFailure.at(key.name, e);
        }
        try {
            ListWriter.writeBinaryElements(mem, values, n, value, valueSize, start);
        } catch (RuntimeException e) {
            throw FieldFailure.at(value.name, e);
        }
    }
}
