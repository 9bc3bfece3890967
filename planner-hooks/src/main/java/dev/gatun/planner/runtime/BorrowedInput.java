package dev.gatun.planner.runtime;

import org.apache.flink.api.dag.Transformation;
import org.apache.flink.streaming.api.transformations.PartitionTransformation;
import org.apache.flink.streaming.api.transformations.PhysicalTransformation;
import org.apache.flink.streaming.runtime.partitioner.ForwardPartitioner;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

/**
 * Entry borrowing (docs/runtime.md): the input edge of a native island whose chained copy is
 * skipped. The edge is a virtual forward partition whose type carries a
 * {@link BorrowingRowDataSerializer}; Flink takes a chained consumer's copying serializer from its
 * input type, so only this consumer borrows. The producer's own type, its network serializer and
 * its other consumers are untouched, and the job graph (operators, chains, operator IDs) is the
 * same as without it: a forward edge between equal parallelisms is what Flink creates anyway.
 */
public final class BorrowedInput {
    private BorrowedInput() {}

    /**
     * The borrowing edge over {@code input}, or {@code input} itself where borrowing does not
     * apply: an input that is already a virtual node (an exchange, a union: a forward partition on
     * top would replace its partitioner), or whose type is not an internal row type.
     */
    public static Transformation<RowData> over(Transformation<RowData> input) {
        if (!(input instanceof PhysicalTransformation<RowData>)
                || !(input.getOutputType() instanceof InternalTypeInfo<RowData> type)
                || !(type.toLogicalType() instanceof RowType rowType)) {
            return input;
        }
        PartitionTransformation<RowData> edge = new PartitionTransformation<>(input, new ForwardPartitioner<>());
        edge.setOutputType(new BorrowingRowDataTypeInfo(rowType));
        return edge;
    }

    /** Whether {@code t} is a borrowing edge made by {@link #over}. */
    public static boolean isBorrowing(Transformation<?> t) {
        return t instanceof PartitionTransformation<?> && t.getOutputType() instanceof BorrowingRowDataTypeInfo;
    }
}
