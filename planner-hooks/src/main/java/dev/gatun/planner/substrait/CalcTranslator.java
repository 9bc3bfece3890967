package dev.gatun.planner.substrait;

import static dev.gatun.planner.substrait.Kinds.sameArrow;

import dev.gatun.planner.substrait.RexTranslator.Typed;
import dev.gatun.transpose.types.TypeMapping;
import io.substrait.proto.ExpressionReference;
import io.substrait.proto.ExtendedExpression;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rex.RexNode;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * A Calc's projections and condition as a Substrait {@code ExtendedExpression} following
 * native/admission/README.md: {@code base_schema} is the pruned input (one column per read path,
 * named as the entry transpose names it), the projections come in output order, the condition is
 * one more expression named {@code gatun.filter}. The expressions come from {@link RexTranslator}.
 */
public final class CalcTranslator {
    public static final String FILTER_NAME = "gatun.filter";

    private final RexTranslator rex;

    public CalcTranslator(RowType inputType, List<int[]> readPaths, TypeMapping types,
                          List<String> disabledFunctions) {
        this.rex = new RexTranslator(inputType, readPaths, types, disabledFunctions);
    }

    public byte[] translate(List<RexNode> projections, RexNode condition, RowType outputType) {
        return translate(projections, condition, outputType, null);
    }

    /**
     * As {@link #translate(List, RexNode, RowType)}, plus a WatermarkAssigner's rowtime and
     * watermark expressions (named {@value WatermarkExprs#ROWTIME_NAME} and
     * {@value WatermarkExprs#WATERMARK_NAME}) when {@code watermark} is not null.
     */
    public byte[] translate(List<RexNode> projections, RexNode condition, RowType outputType,
                            WatermarkExprs watermark) {
        ExtendedExpression.Builder plan = ExtendedExpression.newBuilder().setBaseSchema(rex.baseSchema());
        for (int i = 0; i < projections.size(); i++) {
            String name = outputType.getFieldNames().get(i);
            LogicalType want = outputType.getTypeAt(i);
            Typed t = rex.translate(projections.get(i));
            if (!sameArrow(t.type(), want)) {
                throw new NotAdmittedException("projection " + name + " is " + t.type().asSummaryString()
                        + " but the Calc outputs " + want.asSummaryString());
            }
            List<String> names = new ArrayList<>(List.of(name));
            SubstraitTypes.nestedNames(want, names);
            plan.addReferredExpr(ExpressionReference.newBuilder().setExpression(t.expr()).addAllOutputNames(names));
        }
        if (condition != null) {
            Typed c = rex.translate(condition);
            RexTranslator.requireBoolean(c, "the filter");
            plan.addReferredExpr(ExpressionReference.newBuilder().setExpression(c.expr()).addOutputNames(FILTER_NAME));
        }
        if (watermark != null) {
            plan.addReferredExpr(ExpressionReference.newBuilder()
                    .setExpression(rex.millisecondTimestamp(watermark.rowtime(), "the rowtime").expr())
                    .addOutputNames(WatermarkExprs.ROWTIME_NAME));
            plan.addReferredExpr(ExpressionReference.newBuilder()
                    .setExpression(rex.millisecondTimestamp(watermark.watermark(), "the watermark").expr())
                    .addOutputNames(WatermarkExprs.WATERMARK_NAME));
        }
        plan.addAllExtensions(rex.extensions());
        return plan.build().toByteArray();
    }
}
