package dev.gatun.arrow.types;

/**
 * The Arrow types Gatun uses (DESIGN.md section 6). Nested types carry no children here: those
 * are the {@link Field}'s.
 */
public sealed interface ArrowType {
    /** Number of child fields the type requires, or -1 for "any" (Struct). */
    default int childCount() {
        return 0;
    }

    ArrowType NULL = new Null();
    ArrowType BOOL = new Bool();
    ArrowType INT8 = new Int(8);
    ArrowType INT16 = new Int(16);
    ArrowType INT32 = new Int(32);
    ArrowType INT64 = new Int(64);
    ArrowType FLOAT32 = new FloatingPoint(32);
    ArrowType FLOAT64 = new FloatingPoint(64);
    ArrowType UTF8 = new Utf8();
    ArrowType BINARY = new Binary();
    ArrowType DATE32 = new Date32();
    ArrowType INTERVAL_YEAR_MONTH = new IntervalYearMonth();
    ArrowType LIST = new ListType();
    ArrowType STRUCT = new StructType();

    record Null() implements ArrowType {}

    record Bool() implements ArrowType {}

    /** Signed integer of 8, 16, 32 or 64 bits. */
    record Int(int bitWidth) implements ArrowType {
        public Int {
            if (bitWidth != 8 && bitWidth != 16 && bitWidth != 32 && bitWidth != 64) {
                throw new IllegalArgumentException("Int bit width must be 8, 16, 32 or 64: " + bitWidth);
            }
        }
    }

    /** Float32 or Float64. */
    record FloatingPoint(int bitWidth) implements ArrowType {
        public FloatingPoint {
            if (bitWidth != 32 && bitWidth != 64) {
                throw new IllegalArgumentException("floating point bit width must be 32 or 64: " + bitWidth);
            }
        }
    }

    /** 128-bit decimal; precision 1..38. */
    record Decimal128(int precision, int scale) implements ArrowType {
        public static final int MAX_PRECISION = 38;

        public Decimal128 {
            if (precision < 1 || precision > MAX_PRECISION) {
                throw new IllegalArgumentException("Decimal128 precision must be 1.." + MAX_PRECISION + ": " + precision);
            }
            if (scale > precision || scale < -MAX_PRECISION) {
                throw new IllegalArgumentException("Decimal128 scale out of range for precision " + precision + ": " + scale);
            }
        }
    }

    record Utf8() implements ArrowType {}

    record Binary() implements ArrowType {}

    record FixedSizeBinary(int byteWidth) implements ArrowType {
        public FixedSizeBinary {
            if (byteWidth < 0) {
                throw new IllegalArgumentException("negative FixedSizeBinary width " + byteWidth);
            }
        }
    }

    /** Days since the epoch, 32 bits. */
    record Date32() implements ArrowType {}

    /** Time of day in seconds or milliseconds, 32 bits. */
    record Time32(TimeUnit unit) implements ArrowType {
        public Time32 {
            if (unit != TimeUnit.SECOND && unit != TimeUnit.MILLISECOND) {
                throw new IllegalArgumentException("Time32 unit must be SECOND or MILLISECOND: " + unit);
            }
        }
    }

    /** Time since the epoch, 64 bits; {@code zone} null means no time zone. */
    record Timestamp(TimeUnit unit, String zone) implements ArrowType {
        public Timestamp {
            if (unit == null) {
                throw new IllegalArgumentException("Timestamp needs a unit");
            }
            if (zone != null && zone.isEmpty()) {
                zone = null;
            }
        }
    }

    /** Months, 32 bits. */
    record IntervalYearMonth() implements ArrowType {}

    /** Elapsed time, 64 bits. */
    record Duration(TimeUnit unit) implements ArrowType {
        public Duration {
            if (unit == null) {
                throw new IllegalArgumentException("Duration needs a unit");
            }
        }
    }

    record ListType() implements ArrowType {
        @Override
        public int childCount() {
            return 1;
        }
    }

    record StructType() implements ArrowType {
        @Override
        public int childCount() {
            return -1;
        }
    }

    /** Map: one child, a non-nullable struct "entries" of a non-nullable key and a value. */
    record MapType(boolean keysSorted) implements ArrowType {
        @Override
        public int childCount() {
            return 1;
        }
    }
}
