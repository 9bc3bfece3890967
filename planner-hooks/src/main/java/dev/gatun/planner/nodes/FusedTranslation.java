package dev.gatun.planner.nodes;

import dev.gatun.planner.GatunOptions;
import dev.gatun.planner.runtime.BorrowedInput;
import dev.gatun.planner.runtime.FusedPassThroughOperator;
import dev.gatun.planner.runtime.IslandOperator;
import dev.gatun.planner.runtime.NativeCalcSpec;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.planner.delegation.PlannerBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeConfig;
import org.apache.flink.table.planner.plan.nodes.exec.utils.ExecNodeUtil;
import org.apache.flink.table.planner.plan.nodes.exec.utils.TransformationMetadata;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

/**
 * The transformations of a native island and of the stock nodes it was fused with: the island
 * operator, and pass-through operators with the stock nodes' names, descriptions and uids, typed as
 * the rows they hand through.
 *
 * <p>A Calc island runs at its top node, the pass-throughs below it hand on its input rows. A local
 * aggregate island runs at its bottom node, straight over its input, and the pass-throughs above it
 * (the top node's included) hand on its aggregated rows: an aggregate emits far fewer rows than it
 * reads, so the chained hops cost per group instead of per input row. Not where another island shares
 * a node of its chain, nor in a plan restored from its JSON ({@link FusedPlace}): there it runs at the
 * top. Either way the job graph (operators, edges, chains, so the operator IDs) is the stock one.
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

    /**
     * Called by the top node of a local aggregate {@code island} before its input is translated:
     * whether the island runs at the lowest fused node below {@code top}, which it then marks. It
     * does where every fused node of the chain has {@code top}'s chain as its only reader; a node
     * shared with another island's chain (Flink merged equal sub-plans) keeps the island at the top.
     */
    static boolean placeIslandBelow(ExecNode<?> top, NativeCalcSpec island) {
        FusedPlace bottom = null;
        ExecNode<?> node = top.getInputEdges().get(0).getSource();
        while (node instanceof FusedPlace.Holder fused && fused.place().island().equals(island)) {
            if (!fused.place().readByOne()) {
                return false;
            }
            bottom = fused.place();
            node = node.getInputEdges().get(0).getSource();
        }
        if (bottom == null) {
            return false;
        }
        bottom.runIsland();
        return true;
    }

    /**
     * The top node of a local aggregate {@code island} in a streaming job, translating its input: a
     * pass-through where the island runs at a fused node below it, else the island over the input.
     */
    @SuppressWarnings("unchecked")
    static Transformation<RowData> localAggregate(ExecNode<?> top, NativeCalcSpec island, PlannerBase planner,
                                                  TransformationMetadata meta, ReadableConfig config,
                                                  RowType outputType) {
        boolean islandBelow = placeIslandBelow(top, island);
        Transformation<RowData> input =
                (Transformation<RowData>) top.getInputEdges().get(0).translateToPlan(planner);
        if (islandBelow) {
            return passThrough(input, meta, config);
        }
        return island(borrowed(input, config), meta, island, outputType);
    }

    /**
     * A fused node of a streaming job over its translated {@code input}: the island where the top
     * node placed it here, else a pass-through.
     */
    static Transformation<RowData> fusedNode(FusedPlace place, Transformation<RowData> input,
                                             TransformationMetadata meta, ReadableConfig config) {
        if (place.runsIsland()) {
            return island(borrowed(input, config), meta, place.island(), place.island().outputType());
        }
        return passThrough(input, meta, config);
    }

    /** A pass-through in a streaming job, borrowing its input like the island does. */
    static Transformation<RowData> passThrough(Transformation<RowData> input, TransformationMetadata meta,
                                               ReadableConfig config) {
        return passThrough(borrowed(input, config), input, meta);
    }

    /** The entry edge of an island (or pass-through) over {@code input}: borrowing where configured. */
    static Transformation<RowData> borrowed(Transformation<RowData> input, ReadableConfig config) {
        return config.get(GatunOptions.ENTRY_BORROWING) ? BorrowedInput.over(input) : input;
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
