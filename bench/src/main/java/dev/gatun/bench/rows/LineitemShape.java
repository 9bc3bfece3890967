package dev.gatun.bench.rows;

import java.time.LocalDate;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * A bounded table shaped like TPC-H's {@code lineitem}, the columns its query 1 reads (and the order
 * key), with values drawn as TPC-H's generator draws them: quantity 1..50, extended price = quantity
 * × a part price of 900.00..2099.99, discount 0.00..0.10, tax 0.00..0.08, ship date uniform over
 * 1992-01-02..1998-12-01, line status {@code O} after 1995-06-17 else {@code F}, return flag {@code R}
 * or {@code A} when received (ship date + 1..30 days) by 1995-06-17, else {@code N}. Query 1 keeps
 * about 98% of the rows, in four groups. Not one of the transposition benchmarks' shapes
 * ({@link Shapes#all()}); the end-to-end queries find it by name.
 */
final class LineitemShape implements RowShape {
    private static final int FIRST_SHIP_DAY = (int) LocalDate.of(1992, 1, 2).toEpochDay();
    private static final int LAST_SHIP_DAY = (int) LocalDate.of(1998, 12, 1).toEpochDay();
    private static final int CURRENT_DAY = (int) LocalDate.of(1995, 6, 17).toEpochDay();
    private static final StringData[] FLAGS_RECEIVED = {StringData.fromString("R"), StringData.fromString("A")};
    private static final StringData NOT_RECEIVED = StringData.fromString("N");
    private static final StringData OPEN = StringData.fromString("O");
    private static final StringData FILLED = StringData.fromString("F");
    private static final RowType TYPE = RowType.of(
            new LogicalType[] {new BigIntType(false), VarCharType.STRING_TYPE, VarCharType.STRING_TYPE,
                new DecimalType(15, 2), new DecimalType(15, 2), new DecimalType(15, 2), new DecimalType(15, 2),
                new DateType()},
            new String[] {"l_orderkey", "l_returnflag", "l_linestatus", "l_quantity", "l_extendedprice", "l_discount",
                "l_tax", "l_shipdate"});

    @Override
    public String name() {
        return "lineitem";
    }

    @Override
    public RowType rowType() {
        return TYPE;
    }

    @Override
    public GenericRowData row(long seed, long index) {
        int quantity = Mix.between(Mix.of(seed, index, 3), 1, 50);
        long partPriceCents = Mix.between(Mix.of(seed, index, 4), 90_000, 209_999);
        int shipDay = Mix.between(Mix.of(seed, index, 7), FIRST_SHIP_DAY, LAST_SHIP_DAY);
        int receiptDay = shipDay + Mix.between(Mix.of(seed, index, 8), 1, 30);
        StringData flag = receiptDay <= CURRENT_DAY ? FLAGS_RECEIVED[Mix.below(Mix.of(seed, index, 1), 2)]
                : NOT_RECEIVED;
        return GenericRowData.of(
                index / 4,
                flag,
                shipDay > CURRENT_DAY ? OPEN : FILLED,
                cents(quantity * 100L),
                cents(quantity * partPriceCents),
                cents(Mix.between(Mix.of(seed, index, 5), 0, 10)),
                cents(Mix.between(Mix.of(seed, index, 6), 0, 8)),
                shipDay);
    }

    private static DecimalData cents(long cents) {
        return DecimalData.fromUnscaledLong(cents, 15, 2);
    }
}
