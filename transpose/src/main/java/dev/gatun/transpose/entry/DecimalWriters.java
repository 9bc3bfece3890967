package dev.gatun.transpose.entry;

import dev.gatun.arrow.vector.DecimalVector;
import dev.gatun.arrow.vector.ValueVector;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Arrays;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.RowData;

/**
 * DECIMAL(p, s) into Decimal128(p, s). Flink keeps p ≤ 18 as an unscaled long (inline in binary
 * rows) and wider values as big-endian two's-complement bytes in the variable part. A value with
 * more digits than p fails, naming it.
 */
final class DecimalWriters {
    private DecimalWriters() {}

    abstract static class Base extends ValueWriter {
        final int precision;
        final int scale;
        DecimalVector vector;

        Base(String name, boolean nullable, int precision, int scale) {
            super(name, nullable);
            this.precision = precision;
            this.scale = scale;
        }

        @Override
        final void bind(ValueVector v) {
            vector = (DecimalVector) v;
        }

        @Override
        final void setNull(int index) {
            vector.setNull(index);
        }

        @Override
        final void fromRow(RowData row, int pos, int index) {
            write(row.getDecimal(pos, precision, scale), index);
        }

        @Override
        final void fromArray(ArrayData array, int i, int index) {
            write(array.getDecimal(i, precision, scale), index);
        }

        abstract void write(DecimalData value, int index);

        /** The value at this column's scale; rescaling that would round fails. */
        final BigDecimal atScale(DecimalData value) {
            BigDecimal d = value.toBigDecimal();
            return d.scale() == scale ? d : d.setScale(scale, RoundingMode.UNNECESSARY);
        }

        final IllegalArgumentException tooWide(Object value) {
            return new IllegalArgumentException("value " + value + " does not fit DECIMAL(" + precision + ", " + scale + ")");
        }
    }

    /** p ≤ 18: one unscaled long. */
    static final class Compact extends Base {
        private final long bound;

        Compact(String name, boolean nullable, int precision, int scale) {
            super(name, nullable, precision, scale);
            this.bound = BigInteger.TEN.pow(precision).longValueExact();
        }

        @Override
        void write(DecimalData value, int index) {
            long unscaled = value.scale() == scale && value.isCompact()
                    ? value.toUnscaledLong() : atScale(value).unscaledValue().longValueExact();
            put(unscaled, index);
        }

        @Override
        void fromBinary(byte[] mem, int base, int at, int index) {
            put(FlinkBinary.getLong(mem, at), index);
        }

        private void put(long unscaled, int index) {
            if (unscaled >= bound || unscaled <= -bound) {
                throw tooWide(BigDecimal.valueOf(unscaled, scale));
            }
            vector.setUnscaled(index, unscaled);
        }
    }

    /** p > 18: 128 bits. */
    static final class Wide extends Base {
        private final BigInteger bound;
        private final long boundHigh;
        private final long boundLow;
        /** Values shorter than this many bits are below 10^p without comparing. */
        private final int safeBits;

        Wide(String name, boolean nullable, int precision, int scale) {
            super(name, nullable, precision, scale);
            this.bound = BigInteger.TEN.pow(precision);
            this.boundLow = bound.longValue();
            this.boundHigh = bound.shiftRight(64).longValue();
            this.safeBits = bound.bitLength() - 1;
        }

        @Override
        void write(DecimalData value, int index) {
            BigInteger unscaled = atScale(value).unscaledValue();
            int bits = unscaled.bitLength();
            if (bits > safeBits && unscaled.abs().compareTo(bound) >= 0) {
                throw tooWide(value);
            }
            long low = unscaled.longValue();
            long high = bits < 64 ? low >> 63 : unscaled.shiftRight(64).longValue();
            vector.setUnscaled(index, low, high);
        }

        @Override
        void fromBinary(byte[] mem, int base, int at, int index) {
            long word = FlinkBinary.getLong(mem, at);
            int from = FlinkBinary.target(base, word);
            int size = FlinkBinary.size(word);
            if (size < 1 || size > 16) {
                throw new IllegalArgumentException("a DECIMAL(" + precision + ", " + scale + ") value of " + size
                        + " bytes is not a 128-bit decimal");
            }
            // Flink reserves 16 bytes for every wide decimal, so 8-byte reads from its start stay inside.
            long high;
            long low;
            if (size <= 8) {
                low = FlinkBinary.getLongBigEndian(mem, from) >> (8 * (8 - size));
                high = low >> 63;
            } else {
                low = FlinkBinary.getLongBigEndian(mem, from + size - 8);
                high = FlinkBinary.getLongBigEndian(mem, from) >> (8 * (16 - size));
            }
            if (!absBelowBound(high, low)) {
                throw tooWide(new BigDecimal(new BigInteger(Arrays.copyOfRange(mem, from, from + size)), scale));
            }
            vector.setUnscaled(index, low, high);
        }

        private boolean absBelowBound(long high, long low) {
            if (high < 0) {
                low = -low;
                high = ~high + (low == 0 ? 1 : 0);
            }
            return Long.compareUnsigned(high, boundHigh) < 0
                    || (high == boundHigh && Long.compareUnsigned(low, boundLow) < 0);
        }
    }
}
