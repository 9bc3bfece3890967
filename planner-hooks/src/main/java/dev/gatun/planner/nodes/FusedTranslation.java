package dev.gatun.planner.nodes;

import dev.gatun.planner.GatunOptions;
import dev.gatun.planner.runtime.BorrowedInput;
import dev.gatun.planner.runtime.FusedPassThroughOperator;
import dev.gatun.planner.runtime.IslandOperator;
import dev.gatun.planner.runtime.NativeCalcSpec;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeConfig;
import org.apache.flink.table.planner.plan.nodes.exec.utils.ExecNodeUtil;
import org.apache.flink.table.planner.plan.nodes.exec.utils.TransformationMetadata;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

/**
 * The transformations of a native island and of the stock nodes it was fused with: the island
 * operator, and pass-through operators with the stock nodes' names, descriptions and uids, typed as
 * the rows they hand through (the island's input rows).
 */
final class FusedTranslation {
    private FusedTranslation() {}

    /**
     * Whether a fused node of a compiled plan runs as a pass-through here: the island it belongs to
     * runs natively. Every node of one island decides alike (the same spec, config and library).
     */
    static boolean runsFused(NativeCalcSpec island, ExecNodeConfig config, String description) {
        return !config.isCompiled() || CompiledPlanFallback.reasonToRunStock(island, config, description) == null;
    }

    /** A pass-through in a streaming job, borrowing its input like the island does. */
    static Transformation<RowData> passThrough(Transformation<RowData> input, TransformationMetadata meta,
                                               ReadableConfig config) {
        Transformation<RowData> edge = config.get(GatunOptions.ENTRY_BORROWING) ? BorrowedInput.over(input) : input;
        return passThrough(edge, input, meta);
    }

    /**
     * A pass-through in a batch job: no borrowing, Flink's batch executor enables object reuse, so
     * a chained operator gets no copy to skip.
     */
    static Transformation<RowData> batchPassThrough(Transformation<RowData> input, TransformationMetadata meta) {
        return passThrough(input, input, meta);
    }

    private static Transformation<RowData> passThrough(Transformation<RowData> edge, Transformation<RowData> input,
                                                       TransformationMetadata meta) {
        return ExecNodeUtil.createOneInputTransformation(edge, meta, new FusedPassThroughOperator(),
                input.getOutputType(), input.getParallelism(), false);
    }

    /** The island operator over {@code input}, at its parallelism, emitting {@code outputType} rows. */
    static Transformation<RowData> island(Transformation<RowData> input, TransformationMetadata meta,
                                          NativeCalcSpec spec, RowType outputType) {
        return ExecNodeUtil.createOneInputTransformation(input, meta, new IslandOperator(spec),
                InternalTypeInfo.of(outputType), input.getParallelism(), false);
    }
}
