package dev.gatun.bench.arrowjava;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;

/** Per-type column writers of the two Arrow Java baselines (see {@link ArrowJavaWriter}). */
final class ArrowJavaColumns {
    private ArrowJavaColumns() {}

    /** Writes field {@code pos} of each row into row {@code index} of one vector. */
    interface Column {
        void write(RowData row, int index);

        default void finish(int count) {}
    }

    /** Abstract base that sets the vector's value count when the batch ends. */
    private abstract static class Counted implements Column {
        final FieldVector vector;

        Counted(FieldVector vector) {
            this.vector = vector;
        }

        @Override
        public void finish(int count) {
            vector.setValueCount(count);
        }
    }

    static Column growing(LogicalType type, int pos, FieldVector vector) {
        return switch (type.getTypeRoot()) {
            case TINYINT -> new Counted(vector) {
                public void write(RowData row, int i) {
                    if (row.isNullAt(pos)) ((TinyIntVector) vector).setNull(i);
                    else ((TinyIntVector) vector).setSafe(i, row.getByte(pos));
                }
            };
            case SMALLINT -> new Counted(vector) {
                public void write(RowData row, int i) {
                    if (row.isNullAt(pos)) ((SmallIntVector) vector).setNull(i);
                    else ((SmallIntVector) vector).setSafe(i, row.getShort(pos));
                }
            };
            case INTEGER -> new Counted(vector) {
                public void write(RowData row, int i) {
                    if (row.isNullAt(pos)) ((IntVector) vector).setNull(i);
                    else ((IntVector) vector).setSafe(i, row.getInt(pos));
                }
            };
            case DATE -> new Counted(vector) {
                public void write(RowData row, int i) {
                    if (row.isNullAt(pos)) ((DateDayVector) vector).setNull(i);
                    else ((DateDayVector) vector).setSafe(i, row.getInt(pos));
                }
            };
            case BIGINT -> new Counted(vector) {
                public void write(RowData row, int i) {
                    if (row.isNullAt(pos)) ((BigIntVector) vector).setNull(i);
                    else ((BigIntVector) vector).setSafe(i, row.getLong(pos));
                }
            };
            case FLOAT -> new Counted(vector) {
                public void write(RowData row, int i) {
                    if (row.isNullAt(pos)) ((Float4Vector) vector).setNull(i);
                    else ((Float4Vector) vector).setSafe(i, row.getFloat(pos));
                }
            };
            case DOUBLE -> new Counted(vector) {
                public void write(RowData row, int i) {
                    if (row.isNullAt(pos)) ((Float8Vector) vector).setNull(i);
                    else ((Float8Vector) vector).setSafe(i, row.getDouble(pos));
                }
            };
            case BOOLEAN -> new Counted(vector) {
                public void write(RowData row, int i) {
                    if (row.isNullAt(pos)) ((BitVector) vector).setNull(i);
                    else ((BitVector) vector).setSafe(i, row.getBoolean(pos) ? 1 : 0);
                }
            };
            case TIMESTAMP_WITHOUT_TIME_ZONE -> new Counted(vector) {
                final int precision = ArrowJavaColumns.timestampPrecision(type);

                public void write(RowData row, int i) {
                    if (row.isNullAt(pos)) ((TimeStampMilliVector) vector).setNull(i);
                    else ((TimeStampMilliVector) vector).setSafe(i, row.getTimestamp(pos, precision).getMillisecond());
                }
            };
            case DECIMAL -> new Counted(vector) {
                final DecimalType d = (DecimalType) type;

                public void write(RowData row, int i) {
                    if (row.isNullAt(pos)) ((DecimalVector) vector).setNull(i);
                    else ((DecimalVector) vector).setSafe(i,
                            row.getDecimal(pos, d.getPrecision(), d.getScale()).toBigDecimal());
                }
            };
            case CHAR, VARCHAR -> new Counted(vector) {
                public void write(RowData row, int i) {
                    if (row.isNullAt(pos)) ((VarCharVector) vector).setNull(i);
                    else ((VarCharVector) vector).setSafe(i, row.getString(pos).toBytes());
                }
            };
            default -> throw new UnsupportedOperationException("no growing writer for " + type);
        };
    }

