package dev.gatun.planner.rewrite;

import dev.gatun.planner.substrait.NotAdmittedException;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLocalRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalCalc;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalWatermarkAssigner;
import org.apache.flink.table.planner.plan.nodes.calcite.WatermarkUtils;

/**
 * A Calc on top of a WatermarkAssigner, optionally over a Calc below it (a table's computed
 * columns, as {@code WATERMARK FOR} a computed rowtime gives): the three can run as one native
 * island reading the rows under them. The island evaluates the top Calc's projections and filter
 * over those rows (the bottom Calc's expressions substituted in), and the assigner's rowtime and
 * watermark expressions over every row, before the filter, as the assigner sees them.
 *
 * @param top the Calc whose output the island emits
 * @param assigner the WatermarkAssigner below it
 * @param bottom the Calc below the assigner, or null when the assigner reads the input directly
 * @param input what the island reads
 * @param projections the top Calc's projections over {@code input}'s rows
 * @param condition the top Calc's filter over {@code input}'s rows, or null
 * @param rowtime the assigner's rowtime field over {@code input}'s rows (never NULL, else the job fails)
 * @param watermark the assigner's watermark expression over {@code input}'s rows
 */
public record WatermarkFusion(StreamPhysicalCalc top, StreamPhysicalWatermarkAssigner assigner,
                              StreamPhysicalCalc bottom, RelNode input, List<RexNode> projections,
                              RexNode condition, RexNode rowtime, RexNode watermark) {

    /**
     * The fusion of {@code top} with what is under it, or null when {@code top} does not sit on a
     * WatermarkAssigner. Throws {@code NotAdmittedException} when the pattern is there but cannot
     * be fused (the reason is shown in EXPLAIN).
     */
    static WatermarkFusion of(StreamPhysicalCalc top) {
        if (!(top.getInput() instanceof StreamPhysicalWatermarkAssigner assigner)) {
            return null;
        }
        RexBuilder rex = top.getCluster().getRexBuilder();
        StreamPhysicalCalc bottom = assigner.getInput().getClass() == StreamPhysicalCalc.class
                ? (StreamPhysicalCalc) assigner.getInput() : null;
        RelNode input = bottom == null ? assigner.getInput() : bottom.getInput();
        Substitution substitution = through(rex, bottom, "not fused with the WatermarkAssigner below:"
                + " the Calc under it filters rows, and filtered rows must not reach the assigner");
        RexProgram program = top.getProgram();
        List<RexNode> projections = program.getProjectList().stream()
                .map(p -> expand(rex, program, p).accept(substitution)).toList();
        RexNode condition = program.getCondition() == null ? null
                : expand(rex, program, program.getCondition()).accept(substitution);
        RexNode rowtime = rowtime(assigner, substitution);
        RexNode watermark = WatermarkUtils.simplify(top.getCluster(), assigner.watermarkExpr()).accept(substitution);
        return new WatermarkFusion(top, assigner, bottom, input, projections, condition, rowtime, watermark);
    }

    /**
     * The substitution of the computed-column Calc {@code bottom}'s expressions for the fields it
     * outputs (none when {@code bottom} is null). A Calc that filters cannot be fused:
     * {@code NotAdmittedException} with {@code filterReason}.
     */
    static Substitution through(RexBuilder rex, StreamPhysicalCalc bottom, String filterReason) {
        if (bottom == null) {
            return new Substitution(rex, null);
        }
        RexProgram program = bottom.getProgram();
        if (program.getCondition() != null) {
            throw new NotAdmittedException(filterReason);
        }
        return new Substitution(rex, program.getProjectList().stream().map(p -> expand(rex, program, p)).toList());
    }

    /** The assigner's rowtime field over the rows under the substitution's Calc. */
    static RexNode rowtime(StreamPhysicalWatermarkAssigner assigner, Substitution substitution) {
        return new RexInputRef(assigner.rowtimeFieldIndex(),
                assigner.getInput().getRowType().getFieldList().get(assigner.rowtimeFieldIndex()).getType())
                .accept(substitution);
    }

    static RexNode expand(RexBuilder rex, RexProgram program, RexLocalRef ref) {
        // SEARCH (Calcite's compact IN / range form) becomes the comparisons it stands for
        return RexUtil.expandSearch(rex, null, program.expandLocalRef(ref));
    }

    /** Replaces references to the assigner's input fields by the bottom Calc's expressions for them. */
    static final class Substitution extends RexShuttle {
        private final RexBuilder rex;
        private final List<RexNode> below;

        Substitution(RexBuilder rex, List<RexNode> below) {
            this.rex = rex;
            this.below = below;
        }

        @Override
        public RexNode visitInputRef(RexInputRef ref) {
            return below == null ? ref : below.get(ref.getIndex());
        }

        @Override
        public RexNode visitFieldAccess(RexFieldAccess access) {
            RexNode expr = access.getReferenceExpr().accept(this);
            return expr == access.getReferenceExpr() ? access : rex.makeFieldAccess(expr, access.getField().getIndex());
        }
    }
}
