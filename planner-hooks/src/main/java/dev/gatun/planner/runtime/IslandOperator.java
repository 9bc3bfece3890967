package dev.gatun.planner.runtime;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.operator.WatermarkProgress;
import dev.gatun.transpose.entry.BatchWriter;
import dev.gatun.transpose.types.TypeMapping;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.flink.api.common.operators.ProcessingTimeService.ProcessingTimeCallback;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.tasks.SourceStreamTask;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.operators.TableStreamOperator;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A native island as ONE Flink operator: rows are written straight into an Arrow batch (entry
 * transpose), the batch crosses to the island's native kernel by pointer, and the result rows are
 * emitted from the exit ({@link IslandExit}).
 *
 * <p>A batch is flushed when it is full, when its oldest row is {@code gatun.batch.latency} old,
 * before a watermark, before a checkpoint barrier and at the end of input, so rows never overtake
 * watermarks or checkpoints. Closing releases a partial batch without emitting it. An island fused
 * with a WatermarkAssigner ({@link WatermarkAssignment}) assigns the watermarks itself and drops
 * upstream ones except the final one.
 *
 * <p>A local-aggregate island ({@link NativeCalcSpec#localAggregate()}) folds each batch into the
 * groups its kernel keeps and emits them where Flink's local aggregate ({@code MapBundleOperator})
 * finishes its bundle: the kernel itself emits after {@link NativeCalcSpec#bundleRows()} rows
 * reached the aggregate (past the Calc's filter), and the operator makes it emit before a watermark
 * (the mini-batch assigner's), before a checkpoint barrier and at the end of input. It has no
 * latency timer: the mini-batch watermarks pace it, as they pace the stock operator. An island that
 * absorbed the processing-time mini-batch assigner below it ({@link MiniBatchAssignment}) emits
 * those watermarks itself, each after the bundle it ends. A local window-aggregate island
 * ({@link NativeCalcSpec#window()}) has no bundle: before each watermark its kernel decides, as
 * Flink's window buffer does, whether the groups leave; before a checkpoint barrier, at the end
 * of input and when Gatun's operators hold more than the task off-heap budget (Flink's buffer
 * flushes when its memory is full) they always do.
 * In a batch job ({@link NativeCalcSpec#groupLimit()} instead of a bundle) the kernel emits its groups
 * once an input batch leaves that many, as Flink's local hash aggregate does when its memory is full,
 * and the end of input emits the rest. A window-aggregate island ({@link NativeCalcSpec#windowAggregate()},
 * {@link KeyedIslandOperator}) keeps its state across watermarks: before each watermark its kernel fires
 * the windows the watermark passes; its state is written at checkpoints.
 *
 * <p>Chained to a legacy source ({@code VALUES}, a {@code SourceFunction}), rows arrive on the
 * source's own thread while timers, checkpoints, end of input and close run on the task thread
 * (the checkpoint lock orders them). Arrow batches belong to the thread that writes them, so
 * there the operator keeps copies of the pending rows and writes, evaluates and releases each
 * batch inside the one call that flushes it, on whichever thread that is.
 */
public class IslandOperator extends TableStreamOperator<RowData>
        implements OneInputStreamOperator<RowData, RowData>, BoundedOneInput, ProcessingTimeCallback {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(IslandOperator.class);

    final NativeCalcSpec spec;

    transient NativeAllocator allocator;
    transient NativeMemoryBudget budget;
    private transient BatchWriter writer;
    transient IslandKernel kernel;
    private transient IslandExit exit;
    private transient WatermarkAssignment watermarks;
    private transient MiniBatchAssignment miniBatch;
    private transient IslandExit.Emitter emitter;
    private transient boolean timerPending;
    transient NativeCalcMetrics metrics;

    /** Pending row copies, only when chained to a legacy source (see the class comment). */
    private transient List<RowData> pendingRows;
    private transient RowDataSerializer rowCopier;

    public IslandOperator(NativeCalcSpec spec) {
        this.spec = spec;
    }

    @Override
    public void open() throws Exception {
        super.open();
        startNative();
        StreamRecord<RowData> out = new StreamRecord<>(null);
        emitter = new IslandExit.Emitter() {
            @Override
            public void row(RowData row) {
                output.collect(out.replace(row));
            }

            @Override
            public void watermark(long timestamp) {
                output.emitWatermark(new Watermark(timestamp));
            }
        };
        if (spec.assignsWatermarks()) {
            long now = getProcessingTimeService().getCurrentProcessingTime();
            watermarks = new WatermarkAssignment(getExecutionConfig().getAutoWatermarkInterval(), now,
                    spec.localAggregate() ? spec.miniBatchIntervalMillis() : 0);
            if (watermarks.interval() > 0) {
                getProcessingTimeService().registerTimer(now + watermarks.interval(), this::onWatermarkTimer);
            }
        }
        if (spec.miniBatchIntervalMillis() > 0 && !spec.assignsWatermarks()) {
            miniBatch = new MiniBatchAssignment(spec.miniBatchIntervalMillis());
            long now = getProcessingTimeService().getCurrentProcessingTime();
            getProcessingTimeService().registerTimer(now + miniBatch.interval(), this::onMiniBatchTimer);
        }
        if (getContainingTask() instanceof SourceStreamTask<?, ?, ?>) {
            pendingRows = new ArrayList<>();
            rowCopier = new RowDataSerializer(spec.inputType());
        }
    }

    /**
     * The allocator, entry, kernel and exit: in {@link #open}, or earlier for a keyed island, whose
     * state is restored into the kernel before {@code open}.
     */
    void startNative() {
        if (allocator != null) {
            return;
        }
        TypeMapping types = new TypeMapping(spec.nanosecondTimestamps());
        budget = NativeMemoryBudget.of(getContainingTask().getEnvironment().getTaskManagerInfo().getConfiguration());
        allocator = budget.open(getOperatorName());
        writer = new BatchWriter(spec.inputType(), spec.readPaths(), types, spec.batchRows(),
                spec.insertOnlyInput(), allocator);
        kernel = new IslandKernel(spec, types, allocator);
        exit = IslandExit.of(spec, types);
        metrics = new NativeCalcMetrics(getMetricGroup(), allocator);
    }

    /** The kernel's one handle of an island with state, created now if it was not. */
    dev.gatun.arrow.operator.NativeOperator statefulHandle() {
        return kernel.stateful(writer);
    }

    @Override
    public void processElement(StreamRecord<RowData> element) throws Exception {
        if (miniBatch != null) {
            endBundleIfDue(getProcessingTimeService().getCurrentProcessingTime());
        }
        boolean full;
        if (pendingRows == null) {
            write(element.getValue());
            full = writer.isFull();

        } else {
            pendingRows.add(rowCopier.copy(element.getValue()));
            full = pendingRows.size() == spec.batchRows();
        }
        if (full) {
            flush();
        } else if (!timerPending && spec.latencyMillis() > 0) {
            timerPending = true;
            long now = getProcessingTimeService().getCurrentProcessingTime();
            getProcessingTimeService().registerTimer(now + spec.latencyMillis(), this);
        }
    }

    /** The batch latency timer. */
    @Override
    public void onProcessingTime(long time) throws Exception {
        timerPending = false;
        flush();
    }

    /** The fused assigner's periodic timer: the rows received so far go first, then the watermark. */
    private void onWatermarkTimer(long time) throws Exception {
        long now = getProcessingTimeService().getCurrentProcessingTime();
        if (watermarks.periodicDue(now)) {
            flush();
            Watermark advanced = watermarks.advance();
            if (advanced != null && watermarks.miniBatchForwards(advanced.getTimestamp())) {
                forward(advanced);
            }
        }
        getProcessingTimeService().registerTimer(now + watermarks.interval(), this::onWatermarkTimer);
    }

    /** The absorbed mini-batch assigner's timer. */
    private void onMiniBatchTimer(long time) throws Exception {
        long now = getProcessingTimeService().getCurrentProcessingTime();
        endBundleIfDue(now);
        getProcessingTimeService().registerTimer(miniBatch.nextTimer(now), this::onMiniBatchTimer);
    }

    /** Ends the bundle where the absorbed mini-batch assigner would emit a watermark now, then emits it. */
    private void endBundleIfDue(long now) {
        long mark = miniBatch.due(now);
        if (mark != MiniBatchAssignment.NONE) {
            finishBundle();
            output.emitWatermark(new Watermark(mark));
        }
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        if (miniBatch != null) {
            if (miniBatch.passes(mark.getTimestamp())) {
                finishBundle();
                output.emitWatermark(mark);
            }
        } else if (watermarks == null) {
            advance(mark.getTimestamp());
            super.processWatermark(mark);
        } else {
            endOfInputWatermark(mark);
        }
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        finishBundle();
        super.prepareSnapshotPreBarrier(checkpointId);
    }

    @Override
    public void endInput() throws Exception {
        finishBundle();
    }

    @Override
    public void finish() throws Exception {
        if (watermarks != null) {
            endOfInputWatermark(Watermark.MAX_WATERMARK);
        }
        if (miniBatch != null) {
            processWatermark(Watermark.MAX_WATERMARK);
        }
        super.finish();
    }

    /**
     * The fused assigner lets only the final watermark through, once: the rows it has go first,
     * with the watermarks they advance, then it.
     */
    private void endOfInputWatermark(Watermark mark) {
        if (!watermarks.isFinal(mark)) {
            return;
        }
        flush();
        watermarks.passFinal();
        forward(mark);
    }

    /**
     * A watermark the island's own assigners emit: a local window aggregate first emits the groups
     * it makes leave (as the stock one does with the watermark from the assigners below it).
     */
    private void forward(Watermark mark) {
        if (spec.localAggregate()) {
            emitGroups(() -> kernel.advance(writer, mark.getTimestamp()), false);
        }
        output.emitWatermark(mark);
    }

    private void write(RowData row) {
        metrics.beforeWrite();
        try {
            writer.write(row);
        } catch (RuntimeException e) {
            throw explain(e);
        }
        metrics.afterWrite();
    }

    /** Flushes the batch, then emits the groups a local aggregate holds. */
    private void finishBundle() {
        flush();
        if (spec.localAggregate()) {
            emitGroups(kernel::flushGroups, true);
        }
    }

    /**
     * Flushes the batch, then emits what a local aggregate must emit before the watermark passes on,
     * or the windows a window aggregate fires.
     */
    private void advance(long watermark) {
        flush();
        if (spec.localAggregate() || spec.windowAggregate()) {
            emitGroups(() -> kernel.advance(writer, watermark), false);
        }
    }

    /** Runs the rows received so far through the kernel (a keyed island's state then has them all). */
    void processPending() {
        flush();
    }

    /** @param all whether the kernel empties (else only when groups leave) */
    private void emitGroups(Supplier<RecordBatch> groups, boolean all) {
        RecordBatch out;
        try {
            out = groups.get();
        } catch (RuntimeException e) {
            throw explain(e);
        }
        if (spec.windowAggregate()) {
            heldChanged(); // fired windows free the slices no window needs any more
        } else if (all || out != null) {
            budget.held(allocator, 0); // the groups left; when none did, what is held did not change
        }
        emit(out);
    }

    private void flush() {
        if (pendingRows != null) {
            for (RowData row : pendingRows) {
                write(row);
            }
            pendingRows.clear();
        }
        if (writer.rowCount() == 0) {
            return;
        }
        RecordBatch result;
        try {
            result = kernel.process(writer, watermarks == null ? null : watermarks.progress());
        } catch (RuntimeException e) {
            throw explain(e);
        }
        boolean localWindow = spec.localAggregate() && spec.window() != null;
        if (spec.windowAggregate()) {
            heldChanged();
            budget.check(allocator);
        } else if (spec.localAggregate() && budget.bounded()) {
            budget.held(allocator, kernel.heldBytes());
            if (!localWindow) {
                budget.check(allocator);
            }
        }
        emit(result);
        if (watermarks != null) {
            long after = watermarks.progress().after();
            if (after != WatermarkProgress.NONE) {
                output.emitWatermark(new Watermark(after));
            }
        }
        if (localWindow && budget.bounded()) {
            if (budget.exceeded()) {
                // as Flink's window buffer flushes when its memory is full: the global phase merges partial groups
                emitGroups(kernel::flushGroups, true);
            }
            budget.check(allocator);
        }
    }

    /** {@code failure} explained in terms of the memory budget, where the budget caused it. */
    RuntimeException explain(RuntimeException failure) {
        return budget.explain(failure, allocator);
    }

    /** What the kernel holds between calls changed: the budget and the metrics see it (a keyed island). */
    void heldChanged() {}

    private void emit(RecordBatch result) {
        if (result == null) {
            return;
        }
        try {
            budget.check(allocator);
            metrics.resultHeld();
        } catch (RuntimeException e) {
            result.close();
            throw e;
        }
        metrics.batchDone(exit.emit(result, emitter));
    }

    @Override
    public void close() throws Exception {
        try {
            closeNative();
        } finally {
            super.close();
        }
    }

    private void closeNative() {
        NativeAllocator a = allocator;
        try (IslandKernel k = kernel;
             BatchWriter w = writer) {
            if (w != null) {
                w.discard();
            }
            if (pendingRows != null) {
                pendingRows.clear();
            }
        } finally {
            allocator = null;
            kernel = null;
            writer = null;
            if (a != null) {
                budget.closed(a);
            }
            closeAllocator(a);
        }
    }

    /**
     * close() also runs while a failed task is torn down, where an exception would take the
     * TaskManager down with it: anything still live is reported, not thrown (leak tests check
     * the allocator and the native counters themselves).
     */
    private static void closeAllocator(NativeAllocator a) {
        if (a == null) {
            return;
        }
        try {
            a.close();
        } catch (IllegalStateException e) {
            LOG.error("Gatun: native memory still live when the operator closed: {}", e.getMessage());
        }
    }
}
