package dev.gatun.planner.testing;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Random;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;

/**
 * Random values in Flink's internal forms, edge cases first-class: each generator returns an
 * edge value (NULL, MIN/MAX, 0, -1, NaN, ±Inf, -0.0, DECIMAL(38) limits, empty strings, NUL,
 * 4-byte UTF-8, long strings, pre-1970 and far-future instants) about half the time.
 */
public final class RandomRows {
    /** Years 0001-01-01 and 9999-12-31 as epoch days: Flink's DATE range. */
    static final int MIN_DAY = -719_162;
    static final int MAX_DAY = 2_932_896;
    private static final long MIN_MILLIS = MIN_DAY * 86_400_000L;
    private static final long MAX_MILLIS = (MAX_DAY + 1) * 86_400_000L - 1;

    private static final String[] FRAGMENTS = {
        "", "a", "A", "b", "abc", " ", "  ", "\t", "ß", "ς", "Σ", "ΌΣΟΣ", "İ", "ı", "ﬁ", "é", "E\u0301", "\u0000",
        "😀", "𝄞", "日本", "%", "_", "!", "\\", "-", "+", ".", "0", "1", "12", "007", "9", "e", "E3", "NaN",
        "Infinity", "true", "FALSE", "x", "Z", "ǅ", "\u00A0",
    };
    private static final String LONG = "long-" + "αβγ😀xyz".repeat(60);

    private final Random random;

    public RandomRows(long seed) {
        this.random = new Random(seed);
    }

    public Random random() {
        return random;
    }

    private boolean edge() {
        return random.nextBoolean();
    }

    /** NULL with probability 1/10. */
    public boolean isNull() {
        return random.nextInt(10) == 0;
    }

    public Byte tinyint() {
        return isNull() ? null : (byte) integer(Byte.MIN_VALUE, Byte.MAX_VALUE);
    }

    public Short smallint() {
        return isNull() ? null : (short) integer(Short.MIN_VALUE, Short.MAX_VALUE);
    }

    public Integer integer() {
        return isNull() ? null : (int) integer(Integer.MIN_VALUE, Integer.MAX_VALUE);
    }

    public Long bigint() {
        return isNull() ? null : integer(Long.MIN_VALUE, Long.MAX_VALUE);
    }

    /** An integer in [min, max], edges (min, max, 0, -1, 1, ±small) half the time. */
    public long integer(long min, long max) {
        if (edge()) {
            long[] edges = {min, max, 0, -1, 1, min + 1, max - 1, 2, -2, 7};
            return edges[random.nextInt(edges.length)];
        }
        if (random.nextBoolean()) {
            return Math.max(min, Math.min(max, random.nextInt(2001) - 1000));
        }
        long span = max - min;
        return span > 0 && span < Long.MAX_VALUE ? min + (long) (random.nextDouble() * (span + 1)) : random.nextLong();
    }

    /** A non-zero integer in [min, max]: a divisor (a zero divisor raises in Flink; the error test covers it). */
    public Long nonZero(long min, long max) {
        if (isNull()) {
            return null;
        }
        long v;
        do {
            v = integer(min, max);
        } while (v == 0);
        return v;
    }

