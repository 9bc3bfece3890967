package dev.gatun.planner.substrait;

import dev.gatun.transpose.types.TypeMapping;
import io.substrait.proto.Type;
import io.substrait.proto.Type.Nullability;
import java.util.List;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * Flink logical types as Substrait types, encoded the way datafusion-substrait reads them back
 * into the Arrow types of {@link TypeMapping} (table in native/admission/README.md).
 */
final class SubstraitTypes {
    /** Type variation of {@code interval_day} that datafusion-substrait reads as Arrow Duration. */
    private static final int DURATION_VARIATION = 1;

    private SubstraitTypes() {}

    static Type of(LogicalType t) {
        Nullability n = t.isNullable() ? Nullability.NULLABILITY_NULLABLE : Nullability.NULLABILITY_REQUIRED;
        Type.Builder b = Type.newBuilder();
        switch (t.getTypeRoot()) {
            case TINYINT -> b.setI8(Type.I8.newBuilder().setNullability(n));
            case SMALLINT -> b.setI16(Type.I16.newBuilder().setNullability(n));
            case INTEGER -> b.setI32(Type.I32.newBuilder().setNullability(n));
            case BIGINT -> b.setI64(Type.I64.newBuilder().setNullability(n));
            case BOOLEAN -> b.setBool(Type.Boolean.newBuilder().setNullability(n));
            case FLOAT -> b.setFp32(Type.FP32.newBuilder().setNullability(n));
            case DOUBLE -> b.setFp64(Type.FP64.newBuilder().setNullability(n));
            case DECIMAL -> {
                DecimalType d = (DecimalType) t;
                b.setDecimal(Type.Decimal.newBuilder().setPrecision(d.getPrecision()).setScale(d.getScale())
                        .setNullability(n));
            }
            case CHAR, VARCHAR -> b.setString(Type.String.newBuilder().setNullability(n));
            case BINARY, VARBINARY -> b.setBinary(Type.Binary.newBuilder().setNullability(n));
            case DATE -> b.setDate(Type.Date.newBuilder().setNullability(n));
            case TIME_WITHOUT_TIME_ZONE -> b.setPrecisionTime(
                    Type.PrecisionTime.newBuilder().setPrecision(3).setNullability(n));
            case TIMESTAMP_WITHOUT_TIME_ZONE -> b.setPrecisionTimestamp(Type.PrecisionTimestamp.newBuilder()
                    .setPrecision(unitDigits(((TimestampType) t).getPrecision())).setNullability(n));
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> b.setPrecisionTimestampTz(Type.PrecisionTimestampTZ.newBuilder()
                    .setPrecision(unitDigits(((LocalZonedTimestampType) t).getPrecision())).setNullability(n));
            case INTERVAL_YEAR_MONTH -> b.setIntervalYear(Type.IntervalYear.newBuilder().setNullability(n));
            case INTERVAL_DAY_TIME -> b.setIntervalDay(Type.IntervalDay.newBuilder().setPrecision(3)
                    .setTypeVariationReference(DURATION_VARIATION).setNullability(n));
            case ARRAY -> b.setList(Type.List.newBuilder().setType(of(((ArrayType) t).getElementType()))
                    .setNullability(n));
            case MAP -> entries(b, ((MapType) t).getKeyType(), of(((MapType) t).getValueType()), n);
            case MULTISET -> entries(b, ((MultisetType) t).getElementType(),
                    Type.newBuilder().setI32(Type.I32.newBuilder().setNullability(Nullability.NULLABILITY_REQUIRED))
                            .build(), n);
            case ROW -> {
                Type.Struct.Builder s = Type.Struct.newBuilder().setNullability(n);
                for (LogicalType field : ((RowType) t).getChildren()) {
                    s.addTypes(of(field));
                }
                b.setStruct(s);
            }
            default -> throw new NotAdmittedException("type " + t.asSummaryString() + " has no Substrait encoding");
        }
        return b.build();
    }

    /** Map when the key is NOT NULL, else a list of (key, value) structs, as TypeMapping does. */
    private static void entries(Type.Builder b, LogicalType key, Type value, Nullability n) {
        if (!key.isNullable()) {
            b.setMap(Type.Map.newBuilder().setKey(of(key)).setValue(value).setNullability(n));
        } else {
            Type entry = Type.newBuilder().setStruct(Type.Struct.newBuilder().addTypes(of(key)).addTypes(value)
                    .setNullability(Nullability.NULLABILITY_REQUIRED)).build();
            b.setList(Type.List.newBuilder().setType(entry).setNullability(n));
        }
    }

    /** The names a NamedStruct lists for a field of type {@code t} below its own name, depth-first. */
    /**
     * The short type name of a Substrait function signature ({@code sum:i64}, {@code max:vchar} ...),
     * {@code any} for types without one. Rust reads only the name before the colon.
     */
    static String signatureName(LogicalType t) {
        return switch (t.getTypeRoot()) {
            case TINYINT -> "i8";
            case SMALLINT -> "i16";
            case INTEGER -> "i32";
            case BIGINT -> "i64";
            case BOOLEAN -> "bool";
            case FLOAT -> "fp32";
            case DOUBLE -> "fp64";
            case DECIMAL -> "dec";
            case CHAR, VARCHAR -> "str";
            case BINARY, VARBINARY -> "vbin";
            case DATE -> "date";
            case TIME_WITHOUT_TIME_ZONE -> "pt";
            case TIMESTAMP_WITHOUT_TIME_ZONE -> "pts";
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> "ptstz";
            default -> "any";
        };
    }

    static void nestedNames(LogicalType t, List<String> out) {
        switch (t.getTypeRoot()) {
            case ROW -> {
                RowType row = (RowType) t;
                for (RowType.RowField f : row.getFields()) {
                    out.add(f.getName());
                    nestedNames(f.getType(), out);
                }
            }
            case ARRAY -> nestedNames(((ArrayType) t).getElementType(), out);
            case MAP -> {
                MapType m = (MapType) t;
                entryNames(m.getKeyType(), m.getValueType(), out);
            }
            case MULTISET -> entryNames(((MultisetType) t).getElementType(), null, out);
            default -> { }
        }
    }

    private static void entryNames(LogicalType key, LogicalType value, List<String> out) {
        boolean asList = key.isNullable();
        if (asList) {
            out.add("key");
        }
        nestedNames(key, out);
        if (asList) {
            out.add("value");
        }
        if (value != null) {
            nestedNames(value, out);
        }
    }

    private static int unitDigits(int precision) {
        return precision <= 3 ? 3 : precision <= 6 ? 6 : 9;
    }
}
