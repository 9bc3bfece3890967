package dev.gatun.transpose;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.arrow.testing.RustRoundTrip;
import dev.gatun.transpose.entry.BatchWriter;
import dev.gatun.transpose.testing.RowForms;
import dev.gatun.transpose.testing.Transposes;
import dev.gatun.transpose.types.TypeMapping;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.UnaryOperator;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every edge the issue names, each certainly present (the property test only makes them likely):
 * MIN/MAX of each integer, NaN and −0.0, DECIMAL(38, x) at both ends, NUL and 4-byte UTF-8 in
 * inline and long strings, empty strings/arrays/maps, NULL map keys, pre-1970 and year 0/9999
 * values, TIMESTAMP(9) at both ends of Arrow's range, nesting three levels deep.
 */
@ExtendWith(LeakCheckExtension.class)
class EdgeValuesTest {
    private static final long NS_MAX_MILLIS = Math.floorDiv(Long.MAX_VALUE, 1_000_000L);
    private static final long NS_MIN_MILLIS = Math.floorDiv(Long.MIN_VALUE, 1_000_000L);

    private final TypeMapping types = new TypeMapping(true);
    private final List<DataTypes.Field> fields = new ArrayList<>();
    private final List<List<Object>> edges = new ArrayList<>();

    private void field(String name, DataType type, Object... values) {
        fields.add(DataTypes.FIELD(name, type));
        List<Object> list = new ArrayList<>(Arrays.asList(values));
        if (type.getLogicalType().isNullable()) {
            list.add(null);
        }
        edges.add(list);
    }

    private RowType type() {
        return (RowType) DataTypes.ROW(fields.toArray(DataTypes.Field[]::new)).getLogicalType();
    }

