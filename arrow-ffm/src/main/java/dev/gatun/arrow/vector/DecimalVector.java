package dev.gatun.arrow.vector;

import dev.gatun.arrow.memory.BatchMemory;
import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Field;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/** Decimal128(p, s): 16-byte little-endian two's-complement unscaled values. */
public final class DecimalVector extends FixedWidthVector {
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    private final int precision;
    private final int scale;
    private final BigInteger bound;

    DecimalVector(Field field, BatchMemory memory, int capacity) {
        super(field, memory, capacity, 16);
        ArrowType.Decimal128 type = (ArrowType.Decimal128) field.type();
        this.precision = type.precision();
        this.scale = type.scale();
        this.bound = BigInteger.TEN.pow(precision);
    }

    DecimalVector(Field field, View view, MemorySegment.Scope scope) {
        super(field, view, scope, 16);
        ArrowType.Decimal128 type = (ArrowType.Decimal128) field.type();
        this.precision = type.precision();
        this.scale = type.scale();
        this.bound = BigInteger.TEN.pow(precision);
    }

    public int precision() {
        return precision;
    }

    public int scale() {
        return scale;
    }

    /** Writes an unscaled value that fits a long (precision up to 18 always does). */
    public void setUnscaled(int index, long unscaled) {
        setUnscaled(index, unscaled, unscaled >> 63);
    }

    /** Writes the 128-bit unscaled value {@code high:low}. The precision is not checked here. */
    public void setUnscaled(int index, long low, long high) {
        long at = (long) index << 4;
        data.set(LONG, at, low);
        data.set(LONG, at + 8, high);
        markValid(index);
    }

    /**
     * Writes {@code value} rescaled exactly to this vector's scale.
     *
     * @throws ArithmeticException if rescaling would round
     * @throws IllegalArgumentException if the value has more digits than the precision allows
     */
    public void setDecimal(int index, BigDecimal value) {
        BigInteger unscaled = value.setScale(scale, RoundingMode.UNNECESSARY).unscaledValue();
        if (unscaled.abs().compareTo(bound) >= 0) {
            throw new IllegalArgumentException(field.name() + ": " + value + " does not fit Decimal128("
                    + precision + ", " + scale + ")");
        }
        setUnscaled(index, unscaled.longValue(), unscaled.shiftRight(64).longValue());
    }

    public long getUnscaledLow(int index) {
        return data.get(LONG, (offset + index) << 4);
    }

    public long getUnscaledHigh(int index) {
        return data.get(LONG, ((offset + index) << 4) + 8);
    }

    public BigDecimal getDecimal(int index) {
        long low = getUnscaledLow(index);
        long high = getUnscaledHigh(index);
        byte[] bigEndian = new byte[16];
        for (int i = 0; i < 8; i++) {
            bigEndian[i] = (byte) (high >>> (56 - 8 * i));
            bigEndian[8 + i] = (byte) (low >>> (56 - 8 * i));
        }
        return new BigDecimal(new BigInteger(bigEndian), scale);
    }
}
