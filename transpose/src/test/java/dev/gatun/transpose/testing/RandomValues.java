package dev.gatun.transpose.testing;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.types.RowKind;

/**
 * Random Flink internal values with the edges that break transposes: NULLs everywhere, empty
 * strings/arrays/maps, NUL characters and 4-byte UTF-8, inline (≤ 7 bytes) and long strings,
 * lazy {@code String}-backed strings, DECIMAL at ±(10^p − 1), MIN/MAX of every integer, NaN and
 * −0.0, pre-1970 dates and timestamps, timestamps at the ends of Arrow's nanosecond range, NULL map
 * keys. Timestamp values carry exactly the precision of their type.
 */
public final class RandomValues {
    /** Years 0000-9999, Flink's TIMESTAMP range. */
    static final long MIN_MILLIS = -62_167_219_200_000L;
    static final long MAX_MILLIS = 253_402_300_799_999L;
    /** Whole milliseconds inside Arrow's nanosecond range. */
    static final long MIN_NANO_MILLIS = Math.floorDiv(Long.MIN_VALUE, 1_000_000L);
    static final long MAX_NANO_MILLIS = Math.floorDiv(Long.MAX_VALUE, 1_000_000L);
    private static final String[] STRINGS = {"", "a", "\u0000", "a\u0000b", "é", "中文", "\uD83D\uDE00",
        "\uD800\uDF48x", "1234567", "12345678", "\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000",
        "mixed ascii and \uD83D\uDE00 and \u0000 and 中文 long enough to leave the slot"};

    private final Random random;
    private final int nullPercent;

    public RandomValues(Random random, int nullPercent) {
        this.random = random;
        this.nullPercent = nullPercent;
    }

    public GenericRowData row(RowType type) {
        List<RowType.RowField> fields = type.getFields();
        GenericRowData row = new GenericRowData(RowKind.INSERT, fields.size());
        for (int i = 0; i < fields.size(); i++) {
            row.setField(i, value(fields.get(i).getType()));
        }
        return row;
    }

    public RowKind kind() {
        return RowKind.values()[random.nextInt(4)];
    }

    /** A value of {@code type}: NULL sometimes when the type allows it. */
    public Object value(LogicalType type) {
        if (type.isNullable() && random.nextInt(100) < nullPercent) {
            return null;
        }
        return switch (type.getTypeRoot()) {
            case BOOLEAN -> random.nextBoolean();
            case TINYINT -> (byte) pick(Byte.MIN_VALUE, Byte.MAX_VALUE, random.nextInt());
            case SMALLINT -> (short) pick(Short.MIN_VALUE, Short.MAX_VALUE, random.nextInt());
            case INTEGER, INTERVAL_YEAR_MONTH -> (int) pick(Integer.MIN_VALUE, Integer.MAX_VALUE, random.nextInt());
            case BIGINT, INTERVAL_DAY_TIME -> pick(Long.MIN_VALUE, Long.MAX_VALUE, random.nextLong());
            case FLOAT -> (float) floating();
            case DOUBLE -> floating();
            case DECIMAL -> decimal((DecimalType) type);
            case CHAR, VARCHAR -> string();
            case BINARY, VARBINARY -> bytes();
            case DATE -> (int) pick(-719_528, 2_932_896, random.nextInt(4_000_000) - 2_000_000);
            case TIME_WITHOUT_TIME_ZONE -> (int) pick(0, 86_399_999, random.nextInt(86_400_000));
            case TIMESTAMP_WITHOUT_TIME_ZONE -> timestamp(((TimestampType) type).getPrecision());
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> timestamp(((LocalZonedTimestampType) type).getPrecision());
            case NULL -> null;
            case ARRAY -> array(((ArrayType) type).getElementType());
            case MAP -> map(((MapType) type).getKeyType(), ((MapType) type).getValueType(), false);
            case MULTISET -> map(((MultisetType) type).getElementType(), null, true);
            case ROW -> row((RowType) type);
            default -> throw new IllegalArgumentException("no random values for " + type);
        };
    }

    /** One of the two ends, 0, -1 or the random value. */
    private long pick(long min, long max, long random) {
        return switch (this.random.nextInt(8)) {
            case 0 -> min;
            case 1 -> max;
            case 2 -> 0;
            case 3 -> min < 0 ? -1 : min;
            default -> random;
        };
    }

