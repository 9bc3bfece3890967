package dev.gatun.planner.golden;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatun.arrow.cdata.FormatStrings;
import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Field;
import dev.gatun.transpose.types.TypeMapping;
import java.util.Base64;
import java.util.List;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * The golden JSON encoding of Flink internal values and Arrow fields, read back by
 * native/tests/c_abi/golden.rs. Values are encoded as their Arrow storage: integers for
 * TINYINT..BIGINT, DATE (epoch days), TIME (ms of day), TIMESTAMP[_LTZ] (epoch in the Arrow
 * unit), INTERVAL YEAR TO MONTH (months) and DAY TO SECOND (ms); strings for FLOAT/DOUBLE
 * ({@code Float/Double.toString}, so NaN, infinities and -0.0 survive) and DECIMAL (plain
 * notation); base64 for BINARY; arrays for ARRAY, ROW (positional) and MAP/MULTISET ([key,
 * value] pairs, sorted by key: SQL maps have no order); null for NULL.
 */
final class GoldenValues {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private GoldenValues() {}

    /** An Arrow field: name, C Data format, nullability, flags, metadata, children. */
    static ObjectNode field(Field f) {
        ObjectNode o = JSON.objectNode();
        o.put("name", f.name());
        o.put("format", FormatStrings.of(f.type()));
        o.put("nullable", f.nullable());
        if (f.type() instanceof ArrowType.MapType m && m.keysSorted()) {
            o.put("keys_sorted", true);
        }
        if (!f.metadata().isEmpty()) {
            ObjectNode md = o.putObject("metadata");
            f.metadata().entrySet().stream().sorted(java.util.Map.Entry.comparingByKey())
                    .forEach(e -> md.put(e.getKey(), e.getValue()));
        }
        if (!f.children().isEmpty()) {
            ArrayNode children = o.putArray("children");
            f.children().forEach(c -> children.add(field(c)));
        }
        return o;
    }

    static ArrayNode fields(List<Field> fields) {
        ArrayNode a = JSON.arrayNode();
        fields.forEach(f -> a.add(field(f)));
        return a;
    }

    /** The value at {@code path} of {@code row} (NULL when a ROW on the way is NULL). */
    static JsonNode leaf(RowData row, RowType type, int[] path, TypeMapping types) {
        RowData current = row;
        RowType currentType = type;
        for (int d = 0; d < path.length - 1; d++) {
            if (current.isNullAt(path[d])) {
                return JSON.nullNode();
            }
            RowType inner = (RowType) currentType.getTypeAt(path[d]);
            current = current.getRow(path[d], inner.getFieldCount());
            currentType = inner;
        }
        int last = path[path.length - 1];
        LogicalType leafType = currentType.getTypeAt(last);
        return value(RowData.createFieldGetter(leafType, last).getFieldOrNull(current), leafType, types);
    }

    /** One internal value of type {@code t}. */
    static JsonNode value(Object v, LogicalType t, TypeMapping types) {
        if (v == null) {
            return JSON.nullNode();
        }
        return switch (t.getTypeRoot()) {
            case TINYINT -> JSON.numberNode((Byte) v);
            case SMALLINT -> JSON.numberNode((Short) v);
            case INTEGER, DATE, TIME_WITHOUT_TIME_ZONE, INTERVAL_YEAR_MONTH -> JSON.numberNode((Integer) v);
            case BIGINT, INTERVAL_DAY_TIME -> JSON.numberNode((Long) v);
            case BOOLEAN -> JSON.booleanNode((Boolean) v);
            case FLOAT -> JSON.textNode(Float.toString((Float) v));
            case DOUBLE -> JSON.textNode(Double.toString((Double) v));
            case DECIMAL -> JSON.textNode(((DecimalData) v).toBigDecimal().toPlainString());
            case CHAR, VARCHAR -> JSON.textNode(((StringData) v).toString());
            case BINARY, VARBINARY -> JSON.textNode(Base64.getEncoder().encodeToString((byte[]) v));
            case TIMESTAMP_WITHOUT_TIME_ZONE -> timestamp((TimestampData) v, ((TimestampType) t).getPrecision());
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
                    timestamp((TimestampData) v, ((LocalZonedTimestampType) t).getPrecision());
            case ARRAY -> {
                LogicalType element = ((ArrayType) t).getElementType();
                yield array((ArrayData) v, element, types);
            }
            case MAP -> pairs((MapData) v, ((MapType) t).getKeyType(), ((MapType) t).getValueType(), types);
            case MULTISET -> pairs((MapData) v, ((MultisetType) t).getElementType(),
                    new org.apache.flink.table.types.logical.IntType(false), types);
            case ROW -> {
                RowType row = (RowType) t;
                RowData r = (RowData) v;
                ArrayNode a = JSON.arrayNode();
                for (int i = 0; i < row.getFieldCount(); i++) {
                    a.add(value(RowData.createFieldGetter(row.getTypeAt(i), i).getFieldOrNull(r), row.getTypeAt(i),
                            types));
                }
                yield a;
            }
            case NULL -> JSON.nullNode();
            default -> throw new IllegalArgumentException("no golden encoding for " + t.asSummaryString());
        };
    }

    private static JsonNode timestamp(TimestampData ts, int precision) {
        long millis = ts.getMillisecond();
        long nanos = ts.getNanoOfMillisecond();
        return switch (TypeMapping.timestampUnit(precision)) {
            case MILLISECOND -> JSON.numberNode(millis);
            case MICROSECOND -> JSON.numberNode(Math.multiplyExact(millis, 1_000L) + nanos / 1_000);
            case NANOSECOND -> JSON.numberNode(Math.multiplyExact(millis, 1_000_000L) + nanos);
            default -> throw new IllegalArgumentException("unit of TIMESTAMP(" + precision + ")");
        };
    }

    private static ArrayNode array(ArrayData data, LogicalType element, TypeMapping types) {
        ArrayData.ElementGetter getter = ArrayData.createElementGetter(element);
        ArrayNode a = JSON.arrayNode();
        for (int i = 0; i < data.size(); i++) {
            a.add(value(getter.getElementOrNull(data, i), element, types));
        }
        return a;
    }

    private static ArrayNode pairs(MapData map, LogicalType key, LogicalType value, TypeMapping types) {
        ArrayNode keys = array(map.keyArray(), key, types);
        ArrayNode values = array(map.valueArray(), value, types);
        // SQL maps have no order, and stock Flink's results pass through java.util.HashMap: sorted
        // by key, so that the input order is the order every side produces.
        List<ArrayNode> pairs = new java.util.ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            pairs.add(JSON.arrayNode().add(keys.get(i)).add(values.get(i)));
        }
        pairs.sort(java.util.Comparator.comparing((ArrayNode p) -> p.get(0).isNull() ? "" : "~" + p.get(0)));
        ArrayNode a = JSON.arrayNode();
        pairs.forEach(a::add);
        return a;
    }
}