    static Column presized(LogicalType type, int pos, FieldVector vector) {
        // allocateNew() zeroes the validity buffers: a NULL needs no write.
        return switch (type.getTypeRoot()) {
            case TINYINT -> new Counted(vector) {
                public void write(RowData row, int i) {
                    if (!row.isNullAt(pos)) ((TinyIntVector) vector).set(i, row.getByte(pos));
                }
            };
            case SMALLINT -> new Counted(vector) {
                public void write(RowData row, int i) {
                    if (!row.isNullAt(pos)) ((SmallIntVector) vector).set(i, row.getShort(pos));
                }
            };
            case INTEGER -> new Counted(vector) {
                public void write(RowData row, int i) {
                    if (!row.isNullAt(pos)) ((IntVector) vector).set(i, row.getInt(pos));
                }
            };
            case DATE -> new Counted(vector) {
                public void write(RowData row, int i) {
                    if (!row.isNullAt(pos)) ((DateDayVector) vector).set(i, row.getInt(pos));
                }
            };
            case BIGINT -> new Counted(vector) {
                public void write(RowData row, int i) {
                    if (!row.isNullAt(pos)) ((BigIntVector) vector).set(i, row.getLong(pos));
                }
            };
            case FLOAT -> new Counted(vector) {
                public void write(RowData row, int i) {
                    if (!row.isNullAt(pos)) ((Float4Vector) vector).set(i, row.getFloat(pos));
                }
            };
            case DOUBLE -> new Counted(vector) {
                public void write(RowData row, int i) {
                    if (!row.isNullAt(pos)) ((Float8Vector) vector).set(i, row.getDouble(pos));
                }
            };
            case BOOLEAN -> new Counted(vector) {
                public void write(RowData row, int i) {
                    if (!row.isNullAt(pos)) ((BitVector) vector).set(i, row.getBoolean(pos) ? 1 : 0);
                }
            };
            case TIMESTAMP_WITHOUT_TIME_ZONE -> new Counted(vector) {
                final int precision = ArrowJavaColumns.timestampPrecision(type);

                public void write(RowData row, int i) {
                    if (!row.isNullAt(pos)) {
                        ((TimeStampMilliVector) vector).set(i, row.getTimestamp(pos, precision).getMillisecond());
                    }
                }
            };
            case DECIMAL -> new PresizedDecimal((DecimalType) type, pos, (DecimalVector) vector);
            case CHAR, VARCHAR -> new PresizedUtf8(pos, (VarCharVector) vector);
            default -> throw new UnsupportedOperationException("no pre-sized writer for " + type);
        };
    }

    static int timestampPrecision(LogicalType type) {
        return ((org.apache.flink.table.types.logical.TimestampType) type).getPrecision();
    }

    /** Compact decimals go in as unscaled longs; wider ones as big-endian unscaled bytes. */
    private static final class PresizedDecimal extends Counted {
        private final int pos;
        private final int precision;
        private final int scale;
        private final boolean compact;

        PresizedDecimal(DecimalType type, int pos, DecimalVector vector) {
            super(vector);
            this.pos = pos;
            this.precision = type.getPrecision();
            this.scale = type.getScale();
            this.compact = DecimalData.isCompact(precision);
        }

        @Override
        public void write(RowData row, int i) {
            if (row.isNullAt(pos)) {
                return;
            }
            DecimalData value = row.getDecimal(pos, precision, scale);
            if (compact) {
                ((DecimalVector) vector).set(i, value.toUnscaledLong());
            } else {
                ((DecimalVector) vector).setBigEndian(i, value.toUnscaledBytes());
            }
        }
    }

    /**
     * Writes offsets, validity and bytes through the vector's buffers: a single-segment heap
     * string is copied straight from its segment (no {@code toBytes()} array); the data buffer
     * grows only when the batch has more bytes than it was pre-sized for.
     */
    private static final class PresizedUtf8 implements Column {
        private final int pos;
        private final VarCharVector vector;
        private int end;

        PresizedUtf8(int pos, VarCharVector vector) {
            this.pos = pos;
            this.vector = vector;
        }

        @Override
        public void write(RowData row, int i) {
            if (!row.isNullAt(pos)) {
                StringData value = row.getString(pos);
                if (value instanceof BinaryStringData s && single(s)) {
                    MemorySegment segment = s.getSegments()[0];
                    int length = s.getSizeInBytes();
                    ArrowBuf data = reserve(length);
                    data.setBytes(end, segment.getHeapMemory(), s.getOffset(), length);
                    end += length;
                } else {
                    byte[] bytes = value.toBytes();
                    reserve(bytes.length).setBytes(end, bytes, 0, bytes.length);
                    end += bytes.length;
                }
                BitVectorHelper.setBit(vector.getValidityBuffer(), i);
            }
            vector.getOffsetBuffer().setInt((long) (i + 1) * BaseVariableWidthVector.OFFSET_WIDTH, end);
        }

        private static boolean single(BinaryStringData s) {
            s.ensureMaterialized();
            MemorySegment[] segments = s.getSegments();
            return segments.length == 1 && !segments[0].isOffHeap()
                    && s.getOffset() + s.getSizeInBytes() <= segments[0].size();
        }

        private ArrowBuf reserve(int length) {
            while (end + (long) length > vector.getDataBuffer().capacity()) {
                vector.reallocDataBuffer();
            }
            return vector.getDataBuffer();
        }

        @Override
        public void finish(int count) {
            vector.setLastSet(count - 1);
            vector.setValueCount(count);
        }
    }
}
