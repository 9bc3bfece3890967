package dev.gatun.transpose.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.HexFormat;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Row equality under Flink's own serializers: both rows are written by {@code RowDataSerializer}
 * into Flink's binary format and compared byte for byte (values, NULLs, row kind, nested data);
 * failures show both rows rendered value by value.
 */
public final class RowAssertions {
    private RowAssertions() {}

    public static void assertRowEquals(RowType type, RowData expected, RowData actual, String context) {
        BinaryRowData e = RowForms.binary(expected, type);
        BinaryRowData a = RowForms.binary(actual, type);
        if (!e.equals(a)) {
            fail(context + "\n  expected " + render(type, expected) + "\n  actual   " + render(type, actual)
                    + "\n  type     " + type.asSummaryString());
        }
    }

    public static String render(RowType type, RowData row) {
        return row.getRowKind().shortString() + render((LogicalType) type, row);
    }

    /** A readable rendering of an internal value of {@code type}. */
    public static String render(LogicalType type, Object value) {
        if (value == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder();
        switch (type.getTypeRoot()) {
            case ROW -> {
                RowType row = (RowType) type;
                RowData r = (RowData) value;
                sb.append('(');
                for (int i = 0; i < row.getFieldCount(); i++) {
                    Object f = RowData.createFieldGetter(row.getTypeAt(i), i).getFieldOrNull(r);
                    sb.append(i == 0 ? "" : ", ").append(render(row.getTypeAt(i), f));
                }
                sb.append(')');
            }
            case ARRAY -> {
                LogicalType element = ((ArrayType) type).getElementType();
                ArrayData a = (ArrayData) value;
                sb.append('[');
                for (int i = 0; i < a.size(); i++) {
                    Object e = ArrayData.createElementGetter(element).getElementOrNull(a, i);
                    sb.append(i == 0 ? "" : ", ").append(render(element, e));
                }
                sb.append(']');
            }
            case MAP, MULTISET -> {
                LogicalType key = type instanceof MapType m ? m.getKeyType() : ((MultisetType) type).getElementType();
                LogicalType val = type instanceof MapType m ? m.getValueType() : new IntType(false);
                MapData m = (MapData) value;
                sb.append('{');
                for (int i = 0; i < m.size(); i++) {
                    Object k = ArrayData.createElementGetter(key).getElementOrNull(m.keyArray(), i);
                    Object v = ArrayData.createElementGetter(val).getElementOrNull(m.valueArray(), i);
                    sb.append(i == 0 ? "" : ", ").append(render(key, k)).append('=').append(render(val, v));
                }
                sb.append('}');
            }
            default -> {
                if (value instanceof StringData s) {
                    sb.append('\'').append(s.toString().replace("\u0000", "\\0")).append('\'');
                } else if (value instanceof byte[] b) {
                    sb.append("x'").append(HexFormat.of().formatHex(b)).append('\'');
                } else {
                    sb.append(value);
                }
            }
        }
        return sb.toString();
    }
}
