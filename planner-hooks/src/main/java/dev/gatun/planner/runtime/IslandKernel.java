package dev.gatun.planner.runtime;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.operator.NativeOperator;
import dev.gatun.arrow.operator.OutputFormat;
import dev.gatun.arrow.operator.WatermarkProgress;
import dev.gatun.arrow.types.Schema;
import dev.gatun.transpose.entry.BatchWriter;
import dev.gatun.transpose.types.TypeMapping;
import java.util.Map;

/**
 * The native kernel of an island: one native operator handle of the island's kind (a Calc, a
 * local aggregate that keeps groups across batches until {@link #flushGroups}, or a window aggregate
 * whose state lives in its handle, {@link #stateful}) per input schema the entry writes (insert-only,
 * and a second one once a row-kind sidecar appears).
 */
final class IslandKernel implements AutoCloseable {
    private final NativeCalcSpec spec;
    private final NativeAllocator allocator;
    private final Schema expectedOutput;
    private NativeOperator insertOnly;
    private NativeOperator withRowKind;

    IslandKernel(NativeCalcSpec spec, TypeMapping types, NativeAllocator allocator) {
        this.spec = spec;
        this.allocator = allocator;
        this.expectedOutput = new Schema(types.fields(spec.outputType()), Map.of());
    }

    /** Seals the writer's batch and runs it through the kernel; the result (or null) is the caller's. */
    RecordBatch process(BatchWriter writer, WatermarkProgress progress) {
        NativeOperator handle = handleFor(writer);
        return handle.process(writer.finish(), progress);
    }

    private NativeOperator handleFor(BatchWriter w) {
        if (w.carriesRowKind()) {
            if (withRowKind == null) {
                withRowKind = create(w.schema());
            }
            return withRowKind;
        }
        if (insertOnly == null) {
            insertOnly = create(w.schema());
        }
        return insertOnly;
    }

    /**
     * Emits the groups a local aggregate holds and starts over: the result (or null when there are
     * none) is the caller's. Null for a Calc, which holds nothing.
     */
    RecordBatch flushGroups() {
        return insertOnly == null || !spec.localAggregate() ? null : insertOnly.flush();
    }

    /**
     * A watermark arrived (every row before it processed): what a local aggregate emits before it
     * passes on (its kind's rule: a group aggregate everything, a window aggregate the groups once
     * Flink's window buffer would flush them), or null. Null for a Calc, which holds nothing.
     */
    RecordBatch advance(BatchWriter writer, long watermark) {
        if (!spec.localAggregate() && !spec.windowAggregate()) {
            return null;
        }
        // a window aggregate's flush rule follows every watermark, also those before its first row
        return handleFor(writer).advance(watermark);
    }

    /**
     * The one handle of a kernel with state (a window aggregate: insert-only input), created now if
     * no batch created it yet (its state is restored before the first batch).
     */
    NativeOperator stateful(BatchWriter writer) {
        if (!spec.windowAggregate()) {
            throw new IllegalStateException("a " + spec.kind() + " kernel keeps no state");
        }
        return handleFor(writer);
    }

    /** Bytes the native handles keep between calls (a local aggregate's groups), for the budget. */
    long heldBytes() {
        long bytes = 0;
        for (NativeOperator op : new NativeOperator[] {insertOnly, withRowKind}) {
            if (op != null) {
                bytes += op.heldBytes();
            }
        }
        return bytes;
    }

    private NativeOperator create(Schema input) {
        return NativeOperator.create(spec.kind(), spec.substraitPlan(), input, expectedOutput,
                spec.flinkRowsExit() ? OutputFormat.FLINK_ROWS : OutputFormat.ARROW, allocator);
    }

    @Override
    public void close() {
        try (NativeOperator a = insertOnly; NativeOperator b = withRowKind) {
            insertOnly = null;
            withRowKind = null;
        }
    }
}
