package dev.gatun.bench.rows;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;

/** Nexmark {@code Person}: id, name, emailAddress, creditCard, city, state, dateTime, extra. */
final class PersonShape implements RowShape {
    private static final LogicalType S = VarCharType.STRING_TYPE;
    private static final RowType TYPE = RowType.of(
            new LogicalType[] {new BigIntType(), S, S, S, S, S, new TimestampType(3), S},
            new String[] {"id", "name", "emailAddress", "creditCard", "city", "state", "dateTime", "extra"});

    @Override
    public String name() {
        return "person";
    }

    @Override
    public RowType rowType() {
        return TYPE;
    }


    @Override
    public GenericRowData row(long seed, long index) {
        long card = Mix.of(seed, index, 3);
        return GenericRowData.of(
                1000L + index,
                StringData.fromString(TextPool.name(Mix.of(seed, index, 1))),
                StringData.fromString(TextPool.shortText(Mix.of(seed, index, 2)) + "@"
                        + TextPool.shortText(Mix.of(seed, index, 12)) + ".com"),
                StringData.fromString(creditCard(card)),
                StringData.fromString(TextPool.CITIES[Mix.below(Mix.of(seed, index, 4), TextPool.CITIES.length)]),
                StringData.fromString(TextPool.STATES[Mix.below(Mix.of(seed, index, 5), TextPool.STATES.length)]),
                TimestampData.fromEpochMillis(BASE_MILLIS + index * 10),
                StringData.fromString(TextPool.extra(Mix.of(seed, index, 7))));
    }

    /** {@code NNNN NNNN NNNN NNNN}, 19 chars. */
    private static String creditCard(long random) {
        char[] card = new char[19];
        for (int i = 0, digit = 0; i < card.length; i++) {
            card[i] = i % 5 == 4 ? ' ' : (char) ('0' + Mix.below(Mix.of(random, digit++, 0), 10));
        }
        return new String(card);
    }
}
