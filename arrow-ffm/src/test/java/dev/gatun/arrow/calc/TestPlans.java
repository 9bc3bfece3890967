package dev.gatun.arrow.calc;

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
        PlanBuilder plan = new PlanBuilder(input);
        int column = 0;
        for (Field f : input.fields()) {
            if (!f.name().equals(NativeCalc.ROW_KIND_COLUMN)) {
                plan.project(f.name(), PlanBuilder.field(column++));
            }
        }
        return plan.build();
    }
}
