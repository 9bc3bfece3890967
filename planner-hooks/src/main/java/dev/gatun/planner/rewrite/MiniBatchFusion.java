package dev.gatun.planner.rewrite;

import dev.gatun.planner.substrait.NotAdmittedException;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.flink.table.api.TableConfig;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalCalc;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalMiniBatchAssigner;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalWatermarkAssigner;
import org.apache.flink.table.planner.plan.trait.MiniBatchInterval;
import org.apache.flink.table.planner.plan.trait.MiniBatchIntervalTraitDef;
import org.apache.flink.table.planner.plan.nodes.calcite.WatermarkUtils;
import org.apache.flink.table.planner.plan.trait.MiniBatchMode;

/**
 * What a native local aggregate can absorb below it besides its Calc: the processing-time
 * MiniBatchAssigner that paces its bundles with the WatermarkAssigner under it (and the Calc of a
 * table's computed columns under that); under a local window aggregate, the row-time
 * MiniBatchAssigner and the same below it, whose watermarks the island then computes natively. The island then reads the rows under them all, so a
 * Nexmark-style source's wide rows are never copied into the computed columns' rows.
 *
 * <p>The mini-batch assigner drops every watermark from below except the final one, so the
 * absorbed WatermarkAssigner's watermarks reach nothing: the island computes none, it only owes
 * the assigner's NULL check of every row's rowtime. It emits the mini-batch watermarks itself, at
 * the processing-time instants the assigner would.
 *
 * @param top the Calc directly under the aggregate, or null
 * @param miniBatch the processing-time mini-batch assigner
 * @param assigner the WatermarkAssigner under it
 * @param bottom the Calc under the assigner, or null
 * @param input what the island reads
 * @param columns the aggregate's input columns over {@code input}'s rows
 * @param condition the top Calc's filter over {@code input}'s rows, or null
 * @param rowtime the assigner's rowtime over {@code input}'s rows (NULL fails the job)
 * @param watermark under a local window aggregate (a row-time mini-batch assigner), the assigner's
 *     watermark expression over {@code input}'s rows, which the island evaluates; null otherwise
 * @param intervalMillis the mini-batch interval
 */
public record MiniBatchFusion(StreamPhysicalCalc top, StreamPhysicalMiniBatchAssigner miniBatch,
                              StreamPhysicalWatermarkAssigner assigner, StreamPhysicalCalc bottom, RelNode input,
                              List<RexNode> columns, RexNode condition, RexNode rowtime, RexNode watermark,
                              long intervalMillis) {

    /**
     * The fusion under an aggregate whose input is {@code aggregateInput}, or null when there is no
     * mini-batch assigner over a WatermarkAssigner to absorb. Throws {@code NotAdmittedException} when there is one that
     * cannot be absorbed (the reason is shown in EXPLAIN).
     */
    static MiniBatchFusion of(RelNode aggregateInput, TableConfig config, boolean window) {
        StreamPhysicalCalc top = aggregateInput.getClass() == StreamPhysicalCalc.class
                ? (StreamPhysicalCalc) aggregateInput : null;
        RelNode under = top == null ? aggregateInput : top.getInput();
        if (!(under instanceof StreamPhysicalMiniBatchAssigner miniBatch)) {
            return null;
        }
        MiniBatchInterval interval = miniBatch.getTraitSet().getTrait(MiniBatchIntervalTraitDef.INSTANCE())
                .getMiniBatchInterval();
        MiniBatchMode wanted = window ? MiniBatchMode.RowTime : MiniBatchMode.ProcTime;
        if (interval.getMode() != wanted || interval.getInterval() <= 0) {
            throw new NotAdmittedException("the " + interval.getMode() + " mini-batch assigner below is not absorbed"
                    + " (only a " + (window ? "row-time one under a window aggregate" : "processing-time one") + " is)");
        }
        if (!(miniBatch.getInput() instanceof StreamPhysicalWatermarkAssigner assigner)) {
            return null; // nothing under it worth absorbing: the assigner alone costs little
        }
        RexBuilder rex = aggregateInput.getCluster().getRexBuilder();
        if (config.get(ExecutionConfigOptions.TABLE_EXEC_SOURCE_IDLE_TIMEOUT).toMillis() > 0) {
            throw new NotAdmittedException(ExecutionConfigOptions.TABLE_EXEC_SOURCE_IDLE_TIMEOUT.key()
                    + " is set, and Gatun does not mark its input idle");
        }
        StreamPhysicalCalc bottom = assigner.getInput().getClass() == StreamPhysicalCalc.class
                ? (StreamPhysicalCalc) assigner.getInput() : null;
        RelNode input = bottom != null ? bottom.getInput() : assigner.getInput();
        WatermarkFusion.Substitution substitution = WatermarkFusion.through(rex, bottom,
                "the Calc under the WatermarkAssigner filters rows, and filtered rows must not reach the assigner");
        List<RexNode> columns;
        RexNode condition = null;
        if (top == null) {
            columns = under.getRowType().getFieldList().stream()
                    .map(f -> (RexNode) new RexInputRef(f.getIndex(), f.getType()).accept(substitution)).toList();
        } else {
            RexProgram program = top.getProgram();
            columns = program.getProjectList().stream()
                    .map(p -> WatermarkFusion.expand(rex, program, p).accept(substitution)).toList();
            if (program.getCondition() != null) {
                condition = WatermarkFusion.expand(rex, program, program.getCondition()).accept(substitution);
            }
        }
        RexNode rowtime = WatermarkFusion.rowtime(assigner, substitution);
        RexNode watermark = !window ? null
                : WatermarkUtils.simplify(aggregateInput.getCluster(), assigner.watermarkExpr()).accept(substitution);
        return new MiniBatchFusion(top, miniBatch, assigner, bottom, input, columns, condition, rowtime, watermark,
                interval.getInterval());
    }

    /** The absorbed nodes in EXPLAIN, after the aggregate's name. */
    String description() {
        return (top == null ? "" : " fused with " + top.getRelDetailedDescription())
                + " and " + miniBatch.getRelDetailedDescription()
                + " and " + assigner.getRelDetailedDescription()
                + (bottom == null ? "" : " and " + bottom.getRelDetailedDescription());
    }
}
