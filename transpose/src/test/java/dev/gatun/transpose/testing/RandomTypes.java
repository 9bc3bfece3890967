package dev.gatun.transpose.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BinaryType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.CharType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DayTimeIntervalType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.table.types.logical.YearMonthIntervalType;

/**
 * Random Flink row types over every type of DESIGN.md section 6, nested ARRAY/MAP/MULTISET/ROW;
 * every schema has a field nested at least {@link #MIN_DEPTH} levels deep. The NULL type is left
 * out: Flink's own serializers (the equality oracle) do not support it; it has its own tests.
 */
public final class RandomTypes {
    public static final int MIN_DEPTH = 3;
    private static final int LEAF_KINDS = 20;

    private final Random random;
    private final boolean nanos;
    private int names;

    /** @param nanos whether TIMESTAMP(7..9) may appear (mapped to ns only when enabled) */
    public RandomTypes(Random random, boolean nanos) {
        this.random = random;
        this.nanos = nanos;
    }

    /** A row of {@code fields} fields, the first one nested {@link #MIN_DEPTH}+ levels deep. */
    public RowType row(int fields) {
        List<RowType.RowField> out = new ArrayList<>();
        out.add(new RowType.RowField(name(), deep(MIN_DEPTH)));
        for (int i = 1; i < fields; i++) {
            out.add(new RowType.RowField(name(), any(random.nextInt(4))));
        }
        return new RowType(false, out);
    }

    /** A nested type of exactly {@code depth} container levels (plus leaves). */
    public LogicalType deep(int depth) {
        if (depth == 0) {
            return leaf();
        }
        LogicalType inner = deep(depth - 1);
        boolean nullable = random.nextBoolean();
        return switch (random.nextInt(4)) {
            case 0 -> new ArrayType(nullable, inner);
            case 1 -> new MapType(nullable, leaf(), inner);
            case 2 -> new MultisetType(nullable, inner);
            default -> new RowType(nullable, List.of(new RowType.RowField(name(), inner),
                    new RowType.RowField(name(), any(1))));
        };
    }

    /** Any type with at most {@code depth} container levels. */
    public LogicalType any(int depth) {
        int kind = random.nextInt(depth > 0 ? LEAF_KINDS + 8 : LEAF_KINDS);
        if (kind < LEAF_KINDS) {
            return leaf();
        }
        boolean nullable = random.nextInt(4) != 0;
        return switch (kind - LEAF_KINDS) {
            case 0, 1 -> new ArrayType(nullable, any(depth - 1));
            case 2, 3 -> new MapType(nullable, any(depth - 1), any(depth - 1));
            case 4 -> new MultisetType(nullable, any(depth - 1));
            default -> {
                int n = 1 + random.nextInt(4);
                List<RowType.RowField> fields = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    fields.add(new RowType.RowField(name(), any(depth - 1)));
                }
                yield new RowType(nullable, fields);
            }
        };
    }

    public LogicalType leaf() {
        boolean n = random.nextInt(5) != 0;
        return switch (random.nextInt(LEAF_KINDS)) {
            case 0 -> new BooleanType(n);
            case 1 -> new TinyIntType(n);
            case 2 -> new SmallIntType(n);
            case 3 -> new IntType(n);
            case 4 -> new BigIntType(n);
            case 5 -> new FloatType(n);
            case 6 -> new DoubleType(n);
            case 7 -> decimal(n);
            case 8 -> new CharType(n, 1 + random.nextInt(10));
            case 9 -> random.nextBoolean() ? new VarCharType(n, VarCharType.MAX_LENGTH) : new VarCharType(n, 20);
            case 10 -> new BinaryType(n, 1 + random.nextInt(10));
            case 11 -> new VarBinaryType(n, random.nextBoolean() ? VarBinaryType.MAX_LENGTH : 16);
            case 12 -> new DateType(n);
            case 13 -> new TimeType(n, random.nextInt(4));
            case 14 -> new TimestampType(n, timestampPrecision());
            case 15 -> new LocalZonedTimestampType(n, timestampPrecision());
            case 16 -> new YearMonthIntervalType(n, YearMonthIntervalType.YearMonthResolution.YEAR_TO_MONTH, 4);
            case 17 -> new DayTimeIntervalType(n, DayTimeIntervalType.DayTimeResolution.DAY_TO_SECOND, 6, 3);
            case 18 -> decimal(n);
            default -> new VarCharType(n, VarCharType.MAX_LENGTH);
        };
    }

    private DecimalType decimal(boolean nullable) {
        int precision = switch (random.nextInt(5)) {
            case 0 -> 38;
            case 1 -> 18;
            case 2 -> 19;
            default -> 1 + random.nextInt(38);
        };
        int scale = random.nextInt(3) == 0 ? 0 : random.nextInt(precision + 1);
        return new DecimalType(nullable, precision, scale);
    }

    private int timestampPrecision() {
        return random.nextInt(nanos ? 10 : 7);
    }

    private String name() {
        return "f" + names++;
    }
}
