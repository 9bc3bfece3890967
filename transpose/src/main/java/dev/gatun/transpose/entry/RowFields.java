package dev.gatun.transpose.entry;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySection;
import org.apache.flink.table.data.binary.NestedRowData;

/**
 * Writes selected fields of a row, each with its own writer; fields not selected are never read.
 * A row in Flink's binary format that lies in one heap segment is read in place (null bits and
 * slots); any other row goes through its getters.
 */
final class RowFields {
    private final int arity;
    private final int[] positions;
    private final ValueWriter[] writers;
    /** Offset of each selected slot from the start of a binary row. */
    private final int[] slots;
    private final FieldCalls calls;

    RowFields(int arity, int[] positions, ValueWriter[] writers) {
        if (positions.length != writers.length) {
            throw new IllegalArgumentException(positions.length + " positions for " + writers.length + " writers");
        }
        this.arity = arity;
        this.positions = positions.clone();
        this.writers = writers.clone();
        this.calls = FieldCalls.forWriters(this.writers);
        this.slots = new int[positions.length];
        int fixed = BinaryRowData.calculateBitSetWidthInBytes(arity);
        for (int k = 0; k < positions.length; k++) {
            if (positions[k] < 0 || positions[k] >= arity) {
                throw new IllegalArgumentException("field " + positions[k] + " outside a row of " + arity);
            }
            slots[k] = fixed + 8 * positions[k];
        }
    }

    int arity() {
        return arity;
    }

    void write(RowData row, int index) {
        byte[] mem = inPlace(row);
        if (mem != null) {
            writeBinary(mem, ((BinarySection) row).getOffset(), index);
        } else {
            writeFields(row, index);
        }
    }

    /** The heap bytes of {@code row} when it is a binary row of this arity that can be read in place, else null. */
    byte[] inPlace(RowData row) {
        if (!(row instanceof BinaryRowData || row instanceof NestedRowData)) {
            return null;
        }
        byte[] mem = FlinkBinary.heapBytes((BinarySection) row);
        if (mem != null && row.getArity() != arity) {
            throw new IllegalArgumentException("a binary row of " + row.getArity() + " fields where " + arity
                    + " are expected");
        }
        return mem;
    }

    /** Through the getters. */
    void writeFields(RowData row, int index) {
        calls.fields(writers, positions, row, index);
    }

    void writeBinary(byte[] mem, int row, int index) {
        calls.binary(writers, positions, slots, mem, row, index);
    }

    /** Every selected field NULL (the row itself is NULL). */
    void writeNulls(int index) {
        calls.nulls(writers, index);
    }
}
