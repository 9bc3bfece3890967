package dev.gatun.transpose.exit;

import dev.gatun.arrow.vector.ValueVector;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;

/**
 * Reads the values of one Arrow vector by index as Flink internal data; one subclass per Flink
 * type, chosen once per schema and re-bound to each batch. Reads go through the vector's segments,
 * so any read after the batch is released throws {@link IllegalStateException}.
 */
abstract class Accessor {
    private final String flinkType;

    Accessor(String flinkType) {
        this.flinkType = flinkType;
    }

    abstract void bind(ValueVector vector);

    abstract boolean isNull(int i);

    boolean getBoolean(int i) {
        throw wrong("BOOLEAN");
    }

    byte getByte(int i) {
        throw wrong("TINYINT");
    }

    short getShort(int i) {
        throw wrong("SMALLINT");
    }

    int getInt(int i) {
        throw wrong("INT");
    }

    long getLong(int i) {
        throw wrong("BIGINT");
    }

    float getFloat(int i) {
        throw wrong("FLOAT");
    }

    double getDouble(int i) {
        throw wrong("DOUBLE");
    }

    StringData getString(int i) {
        throw wrong("STRING");
    }

    byte[] getBinary(int i) {
        throw wrong("BINARY");
    }

    DecimalData getDecimal(int i) {
        throw wrong("DECIMAL");
    }

    TimestampData getTimestamp(int i) {
        throw wrong("TIMESTAMP");
    }

    ArrayData getArray(int i) {
        throw wrong("ARRAY");
    }

    MapData getMap(int i) {
        throw wrong("MAP");
    }

    RowData getRow(int i) {
        throw wrong("ROW");
    }

    private UnsupportedOperationException wrong(String asked) {
        return new UnsupportedOperationException("a " + asked + " getter on a value of type " + flinkType);
    }
}
