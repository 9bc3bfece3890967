package dev.gatun.bench.jmh;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * The physical floor of an entry transpose, in two parts measured separately: reading every
 * selected field of every row once (summing them), and one bulk {@link MemorySegment#copy} of as
 * many bytes as the Arrow batch of those fields holds (validity only for columns with NULLs,
 * fixed-width data, {@code n + 1} offsets and the string bytes of variable-width columns).
 */
final class PhysicalFloor implements AutoCloseable {
    private static final byte BYTE = 0, SHORT = 1, INT = 2, LONG = 3, FLOAT = 4, DOUBLE = 5, BOOL = 6,
            DECIMAL_COMPACT = 7, DECIMAL_WIDE = 8, STRING = 9, TIMESTAMP = 10;

    private final int[] selected;
    private final byte[] kinds;
    private final int[] precision;
    private final int[] scale;
    private final long outputBytes;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment source;
    private final MemorySegment target;

    PhysicalFloor(RowType type, int[] selected, RowData[] rows) {
        this.selected = selected.clone();
        this.kinds = new byte[selected.length];
        this.precision = new int[selected.length];
        this.scale = new int[selected.length];
        for (int c = 0; c < selected.length; c++) {
            LogicalType t = type.getTypeAt(selected[c]);
            kinds[c] = kind(t);
            if (t instanceof DecimalType d) {
                precision[c] = d.getPrecision();
                scale[c] = d.getScale();
            } else if (t instanceof TimestampType ts) {
                precision[c] = ts.getPrecision();
            }
        }
        this.outputBytes = outputBytes(rows);
        this.source = arena.allocate(outputBytes, 64).fill((byte) 1);
        this.target = arena.allocate(outputBytes, 64);
    }

    long outputBytes() {
        return outputBytes;
    }

    /**
     * Reads every selected field of every row once: a binary row's fixed-length slot directly
     * (the value, or the offset-and-size word of a variable-length one), a generic row's field
     * through its getter.
     */
    long read(RowData[] rows) {
        long sum = 0;
        for (RowData row : rows) {
            if (row instanceof BinaryRowData binary && binary.getSegments().length == 1) {
                sum += readSlots(binary);
            } else {
                sum += readFields(row);
            }
        }
        return sum;
    }

    private long readSlots(BinaryRowData row) {
        org.apache.flink.core.memory.MemorySegment segment = row.getSegments()[0];
        int base = row.getOffset() + BinaryRowData.calculateBitSetWidthInBytes(row.getArity());
        long sum = 0;
        for (int pos : selected) {
            if (!row.isNullAt(pos)) {
                sum += segment.getLong(base + 8 * pos);
            }
        }
        return sum;
    }

    private long readFields(RowData row) {
        long sum = 0;
        for (int c = 0; c < kinds.length; c++) {
            int pos = selected[c];
            if (row.isNullAt(pos)) {
                continue;
            }
            sum += switch (kinds[c]) {
                case BYTE -> row.getByte(pos);
                case SHORT -> row.getShort(pos);
                case INT -> row.getInt(pos);
                case LONG -> row.getLong(pos);
                case FLOAT -> Float.floatToRawIntBits(row.getFloat(pos));
                case DOUBLE -> Double.doubleToRawLongBits(row.getDouble(pos));
                case BOOL -> row.getBoolean(pos) ? 1 : 0;
                case DECIMAL_COMPACT -> row.getDecimal(pos, precision[c], scale[c]).toUnscaledLong();
                case DECIMAL_WIDE -> row.getDecimal(pos, precision[c], scale[c]).toBigDecimal().signum();
                case STRING -> stringSize(row.getString(pos));
                case TIMESTAMP -> row.getTimestamp(pos, precision[c]).getMillisecond();
                default -> throw new AssertionError(kinds[c]);
            };
        }
        return sum;
    }

    /** The string's UTF-8 size: its bytes themselves are the copy part's work. */
    private static int stringSize(StringData s) {
        if (s instanceof BinaryStringData b) {
            b.ensureMaterialized();
            return b.getSizeInBytes();
        }
        return s.toBytes().length;
    }

    /** One bulk copy of the batch's output bytes between two native segments. */
    void copy() {
        MemorySegment.copy(source, 0, target, 0, outputBytes);
    }

    private long outputBytes(RowData[] rows) {
        int n = rows.length;
        long bytes = 0;
        for (int c = 0; c < kinds.length; c++) {
            int pos = selected[c];
            long stringBytes = 0;
            boolean nulls = false;
            for (RowData row : rows) {
                if (row.isNullAt(pos)) {
                    nulls = true;
                } else if (kinds[c] == STRING) {
                    stringBytes += row.getString(pos).toBytes().length;
                }
            }
            if (nulls) {
                bytes += (n + 7) / 8;
            }
            bytes += switch (kinds[c]) {
                case BYTE -> n;
                case SHORT -> 2L * n;
                case INT, FLOAT -> 4L * n;
                case LONG, DOUBLE, TIMESTAMP -> 8L * n;
                case BOOL -> (n + 7) / 8;
                case DECIMAL_COMPACT, DECIMAL_WIDE -> 16L * n;
                case STRING -> 4L * (n + 1) + stringBytes;
                default -> throw new AssertionError(kinds[c]);
            };
        }
        return bytes;
    }

    private static byte kind(LogicalType type) {
        return switch (type.getTypeRoot()) {
            case TINYINT -> BYTE;
            case SMALLINT -> SHORT;
            case INTEGER, DATE -> INT;
            case BIGINT -> LONG;
            case FLOAT -> FLOAT;
            case DOUBLE -> DOUBLE;
            case BOOLEAN -> BOOL;
            case DECIMAL -> DecimalData.isCompact(((DecimalType) type).getPrecision()) ? DECIMAL_COMPACT : DECIMAL_WIDE;
            case CHAR, VARCHAR -> STRING;
            case TIMESTAMP_WITHOUT_TIME_ZONE -> TIMESTAMP;
            default -> throw new UnsupportedOperationException("no floor reader for " + type);
        };
    }

    @Override
    public void close() {
        arena.close();
    }
}
