package dev.gatun.transpose.types;

import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Field;
import dev.gatun.arrow.types.TimeUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BinaryType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * The one place that maps Flink logical types to Arrow fields (DESIGN.md section 6). Both
 * transposes and the planner's admission use it; a type it cannot map comes back as
 * {@link TypeMappingException} naming the type.
 */
public final class TypeMapping {
    /** Name of the Int8 column carrying {@code RowKind.toByteValue()}; always the last column. */
    public static final String ROW_KIND_COLUMN = "__gatun_row_kind";
    /** Field metadata: the declared length of a Flink BINARY(n) column. */
    public static final String BINARY_LENGTH = "gatun.binary.length";
    /** Field metadata on a List<Struct<key, value>> that carries a Flink MAP with nullable keys. */
    public static final String MAP_AS_ENTRIES = "gatun.map.entries";
    /** Field metadata on the Arrow encoding of a Flink MULTISET (element to Int32 count). */
    public static final String MULTISET = "gatun.multiset";

    private final boolean nanosecondTimestamps;

    /**
     * @param nanosecondTimestamps map TIMESTAMP(7..9) to Timestamp(ns); off by default because
     *     Arrow nanoseconds only cover the years 1677-2262 while Flink allows 0000-9999
     */
    public TypeMapping(boolean nanosecondTimestamps) {
        this.nanosecondTimestamps = nanosecondTimestamps;
    }

    public static TypeMapping defaults() {
        return new TypeMapping(false);
    }

    public boolean nanosecondTimestamps() {
        return nanosecondTimestamps;
    }

    /** The Arrow schema fields of a Flink row type, one per top-level field. */
    public List<Field> fields(RowType row) {
        List<Field> fields = new ArrayList<>(row.getFieldCount());
        for (RowType.RowField f : row.getFields()) {
            fields.add(field(f.getName(), f.getType()));
        }
        return fields;
    }

    /** The row-kind sidecar column: Int8, NOT NULL, named {@value #ROW_KIND_COLUMN}. */
    public static Field rowKindField() {
        return Field.notNull(ROW_KIND_COLUMN, ArrowType.INT8);
    }

    /** The Arrow field for one Flink type, or {@link TypeMappingException} naming what is unsupported. */
    public Field field(String name, LogicalType type) {
        boolean nullable = type.isNullable();
        return switch (type.getTypeRoot()) {
            case TINYINT -> leaf(name, ArrowType.INT8, nullable);
            case SMALLINT -> leaf(name, ArrowType.INT16, nullable);
            case INTEGER -> leaf(name, ArrowType.INT32, nullable);
            case BIGINT -> leaf(name, ArrowType.INT64, nullable);
            case BOOLEAN -> leaf(name, ArrowType.BOOL, nullable);
            case FLOAT -> leaf(name, ArrowType.FLOAT32, nullable);
            case DOUBLE -> leaf(name, ArrowType.FLOAT64, nullable);
            case DECIMAL -> {
                DecimalType d = (DecimalType) type;
                yield leaf(name, new ArrowType.Decimal128(d.getPrecision(), d.getScale()), nullable);
            }
            case CHAR, VARCHAR -> leaf(name, ArrowType.UTF8, nullable);
            case BINARY -> new Field(name, ArrowType.BINARY, nullable, List.of(),
                    Map.of(BINARY_LENGTH, Integer.toString(((BinaryType) type).getLength())));
            case VARBINARY -> leaf(name, ArrowType.BINARY, nullable);
            case DATE -> leaf(name, ArrowType.DATE32, nullable);
            case TIME_WITHOUT_TIME_ZONE -> leaf(name, new ArrowType.Time32(TimeUnit.MILLISECOND), nullable);
            case TIMESTAMP_WITHOUT_TIME_ZONE -> leaf(name,
                    new ArrowType.Timestamp(timestampUnit(name, type, ((TimestampType) type).getPrecision()), null),
                    nullable);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> leaf(name, new ArrowType.Timestamp(
                    timestampUnit(name, type, ((LocalZonedTimestampType) type).getPrecision()), "UTC"), nullable);
            case INTERVAL_YEAR_MONTH -> leaf(name, ArrowType.INTERVAL_YEAR_MONTH, nullable);
            case INTERVAL_DAY_TIME -> leaf(name, new ArrowType.Duration(TimeUnit.MILLISECOND), nullable);
            case ARRAY -> Field.list(name, nullable, field("element", ((ArrayType) type).getElementType()));
            case MAP -> map(name, (MapType) type);
            case MULTISET -> multiset(name, (MultisetType) type);
            case ROW -> {
                RowType row = (RowType) type;
                yield new Field(name, ArrowType.STRUCT, nullable, fields(row), Map.of());
            }
            case NULL -> leaf(name, ArrowType.NULL, true);
            default -> throw new TypeMappingException(type, "field " + name + ": type " + type.asSummaryString()
                    + " (" + type.getTypeRoot() + ") has no Arrow mapping in Gatun");
        };
    }

    /** True if every field of the row type maps. */
    public boolean supports(LogicalType type) {
        try {
            field("probe", type);
            return true;
        } catch (TypeMappingException e) {
            return false;
        }
    }

    /** The Arrow unit of a TIMESTAMP or TIMESTAMP_LTZ of {@code precision} (ns only when enabled). */
    public static TimeUnit timestampUnit(int precision) {
        return precision <= 3 ? TimeUnit.MILLISECOND : precision <= 6 ? TimeUnit.MICROSECOND : TimeUnit.NANOSECOND;
    }

    private TimeUnit timestampUnit(String name, LogicalType type, int precision) {
        TimeUnit unit = timestampUnit(precision);
        if (unit == TimeUnit.NANOSECOND && !nanosecondTimestamps) {
            throw new TypeMappingException(type, "field " + name + ": " + type.asSummaryString()
                    + ": precision " + precision + " needs Arrow nanoseconds, which only cover the years 1677-2262;"
                    + " enable gatun.types.nanosecond-timestamps to run it natively");
        }
        return unit;
    }

    private Field map(String name, MapType type) {
        LogicalType key = type.getKeyType();
        Field value = field("value", type.getValueType());
        return entries(name, type.isNullable(), key, value);
    }

    /**
     * Map when the key is NOT NULL; otherwise a List<Struct<key, value>> marked
     * {@link #MAP_AS_ENTRIES}, because Arrow map keys cannot be NULL and Flink's can.
     */
    private Field entries(String name, boolean nullable, LogicalType key, Field value) {
        Field keyField = field("key", key);
        Field entry = Field.struct("entries", false, keyField, value);
        if (!key.isNullable()) {
            return new Field(name, new ArrowType.MapType(false), nullable, List.of(entry), Map.of());
        }
        return new Field(name, ArrowType.LIST, nullable, List.of(entry), Map.of(MAP_AS_ENTRIES, "true"));
    }

    private Field multiset(String name, MultisetType type) {
        Field count = Field.notNull("value", ArrowType.INT32);
        Field mapped = entries(name, type.isNullable(), type.getElementType(), count);
        Map<String, String> metadata = new HashMap<>(mapped.metadata());
        metadata.put(MULTISET, "true");
        return mapped.withMetadata(metadata);
    }

    private static Field leaf(String name, ArrowType type, boolean nullable) {
        return new Field(name, type, nullable, List.of(), Map.of());
    }
}
