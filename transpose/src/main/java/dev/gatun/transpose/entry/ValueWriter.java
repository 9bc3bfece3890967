package dev.gatun.transpose.entry;

import dev.gatun.arrow.vector.ValueVector;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.RowData;

/**
 * Writes values of one Flink type into one Arrow vector, chosen once per schema. Three sources,
 * one method each, so no per-value type dispatch: a {@link RowData} field, an {@link ArrayData}
 * element (both through getters), and a value in Flink's binary format in a heap {@code byte[]}.
 * Values are written in index order (variable-width and list vectors require it).
 */
abstract class ValueWriter {
    /** Name for failure messages. */
    final String name;
    /** Whether the Arrow field accepts NULL; a NULL for a NOT NULL field fails. */
    final boolean nullable;

    ValueWriter(String name, boolean nullable) {
        this.name = name;
        this.nullable = nullable;
    }

    /** Points this writer (and its children) at the vectors of a new batch. */
    abstract void bind(ValueVector vector);

    final void writeElement(ArrayData array, int i, int index) {
        if (array.isNullAt(i)) {
            writeNull(index);
        } else {
            fromArray(array, i, index);
        }
    }

    final void writeNull(int index) {
        requireNullable();
        setNull(index);
    }

    /** Fails unless the Arrow field accepts NULL. */
    final void requireNullable() {
        if (!nullable) {
            throw new IllegalArgumentException("NULL in NOT NULL field " + name);
        }
    }

    abstract void setNull(int index);

    /** A non-NULL field of a row. */
    abstract void fromRow(RowData row, int pos, int index);

    /** A non-NULL element of an array. */
    abstract void fromArray(ArrayData array, int i, int index);

    /**
     * A non-NULL value in Flink's binary format: the value (or its offset-and-size word) is at
     * {@code at}; word offsets are relative to {@code base}, the start of the enclosing row or array.
     */
    abstract void fromBinary(byte[] mem, int base, int at, int index);
}