    private List<GenericRowData> rows() {
        int n = edges.stream().mapToInt(List::size).max().orElse(0);
        List<GenericRowData> rows = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            GenericRowData row = new GenericRowData(RowKind.values()[k % 4], edges.size());
            for (int f = 0; f < edges.size(); f++) {
                row.setField(f, edges.get(f).get(k % edges.get(f).size()));
            }
            rows.add(row);
        }
        return rows;
    }

    private static StringData lazy(String s) {
        return StringData.fromString(s);
    }

    private static StringData bytes(String s) {
        return BinaryStringData.fromBytes(s.getBytes(StandardCharsets.UTF_8));
    }

    private static DecimalData decimal(int p, int s, BigInteger unscaled) {
        return DecimalData.fromBigDecimal(new BigDecimal(unscaled, s), p, s);
    }

    private static Object[] decimalEdges(int p, int s) {
        BigInteger max = BigInteger.TEN.pow(p).subtract(BigInteger.ONE);
        return new Object[] {decimal(p, s, max), decimal(p, s, max.negate()), decimal(p, s, BigInteger.ZERO),
            decimal(p, s, BigInteger.ONE), decimal(p, s, BigInteger.ONE.negate())};
    }

    private static TimestampData ts(LocalDateTime t) {
        return TimestampData.fromLocalDateTime(t);
    }

    private static Map<Object, Object> map(Object... keyValues) {
        Map<Object, Object> map = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            map.put(keyValues[i], keyValues[i + 1]);
        }
        return map;
    }

    private void everyEdge() {
        field("i8", DataTypes.TINYINT(), Byte.MIN_VALUE, Byte.MAX_VALUE, (byte) 0, (byte) -1);
        field("i16", DataTypes.SMALLINT(), Short.MIN_VALUE, Short.MAX_VALUE, (short) 0, (short) -1);
        field("i32", DataTypes.INT().notNull(), Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1);
        field("i64", DataTypes.BIGINT(), Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L);
        field("f32", DataTypes.FLOAT(), Float.NaN, -0.0f, Float.NEGATIVE_INFINITY, Float.MIN_VALUE, Float.MAX_VALUE);
        field("f64", DataTypes.DOUBLE(), Double.NaN, -0.0, Double.POSITIVE_INFINITY, -Double.MIN_VALUE);
        field("bool", DataTypes.BOOLEAN(), true, false);
        field("d38_0", DataTypes.DECIMAL(38, 0), decimalEdges(38, 0));
        field("d38_38", DataTypes.DECIMAL(38, 38), decimalEdges(38, 38));
        field("d38_10", DataTypes.DECIMAL(38, 10), decimalEdges(38, 10));
        field("d18_4", DataTypes.DECIMAL(18, 4), decimalEdges(18, 4));
        field("d19_2", DataTypes.DECIMAL(19, 2), decimalEdges(19, 2));
        field("d1_0", DataTypes.DECIMAL(1, 0), decimalEdges(1, 0));
        field("s", DataTypes.STRING(), lazy(""), bytes(""), lazy("\u0000"), bytes("a\u0000b"), lazy("\uD83D\uDE00"),
                bytes("\uD800\uDF48\uD83D\uDE00\u0000 and a long tail past the inline size"), lazy("中文é"));
        field("c", DataTypes.CHAR(3), lazy("abc"), bytes("\u0000\u0000\u0000"));
        field("bin", DataTypes.BINARY(4), new byte[4], new byte[] {-1, 0, 1, 127});
        field("vb", DataTypes.BYTES(), new byte[0], new byte[] {0}, new byte[300]);
        field("date", DataTypes.DATE(), -719_528, 2_932_896, -1, 0);
        field("time", DataTypes.TIME(3), 0, 86_399_999);
        field("ts0", DataTypes.TIMESTAMP(0), ts(LocalDateTime.of(0, 1, 1, 0, 0)), ts(LocalDateTime.of(9999, 12, 31, 23, 59, 59)),
                ts(LocalDateTime.of(1969, 12, 31, 23, 59, 59)));
        field("ts3", DataTypes.TIMESTAMP(3), ts(LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_000_000)),
                ts(LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_000_000)), TimestampData.fromEpochMillis(-1));
        field("ts6", DataTypes.TIMESTAMP(6), ts(LocalDateTime.of(1, 1, 1, 0, 0, 0, 1_000)),
                ts(LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000)), TimestampData.fromEpochMillis(-1, 999_000));
        field("ts9", DataTypes.TIMESTAMP(9), TimestampData.fromEpochMillis(NS_MAX_MILLIS, 775_807),
                TimestampData.fromEpochMillis(NS_MIN_MILLIS, 224_192), TimestampData.fromEpochMillis(-1, 1),
                ts(LocalDateTime.of(1677, 9, 22, 0, 0, 0, 1)));
        field("ltz3", DataTypes.TIMESTAMP_LTZ(3), TimestampData.fromEpochMillis(-86_400_001));
        field("ltz6", DataTypes.TIMESTAMP_LTZ(6), TimestampData.fromEpochMillis(-2, 1_000));
        field("ltz9", DataTypes.TIMESTAMP_LTZ(9), TimestampData.fromEpochMillis(NS_MIN_MILLIS, 224_192),
                TimestampData.fromEpochMillis(-1, 999_999));
        field("ym", DataTypes.INTERVAL(DataTypes.YEAR(), DataTypes.MONTH()), Integer.MIN_VALUE, Integer.MAX_VALUE);
        field("dt", DataTypes.INTERVAL(DataTypes.DAY(), DataTypes.SECOND(3)), Long.MIN_VALUE, Long.MAX_VALUE);
        field("arr", DataTypes.ARRAY(DataTypes.STRING()), new GenericArrayData(new Object[0]),
                new GenericArrayData(new Object[] {null}), new GenericArrayData(new Object[] {lazy(""), bytes("\u0000")}));
        field("map", DataTypes.MAP(DataTypes.STRING(), DataTypes.INT()), new GenericMapData(map()),
                new GenericMapData(map(null, 1)), new GenericMapData(map(lazy("a"), null, null, null)));
        field("mapnn", DataTypes.MAP(DataTypes.INT().notNull(), DataTypes.ARRAY(DataTypes.INT())),
                new GenericMapData(map()), new GenericMapData(map(Integer.MIN_VALUE, new GenericArrayData(new int[0]))),
                new GenericMapData(map(0, null)));
        field("bag", DataTypes.MULTISET(DataTypes.STRING()), new GenericMapData(map(null, 3)),
                new GenericMapData(map()), new GenericMapData(map(lazy("\uD83D\uDE00"), Integer.MAX_VALUE)));
        DataType inner = DataTypes.ROW(DataTypes.FIELD("x", DataTypes.TIMESTAMP(9)),
                DataTypes.FIELD("y", DataTypes.ARRAY(DataTypes.DECIMAL(38, 2))));
        DecimalData dmax = (DecimalData) decimalEdges(38, 2)[0];
        field("deep", DataTypes.ROW(DataTypes.FIELD("a", DataTypes.ARRAY(DataTypes.MAP(DataTypes.STRING().notNull(), inner)))),
                GenericRowData.of(new GenericArrayData(new Object[] {
                    new GenericMapData(map(lazy("k"), GenericRowData.of(TimestampData.fromEpochMillis(NS_MIN_MILLIS, 224_192),
                            new GenericArrayData(new Object[] {dmax, null})))),
                    null, new GenericMapData(map())})),
                GenericRowData.of((Object) null));
    }

    @ParameterizedTest
    @EnumSource(RowForms.class)
    void everyEdgeRoundTrips(RowForms form) {
        everyEdge();
        roundTrip(form, b -> b);
    }

    @Test
    void everyEdgeRoundTripsThroughArrowRs() {
        everyEdge();
        roundTrip(RowForms.GENERIC, RustRoundTrip::roundTrip);
        roundTrip(RowForms.BINARY_HEAP, RustRoundTrip::roundTrip);
    }

    private void roundTrip(RowForms form, UnaryOperator<RecordBatch> exchange) {
        RowType type = type();
        List<GenericRowData> rows = rows();
        Random random = new Random(7);
        List<RowData> inputs = new ArrayList<>();
        for (GenericRowData r : rows) {
            inputs.add(form.convert(r, type, random));
        }
        try (NativeAllocator allocator = Transposes.allocator("edges");
             BatchWriter writer = new BatchWriter(type, Transposes.allFields(type), types, 3, false, allocator)) {
            Transposes.assertBatches(type, types, Transposes.writeAll(writer, inputs), rows, exchange, "edges " + form);
        }
    }
}
