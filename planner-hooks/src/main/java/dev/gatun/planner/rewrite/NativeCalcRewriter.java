package dev.gatun.planner.rewrite;

import dev.gatun.planner.nodes.StreamPhysicalNativeCalc;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.rel.RelNode;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalCalc;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Replaces every admitted {@link StreamPhysicalCalc} with a {@link StreamPhysicalNativeCalc}, 1:1. */
final class NativeCalcRewriter {
    private static final Logger LOG = LoggerFactory.getLogger(NativeCalcRewriter.class);
    private final CalcAdmission admission;
    private final Map<RelNode, RelNode> rewritten = new IdentityHashMap<>();

    NativeCalcRewriter(CalcAdmission admission) {
        this.admission = admission;
    }

    RelNode rewrite(RelNode node) {
        RelNode done = rewritten.get(node);
        if (done != null) {
            return done; // a shared subtree is rewritten once
        }
        RelNode withInputs = rewriteInputs(node);
        RelNode result = withInputs;
        if (withInputs.getClass() == StreamPhysicalCalc.class) {
            StreamPhysicalCalc calc = (StreamPhysicalCalc) withInputs;
            CalcDecision decision = admission.decide(calc);
            PlanReport.record(decision);
            if (decision.isNative()) {
                LOG.debug("Gatun: {}", decision);
            } else {
                LOG.info("Gatun: {}", decision);
            }
            if (decision.isNative()) {
                result = new StreamPhysicalNativeCalc(calc, decision.spec());
            }
        }
        rewritten.put(node, result);
        return result;
    }

    private RelNode rewriteInputs(RelNode node) {
        List<RelNode> inputs = node.getInputs();
        List<RelNode> newInputs = new ArrayList<>(inputs.size());
        boolean changed = false;
        for (RelNode input : inputs) {
            RelNode newInput = rewrite(input);
            changed |= newInput != input;
            newInputs.add(newInput);
        }
        return changed ? node.copy(node.getTraitSet(), newInputs) : node;
    }
}
