package dev.gatun.transpose.entry;

import dev.gatun.arrow.vector.ListVector;
import dev.gatun.arrow.vector.ValueVector;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryArrayData;

/** ARRAY into List: the elements go to the child vector through the element's writer. */
final class ListWriter extends ValueWriter {
    private final ValueWriter element;
    /** Bytes per element in a Flink binary array. */
    private final int elementSize;
    private ListVector vector;

    ListWriter(String name, boolean nullable, ValueWriter element, int elementSize) {
        super(name, nullable);
        this.element = element;
        this.elementSize = elementSize;
    }

    @Override
    void bind(ValueVector v) {
        vector = (ListVector) v;
        element.bind(vector.child());
    }

    @Override
    void setNull(int index) {
        vector.setNull(index);
    }

    @Override
    void fromRow(RowData row, int pos, int index) {
        write(row.getArray(pos), index);
    }

    @Override
    void fromArray(ArrayData array, int i, int index) {
        write(array.getArray(i), index);
    }

    @Override
    void fromBinary(byte[] mem, int base, int at, int index) {
        writeBinary(mem, FlinkBinary.target(base, FlinkBinary.getLong(mem, at)), index);
    }

    private void write(ArrayData array, int index) {
        if (array instanceof BinaryArrayData binary) {
            byte[] mem = FlinkBinary.heapBytes(binary);
            if (mem != null) {
                writeBinary(mem, binary.getOffset(), index);
                return;
            }
        }
        int n = array.size();
        int start = vector.startList(index, n);
        int i = 0;
        try {
            for (; i < n; i++) {
                element.writeElement(array, i, start + i);
            }
        } catch (RuntimeException e) {
            throw FieldFailure.at("[" + i + "]", e);
        }
    }

    private void writeBinary(byte[] mem, int array, int index) {
        int n = FlinkBinary.arrayElements(mem, array);
        int start = vector.startList(index, n);
        writeBinaryElements(mem, array, n, element, elementSize, start);
    }

    /** Writes the {@code n} elements of the binary array at {@code array} from child index {@code start}. */
    static void writeBinaryElements(byte[] mem, int array, int n, ValueWriter writer, int size, int start) {
        int nullBits = array + 4;
        int data = FlinkBinary.arrayData(array, n);
        int i = 0;
        try {
            for (; i < n; i++) {
                if (FlinkBinary.isNull(mem, nullBits, i)) {
                    writer.writeNull(start + i);
                } else {
                    writer.fromBinary(mem, array, data + i * size, start + i);
                }
            }
        } catch (RuntimeException e) {
            throw FieldFailure.at("[" + i + "]", e);
        }
    }
}
