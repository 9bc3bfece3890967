package dev.gatun.planner.configured;

import dev.gatun.planner.rewrite.CalcDecision;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.rel.RelNode;
import org.apache.flink.table.planner.plan.nodes.common.CommonCalc;
import org.apache.flink.table.planner.plan.nodes.physical.batch.BatchPhysicalCalc;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalCalc;

/** Puts the recorded reason of every Calc that stayed on Flink into the plan it stays in. */
final class StockReasons {
    private StockReasons() {}

    static RelNode annotate(RelNode plan, List<CalcDecision> decisions) {
        Map<String, String> reasons = new HashMap<>();
        for (CalcDecision d : decisions) {
            if (!d.isNative()) {
                reasons.put(d.calc(), d.reason());
            }
        }
        return reasons.isEmpty() ? plan : new Walk(reasons).visit(plan);
    }

    private static final class Walk {
        private final Map<String, String> reasons;
        private final Map<RelNode, RelNode> done = new IdentityHashMap<>();

        Walk(Map<String, String> reasons) {
            this.reasons = reasons;
        }

        RelNode visit(RelNode node) {
            RelNode seen = done.get(node);
            if (seen != null) {
                return seen; // a shared subtree stays shared
            }
            List<RelNode> inputs = new ArrayList<>(node.getInputs().size());
            boolean changed = false;
            for (RelNode input : node.getInputs()) {
                RelNode visited = visit(input);
                changed |= visited != input;
                inputs.add(visited);
            }
            RelNode result = changed ? node.copy(node.getTraitSet(), inputs) : node;
            if (result.getClass() == StreamPhysicalCalc.class || result.getClass() == BatchPhysicalCalc.class) {
                String reason = reasons.get(((CommonCalc) result).getRelDetailedDescription());
                if (reason != null) {
                    result = result instanceof StreamPhysicalCalc stream
                            ? new StreamPhysicalCalcWithReason(stream, reason)
                            : new BatchPhysicalCalcWithReason((BatchPhysicalCalc) result, reason);
                }
            }
            done.put(node, result);
            return result;
        }
    }
}
