package dev.gatun.bench.rows;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;

/** Nexmark {@code Bid}: auction, bidder, price BIGINT; channel, url STRING; dateTime TIMESTAMP(3); extra STRING. */
final class BidShape implements RowShape {
    private static final RowType TYPE = RowType.of(
            new LogicalType[] {new BigIntType(), new BigIntType(), new BigIntType(), VarCharType.STRING_TYPE,
                VarCharType.STRING_TYPE, new TimestampType(3), VarCharType.STRING_TYPE},
            new String[] {"auction", "bidder", "price", "channel", "url", "dateTime", "extra"});

    @Override
    public String name() {
        return "bid";
    }

    @Override
    public RowType rowType() {
        return TYPE;
    }


    @Override
    public GenericRowData row(long seed, long index) {
        return GenericRowData.of(
                1000L + Mix.below(Mix.of(seed, index, 0), 100_000),
                1000L + Mix.below(Mix.of(seed, index, 1), 200_000),
                price(Mix.of(seed, index, 2)),
                StringData.fromString(TextPool.channel(Mix.of(seed, index, 3))),
                StringData.fromString(TextPool.url(Mix.of(seed, index, 4))),
                TimestampData.fromEpochMillis(BASE_MILLIS + index * 10 + Mix.below(Mix.of(seed, index, 5), 10)),
                StringData.fromString(TextPool.extra(Mix.of(seed, index, 6))));
    }

    /** Log-uniform between 100 and 10,000,000 (cents), like Nexmark's skewed prices. */
    static long price(long random) {
        return (long) (100 * StrictMath.pow(10, 5 * Mix.unit(random)));
    }
}
