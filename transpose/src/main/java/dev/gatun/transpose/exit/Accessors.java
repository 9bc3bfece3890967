package dev.gatun.transpose.exit;

import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Field;
import java.util.List;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;

/** Chooses the accessor for a Flink type and its Arrow field (from {@code TypeMapping}), once per schema. */
final class Accessors {
    private Accessors() {}

    static Accessor create(LogicalType type, Field field) {
        String name = type.asSummaryString();
        return switch (type.getTypeRoot()) {
            case BOOLEAN -> new PrimitiveAccessors.Bool(name);
            case TINYINT -> new PrimitiveAccessors.Int8(name);
            case SMALLINT -> new PrimitiveAccessors.Int16(name);
            case INTEGER, DATE, TIME_WITHOUT_TIME_ZONE, INTERVAL_YEAR_MONTH -> new PrimitiveAccessors.Int32(name);
            case BIGINT, INTERVAL_DAY_TIME -> new PrimitiveAccessors.Int64(name);
            case FLOAT -> new PrimitiveAccessors.Float32(name);
            case DOUBLE -> new PrimitiveAccessors.Float64(name);
            case DECIMAL -> new ValueAccessors.Decimal(name, ((DecimalType) type).getPrecision(),
                    ((DecimalType) type).getScale());
            case CHAR, VARCHAR, BINARY, VARBINARY -> new ValueAccessors.Bytes(name);
            case TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
                    new ValueAccessors.Timestamp(name, ((ArrowType.Timestamp) field.type()).unit());
            case NULL -> new PrimitiveAccessors.Null(name);
            case ARRAY -> new NestedAccessors.List(name,
                    create(((ArrayType) type).getElementType(), field.child(0)));
            case MAP -> map(name, ((MapType) type).getKeyType(), ((MapType) type).getValueType(), field);
            case MULTISET -> map(name, ((MultisetType) type).getElementType(), new IntType(false), field);
            case ROW -> {
                List<RowType.RowField> fields = ((RowType) type).getFields();
                Accessor[] children = new Accessor[fields.size()];
                for (int j = 0; j < children.length; j++) {
                    children[j] = create(fields.get(j).getType(), field.child(j));
                }
                yield new NestedAccessors.Struct(name, children);
            }
            default -> throw new IllegalArgumentException("no exit accessor for " + name);
        };
    }

    private static Accessor map(String name, LogicalType key, LogicalType value, Field field) {
        Field entries = field.child(0);
        return new NestedAccessors.Map(name, create(key, entries.child(0)), create(value, entries.child(1)));
    }
}
