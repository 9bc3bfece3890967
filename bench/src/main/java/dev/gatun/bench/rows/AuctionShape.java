package dev.gatun.bench.rows;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;

/** Nexmark {@code Auction}: id, itemName, description, initialBid, reserve, dateTime, expires, seller, category, extra. */
final class AuctionShape implements RowShape {
    private static final LogicalType S = VarCharType.STRING_TYPE;
    private static final RowType TYPE = RowType.of(
            new LogicalType[] {new BigIntType(), S, S, new BigIntType(), new BigIntType(), new TimestampType(3),
                new TimestampType(3), new BigIntType(), new BigIntType(), S},
            new String[] {"id", "itemName", "description", "initialBid", "reserve", "dateTime", "expires",
                "seller", "category", "extra"});

    @Override
    public String name() {
        return "auction";
    }

    @Override
    public RowType rowType() {
        return TYPE;
    }


    @Override
    public GenericRowData row(long seed, long index) {
        long initialBid = BidShape.price(Mix.of(seed, index, 3));
        long dateTime = BASE_MILLIS + index * 10;
        return GenericRowData.of(
                1000L + index,
                StringData.fromString(TextPool.words(Mix.of(seed, index, 1))),
                StringData.fromString(TextPool.description(Mix.of(seed, index, 2))),
                initialBid,
                initialBid + Mix.below(Mix.of(seed, index, 4), 1000),
                TimestampData.fromEpochMillis(dateTime),
                TimestampData.fromEpochMillis(dateTime + 1000L * Mix.between(Mix.of(seed, index, 6), 60, 86_400)),
                1000L + Mix.below(Mix.of(seed, index, 7), 200_000),
                10L + Mix.below(Mix.of(seed, index, 8), 5),
                StringData.fromString(TextPool.extra(Mix.of(seed, index, 9))));
    }
}