    public Float real() {
        if (isNull()) {
            return null;
        }
        if (edge()) {
            float[] edges = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, -0.0f, 0.0f, 1f, -1f,
                Float.MAX_VALUE, -Float.MAX_VALUE, Float.MIN_VALUE, 0.1f, 1e10f, 16777217f, 2.5f, -2.5f};
            return edges[random.nextInt(edges.length)];
        }
        return random.nextBoolean() ? (float) (random.nextGaussian() * 1000) : Float.intBitsToFloat(random.nextInt());
    }

    public Double dbl() {
        if (isNull()) {
            return null;
        }
        if (edge()) {
            double[] edges = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -0.0, 0.0, 1, -1,
                Double.MAX_VALUE, -Double.MAX_VALUE, Double.MIN_VALUE, 0.1, 1e300, 9007199254740993.0, 2.5, -0.5,
                1e-7, 123456789.125, 2147483648.0, -9.3e18};
            return edges[random.nextInt(edges.length)];
        }
        return random.nextBoolean() ? random.nextGaussian() * 1e6 : Double.longBitsToDouble(random.nextLong());
    }

    /** A DECIMAL(precision, scale); {@code minAbs} > 0 keeps values away from 0 (divisors). */
    public DecimalData decimal(int precision, int scale, BigDecimal minAbs) {
        if (isNull()) {
            return null;
        }
        BigInteger max = BigInteger.TEN.pow(precision).subtract(BigInteger.ONE);
        BigInteger unscaled;
        if (edge()) {
            BigInteger[] edges = {max, max.negate(), BigInteger.ZERO, BigInteger.ONE, BigInteger.ONE.negate(),
                BigInteger.TEN.pow(scale), BigInteger.TEN.pow(scale).negate(), max.divide(BigInteger.TEN),
                BigInteger.valueOf(5), BigInteger.TEN.pow(precision - 1)};
            unscaled = edges[random.nextInt(edges.length)];
        } else {
            int digits = 1 + random.nextInt(precision);
            unscaled = new BigInteger(digits * 4, random).mod(BigInteger.TEN.pow(digits));
            unscaled = random.nextBoolean() ? unscaled : unscaled.negate();
        }
        BigDecimal v = new BigDecimal(unscaled, scale);
        if (minAbs != null && v.abs().compareTo(minAbs) < 0) {
            v = random.nextBoolean() ? minAbs : minAbs.negate();
        }
        return DecimalData.fromBigDecimal(v, precision, scale);
    }

    public Boolean bool() {
        return isNull() ? null : random.nextBoolean();
    }

    public StringData string() {
        return isNull() ? null : StringData.fromString(text());
    }

    /** 0-5 fragments (case-mapping traps, NUL, 4-byte UTF-8, LIKE wildcards, number-like text), sometimes long. */
    public String text() {
        if (random.nextInt(40) == 0) {
            return LONG;
        }
        StringBuilder sb = new StringBuilder();
        int n = random.nextInt(6);
        for (int i = 0; i < n; i++) {
            sb.append(FRAGMENTS[random.nextInt(FRAGMENTS.length)]);
        }
        return sb.toString();
    }

    public Integer date() {
        if (isNull()) {
            return null;
        }
        if (edge()) {
            int[] edges = {MIN_DAY, MAX_DAY, 0, -1, 1, -719_162 + 59, 11_016, -25_567, 10_957, 18_321};
            return edges[random.nextInt(edges.length)];
        }
        return MIN_DAY + random.nextInt(MAX_DAY - MIN_DAY + 1);
    }

    /** TIME(3) as milliseconds of the day. */
    public Integer time() {
        if (isNull()) {
            return null;
        }
        if (edge()) {
            int[] edges = {0, 86_399_999, 1, 43_200_000, 3_599_999, 999};
            return edges[random.nextInt(edges.length)];
        }
        return random.nextInt(86_400_000);
    }

    /** A TIMESTAMP with {@code digits} (3 or 6) fractional digits. */
    public TimestampData timestamp(int digits) {
        if (isNull()) {
            return null;
        }
        long millis;
        int nanos = 0;
        if (edge()) {
            long[] edges = {MIN_MILLIS, MAX_MILLIS, 0, -1, 1, -86_400_000L, -86_399_999L, -1_000L, 951_782_400_000L,
                -2_208_988_800_001L, -62_135_596_800_000L + 86_399_999L, 1_700_000_000_000L};
            millis = edges[random.nextInt(edges.length)];
        } else {
            millis = MIN_MILLIS + (long) (random.nextDouble() * (MAX_MILLIS - MIN_MILLIS));
        }
        if (digits > 3) {
            nanos = random.nextInt(1000) * 1000;
        }
        return TimestampData.fromEpochMillis(millis, nanos);
    }
}
