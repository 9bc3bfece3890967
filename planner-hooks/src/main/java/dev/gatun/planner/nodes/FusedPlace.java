package dev.gatun.planner.nodes;

import org.apache.calcite.rel.RelNode;

/**
 * A fused node's place in its island's chain: how many plan nodes read it, and whether the island
 * runs at it. Readers are counted while the exec graph is generated from a plan just optimized (after
 * Flink merged equal sub-plans, so a node two islands share has two readers); a node restored from a
 * compiled plan has none counted and never runs the island.
 */
final class FusedPlace {
    /** A physical node fused into an island: the place its current exec node has. */
    interface Holder {
        FusedPlace place();
    }

    private int readers;
    private boolean runsIsland;

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
