package dev.gatun.planner.rewrite;

import dev.gatun.planner.nodes.BatchPhysicalFusedCalc;
import dev.gatun.planner.nodes.BatchPhysicalNativeCalc;
import dev.gatun.planner.nodes.BatchPhysicalNativeLocalHashAggregate;
import dev.gatun.planner.nodes.NativeWindowAggregateNode;
import dev.gatun.planner.nodes.StreamPhysicalFusedCalc;
import dev.gatun.planner.nodes.StreamPhysicalFusedMiniBatchAssigner;
import dev.gatun.planner.nodes.StreamPhysicalFusedWatermarkAssigner;
import dev.gatun.planner.nodes.StreamPhysicalNativeCalc;
import dev.gatun.planner.nodes.StreamPhysicalNativeGlobalWindowAggregate;
import dev.gatun.planner.nodes.StreamPhysicalNativeLocalGroupAggregate;
import dev.gatun.planner.nodes.StreamPhysicalNativeWindowAggregate;
import dev.gatun.planner.runtime.NativeCalcSpec;
import dev.gatun.planner.nodes.StreamPhysicalNativeLocalWindowAggregate;
import dev.gatun.planner.substrait.NotAdmittedException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.rel.RelNode;
import org.apache.flink.table.planner.plan.nodes.common.CommonCalc;
import org.apache.flink.table.planner.plan.nodes.physical.batch.BatchPhysicalCalc;
import org.apache.flink.table.planner.plan.nodes.physical.batch.BatchPhysicalLocalHashAggregate;
import org.apache.flink.table.planner.plan.nodes.physical.batch.BatchPhysicalLocalSortAggregate;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalCalc;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalGlobalWindowAggregate;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalWindowAggregate;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalLocalGroupAggregate;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalLocalWindowAggregate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replaces every admitted {@link StreamPhysicalCalc} with a {@link StreamPhysicalNativeCalc} (or a
 * fused island), every admitted {@link BatchPhysicalCalc} with a {@link BatchPhysicalNativeCalc}, 1:1,
 * and every admitted {@link StreamPhysicalLocalGroupAggregate}, {@link StreamPhysicalLocalWindowAggregate}
 * or {@link BatchPhysicalLocalHashAggregate} (with the Calc directly below it, and for a group
 * aggregate maybe the assigners under that: {@link MiniBatchFusion}) with a
 * {@link StreamPhysicalNativeLocalGroupAggregate}, {@link StreamPhysicalNativeLocalWindowAggregate} or
 * {@link BatchPhysicalNativeLocalHashAggregate}, every admitted {@link StreamPhysicalGlobalWindowAggregate}
 * with a {@link StreamPhysicalNativeGlobalWindowAggregate} (decided on its own, whatever its local phase
 * became), and every admitted one-phase {@link StreamPhysicalWindowAggregate} with a
 * {@link StreamPhysicalNativeWindowAggregate}. A batch local sort aggregate stays on Flink, with its
 * reason recorded.
 */
final class NativeCalcRewriter {
    private static final Logger LOG = LoggerFactory.getLogger(NativeCalcRewriter.class);
    private final CalcAdmission admission;
    /** Null when local aggregates stay on Flink ({@code gatun.aggregate.local.enabled=false}). */
    private final LocalAggregateAdmission aggregates;
    /** Null when window aggregates stay on Flink (batch, or {@code gatun.aggregate.window.enabled=false}). */
    private final WindowAggregateAdmission windows;
    private final Map<RelNode, RelNode> rewritten = new IdentityHashMap<>();

    NativeCalcRewriter(CalcAdmission admission, LocalAggregateAdmission aggregates, WindowAggregateAdmission windows) {
        this.admission = admission;
        this.aggregates = aggregates;
        this.windows = windows;
    }

