package dev.gatun.transpose.entry;

import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Field;
import java.util.List;
import org.apache.flink.table.data.binary.BinaryArrayData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/** Chooses the writer for a Flink type and its Arrow field (from {@code TypeMapping}), once per schema. */
final class Writers {
    private Writers() {}

    static ValueWriter create(String name, LogicalType type, Field field, BytesWriters.Scratch scratch) {
        boolean nullable = field.nullable();
        return switch (type.getTypeRoot()) {
            case BOOLEAN -> new PrimitiveWriters.Bool(name, nullable);
            case TINYINT -> new PrimitiveWriters.Int8(name, nullable);
            case SMALLINT -> new PrimitiveWriters.Int16(name, nullable);
            case INTEGER, DATE, TIME_WITHOUT_TIME_ZONE, INTERVAL_YEAR_MONTH -> new PrimitiveWriters.Int32(name, nullable);
            case BIGINT, INTERVAL_DAY_TIME -> new PrimitiveWriters.Int64(name, nullable);
            case FLOAT -> new PrimitiveWriters.Float32(name, nullable);
            case DOUBLE -> new PrimitiveWriters.Float64(name, nullable);
            case DECIMAL -> {
                DecimalType d = (DecimalType) type;
                yield d.getPrecision() <= 18
                        ? new DecimalWriters.Compact(name, nullable, d.getPrecision(), d.getScale())
                        : new DecimalWriters.Wide(name, nullable, d.getPrecision(), d.getScale());
            }
            case CHAR, VARCHAR -> new BytesWriters.Utf8(name, nullable, scratch);
            case BINARY, VARBINARY -> new BytesWriters.Binary(name, nullable, scratch);
            case TIMESTAMP_WITHOUT_TIME_ZONE -> TimestampWriters.of(name, nullable,
                    ((TimestampType) type).getPrecision(), ((ArrowType.Timestamp) field.type()).unit());
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> TimestampWriters.of(name, nullable,
                    ((LocalZonedTimestampType) type).getPrecision(), ((ArrowType.Timestamp) field.type()).unit());
            case NULL -> new PrimitiveWriters.Null(name);
            case ARRAY -> {
                LogicalType element = ((ArrayType) type).getElementType();
                yield new ListWriter(name, nullable, create("element", element, field.child(0), scratch),
                        binaryElementSize(element));
            }
            case MAP -> {
                MapType map = (MapType) type;
                yield map(name, nullable, map.getKeyType(), map.getValueType(), field, scratch);
            }
            case MULTISET -> map(name, nullable, ((MultisetType) type).getElementType(),
                    new IntType(false), field, scratch);
            case ROW -> {
                List<RowType.RowField> fields = ((RowType) type).getFields();
                ValueWriter[] children = new ValueWriter[fields.size()];
                for (int j = 0; j < children.length; j++) {
                    RowType.RowField f = fields.get(j);
                    children[j] = create(f.getName(), f.getType(), field.child(j), scratch);
                }
                yield new StructWriter(name, nullable, children);
            }
            default -> throw new IllegalArgumentException("no entry writer for " + type.asSummaryString());
        };
    }

    private static ValueWriter map(String name, boolean nullable, LogicalType keyType, LogicalType valueType,
                                   Field field, BytesWriters.Scratch scratch) {
        Field entries = field.child(0);
        ValueWriter key = create("key", keyType, entries.child(0), scratch);
        ValueWriter value = create("value", valueType, entries.child(1), scratch);
        return new MapWriter(name, nullable, key, binaryElementSize(keyType), value, binaryElementSize(valueType));
    }

    /** Bytes per element in Flink's binary arrays; NULL-typed elements never reach the binary format. */
    private static int binaryElementSize(LogicalType element) {
        return element.getTypeRoot() == LogicalTypeRoot.NULL ? 0 : BinaryArrayData.calculateFixLengthPartSize(element);
    }
}
