package dev.gatun.bench.rows;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

/** A string-heavy row: a BIGINT key and three 200-byte strings. */
final class StringsShape implements RowShape {
    private static final LogicalType S = VarCharType.STRING_TYPE;
    private static final RowType TYPE = RowType.of(
            new LogicalType[] {new BigIntType(), S, S, S}, new String[] {"key", "s1", "s2", "s3"});

    @Override
    public String name() {
        return "strings";
    }

    @Override
    public RowType rowType() {
        return TYPE;
    }


    @Override
    public GenericRowData row(long seed, long index) {
        return GenericRowData.of(
                index,
                StringData.fromString(TextPool.payload200(Mix.of(seed, index, 1))),
                StringData.fromString(TextPool.payload200(Mix.of(seed, index, 2))),
                StringData.fromString(TextPool.payload200(Mix.of(seed, index, 3))));
    }
}