    private double floating() {
        return switch (random.nextInt(10)) {
            case 0 -> Double.NaN;
            case 1 -> -0.0;
            case 2 -> Double.NEGATIVE_INFINITY;
            case 3 -> Double.MAX_VALUE;
            case 4 -> -Double.MIN_VALUE;
            default -> (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(20) - 5);
        };
    }

    private DecimalData decimal(DecimalType type) {
        int p = type.getPrecision();
        BigInteger max = BigInteger.TEN.pow(p).subtract(BigInteger.ONE);
        BigInteger unscaled = switch (random.nextInt(6)) {
            case 0 -> max;
            case 1 -> max.negate();
            case 2 -> BigInteger.ZERO;
            case 3 -> BigInteger.valueOf(random.nextBoolean() ? 1 : -1);
            default -> {
                BigInteger v = new BigInteger(130, random).mod(BigInteger.TEN.pow(1 + random.nextInt(p)));
                yield random.nextBoolean() ? v : v.negate();
            }
        };
        return DecimalData.fromBigDecimal(new BigDecimal(unscaled, type.getScale()), p, type.getScale());
    }

    private StringData string() {
        String s;
        if (random.nextInt(3) == 0) {
            StringBuilder sb = new StringBuilder();
            int n = random.nextInt(30);
            for (int i = 0; i < n; i++) {
                sb.appendCodePoint(random.nextInt(4) == 0 ? 0x1F300 + random.nextInt(500) : random.nextInt(0x3000));
            }
            s = sb.toString();
        } else {
            s = STRINGS[random.nextInt(STRINGS.length)];
        }
        // Lazy (String only) and materialized (bytes) strings take different paths.
        return random.nextBoolean() ? StringData.fromString(s) : BinaryStringData.fromBytes(s.getBytes(StandardCharsets.UTF_8));
    }

    private byte[] bytes() {
        byte[] b = new byte[random.nextInt(4) == 0 ? 0 : random.nextInt(24)];
        random.nextBytes(b);
        return b;
    }

    private TimestampData timestamp(int precision) {
        long min = precision > 6 ? MIN_NANO_MILLIS : MIN_MILLIS;
        long max = precision > 6 ? MAX_NANO_MILLIS - 1 : MAX_MILLIS;
        if (precision == 9 && random.nextInt(6) == 0) { // the two exact ends of Arrow's ns range
            long ns = random.nextBoolean() ? Long.MAX_VALUE : Long.MIN_VALUE;
            return TimestampData.fromEpochMillis(Math.floorDiv(ns, 1_000_000L), (int) Math.floorMod(ns, 1_000_000L));
        }
        long millis = switch (random.nextInt(6)) {
            case 0 -> min + 1;
            case 1 -> max;
            case 2 -> -1 - random.nextInt(1_000_000); // just before the epoch
            default -> min + (long) (random.nextDouble() * (max - min));
        };
        if (precision <= 3) {
            return TimestampData.fromEpochMillis(millis - Math.floorMod(millis, (long) Math.pow(10, 3 - precision)));
        }
        int nanoOfMilli = random.nextInt(1_000_000);
        return TimestampData.fromEpochMillis(millis, nanoOfMilli - nanoOfMilli % (int) Math.pow(10, 9 - precision));
    }

    private GenericArrayData array(LogicalType element) {
        int n = random.nextInt(4) == 0 ? 0 : random.nextInt(5);
        if (!element.isNullable() && random.nextBoolean()) {
            switch (element.getTypeRoot()) { // primitive-backed arrays take another getter path
                case INTEGER -> {
                    int[] ints = new int[n];
                    for (int i = 0; i < n; i++) {
                        ints[i] = (int) value(element);
                    }
                    return new GenericArrayData(ints);
                }
                case BIGINT -> {
                    long[] longs = new long[n];
                    for (int i = 0; i < n; i++) {
                        longs[i] = (long) value(element);
                    }
                    return new GenericArrayData(longs);
                }
                default -> { }
            }
        }
        Object[] values = new Object[n];
        for (int i = 0; i < n; i++) {
            values[i] = value(element);
        }
        return new GenericArrayData(values);
    }

    /** A map, or a multiset (element to positive count) when {@code valueType} is null. */
    private GenericMapData map(LogicalType keyType, LogicalType valueType, boolean multiset) {
        int n = random.nextInt(4) == 0 ? 0 : random.nextInt(4);
        Map<Object, Object> map = new HashMap<>();
        for (int i = 0; i < n; i++) {
            map.put(value(keyType), multiset ? 1 + random.nextInt(Integer.MAX_VALUE - 1) : value(valueType));
        }
        return new GenericMapData(map);
    }
}
