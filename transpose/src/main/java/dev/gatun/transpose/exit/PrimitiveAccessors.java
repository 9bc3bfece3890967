package dev.gatun.transpose.exit;

import dev.gatun.arrow.vector.BoolVector;
import dev.gatun.arrow.vector.Float32Vector;
import dev.gatun.arrow.vector.Float64Vector;
import dev.gatun.arrow.vector.Int16Vector;
import dev.gatun.arrow.vector.Int32Vector;
import dev.gatun.arrow.vector.Int64Vector;
import dev.gatun.arrow.vector.Int8Vector;
import dev.gatun.arrow.vector.ValueVector;

/** Accessors of values both sides store as one primitive. */
final class PrimitiveAccessors {
    private PrimitiveAccessors() {}

    static final class Bool extends Accessor {
        private BoolVector vector;

        Bool(String type) {
            super(type);
        }

        @Override
        void bind(ValueVector v) {
            vector = (BoolVector) v;
        }

        @Override
        boolean isNull(int i) {
            return vector.isNull(i);
        }

        @Override
        boolean getBoolean(int i) {
            return vector.getBoolean(i);
        }
    }

    static final class Int8 extends Accessor {
        private Int8Vector vector;

        Int8(String type) {
            super(type);
        }

        @Override
        void bind(ValueVector v) {
            vector = (Int8Vector) v;
        }

        @Override
        boolean isNull(int i) {
            return vector.isNull(i);
        }

        @Override
        byte getByte(int i) {
            return vector.getByte(i);
        }
    }

    static final class Int16 extends Accessor {
        private Int16Vector vector;

        Int16(String type) {
            super(type);
        }

        @Override
        void bind(ValueVector v) {
            vector = (Int16Vector) v;
        }

        @Override
        boolean isNull(int i) {
            return vector.isNull(i);
        }

        @Override
        short getShort(int i) {
            return vector.getShort(i);
        }
    }

    /** INT, DATE, TIME, INTERVAL YEAR TO MONTH. */
    static final class Int32 extends Accessor {
        private Int32Vector vector;

        Int32(String type) {
            super(type);
        }

        @Override
        void bind(ValueVector v) {
            vector = (Int32Vector) v;
        }

        @Override
        boolean isNull(int i) {
            return vector.isNull(i);
        }

        @Override
        int getInt(int i) {
            return vector.getInt(i);
        }
    }

    /** BIGINT, INTERVAL DAY TO SECOND. */
    static final class Int64 extends Accessor {
        private Int64Vector vector;

        Int64(String type) {
            super(type);
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
        long getLong(int i) {
            return vector.getLong(i);
        }
    }

    static final class Float32 extends Accessor {
        private Float32Vector vector;

        Float32(String type) {
            super(type);
        }

        @Override
        void bind(ValueVector v) {
            vector = (Float32Vector) v;
        }

        @Override
        boolean isNull(int i) {
            return vector.isNull(i);
        }

        @Override
        float getFloat(int i) {
            return vector.getFloat(i);
        }
    }

    static final class Float64 extends Accessor {
        private Float64Vector vector;

        Float64(String type) {
            super(type);
        }

        @Override
        void bind(ValueVector v) {
            vector = (Float64Vector) v;
        }

        @Override
        boolean isNull(int i) {
            return vector.isNull(i);
        }

        @Override
        double getDouble(int i) {
            return vector.getDouble(i);
        }
    }

    /** The NULL type: every value is NULL. */
    static final class Null extends Accessor {
        private ValueVector vector;

        Null(String type) {
            super(type);
        }

        @Override
        void bind(ValueVector v) {
            vector = v;
        }

        @Override
        boolean isNull(int i) {
            return vector.isNull(i);
        }
    }
}
