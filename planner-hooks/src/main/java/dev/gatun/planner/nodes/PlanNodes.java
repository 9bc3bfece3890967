package dev.gatun.planner.nodes;

import java.util.List;
import java.util.Map;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeContext;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeMetadata;
import org.apache.flink.table.planner.plan.utils.ExecNodeMetadataUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gatun's exec nodes in Flink's table of plan node types, which the compiled-plan reader
 * ({@code EXECUTE PLAN}, {@code loadPlan}) looks node types up in. Flink fills that table from a
 * fixed list; {@link ExecNodeMetadataUtil#addTestNode} is the one public way to add to it.
 */
public final class PlanNodes {
    private static final Logger LOG = LoggerFactory.getLogger(PlanNodes.class);

    private PlanNodes() {}

    /** Gatun's node types that compiled plans name. */
    private static final List<Class<? extends ExecNode<?>>> NODES = List.of(
            StreamExecNativeCalc.class, StreamExecNativeLocalGroupAggregate.class,
            StreamExecNativeLocalWindowAggregate.class, StreamExecNativeGlobalWindowAggregate.class,
            StreamExecNativeWindowAggregate.class, StreamExecFusedCalc.class,
            StreamExecFusedWatermarkAssigner.class, StreamExecFusedMiniBatchAssigner.class, BatchExecNativeCalc.class,
            BatchExecNativeLocalHashAggregate.class, BatchExecFusedCalc.class);

    /**
     * Registers Gatun's node types (the native Calc and the local aggregates, streaming and batch, and the
     * fused nodes under an island);
     * idempotent and thread-safe. If another class loader's copy of Gatun registered first (a session
     * JVM running jobs in their own class loaders), this copy takes its place, so plans read from now
     * on get classes that can run here.
     */
    public static synchronized void register() {
        for (Class<? extends ExecNode<?>> node : NODES) {
            register(node);
        }
    }

    private static void register(Class<? extends ExecNode<?>> node) {
        ExecNodeMetadata meta = ExecNodeMetadataUtil.latestAnnotation(node);
        Class<? extends ExecNode<?>> current = ExecNodeMetadataUtil.retrieveExecNode(meta.name(), meta.version());
        if (current == node) {
            return;
        }
        if (current == null) {
            ExecNodeMetadataUtil.addTestNode(node);
            LOG.debug("Gatun: plan node type {}_{} registered", meta.name(), meta.version());
            return;
        }
        for (Map.Entry<ExecNodeMetadataUtil.ExecNodeNameVersion, Class<? extends ExecNode<?>>> e
                : ExecNodeMetadataUtil.getVersionedExecNodes().entrySet()) {
            if (e.getValue() == current) {
                e.setValue(node);
            }
        }
        LOG.info("Gatun: plan node type {}_{} now resolves to this class loader's copy ({}), was {}",
                meta.name(), meta.version(), node.getClassLoader(), current.getClassLoader());
    }

    /** The node type (name and version of its newest {@link ExecNodeMetadata}) without an id. */
    static ExecNodeContext context(Class<? extends ExecNode<?>> node) {
        ExecNodeMetadata meta = ExecNodeMetadataUtil.latestAnnotation(node);
        if (meta == null) {
            throw new IllegalStateException(node.getName() + " has no @ExecNodeMetadata");
        }
        return new ExecNodeContext(meta.name() + "_" + meta.version());
    }
}
