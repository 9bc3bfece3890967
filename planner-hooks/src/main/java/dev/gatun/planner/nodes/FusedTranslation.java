package dev.gatun.planner.nodes;

import dev.gatun.planner.GatunOptions;
import dev.gatun.planner.runtime.BorrowedInput;
import dev.gatun.planner.runtime.FusedPassThroughOperator;
import dev.gatun.planner.runtime.NativeCalcSpec;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeConfig;
import org.apache.flink.table.planner.plan.nodes.exec.utils.ExecNodeUtil;
import org.apache.flink.table.planner.plan.nodes.exec.utils.TransformationMetadata;

/**
 * The transformations of the stock nodes a native island was fused with: pass-through operators
 * with the stock nodes' names, descriptions and uids, typed as the rows they hand through (the
 * island's input rows), each borrowing its input like the island does.
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

    static Transformation<RowData> passThrough(Transformation<RowData> input, TransformationMetadata meta,
                                               ReadableConfig config) {
        Transformation<RowData> edge = config.get(GatunOptions.ENTRY_BORROWING) ? BorrowedInput.over(input) : input;
        return ExecNodeUtil.createOneInputTransformation(edge, meta, new FusedPassThroughOperator(),
                input.getOutputType(), input.getParallelism(), false);
    }
}
