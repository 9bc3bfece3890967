package dev.gatun.transpose.entry;

import dev.gatun.arrow.vector.BoolVector;
import dev.gatun.arrow.vector.Float32Vector;
import dev.gatun.arrow.vector.Float64Vector;
import dev.gatun.arrow.vector.Int16Vector;
import dev.gatun.arrow.vector.Int32Vector;
import dev.gatun.arrow.vector.Int64Vector;
import dev.gatun.arrow.vector.Int8Vector;
import dev.gatun.arrow.vector.ValueVector;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.RowData;

/** Writers of values Flink and Arrow both store as one fixed-width primitive. */
final class PrimitiveWriters {
    private PrimitiveWriters() {}

    static final class Bool extends ValueWriter {
        private BoolVector vector;

        Bool(String name, boolean nullable) {
            super(name, nullable);
        }

        @Override
        void bind(ValueVector v) {
            vector = (BoolVector) v;
        }

        @Override
        void setNull(int index) {
            vector.setNull(index);
        }

        @Override
        void fromRow(RowData row, int pos, int index) {
            vector.setBoolean(index, row.getBoolean(pos));
        }

        @Override
        void fromArray(ArrayData array, int i, int index) {
            vector.setBoolean(index, array.getBoolean(i));
        }

        @Override
        void fromBinary(byte[] mem, int base, int at, int index) {
            vector.setBoolean(index, mem[at] != 0);
        }
    }

    /** TINYINT. */
    static final class Int8 extends ValueWriter {
        private Int8Vector vector;

        Int8(String name, boolean nullable) {
            super(name, nullable);
        }

        @Override
        void bind(ValueVector v) {
            vector = (Int8Vector) v;
        }

        @Override
        void setNull(int index) {
            vector.setNull(index);
        }

        @Override
        void fromRow(RowData row, int pos, int index) {
            vector.setByte(index, row.getByte(pos));
        }

        @Override
        void fromArray(ArrayData array, int i, int index) {
            vector.setByte(index, array.getByte(i));
        }

        @Override
        void fromBinary(byte[] mem, int base, int at, int index) {
            vector.setByte(index, mem[at]);
        }
    }

    /** SMALLINT. */
    static final class Int16 extends ValueWriter {
        private Int16Vector vector;

        Int16(String name, boolean nullable) {
            super(name, nullable);
        }

        @Override
        void bind(ValueVector v) {
            vector = (Int16Vector) v;
        }

        @Override
        void setNull(int index) {
            vector.setNull(index);
        }

        @Override
        void fromRow(RowData row, int pos, int index) {
            vector.setShort(index, row.getShort(pos));
        }

        @Override
        void fromArray(ArrayData array, int i, int index) {
            vector.setShort(index, array.getShort(i));
        }

        @Override
        void fromBinary(byte[] mem, int base, int at, int index) {
            vector.setShort(index, FlinkBinary.getShort(mem, at));
        }
    }

    /** INT, DATE (days), TIME (milliseconds of the day), INTERVAL YEAR TO MONTH (months). */
    static final class Int32 extends ValueWriter {
        private Int32Vector vector;

        Int32(String name, boolean nullable) {
            super(name, nullable);
        }

        @Override
        void bind(ValueVector v) {
            vector = (Int32Vector) v;
        }

        @Override
        void setNull(int index) {
            vector.setNull(index);
        }

        @Override
        void fromRow(RowData row, int pos, int index) {
            vector.setInt(index, row.getInt(pos));
        }

        @Override
        void fromArray(ArrayData array, int i, int index) {
            vector.setInt(index, array.getInt(i));
        }

        @Override
        void fromBinary(byte[] mem, int base, int at, int index) {
            vector.setInt(index, FlinkBinary.getInt(mem, at));
        }
    }

    /** BIGINT, INTERVAL DAY TO SECOND (milliseconds). */
    static final class Int64 extends ValueWriter {
        private Int64Vector vector;

        Int64(String name, boolean nullable) {
            super(name, nullable);
        }

        @Override
        void bind(ValueVector v) {
            vector = (Int64Vector) v;
        }

        @Override
        void setNull(int index) {
            vector.setNull(index);
        }

        @Override
        void fromRow(RowData row, int pos, int index) {
            vector.setLong(index, row.getLong(pos));
        }

        @Override
        void fromArray(ArrayData array, int i, int index) {
            vector.setLong(index, array.getLong(i));
        }

        @Override
        void fromBinary(byte[] mem, int base, int at, int index) {
            vector.setLong(index, FlinkBinary.getLong(mem, at));
        }
    }

    static final class Float32 extends ValueWriter {
        private Float32Vector vector;

        Float32(String name, boolean nullable) {
            super(name, nullable);
        }

        @Override
        void bind(ValueVector v) {
            vector = (Float32Vector) v;
        }

        @Override
        void setNull(int index) {
            vector.setNull(index);
        }

        @Override
        void fromRow(RowData row, int pos, int index) {
            vector.setFloat(index, row.getFloat(pos));
        }

        @Override
        void fromArray(ArrayData array, int i, int index) {
            vector.setFloat(index, array.getFloat(i));
        }

        @Override
        void fromBinary(byte[] mem, int base, int at, int index) {
            vector.setFloat(index, FlinkBinary.getFloat(mem, at));
        }
    }

    static final class Float64 extends ValueWriter {
        private Float64Vector vector;

        Float64(String name, boolean nullable) {
            super(name, nullable);
        }

        @Override
        void bind(ValueVector v) {
            vector = (Float64Vector) v;
        }

        @Override
        void setNull(int index) {
            vector.setNull(index);
        }

        @Override
        void fromRow(RowData row, int pos, int index) {
            vector.setDouble(index, row.getDouble(pos));
        }

        @Override
        void fromArray(ArrayData array, int i, int index) {
            vector.setDouble(index, array.getDouble(i));
        }

        @Override
        void fromBinary(byte[] mem, int base, int at, int index) {
            vector.setDouble(index, FlinkBinary.getDouble(mem, at));
        }
    }

    /** The NULL type: every value is NULL and nothing is read. */
    static final class Null extends ValueWriter {
        private ValueVector vector;

        Null(String name) {
            super(name, true);
        }

        @Override
        void bind(ValueVector v) {
            vector = v;
        }

        @Override
        void setNull(int index) {
            vector.setNull(index);
        }

        @Override
        void fromRow(RowData row, int pos, int index) {
            vector.setNull(index);
        }

        @Override
        void fromArray(ArrayData array, int i, int index) {
            vector.setNull(index);
        }

        @Override
        void fromBinary(byte[] mem, int base, int at, int index) {
            vector.setNull(index);
        }
    }
}
