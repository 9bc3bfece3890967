package dev.gatun.arrow.operator;

import dev.gatun.arrow.types.Field;
import dev.gatun.arrow.types.Schema;

/** Calc plans for tests of downstream modules (depend on the arrow-ffm test-jar and io.substrait:core). */
public final class TestPlans {
    private TestPlans() {}

    /**
     * The identity Calc over {@code input}: every column except the row-kind sidecar, in order, under
     * its own name. Its expected output schema is {@code input} without the sidecar.
     */
    public static byte[] identity(Schema input) {
        return identityPlan(input).build();
    }

    /**
     * The identity Calc that also assigns watermarks: column {@code rowtime} (an index among the
     * columns without the sidecar) is the rowtime and column {@code watermark} gives the watermark
     * values, both TIMESTAMP(3) or TIMESTAMP_LTZ(3). Its result batches end with
     * {@value NativeOperator#WATERMARK_COLUMN}.
     */
    public static byte[] identityWithWatermarks(Schema input, int rowtime, int watermark) {
        return identityPlan(input).watermarks(PlanBuilder.field(rowtime), PlanBuilder.field(watermark)).build();
    }

    private static PlanBuilder identityPlan(Schema input) {
        PlanBuilder plan = new PlanBuilder(input);
        int column = 0;
        for (Field f : input.fields()) {
            if (!f.name().equals(NativeOperator.ROW_KIND_COLUMN)) {
                plan.project(f.name(), PlanBuilder.field(column++));
            }
        }
        return plan;
    }
}
