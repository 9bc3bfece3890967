package dev.gatun.transpose.exit;

import dev.gatun.arrow.types.TimeUnit;
import dev.gatun.arrow.vector.DecimalVector;
import dev.gatun.arrow.vector.Int64Vector;
import dev.gatun.arrow.vector.ValueVector;
import dev.gatun.arrow.vector.VarBinaryVector;
import java.math.BigDecimal;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryStringData;

/** Accessors that build a Flink value object: strings, bytes, decimals, timestamps. */
final class ValueAccessors {
    private ValueAccessors() {}

    /**
     * Utf8 and Binary. Strings are {@link BinaryStringData} over a heap copy of the bytes: a view
     * over the Arrow buffer would be cheaper but Flink reads binary data without liveness checks,
     * so a string kept past the batch's release would read freed memory.
     */
    static final class Bytes extends Accessor {
        private VarBinaryVector vector;

        Bytes(String type) {
            super(type);
        }

        @Override
        void bind(ValueVector v) {
            vector = (VarBinaryVector) v;
        }

        @Override
        boolean isNull(int i) {
            return vector.isNull(i);
        }

        @Override
        StringData getString(int i) {
            return BinaryStringData.fromBytes(vector.getBytes(i));
        }

        @Override
        byte[] getBinary(int i) {
            return vector.getBytes(i);
        }
    }

    static final class Decimal extends Accessor {
        private final int precision;
        private final int scale;
        private DecimalVector vector;

        Decimal(String type, int precision, int scale) {
            super(type);
            this.precision = precision;
            this.scale = scale;
        }

        @Override
        void bind(ValueVector v) {
            vector = (DecimalVector) v;
        }

        @Override
        boolean isNull(int i) {
            return vector.isNull(i);
        }

        @Override
        DecimalData getDecimal(int i) {
            if (DecimalData.isCompact(precision)) {
                return DecimalData.fromUnscaledLong(vector.getUnscaledLow(i), precision, scale);
            }
            BigDecimal value = vector.getDecimal(i);
            DecimalData d = DecimalData.fromBigDecimal(value, precision, scale);
            if (d == null) {
                throw new IllegalStateException("Decimal128 value " + value + " exceeds DECIMAL(" + precision + ", "
                        + scale + ")");
            }
            return d;
        }
    }

    /** Timestamp in ms, µs or ns back to epoch millis plus nano-of-millisecond. */
    static final class Timestamp extends Accessor {
        private final long perMilli;
        private final long nanosPerUnit;
        private Int64Vector vector;

        Timestamp(String type, TimeUnit unit) {
            super(type);
            this.perMilli = switch (unit) {
                case MILLISECOND -> 1;
                case MICROSECOND -> 1_000;
                case NANOSECOND -> 1_000_000;
                case SECOND -> throw new IllegalArgumentException("no Flink timestamp maps to Arrow seconds");
            };
            this.nanosPerUnit = 1_000_000 / perMilli;
        }

        @Override
        void bind(ValueVector v) {
            vector = (Int64Vector) v;
        }

        @Override
        boolean isNull(int i) {
            return vector.isNull(i);
        }

        @Override
        TimestampData getTimestamp(int i) {
            long value = vector.getLong(i);
            if (perMilli == 1) {
                return TimestampData.fromEpochMillis(value);
            }
            return TimestampData.fromEpochMillis(Math.floorDiv(value, perMilli),
                    (int) (Math.floorMod(value, perMilli) * nanosPerUnit));
        }
    }
}
