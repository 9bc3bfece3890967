package dev.gatun.planner.nodes;

import dev.gatun.planner.runtime.NativeCalcSpec;
import java.util.Objects;
import org.apache.calcite.rel.RelNode;

/**
 * A fused node's place in its island's chain: the island, how many plan nodes read the node, and
 * whether the island runs at it. Readers are counted while the exec graph is generated from a plan
 * just optimized (after Flink merged equal sub-plans, so a node two islands share has two readers);
 * a node restored from a compiled plan has none counted and never runs the island.
 */
final class FusedPlace {
    /** A node fused into an island (its physical node, its exec node): its place. */
    interface Holder {
        FusedPlace place();
    }

    private final NativeCalcSpec island;
    private int readers;
    private boolean runsIsland;

    FusedPlace(NativeCalcSpec island) {
        this.island = Objects.requireNonNull(island, "island");
    }

    NativeCalcSpec island() {
        return island;
    }

    /** Counts the reader of every input of {@code reader} that is a fused node. */
    static void countReads(RelNode reader) {
        for (RelNode input : reader.getInputs()) {
            if (input instanceof Holder fused && fused.place() != null) {
                fused.place().readers++;
            }
        }
    }

    boolean readByOne() {
        return readers == 1;
    }

    void runIsland() {
        runsIsland = true;
    }

    boolean runsIsland() {
        return runsIsland;
    }
}
