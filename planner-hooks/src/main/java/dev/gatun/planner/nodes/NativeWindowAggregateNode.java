package dev.gatun.planner.nodes;

import dev.gatun.planner.runtime.NativeCalcSpec;
import org.apache.calcite.rel.RelNode;

/** A native window aggregate that outputs rows (global or one-phase): its spec, and a copy with another. */
public interface NativeWindowAggregateNode {
    NativeCalcSpec spec();

    /** This node over the same input with {@code spec} (the exit fusion's, which adds a projection). */
    RelNode withSpec(NativeCalcSpec spec);
}
