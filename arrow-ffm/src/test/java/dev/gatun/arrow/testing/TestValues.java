package dev.gatun.arrow.testing;

import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Field;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Canonical Java values for every type, with edge cases: min/max, NaN, -0.0, Decimal128 at
 * precision 38, negative epochs, nanoseconds, empty and 4-byte UTF-8 and NUL characters.
 *
 * <p>Canonical forms: Bool → Boolean, Int8..64 → Byte/Short/Integer/Long, Float32/64 →
 * Float/Double, Decimal → BigDecimal at the type's scale, Utf8 → String, Binary and
 * FixedSizeBinary → {@link Bin}, 32-bit temporal types → Integer, 64-bit → Long, List →
 * List, Struct → List of child values, Map → List of [key, value] Lists, NULL → null.
 */
public final class TestValues {
    private static final String[] STRINGS = {
        "", "a", "héllo wörld", "😀𝄞 four-byte", "nul\u0000inside", "日本語テキスト",
        "a longer string that goes well past sixteen bytes so that the data buffer has to grow",
    };

    private TestValues() {}

    /** Which rows are NULL. */
    public enum Nulls {
        NONE, ALL, FIRST, LAST, ALTERNATE, RANDOM;

        public boolean isNull(int row, int rows, Random random) {
            return switch (this) {
                case NONE -> false;
                case ALL -> true;
                case FIRST -> row == 0;
                case LAST -> row == rows - 1;
                case ALTERNATE -> row % 2 == 0;
                case RANDOM -> random.nextInt(3) == 0;
            };
        }
    }

    /** {@code rows} values of a column; NULLs per {@code nulls} where the field allows. */
    public static List<Object> column(Field field, int rows, Nulls nulls, Random random) {
        List<Object> out = new ArrayList<>(rows);
        for (int r = 0; r < rows; r++) {
            boolean isNull = field.type() instanceof ArrowType.Null
                    || (field.nullable() && nulls.isNull(r, rows, random));
            out.add(isNull ? null : value(field, r, random));
        }
        return out;
    }

    /** A non-null value; {@code row} cycles through the edge cases first. */
    public static Object value(Field field, int row, Random random) {
        return switch (field.type()) {
            case ArrowType.Null n -> null;
            case ArrowType.Bool b -> row % 3 == 0 || random.nextBoolean();
            case ArrowType.Int i -> integer(i.bitWidth(), row, random);
            case ArrowType.FloatingPoint f -> f.bitWidth() == 32
                    ? pick(row, random, new Float[] {Float.NaN, -0.0f, Float.MAX_VALUE, Float.MIN_VALUE,
                            Float.NEGATIVE_INFINITY, 1.5f}, () -> random.nextFloat() * 1e6f - 5e5f)
                    : pick(row, random, new Double[] {Double.NaN, -0.0, Double.MAX_VALUE, Double.MIN_VALUE,
                            Double.POSITIVE_INFINITY, -2.25}, () -> random.nextGaussian() * 1e12);
            case ArrowType.Decimal128 d -> decimal(d, row, random);
            case ArrowType.Utf8 u -> row < STRINGS.length ? STRINGS[row] : randomString(random);
            case ArrowType.Binary b -> new Bin(bytes(row == 0 ? 0 : random.nextInt(40), random));
            case ArrowType.FixedSizeBinary f -> new Bin(bytes(f.byteWidth(), random));
            case ArrowType.Date32 d -> pick(row, random, new Integer[] {0, -719162, 2932896, -1}, () -> random.nextInt(100_000) - 50_000);
            case ArrowType.Time32 t -> t.unit() == dev.gatun.arrow.types.TimeUnit.SECOND
                    ? pick(row, random, new Integer[] {0, 86399}, () -> random.nextInt(86400))
                    : pick(row, random, new Integer[] {0, 86_399_999}, () -> random.nextInt(86_400_000));
            case ArrowType.IntervalYearMonth m -> pick(row, random, new Integer[] {0, -14, Integer.MAX_VALUE}, random::nextInt);
            case ArrowType.Timestamp t -> pick(row, random,
                    new Long[] {0L, -1L, -62_135_596_800_000L, 253_402_300_799_999L, -9_223_372_036_854_775_807L},
                    random::nextLong);
            case ArrowType.Duration d -> pick(row, random, new Long[] {0L, -1L, Long.MAX_VALUE}, random::nextLong);
            case ArrowType.ListType l -> {
                int size = row == 0 ? 0 : random.nextInt(4);
                List<Object> items = new ArrayList<>(size);
                Field child = field.child(0);
                for (int k = 0; k < size; k++) {
                    items.add(child.nullable() && random.nextInt(4) == 0 ? null : value(child, row + k + 1, random));
                }
                yield items;
            }
            case ArrowType.StructType s -> {
                List<Object> values = new ArrayList<>();
                for (Field c : field.children()) {
                    values.add(c.nullable() && random.nextInt(4) == 0 ? null : value(c, row, random));
                }
                yield values;
            }
            case ArrowType.MapType m -> {
                int size = row == 0 ? 0 : random.nextInt(4);
                Field key = field.child(0).child(0);
                Field val = field.child(0).child(1);
                List<Object> entries = new ArrayList<>(size);
                for (int k = 0; k < size; k++) {
                    Object v = val.nullable() && random.nextInt(4) == 0 ? null : value(val, row + k + 1, random);
                    entries.add(Arrays.asList(value(key, row + k + 1, random), v));
                }
                yield entries;
            }
        };
    }

    private static Object integer(int bits, int row, Random random) {
        long min = bits == 64 ? Long.MIN_VALUE : -(1L << (bits - 1));
        long max = bits == 64 ? Long.MAX_VALUE : (1L << (bits - 1)) - 1;
        long v = switch (row) {
            case 0 -> min;
            case 1 -> max;
            case 2 -> 0;
            case 3 -> -1;
            default -> bits == 64 ? random.nextLong() : random.nextLong(min, max + 1);
        };
        return switch (bits) {
            case 8 -> (byte) v;
            case 16 -> (short) v;
            case 32 -> (int) v;
            default -> v;
        };
    }

    private static BigDecimal decimal(ArrowType.Decimal128 d, int row, Random random) {
        BigInteger max = BigInteger.TEN.pow(d.precision()).subtract(BigInteger.ONE);
        BigInteger unscaled = switch (row) {
            case 0 -> max;
            case 1 -> max.negate();
            case 2 -> BigInteger.ZERO;
            case 3 -> BigInteger.valueOf(-1);
            default -> new BigInteger(d.precision() * 3, random).mod(max.add(BigInteger.ONE))
                    .multiply(BigInteger.valueOf(random.nextBoolean() ? 1 : -1));
        };
        return new BigDecimal(unscaled, d.scale());
    }

    @SafeVarargs
    private static <T> T pick(int row, Random random, T[] edges, java.util.function.Supplier<T>... generator) {
        return row < edges.length ? edges[row] : generator[0].get();
    }

    private static String randomString(Random random) {
        StringBuilder sb = new StringBuilder();
        int n = random.nextInt(24);
        for (int i = 0; i < n; i++) {
            int kind = random.nextInt(10);
            if (kind < 6) {
                sb.append((char) ('a' + random.nextInt(26)));
            } else if (kind < 8) {
                sb.append((char) (0xC0 + random.nextInt(0x300)));
            } else {
                sb.appendCodePoint(0x1F300 + random.nextInt(0x200));
            }
        }
        return sb.toString();
    }

    private static byte[] bytes(int n, Random random) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }
}
