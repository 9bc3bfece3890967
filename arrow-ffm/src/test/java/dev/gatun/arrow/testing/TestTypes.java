package dev.gatun.arrow.testing;

import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Field;
import dev.gatun.arrow.types.TimeUnit;
import java.util.List;
import java.util.Map;

/** Fields covering every Arrow type Gatun maps (DESIGN.md section 6), nested ones included. */
public final class TestTypes {
    private TestTypes() {}

    public static Field item(ArrowType type) {
        return Field.nullable("item", type);
    }

    /** One field per type, named after it; every one nullable unless the type forbids. */
    public static List<Field> all() {
        return List.of(
                Field.nullable("null", ArrowType.NULL),
                Field.nullable("bool", ArrowType.BOOL),
                Field.nullable("int8", ArrowType.INT8),
                Field.nullable("int16", ArrowType.INT16),
                Field.nullable("int32", ArrowType.INT32),
                Field.nullable("int64", ArrowType.INT64),
                Field.nullable("float32", ArrowType.FLOAT32),
                Field.nullable("float64", ArrowType.FLOAT64),
                Field.nullable("decimal_38_10", new ArrowType.Decimal128(38, 10)),
                Field.nullable("decimal_38_0", new ArrowType.Decimal128(38, 0)),
                Field.nullable("decimal_10_2", new ArrowType.Decimal128(10, 2)),
                Field.nullable("utf8", ArrowType.UTF8),
                Field.nullable("binary", ArrowType.BINARY).withMetadata(Map.of("gatun.binary.length", "7")),
                Field.nullable("fixed5", new ArrowType.FixedSizeBinary(5)),
                Field.nullable("date32", ArrowType.DATE32),
                Field.nullable("time32_ms", new ArrowType.Time32(TimeUnit.MILLISECOND)),
                Field.nullable("time32_s", new ArrowType.Time32(TimeUnit.SECOND)),
                Field.nullable("ts_ms", new ArrowType.Timestamp(TimeUnit.MILLISECOND, null)),
                Field.nullable("ts_us", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
                Field.nullable("ts_ns", new ArrowType.Timestamp(TimeUnit.NANOSECOND, null)),
                Field.nullable("ts_s_tokyo", new ArrowType.Timestamp(TimeUnit.SECOND, "Asia/Tokyo")),
                Field.nullable("ts_ltz_us", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC")),
                Field.nullable("interval_ym", ArrowType.INTERVAL_YEAR_MONTH),
                Field.nullable("duration_ms", new ArrowType.Duration(TimeUnit.MILLISECOND)),
                Field.nullable("duration_ns", new ArrowType.Duration(TimeUnit.NANOSECOND)),
                Field.notNull("int32_not_null", ArrowType.INT32),
                Field.list("list_int32", true, item(ArrowType.INT32)),
                Field.list("list_utf8", true, item(ArrowType.UTF8)),
                Field.struct("struct", true,
                        Field.nullable("a", ArrowType.INT64),
                        Field.nullable("b", ArrowType.UTF8),
                        Field.struct("inner", true, Field.nullable("flag", ArrowType.BOOL))),
                Field.map("map_utf8_int32", true, ArrowType.UTF8, Field.nullable("value", ArrowType.INT32), false),
                Field.map("map_int32_list", true, ArrowType.INT32,
                        Field.list("value", true, item(ArrowType.UTF8)), false),
                listOfStructOfMap());
    }

    /** The acceptance case List&lt;Struct&lt;Map&gt;&gt;, with a Decimal128(38, 5) value. */
    public static Field listOfStructOfMap() {
        return Field.list("list_struct_map", true, Field.struct("item", true,
                Field.nullable("id", ArrowType.INT32),
                Field.map("attrs", true, ArrowType.UTF8,
                        Field.nullable("value", new ArrowType.Decimal128(38, 5)), false)));
    }
}
