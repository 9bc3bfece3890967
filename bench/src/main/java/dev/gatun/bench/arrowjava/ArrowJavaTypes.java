package dev.gatun.bench.arrowjava;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/** Flink → Arrow Java types for the benchmark row shapes, following Gatun's type mapping. */
public final class ArrowJavaTypes {
    private ArrowJavaTypes() {}

    /** The schema of the {@code selected} fields of {@code type}, in that order. */
    public static Schema schema(RowType type, int[] selected) {
        List<Field> fields = new ArrayList<>(selected.length);
        for (int pos : selected) {
            RowType.RowField field = type.getFields().get(pos);
            fields.add(new Field(field.getName(), FieldType.nullable(arrowType(field.getType())), null));
        }
        return new Schema(fields);
    }

    static ArrowType arrowType(LogicalType type) {
        return switch (type.getTypeRoot()) {
            case TINYINT -> new ArrowType.Int(8, true);
            case SMALLINT -> new ArrowType.Int(16, true);
            case INTEGER -> new ArrowType.Int(32, true);
            case BIGINT -> new ArrowType.Int(64, true);
            case BOOLEAN -> ArrowType.Bool.INSTANCE;
            case FLOAT -> new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
            case DOUBLE -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
            case DECIMAL -> {
                DecimalType d = (DecimalType) type;
                yield new ArrowType.Decimal(d.getPrecision(), d.getScale(), 128);
            }
            case CHAR, VARCHAR -> ArrowType.Utf8.INSTANCE;
            case DATE -> new ArrowType.Date(DateUnit.DAY);
            case TIMESTAMP_WITHOUT_TIME_ZONE -> {
                if (((TimestampType) type).getPrecision() > 3) {
                    throw new UnsupportedOperationException("benchmark shapes use TIMESTAMP(3) only: " + type);
                }
                yield new ArrowType.Timestamp(TimeUnit.MILLISECOND, null);
            }
            default -> throw new UnsupportedOperationException("no Arrow Java mapping in bench for " + type);
        };
    }
}
