package dev.gatun.transpose.entry;

import dev.gatun.arrow.vector.StructVector;
import dev.gatun.arrow.vector.ValueVector;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.RowData;

/** A whole ROW into a Struct: every field, each with its own writer. */
final class StructWriter extends ValueWriter {
    private final ValueWriter[] children;
    private final RowFields fields;
    private StructVector vector;

    StructWriter(String name, boolean nullable, ValueWriter[] children) {
        super(name, nullable);
        this.children = children.clone();
        int[] positions = new int[children.length];
        for (int j = 0; j < positions.length; j++) {
            positions[j] = j;
        }
        this.fields = new RowFields(children.length, positions, children);
    }

    @Override
    void bind(ValueVector v) {
        vector = (StructVector) v;
        for (int j = 0; j < children.length; j++) {
            children[j].bind(vector.child(j));
        }
    }

    @Override
    void setNull(int index) {
        vector.setNull(index); // also NULLs every child at index
    }

    @Override
    void fromRow(RowData row, int pos, int index) {
        fields.write(row.getRow(pos, children.length), index);
    }

    @Override
    void fromArray(ArrayData array, int i, int index) {
        fields.write(array.getRow(i, children.length), index);
    }

    @Override
    void fromBinary(byte[] mem, int base, int at, int index) {
        fields.writeBinary(mem, FlinkBinary.target(base, FlinkBinary.getLong(mem, at)), index);
    }
}
