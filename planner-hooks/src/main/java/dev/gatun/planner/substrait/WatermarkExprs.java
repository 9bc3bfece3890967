package dev.gatun.planner.substrait;

import org.apache.calcite.rex.RexNode;

/**
 * A WatermarkAssigner's two expressions over the island's input rows: the rowtime field (which
 * must never be NULL) and the watermark. They cross in the Calc's plan as {@value #ROWTIME_NAME}
 * and {@value #WATERMARK_NAME}, evaluated over every input row, before the filter.
 */
public record WatermarkExprs(RexNode rowtime, RexNode watermark) {
    public static final String ROWTIME_NAME = "gatun.rowtime";
    public static final String WATERMARK_NAME = "gatun.watermark";
}
