package dev.gatun.transpose.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Field;
import dev.gatun.arrow.types.TimeUnit;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RawType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.StructuredType;
import org.apache.flink.table.types.logical.ZonedTimestampType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every row of the mapping table in DESIGN.md section 6, and the types that do not map. */
@ExtendWith(LeakCheckExtension.class)
class TypeMappingTest {
    private final TypeMapping types = new TypeMapping(true);

    private static LogicalType t(DataType type) {
        return type.getLogicalType();
    }

    static Stream<Arguments> leaves() {
        return Stream.of(
                Arguments.of(t(DataTypes.TINYINT()), ArrowType.INT8),
                Arguments.of(t(DataTypes.SMALLINT()), ArrowType.INT16),
                Arguments.of(t(DataTypes.INT()), ArrowType.INT32),
                Arguments.of(t(DataTypes.BIGINT()), ArrowType.INT64),
                Arguments.of(t(DataTypes.BOOLEAN()), ArrowType.BOOL),
                Arguments.of(t(DataTypes.FLOAT()), ArrowType.FLOAT32),
                Arguments.of(t(DataTypes.DOUBLE()), ArrowType.FLOAT64),
                Arguments.of(t(DataTypes.DECIMAL(38, 10)), new ArrowType.Decimal128(38, 10)),
                Arguments.of(t(DataTypes.DECIMAL(5, 0)), new ArrowType.Decimal128(5, 0)),
                Arguments.of(t(DataTypes.CHAR(3)), ArrowType.UTF8),
                Arguments.of(t(DataTypes.VARCHAR(10)), ArrowType.UTF8),
                Arguments.of(t(DataTypes.STRING()), ArrowType.UTF8),
                Arguments.of(t(DataTypes.VARBINARY(4)), ArrowType.BINARY),
                Arguments.of(t(DataTypes.BYTES()), ArrowType.BINARY),
                Arguments.of(t(DataTypes.DATE()), ArrowType.DATE32),
                Arguments.of(t(DataTypes.TIME(0)), new ArrowType.Time32(TimeUnit.MILLISECOND)),
                Arguments.of(t(DataTypes.TIME(3)), new ArrowType.Time32(TimeUnit.MILLISECOND)),
                Arguments.of(t(DataTypes.TIMESTAMP(0)), new ArrowType.Timestamp(TimeUnit.MILLISECOND, null)),
                Arguments.of(t(DataTypes.TIMESTAMP(3)), new ArrowType.Timestamp(TimeUnit.MILLISECOND, null)),
                Arguments.of(t(DataTypes.TIMESTAMP(4)), new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
                Arguments.of(t(DataTypes.TIMESTAMP(6)), new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
                Arguments.of(t(DataTypes.TIMESTAMP(7)), new ArrowType.Timestamp(TimeUnit.NANOSECOND, null)),
                Arguments.of(t(DataTypes.TIMESTAMP(9)), new ArrowType.Timestamp(TimeUnit.NANOSECOND, null)),
                Arguments.of(t(DataTypes.TIMESTAMP_LTZ(3)), new ArrowType.Timestamp(TimeUnit.MILLISECOND, "UTC")),
                Arguments.of(t(DataTypes.TIMESTAMP_LTZ(6)), new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC")),
                Arguments.of(t(DataTypes.TIMESTAMP_LTZ(9)), new ArrowType.Timestamp(TimeUnit.NANOSECOND, "UTC")),
                Arguments.of(t(DataTypes.INTERVAL(DataTypes.YEAR(), DataTypes.MONTH())), ArrowType.INTERVAL_YEAR_MONTH),
                Arguments.of(t(DataTypes.INTERVAL(DataTypes.MONTH())), ArrowType.INTERVAL_YEAR_MONTH),
                Arguments.of(t(DataTypes.INTERVAL(DataTypes.DAY(), DataTypes.SECOND(3))),
                        new ArrowType.Duration(TimeUnit.MILLISECOND)),
                Arguments.of(t(DataTypes.NULL()), ArrowType.NULL));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("leaves")
    void leafTypes(LogicalType type, ArrowType arrow) {
        Field f = types.field("x", type);
        assertEquals(arrow, f.type());
        assertEquals("x", f.name());
        assertTrue(f.nullable());
        if (type.getTypeRoot() != LogicalTypeRoot.NULL) {
            assertFalse(types.field("x", type.copy(false)).nullable(), "NOT NULL carries over");
        }
    }

    @Test
    void binaryKeepsItsLengthInMetadata() {
        Field f = types.field("b", t(DataTypes.BINARY(16)));
        assertEquals(ArrowType.BINARY, f.type());
        assertEquals(Map.of(TypeMapping.BINARY_LENGTH, "16"), f.metadata());
    }

    @Test
    void nanosecondTimestampsOnlyWhenEnabled() {
        TypeMapping defaults = TypeMapping.defaults();
        for (LogicalType ts : List.of(t(DataTypes.TIMESTAMP(7)), t(DataTypes.TIMESTAMP(9)), t(DataTypes.TIMESTAMP_LTZ(8)))) {
            TypeMappingException e = assertThrows(TypeMappingException.class, () -> defaults.field("ts", ts));
            assertTrue(e.getMessage().contains("1677-2262"), e.getMessage());
            assertTrue(e.getMessage().contains("ts"), e.getMessage());
            assertSame(ts, e.type());
            assertFalse(defaults.supports(ts));
            assertTrue(types.supports(ts));
        }
        assertTrue(defaults.supports(t(DataTypes.TIMESTAMP(6))));
    }

    @Test
    void arrayIsAList() {
        Field f = types.field("a", t(DataTypes.ARRAY(DataTypes.INT().notNull())));
        assertEquals(ArrowType.LIST, f.type());
        assertEquals(ArrowType.INT32, f.child(0).type());
        assertFalse(f.child(0).nullable());
    }

    @Test
    void mapWithNotNullKeysIsAMap() {
        Field f = types.field("m", t(DataTypes.MAP(DataTypes.STRING().notNull(), DataTypes.DOUBLE())));
        assertEquals(new ArrowType.MapType(false), f.type());
        Field entries = f.child(0);
        assertFalse(entries.nullable());
        assertEquals(List.of("key", "value"), entries.children().stream().map(Field::name).toList());
        assertEquals(ArrowType.UTF8, entries.child(0).type());
        assertEquals(ArrowType.FLOAT64, entries.child(1).type());
        assertTrue(entries.child(1).nullable());
    }

    @Test
    void mapWithNullableKeysIsAListOfEntries() {
        Field f = types.field("m", t(DataTypes.MAP(DataTypes.STRING(), DataTypes.DOUBLE())));
        assertEquals(ArrowType.LIST, f.type());
        assertEquals("true", f.metadata().get(TypeMapping.MAP_AS_ENTRIES));
        Field entries = f.child(0);
        assertEquals(ArrowType.STRUCT, entries.type());
        assertTrue(entries.child(0).nullable(), "NULL keys survive");
    }

    @Test
    void multisetCountsAreNotNullInt32() {
        Field notNullKeys = types.field("s", t(DataTypes.MULTISET(DataTypes.INT().notNull())));
        assertEquals(new ArrowType.MapType(false), notNullKeys.type());
        assertEquals("true", notNullKeys.metadata().get(TypeMapping.MULTISET));
        assertEquals(Field.notNull("value", ArrowType.INT32), notNullKeys.child(0).child(1));
        Field nullableKeys = types.field("s", t(DataTypes.MULTISET(DataTypes.INT())));
        assertEquals(ArrowType.LIST, nullableKeys.type());
        assertEquals("true", nullableKeys.metadata().get(TypeMapping.MULTISET));
        assertEquals("true", nullableKeys.metadata().get(TypeMapping.MAP_AS_ENTRIES));
    }

    @Test
    void rowIsAStructOfNamedFields() {
        RowType row = (RowType) t(DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT()),
                DataTypes.FIELD("b", DataTypes.ROW(DataTypes.FIELD("c", DataTypes.STRING().notNull())))));
        Field f = types.field("r", row);
        assertEquals(ArrowType.STRUCT, f.type());
        assertEquals("a", f.child(0).name());
        assertEquals(ArrowType.STRUCT, f.child(1).type());
        assertEquals(Field.notNull("c", ArrowType.UTF8), f.child(1).child(0));
        assertEquals(List.of(f.child(0), f.child(1)), types.fields(row));
    }

    @Test
    void rowKindColumn() {
        Field f = TypeMapping.rowKindField();
        assertEquals(TypeMapping.ROW_KIND_COLUMN, f.name());
        assertEquals("__gatun_row_kind", f.name());
        assertEquals(ArrowType.INT8, f.type());
        assertFalse(f.nullable());
    }

    static Stream<Arguments> unsupported() {
        return Stream.of(
                Arguments.of(new RawType<>(String.class, StringSerializer.INSTANCE), "RAW"),
                Arguments.of(StructuredType.newBuilder(TypeMappingTest.class).build(), "STRUCTURED_TYPE"),
                Arguments.of(new ZonedTimestampType(3), "TIMESTAMP_WITH_TIME_ZONE"),
                Arguments.of(t(DataTypes.ARRAY(DataTypes.RAW(String.class, StringSerializer.INSTANCE))), "RAW"),
                Arguments.of(t(DataTypes.ROW(DataTypes.FIELD("z", DataTypes.TIMESTAMP_WITH_TIME_ZONE(3)))),
                        "TIMESTAMP_WITH_TIME_ZONE"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("unsupported")
    void unsupportedTypesAreNamed(LogicalType type, String root) {
        TypeMappingException e = assertThrows(TypeMappingException.class, () -> types.field("u", type));
        assertTrue(e.getMessage().contains(root), e.getMessage());
        assertEquals(root, e.type().getTypeRoot().name());
        assertFalse(types.supports(type));
    }
}
