package dev.gatun.bench.e2e;

import dev.gatun.bench.rows.Mix;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * Hashes every field of a row through typed getters chosen once per row type (nested ROW fields
 * recursively, row kind included as for any row). The hash depends
 * only on the values (and the row kind), not on the row's class: a {@code GenericRowData}, a
 * {@code BinaryRowData} and a columnar view of the same values hash alike, so stock and native
 * results can be compared.
 */
public final class RowHasher {
    private static final long NULL = 0x6E756C6CL;

    @FunctionalInterface
    interface FieldHash {
        long hash(RowData row, int pos);
    }

    private final FieldHash[] fields;

    private RowHasher(FieldHash[] fields) {
        this.fields = fields;
    }

    public static RowHasher of(RowType type) {
        FieldHash[] fields = new FieldHash[type.getFieldCount()];
        for (int i = 0; i < fields.length; i++) {
            fields[i] = field(type.getTypeAt(i));
        }
        return new RowHasher(fields);
    }

    /** A hash of the row kind and every field; rows are combined by summing, so order does not matter. */
    public long hash(RowData row) {
        return hash(row, row.getRowKind().toByteValue());
    }

    /** {@link #hash} of the row's values as if it were an insertion, whatever its kind. */
    public long hashAsInsert(RowData row) {
        return hash(row, org.apache.flink.types.RowKind.INSERT.toByteValue());
    }

    private long hash(RowData row, long kind) {
        long h = kind;
        for (int i = 0; i < fields.length; i++) {
            long v = row.isNullAt(i) ? NULL : fields[i].hash(row, i);
            h = Long.rotateLeft((h ^ v) * 0x9E3779B97F4A7C15L, 29);
        }
        return Mix.of(h, fields.length, 0);
    }

    private static FieldHash field(LogicalType type) {
        return switch (type.getTypeRoot()) {
            case BOOLEAN -> (row, pos) -> row.getBoolean(pos) ? 1 : 2;
            case TINYINT -> RowData::getByte;
            case SMALLINT -> RowData::getShort;
            case INTEGER, DATE, TIME_WITHOUT_TIME_ZONE, INTERVAL_YEAR_MONTH -> RowData::getInt;
            case BIGINT, INTERVAL_DAY_TIME -> RowData::getLong;
            case FLOAT -> (row, pos) -> Float.floatToIntBits(row.getFloat(pos));
            case DOUBLE -> (row, pos) -> Double.doubleToLongBits(row.getDouble(pos));
            case CHAR, VARCHAR -> (row, pos) -> hashString(row.getString(pos));
            case BINARY, VARBINARY -> (row, pos) -> hashBytes(row.getBinary(pos));
            case DECIMAL -> {
                DecimalType d = (DecimalType) type;
                int p = d.getPrecision();
                int s = d.getScale();
                yield DecimalData.isCompact(p)
                        ? (row, pos) -> row.getDecimal(pos, p, s).toUnscaledLong()
                        : (row, pos) -> hashBytes(row.getDecimal(pos, p, s).toUnscaledBytes());
            }
            case TIMESTAMP_WITHOUT_TIME_ZONE -> timestamp(((TimestampType) type).getPrecision());
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> timestamp(((LocalZonedTimestampType) type).getPrecision());
            case ROW -> {
                RowType nested = (RowType) type;
                RowHasher inner = of(nested);
                int arity = nested.getFieldCount();
                yield (row, pos) -> inner.hash(row.getRow(pos, arity));
            }
            default -> throw new UnsupportedOperationException("the blackhole sink does not hash " + type);
        };
    }

    private static FieldHash timestamp(int precision) {
        return (row, pos) -> {
            TimestampData t = row.getTimestamp(pos, precision);
            return t.getMillisecond() * 1_000_000 + t.getNanoOfMillisecond();
        };
    }

    /** Hashes the UTF-8 bytes; a single-segment binary string is read in place. */
    static long hashString(StringData value) {
        if (value instanceof BinaryStringData s) {
            s.ensureMaterialized();
            MemorySegment[] segments = s.getSegments();
            if (segments.length == 1 && s.getOffset() + s.getSizeInBytes() <= segments[0].size()) {
                return hashBytes(segments[0], s.getOffset(), s.getSizeInBytes());
            }
        }
        return hashBytes(value.toBytes());
    }

    static long hashBytes(byte[] bytes) {
        return hashBytes(MemorySegmentFactory.wrap(bytes), 0, bytes.length);
    }

    private static long hashBytes(MemorySegment segment, int offset, int length) {
        long h = length;
        int i = 0;
        for (; i + 8 <= length; i += 8) {
            h = Long.rotateLeft((h ^ segment.getLong(offset + i)) * 0xC2B2AE3D27D4EB4FL, 31);
        }
        for (; i < length; i++) {
            h = Long.rotateLeft((h ^ segment.get(offset + i)) * 0x165667B19E3779F9L, 23);
        }
        return h;
    }
}
