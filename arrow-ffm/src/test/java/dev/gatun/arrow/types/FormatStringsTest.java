package dev.gatun.arrow.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.cdata.ArrowFormatException;
import dev.gatun.arrow.cdata.FormatStrings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Format strings of every type (C Data Interface spec), both ways, and model validation. */
class FormatStringsTest {
    private static final Map<ArrowType, String> EXPECTED = Map.ofEntries(
            Map.entry(ArrowType.NULL, "n"), Map.entry(ArrowType.BOOL, "b"),
            Map.entry(ArrowType.INT8, "c"), Map.entry(ArrowType.INT16, "s"), Map.entry(ArrowType.INT32, "i"),
            Map.entry(ArrowType.INT64, "l"), Map.entry(ArrowType.FLOAT32, "f"), Map.entry(ArrowType.FLOAT64, "g"),
            Map.entry(new ArrowType.Decimal128(38, 10), "d:38,10"), Map.entry(ArrowType.UTF8, "u"),
            Map.entry(ArrowType.BINARY, "z"), Map.entry(new ArrowType.FixedSizeBinary(16), "w:16"),
            Map.entry(ArrowType.DATE32, "tdD"), Map.entry(new ArrowType.Time32(TimeUnit.MILLISECOND), "ttm"),
            Map.entry(new ArrowType.Time32(TimeUnit.SECOND), "tts"),
            Map.entry(new ArrowType.Timestamp(TimeUnit.NANOSECOND, null), "tsn:"),
            Map.entry(new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC"), "tsu:UTC"),
            Map.entry(new ArrowType.Timestamp(TimeUnit.MILLISECOND, "Europe/Paris"), "tsm:Europe/Paris"),
            Map.entry(ArrowType.INTERVAL_YEAR_MONTH, "tiM"), Map.entry(new ArrowType.Duration(TimeUnit.MILLISECOND), "tDm"),
            Map.entry(new ArrowType.Duration(TimeUnit.NANOSECOND), "tDn"), Map.entry(ArrowType.LIST, "+l"),
            Map.entry(ArrowType.STRUCT, "+s"), Map.entry(new ArrowType.MapType(false), "+m"));

    @Test
    void everyTypeBothWays() {
        EXPECTED.forEach((type, format) -> {
            assertEquals(format, FormatStrings.of(type));
            assertEquals(type, FormatStrings.parse(format, 0, "f"));
        });
        assertEquals(new ArrowType.MapType(true), FormatStrings.parse("+m", 4, "f"));
        assertEquals(new ArrowType.Decimal128(10, 2), FormatStrings.parse("d:10,2,128", 0, "f"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "x", "d:39,1", "d:10,2,256", "w:-1", "w:", "ttu", "tsx:", "tDq", "+w:4", "ii", "d:a,1"})
    void invalidOrUnsupportedFormatsAreRejectedWithTheirName(String format) {
        ArrowFormatException e = assertThrows(ArrowFormatException.class, () -> FormatStrings.parse(format, 0, "schema.format"));
        assertEquals("schema.format", e.where());
        assertTrue(e.getMessage().contains("format"), e.getMessage());
    }

    @Test
    void fieldsCheckTheirChildren() {
        assertThrows(IllegalArgumentException.class, () -> new Field("l", ArrowType.LIST, true, List.of(), Map.of()));
        assertThrows(IllegalArgumentException.class, () -> new Field("i", ArrowType.INT32, true,
                List.of(Field.nullable("x", ArrowType.INT32)), Map.of()));
        Field entries = Field.struct("entries", false, Field.nullable("key", ArrowType.UTF8), Field.nullable("value", ArrowType.UTF8));
        assertThrows(IllegalArgumentException.class, () -> new Field("m", new ArrowType.MapType(false), true, List.of(entries), Map.of()),
                "map keys must be non-nullable");
        assertThrows(IllegalArgumentException.class, () -> new ArrowType.Decimal128(39, 0));
        assertThrows(IllegalArgumentException.class, () -> new ArrowType.Time32(TimeUnit.NANOSECOND));
    }
}