    RelNode rewrite(RelNode node) {
        RelNode done = rewritten.get(node);
        if (done != null) {
            return done; // a shared subtree is rewritten once
        }
        if (aggregates != null && (node.getClass() == StreamPhysicalLocalGroupAggregate.class
                || node.getClass() == StreamPhysicalLocalWindowAggregate.class)) {
            RelNode island = localAggregate(node);
            if (island != null) {
                rewritten.put(node, island);
                return island;
            }
        }
        if (aggregates != null && node.getClass() == BatchPhysicalLocalHashAggregate.class) {
            RelNode island = localHashAggregate((BatchPhysicalLocalHashAggregate) node);
            if (island != null) {
                rewritten.put(node, island);
                return island;
            }
        }
        if (aggregates != null && node.getClass() == BatchPhysicalLocalSortAggregate.class) {
            CalcDecision decision = CalcDecision.stock(((BatchPhysicalLocalSortAggregate) node)
                    .getRelDetailedDescription(), LocalAggregateAdmission.SORT_AGGREGATE_REASON);
            PlanReport.record(decision);
            LOG.info("Gatun: {}", decision);
        }
        String notFused = null;
        if (node.getClass() == StreamPhysicalCalc.class) {
            Fused fused = fuse((StreamPhysicalCalc) node);
            if (fused.island != null) {
                rewritten.put(node, fused.island);
                return fused.island;
            }
            notFused = fused.reason;
        }
        RelNode withInputs = rewriteInputs(node);
        if (windows != null && withInputs.getClass() == StreamPhysicalCalc.class) {
            Fused exit = exitFusion((StreamPhysicalCalc) withInputs);
            if (exit.island != null) {
                rewritten.put(node, exit.island);
                return exit.island;
            }
            notFused = notFused != null ? notFused : exit.reason;
        }
        RelNode result = withInputs;
        if (windows != null && withInputs.getClass() == StreamPhysicalGlobalWindowAggregate.class) {
            result = globalWindowAggregate((StreamPhysicalGlobalWindowAggregate) withInputs);
        }
        if (windows != null && withInputs.getClass() == StreamPhysicalWindowAggregate.class) {
            result = onePhaseWindowAggregate((StreamPhysicalWindowAggregate) withInputs);
        }
        if (withInputs.getClass() == StreamPhysicalCalc.class || withInputs.getClass() == BatchPhysicalCalc.class) {
            CommonCalc calc = (CommonCalc) withInputs;
            CalcDecision decision = admission.decide(calc).withNote(notFused);
            PlanReport.record(decision);
            if (decision.isNative()) {
                LOG.debug("Gatun: {}", decision);
                result = calc instanceof StreamPhysicalCalc stream
                        ? new StreamPhysicalNativeCalc(stream, decision.spec())
                        : new BatchPhysicalNativeCalc((BatchPhysicalCalc) calc, decision.spec());
            } else {
                LOG.info("Gatun: {}", decision);
            }
        }
        rewritten.put(node, result);
        return result;
    }

    /**
     * The island of {@code top} fused with the WatermarkAssigner (and computed-column Calc) under
     * it, or null when they do not fuse (the reason is recorded, and the Calc is then decided alone).
     */
    private Fused fuse(StreamPhysicalCalc top) {
        WatermarkFusion fusion;
        try {
            fusion = WatermarkFusion.of(top);
        } catch (NotAdmittedException e) {
            return new Fused(null, e.getMessage());
        }
        if (fusion == null) {
            return new Fused(null, null);
        }
        CalcDecision decision = admission.decide(fusion);
        if (!decision.isNative()) {
            return new Fused(null, "not fused with the WatermarkAssigner below: " + decision.reason());
        }
        PlanReport.record(decision);
        LOG.debug("Gatun: {}", decision);
        RelNode input = rewrite(fusion.input());
        if (fusion.bottom() != null) {
            input = new StreamPhysicalFusedCalc(fusion.bottom(), input, decision.spec());
        }
        input = new StreamPhysicalFusedWatermarkAssigner(fusion.assigner(), input, decision.spec());
        return new Fused(new StreamPhysicalNativeCalc(top, input, decision.spec()), null);
    }

    /**
     * The native island of {@code local} (a local group or window aggregate) and the Calc directly
     * below it (if any), or null when it stays on Flink (the decision and its reason are recorded; the
     * Calc is then decided alone).
     */
    private RelNode localAggregate(RelNode local) {
        String notFused = null;
        try {
            boolean window = local instanceof StreamPhysicalLocalWindowAggregate;
            MiniBatchFusion fusion = MiniBatchFusion.of(local.getInput(0), aggregates.config(), window);
            if (fusion != null) {
                CalcDecision decision = window
                        ? aggregates.decide((StreamPhysicalLocalWindowAggregate) local, fusion)
                        : aggregates.decide((StreamPhysicalLocalGroupAggregate) local, fusion);
                if (decision.isNative()) {
                    return fusedLocalAggregate(local, fusion, decision);
                }
                notFused = "not fused with the MiniBatchAssigner below: " + decision.reason();
            }
        } catch (NotAdmittedException e) {
            notFused = "not fused with the MiniBatchAssigner below: " + e.getMessage();
        }
        StreamPhysicalCalc calc = local.getInput(0).getClass() == StreamPhysicalCalc.class
                ? (StreamPhysicalCalc) local.getInput(0) : null;
        CalcDecision decision = (local instanceof StreamPhysicalLocalWindowAggregate window
                ? aggregates.decide(window, calc)
                : aggregates.decide((StreamPhysicalLocalGroupAggregate) local, calc)).withNote(notFused);
        PlanReport.record(decision);
        if (!decision.isNative()) {
            LOG.info("Gatun: {}", decision);
            return null;
        }
        LOG.debug("Gatun: {}", decision);
        RelNode input;
        if (calc == null) {
            input = rewrite(local.getInput(0));
        } else {
            input = new StreamPhysicalFusedCalc(calc, rewrite(calc.getInput()), decision.spec());
        }
        return local instanceof StreamPhysicalLocalWindowAggregate window
                ? new StreamPhysicalNativeLocalWindowAggregate(window, input, decision.spec())
                : new StreamPhysicalNativeLocalGroupAggregate((StreamPhysicalLocalGroupAggregate) local, input,
                        decision.spec());
    }

