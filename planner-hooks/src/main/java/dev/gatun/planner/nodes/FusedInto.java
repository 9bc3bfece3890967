package dev.gatun.planner.nodes;

import dev.gatun.planner.runtime.NativeCalcSpec;

/** How EXPLAIN marks a stock node absorbed into the native island above it. */
final class FusedInto {
    private FusedInto() {}

    static String text(NativeCalcSpec island) {
        if (!island.localAggregate()) {
            return "fused into the NativeCalc above";
        }
        return "fused into the native " + (island.window() == null ? "LocalGroupAggregate" : "LocalWindowAggregate")
                + " above";
    }
}
