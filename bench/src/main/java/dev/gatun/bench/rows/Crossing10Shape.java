package dev.gatun.bench.rows;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * The crossing benchmark's batch (issue 5): 4 BIGINT, 2 DOUBLE, 1 INT and 3 STRING columns of
 * 32–48 ASCII bytes (40 on average). Every column is nullable; three hold NULLs, as events with
 * optional fields do: {@code user} every 9th row, {@code score} every 11th, {@code note} every 7th
 * (about 3.5% of all values).
 */
final class Crossing10Shape implements RowShape {
    private static final LogicalType S = VarCharType.STRING_TYPE;
    private static final RowType TYPE = RowType.of(
            new LogicalType[] {new BigIntType(), new BigIntType(), new BigIntType(), new BigIntType(),
                new DoubleType(), new DoubleType(), new IntType(), S, S, S},
            new String[] {"id", "seq", "user", "ts_ms", "price", "score", "qty", "name", "city", "note"});

    @Override
    public String name() {
        return "crossing10";
    }

    @Override
    public RowType rowType() {
        return TYPE;
    }


    @Override
    public GenericRowData row(long seed, long index) {
        long[] r = new long[10];
        for (int i = 0; i < r.length; i++) {
            r[i] = Mix.of(seed, index, i);
        }
        return GenericRowData.of(
                index,
                r[1],
                index % 9 == 4 ? null : (long) Mix.below(r[2], 1_000_000),
                BASE_MILLIS + index * 10 + Mix.below(r[3], 10),
                Mix.unit(r[4]) * 1e4,
                index % 11 == 6 ? null : Mix.unit(r[5]),
                Mix.below(r[6], 1000),
                StringData.fromString(TextPool.around40(r[7])),
                StringData.fromString(TextPool.around40(r[8])),
                index % 7 == 2 ? null : StringData.fromString(TextPool.around40(r[9])));
    }
}
