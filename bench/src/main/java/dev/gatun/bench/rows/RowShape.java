package dev.gatun.bench.rows;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.types.logical.RowType;

/** One kind of input row: its type, the fields a consumer reads, and a deterministic generator. */
public interface RowShape {
    /** Base event time of every generated row: 2026-01-01T00:00:00Z. */
    long BASE_MILLIS = 1_767_225_600_000L;

    /** The name used in JMH parameters and in the {@code gatun-nexmark} connector's {@code kind}. */
    String name();

    RowType rowType();

    /** Positions of the fields a consumer reads: the projection an entry transpose is narrowed to. */
    default int[] selected() {
        return Shapes.allFields(rowType().getFieldCount());
    }

    /** Row {@code index} for {@code seed}; strings are lazy ({@code StringData.fromString}), as a deserializing source makes them. */
    GenericRowData row(long seed, long index);
}
