package dev.gatun.planner.runtime;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.operator.NativeOperator;
import dev.gatun.arrow.operator.OutputFormat;
import dev.gatun.arrow.types.Schema;
import dev.gatun.transpose.entry.BatchWriter;
import dev.gatun.transpose.exit.BinaryRowExit;
import dev.gatun.transpose.exit.ColumnarRowView;
import dev.gatun.transpose.types.TypeMapping;
import java.util.ArrayList;
import java.util.List;
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
 * A native Calc island as ONE Flink operator: rows are written straight into an Arrow batch
 * (entry transpose), the batch crosses to Rust by pointer, and the result is emitted row by row
 * from a columnar view over the imported memory (exit transpose).
 *
 * <p>A batch is flushed when it is full, when its oldest row is {@code gatun.batch.latency}
 * old, before a watermark, before a checkpoint barrier and at the end of input, so rows never
 * overtake watermarks or checkpoints. Closing releases a partial batch without emitting it.
 *
 * <p>Chained to a legacy source ({@code VALUES}, a {@code SourceFunction}), rows arrive on the
 * source's own thread while timers, checkpoints, end of input and close run on the task thread
 * (the checkpoint lock orders them). Arrow batches belong to the thread that writes them, so
 * there the operator keeps copies of the pending rows and writes, evaluates and releases each
 * batch inside the one call that flushes it, on whichever thread that is.
 */
public final class NativeCalcOperator extends TableStreamOperator<RowData>
        implements OneInputStreamOperator<RowData, RowData>, BoundedOneInput, ProcessingTimeCallback {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(NativeCalcOperator.class);
    /**
     * Whether this operator emits the watermarks a fused plan assigns ({@code spec.assignsWatermarks}:
     * the native side returns them with each batch). Not yet: until it does, the planner keeps such
     * islands unfused, and every handle here is created and fed without watermarks.
     */
    public static final boolean EMITS_ASSIGNED_WATERMARKS = false;

    private final NativeCalcSpec spec;

    private transient NativeAllocator allocator;
    private transient BatchWriter writer;
    private transient NativeOperator insertOnlyCalc;
    private transient NativeOperator rowKindCalc;
    private transient ColumnarRowView view;
    /** The exit when Rust writes Flink rows (spec.flinkRowsExit), else null and the view reads Arrow columns. */
    private transient BinaryRowExit rowsExit;
    private transient StreamRecord<RowData> out;
    private transient boolean timerPending;
    private transient NativeCalcMetrics metrics;
    private transient Schema expectedOutput;
    private transient NativeMemoryBudget budget;
    /** Pending row copies, only when chained to a legacy source (see the class comment). */
    private transient List<RowData> pendingRows;
    private transient RowDataSerializer rowCopier;

    public NativeCalcOperator(NativeCalcSpec spec) {
        this.spec = spec;
    }

    @Override
    public void open() throws Exception {
        super.open();
        TypeMapping types = new TypeMapping(spec.nanosecondTimestamps());
        budget = NativeMemoryBudget.of(getContainingTask().getEnvironment().getTaskManagerInfo().getConfiguration());
        allocator = budget.open(getOperatorName());
        writer = new BatchWriter(spec.inputType(), spec.readPaths(), types, spec.batchRows(),
                spec.insertOnlyInput(), allocator);
        view = new ColumnarRowView(spec.outputType(), types);
        rowsExit = spec.flinkRowsExit() ? new BinaryRowExit(spec.outputType().getFieldCount()) : null;
        expectedOutput = new Schema(types.fields(spec.outputType()), java.util.Map.of());
        out = new StreamRecord<>(null);
        metrics = new NativeCalcMetrics(getMetricGroup(), allocator);
        if (getContainingTask() instanceof SourceStreamTask<?, ?, ?>) {
            pendingRows = new ArrayList<>();
            rowCopier = new RowDataSerializer(spec.inputType());
        }
    }

    @Override
    public void processElement(StreamRecord<RowData> element) throws Exception {
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

    @Override
    public void onProcessingTime(long time) throws Exception {
        timerPending = false;
        flush();
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        flush();
        super.processWatermark(mark);
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        flush();
        super.prepareSnapshotPreBarrier(checkpointId);
    }

    @Override
    public void endInput() throws Exception {
        flush();
    }

    private void write(RowData row) {
        metrics.beforeWrite();
        try {
            writer.write(row);
        } catch (RuntimeException e) {
            throw budget.explain(e, allocator);
        }
        metrics.afterWrite();
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
        NativeOperator calc = calcFor(writer);
        RecordBatch evaluated;
        try {
            evaluated = calc.process(writer.finish(), null);
        } catch (RuntimeException e) {
            throw budget.explain(e, allocator);
        }
        if (rowsExit != null) {
            int rows;
            try (RecordBatch result = evaluated) {
                budget.check(allocator);
                rows = rowsExit.bind(result).rowCount();
                metrics.batchDone(rows);
            }
            for (int i = 0; i < rows; i++) {
                output.collect(out.replace(rowsExit.reusedRow(i)));
            }
            return;
        }
        try (RecordBatch result = evaluated) {
            budget.check(allocator);
            view.bind(result);
            int rows = view.rowCount();
            for (int i = 0; i < rows; i++) {
                view.setRow(i);
                output.collect(out.replace(view));
            }
            metrics.batchDone(rows);
        }
    }

    private OutputFormat exitFormat() {
        return spec.flinkRowsExit() ? OutputFormat.FLINK_ROWS : OutputFormat.ARROW;
    }

    /** The handle for the writer's current schema; a row-kind sidecar needs a second one. */
    private NativeOperator calcFor(BatchWriter w) {
        if (w.carriesRowKind()) {
            if (rowKindCalc == null) {
                rowKindCalc = createCalc(w);
            }
            return rowKindCalc;
        }
        if (insertOnlyCalc == null) {
            insertOnlyCalc = createCalc(w);
        }
        return insertOnlyCalc;
    }

    private NativeOperator createCalc(BatchWriter w) {
        return NativeOperator.create(NativeOperator.Kind.CALC, spec.substraitPlan(), w.schema(), expectedOutput,
                exitFormat(), allocator);
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
        try (NativeOperator c1 = insertOnlyCalc;
             NativeOperator c2 = rowKindCalc;
             BatchWriter w = writer) {
            if (w != null) {
                w.discard();
            }
            if (pendingRows != null) {
                pendingRows.clear();
            }
        } finally {
            allocator = null;
            insertOnlyCalc = null;
            rowKindCalc = null;
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
