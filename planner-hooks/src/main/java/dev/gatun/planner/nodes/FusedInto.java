package dev.gatun.planner.nodes;

import dev.gatun.planner.runtime.NativeCalcSpec;

/** How EXPLAIN marks a stock node absorbed into a native island (above it, or below for an exit projection). */
final class FusedInto {
    private FusedInto() {}

    static String text(NativeCalcSpec island) {
        if (island.windowAggregate()) {
            return "fused into the exit of the native window aggregate below";
        }
        if (!island.localAggregate()) {
            return "fused into the NativeCalc above";
        }
        return "fused into the native " + (island.window() == null ? "LocalGroupAggregate" : "LocalWindowAggregate")
                + " above";
    }
}
