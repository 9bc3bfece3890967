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
 * A wide row: 40 columns {@code c0..c39} cycling BIGINT, INT, DOUBLE, STRING (20–40 chars), of
 * which a consumer reads three ({@code c0} BIGINT, {@code c19} STRING, {@code c38} DOUBLE).
 */
final class Wide40Shape implements RowShape {
    static final int ARITY = 40;
    private static final int[] SELECTED = {0, 19, 38};
    private static final RowType TYPE = type();

    @Override
    public String name() {
        return "wide40";
    }

    @Override
    public RowType rowType() {
        return TYPE;
    }

    @Override
    public int[] selected() {
        return SELECTED.clone();
    }

    @Override
    public GenericRowData row(long seed, long index) {
        GenericRowData row = new GenericRowData(ARITY);
        for (int i = 0; i < ARITY; i++) {
            long r = Mix.of(seed, index, i);
            row.setField(i, switch (i % 4) {
                case 0 -> i == 0 ? index : r;
                case 1 -> (int) r;
                case 2 -> Mix.unit(r) * 1000;
                default -> StringData.fromString(TextPool.mediumText(r));
            });
        }
        return row;
    }

    private static RowType type() {
        LogicalType[] types = new LogicalType[ARITY];
        String[] names = new String[ARITY];
        for (int i = 0; i < ARITY; i++) {
            types[i] = switch (i % 4) {
                case 0 -> new BigIntType();
                case 1 -> new IntType();
                case 2 -> new DoubleType();
                default -> VarCharType.STRING_TYPE;
            };
            names[i] = "c" + i;
        }
        return RowType.of(types, names);
    }
}
