package dev.gatun.transpose.entry;

import dev.gatun.arrow.vector.ValueVector;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.RowData;

/**
 * The prefix of nested read paths ({@code [i, j, ...]}): reads the ROW field once and hands the
 * selected sub-fields to their own top-level columns. Owns no vector; a NULL row makes every
 * selected column NULL: those that start all NULL by leaving them unwritten, the others
 * ({@code nulls}) one by one.
 */
final class NestedFieldsWriter extends ValueWriter {
    private final RowFields fields;
    /** The selected fields a NULL row marks NULL one by one; null when there are none. */
    private final RowFields nulls;

    NestedFieldsWriter(String name, RowFields fields, RowFields nulls) {
        super(name, true);
        this.fields = fields;
        this.nulls = nulls;
    }

    @Override
    void bind(ValueVector vector) {
        throw new UnsupportedOperationException("the columns under " + name + " are bound directly");
    }

    @Override
    void setNull(int index) {
        if (nulls != null) {
            nulls.writeNulls(index);
        }
    }

    @Override
    void fromRow(RowData row, int pos, int index) {
        fields.write(row.getRow(pos, fields.arity()), index);
    }

    @Override
    void fromArray(ArrayData array, int i, int index) {
        throw new UnsupportedOperationException("read paths do not enter arrays");
    }

    @Override
    void fromBinary(byte[] mem, int base, int at, int index) {
        fields.writeBinary(mem, FlinkBinary.target(base, FlinkBinary.getLong(mem, at)), index);
    }
}
