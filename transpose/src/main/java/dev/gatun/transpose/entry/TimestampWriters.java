package dev.gatun.transpose.entry;

import dev.gatun.arrow.types.TimeUnit;
import dev.gatun.arrow.vector.Int64Vector;
import dev.gatun.arrow.vector.ValueVector;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;

/**
 * TIMESTAMP(p) and TIMESTAMP_LTZ(p) into Int64 of ms (p ≤ 3), µs (p ≤ 6) or ns. Flink keeps
 * epoch milliseconds plus nano-of-millisecond; binary rows store p ≤ 3 inline as millis and wider
 * precisions as a word (offset of the millis, nano-of-millisecond). A value outside the unit's
 * 64-bit range (for ns: the years 1677-2262) fails, naming the value.
 */
final class TimestampWriters {
    private TimestampWriters() {}

    static ValueWriter of(String name, boolean nullable, int precision, TimeUnit unit) {
        return switch (unit) {
            case MILLISECOND -> new Millis(name, nullable, precision);
            case MICROSECOND -> new Micros(name, nullable, precision);
            case NANOSECOND -> new Nanos(name, nullable, precision);
            case SECOND -> throw new IllegalArgumentException("no Flink timestamp maps to Arrow seconds");
        };
    }

    abstract static class Base extends ValueWriter {
        final int precision;
        Int64Vector vector;

        Base(String name, boolean nullable, int precision) {
            super(name, nullable);
            this.precision = precision;
        }

        @Override
        final void bind(ValueVector v) {
            vector = (Int64Vector) v;
        }

        @Override
        final void setNull(int index) {
            vector.setNull(index);
        }

        @Override
        final void fromRow(RowData row, int pos, int index) {
            TimestampData ts = row.getTimestamp(pos, precision);
            put(ts.getMillisecond(), ts.getNanoOfMillisecond(), index);
        }

        @Override
        final void fromArray(ArrayData array, int i, int index) {
            TimestampData ts = array.getTimestamp(i, precision);
            put(ts.getMillisecond(), ts.getNanoOfMillisecond(), index);
        }

        @Override
        final void fromBinary(byte[] mem, int base, int at, int index) {
            long word = FlinkBinary.getLong(mem, at);
            if (TimestampData.isCompact(precision)) {
                put(word, 0, index);
            } else {
                put(FlinkBinary.getLong(mem, FlinkBinary.target(base, word)), (int) word, index);
            }
        }

        abstract void put(long millis, int nanoOfMilli, int index);

        static IllegalArgumentException outOfRange(long millis, int nanoOfMilli, String unit, String range) {
            return new IllegalArgumentException("TIMESTAMP value " + TimestampData.fromEpochMillis(millis, nanoOfMilli)
                    + " is outside the range of Arrow timestamps in " + unit + range);
        }
    }

    static final class Millis extends Base {
        Millis(String name, boolean nullable, int precision) {
            super(name, nullable, precision);
        }

        @Override
        void put(long millis, int nanoOfMilli, int index) {
            vector.setLong(index, millis);
        }
    }

    static final class Micros extends Base {
        private static final long MAX_MILLIS = Long.MAX_VALUE / 1_000 - 1;

        Micros(String name, boolean nullable, int precision) {
            super(name, nullable, precision);
        }

        @Override
        void put(long millis, int nanoOfMilli, int index) {
            if (millis > MAX_MILLIS || millis < -MAX_MILLIS) {
                throw outOfRange(millis, nanoOfMilli, "microseconds", "");
            }
            vector.setLong(index, millis * 1_000 + nanoOfMilli / 1_000);
        }
    }

    static final class Nanos extends Base {
        Nanos(String name, boolean nullable, int precision) {
            super(name, nullable, precision);
        }

        @Override
        void put(long millis, int nanoOfMilli, int index) {
            long nanos;
            // Borrow one millisecond before a negative product: the lowest value's millis alone overflow.
            long m = millis < 0 && nanoOfMilli > 0 ? millis + 1 : millis;
            int n = m == millis ? nanoOfMilli : nanoOfMilli - 1_000_000;
            try {
                nanos = Math.addExact(Math.multiplyExact(m, 1_000_000L), n);
            } catch (ArithmeticException e) {
                throw outOfRange(millis, nanoOfMilli, "nanoseconds",
                        " (1677-09-21T00:12:43.145224192 to 2262-04-11T23:47:16.854775807)");
            }
            vector.setLong(index, nanos);
        }
    }
}
