package dev.gatun.bench.rows;

import java.math.BigDecimal;
import java.math.BigInteger;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * A 20-column mixed row: every integer width, FLOAT/DOUBLE, BOOLEAN, a compact and a wide
 * DECIMAL, short (often inline in binary rows), medium and URL-sized strings, DATE, TIMESTAMP(3),
 * and three nullable columns (NULL every 7th, 11th and 5th row).
 */
final class Mixed20Shape implements RowShape {
    private static final LogicalType S = VarCharType.STRING_TYPE;
    private static final RowType TYPE = RowType.of(
            new LogicalType[] {new BigIntType(), new TinyIntType(), new SmallIntType(), new IntType(),
                new BigIntType(), new FloatType(), new DoubleType(), new BooleanType(), new DecimalType(10, 2),
                new DecimalType(28, 6), S, S, S, new DateType(), new TimestampType(3), new IntType(),
                new DoubleType(), S, new BigIntType(), new BooleanType()},
            new String[] {"id", "tiny", "small", "num", "big", "ratio", "amount", "flag", "price", "total",
                "code", "label", "url", "day", "ts", "qty", "score", "note", "seq", "active"});
    /** 2026-01-01 in days since the epoch. */
    private static final int BASE_DAY = 20_454;

    @Override
    public String name() {
        return "mixed20";
    }

    @Override
    public RowType rowType() {
        return TYPE;
    }


    @Override
    public GenericRowData row(long seed, long index) {
        long[] r = new long[20];
        for (int i = 0; i < r.length; i++) {
            r[i] = Mix.of(seed, index, i);
        }
        BigDecimal total = new BigDecimal(BigInteger.valueOf(r[9] % 1_000_000_000_000_000L)
                .multiply(BigInteger.valueOf(1 + Mix.below(r[9] >>> 3, 1_000_000))), 6);
        return GenericRowData.of(
                index,
                (byte) r[1],
                (short) r[2],
                (int) r[3],
                index % 7 == 3 ? null : r[4],
                (float) (Mix.unit(r[5]) * 100),
                Mix.unit(r[6]) * 1e6 - 5e5,
                (r[7] & 1) == 0,
                DecimalData.fromUnscaledLong(r[8] % 10_000_000_000L, 10, 2),
                DecimalData.fromBigDecimal(total, 28, 6),
                StringData.fromString(TextPool.shortText(r[10])),
                StringData.fromString(TextPool.mediumText(r[11])),
                StringData.fromString(TextPool.url(r[12])),
                BASE_DAY + Mix.below(r[13], 365),
                TimestampData.fromEpochMillis(BASE_MILLIS + index * 10 + Mix.below(r[14], 10)),
                index % 11 == 5 ? null : Mix.below(r[15], 1000),
                Mix.unit(r[16]),
                index % 5 == 1 ? null : StringData.fromString(TextPool.mediumText(r[17])),
                r[18],
                Mix.below(r[19], 3) != 0);
    }
}