    /** The island of {@code local} that absorbed its Calc, mini-batch assigner and what is under it. */
    private RelNode fusedLocalAggregate(RelNode local, MiniBatchFusion fusion, CalcDecision decision) {
        PlanReport.record(decision);
        LOG.debug("Gatun: {}", decision);
        NativeCalcSpec spec = decision.spec();
        RelNode input = rewrite(fusion.input());
        if (fusion.bottom() != null) {
            input = new StreamPhysicalFusedCalc(fusion.bottom(), input, spec);
        }
        input = new StreamPhysicalFusedWatermarkAssigner(fusion.assigner(), input, spec);
        input = new StreamPhysicalFusedMiniBatchAssigner(fusion.miniBatch(), input, spec);
        if (fusion.top() != null) {
            input = new StreamPhysicalFusedCalc(fusion.top(), input, spec);
        }
        return local instanceof StreamPhysicalLocalWindowAggregate window
                ? new StreamPhysicalNativeLocalWindowAggregate(window, input, spec)
                : new StreamPhysicalNativeLocalGroupAggregate((StreamPhysicalLocalGroupAggregate) local, input, spec);
    }

    /** The batch counterpart of {@link #localAggregate}. */
    private RelNode localHashAggregate(BatchPhysicalLocalHashAggregate local) {
        BatchPhysicalCalc calc = local.getInput().getClass() == BatchPhysicalCalc.class
                ? (BatchPhysicalCalc) local.getInput() : null;
        CalcDecision decision = aggregates.decide(local, calc);
        PlanReport.record(decision);
        if (!decision.isNative()) {
            LOG.info("Gatun: {}", decision);
            return null;
        }
        LOG.debug("Gatun: {}", decision);
        RelNode input = calc == null ? rewrite(local.getInput())
                : new BatchPhysicalFusedCalc(calc, rewrite(calc.getInput()), decision.spec());
        return new BatchPhysicalNativeLocalHashAggregate(local, input, decision.spec());
    }

    /** The native keyed island of {@code global} (its input already rewritten), or {@code global} itself. */
    private RelNode globalWindowAggregate(StreamPhysicalGlobalWindowAggregate global) {
        CalcDecision decision = windows.decide(global);
        PlanReport.record(decision);
        if (!decision.isNative()) {
            LOG.info("Gatun: {}", decision);
            return global;
        }
        LOG.debug("Gatun: {}", decision);
        return new StreamPhysicalNativeGlobalWindowAggregate(global, global.getInput(), decision.spec());
    }

    /** The native keyed island of a one-phase window aggregate (its input already rewritten), or itself. */
    private RelNode onePhaseWindowAggregate(StreamPhysicalWindowAggregate onePhase) {
        CalcDecision decision = windows.decide(onePhase);
        PlanReport.record(decision);
        if (!decision.isNative()) {
            LOG.info("Gatun: {}", decision);
            return onePhase;
        }
        LOG.debug("Gatun: {}", decision);
        return new StreamPhysicalNativeWindowAggregate(onePhase, onePhase.getInput(), decision.spec());
    }

    /**
     * {@code calc} absorbed into the exit of the native window aggregate directly below it: the
     * aggregate, projecting, under the Calc marked fused. Or why not (null when there is no native
     * window aggregate below); the Calc is then decided alone.
     */
    private Fused exitFusion(StreamPhysicalCalc calc) {
        if (!(calc.getInput() instanceof NativeWindowAggregateNode below)) {
            return new Fused(null, null);
        }
        CalcDecision decision = windows.decideExit(calc, below.spec());
        if (!decision.isNative()) {
            return new Fused(null, "not fused into the exit of the window aggregate below: " + decision.reason());
        }
        PlanReport.record(decision);
        LOG.debug("Gatun: {}", decision);
        RelNode aggregate = below.withSpec(decision.spec());
        return new Fused(new StreamPhysicalFusedCalc(calc, aggregate, decision.spec()), null);
    }

    /** A fused island, or why there is none (null when nothing was there to fuse). */
    private record Fused(RelNode island, String reason) {}

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
