package dev.gatun.planner.runtime;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.calc.NativeCalc;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.types.Schema;
import dev.gatun.planner.nodes.NativeCalcSpec;
import dev.gatun.transpose.entry.BatchWriter;
import dev.gatun.transpose.exit.ColumnarRowView;
import dev.gatun.transpose.types.TypeMapping;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.api.common.operators.ProcessingTimeService.ProcessingTimeCallback;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.operators.TableStreamOperator;
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
 */
public final class NativeCalcOperator extends TableStreamOperator<RowData>
        implements OneInputStreamOperator<RowData, RowData>, BoundedOneInput, ProcessingTimeCallback {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(NativeCalcOperator.class);

    private final NativeCalcSpec spec;

    private transient NativeAllocator allocator;
    private transient BatchWriter writer;
    private transient NativeCalc insertOnlyCalc;
    private transient NativeCalc rowKindCalc;
    private transient ColumnarRowView view;
    private transient StreamRecord<RowData> out;
    private transient boolean timerPending;
    private transient NativeCalcMetrics metrics;
    private transient Schema expectedOutput;

    public NativeCalcOperator(NativeCalcSpec spec) {
        this.spec = spec;
    }

    @Override
    public void open() throws Exception {
        super.open();
        TypeMapping types = new TypeMapping(spec.nanosecondTimestamps());
        allocator = NativeAllocator.create("gatun " + getOperatorName(), offHeapBudget());
        writer = new BatchWriter(spec.inputType(), spec.readPaths(), types, spec.batchRows(),
                spec.insertOnlyInput(), allocator);
        view = new ColumnarRowView(spec.outputType(), types);
        expectedOutput = new Schema(types.fields(spec.outputType()), java.util.Map.of());
        out = new StreamRecord<>(null);
        metrics = new NativeCalcMetrics(getMetricGroup(), allocator);
    }

    /** The task's off-heap budget bounds native memory when one is configured. */
    private long offHeapBudget() {
        MemorySize budget = getContainingTask().getEnvironment().getTaskManagerInfo().getConfiguration()
                .get(TaskManagerOptions.TASK_OFF_HEAP_MEMORY);
        return budget == null || budget.getBytes() == 0 ? Long.MAX_VALUE : budget.getBytes();
    }

    @Override
    public void processElement(StreamRecord<RowData> element) throws Exception {
        metrics.beforeWrite();
        writer.write(element.getValue());
        metrics.afterWrite();
        if (writer.isFull()) {
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

    private void flush() {
        if (writer.rowCount() == 0) {
            return;
        }
        NativeCalc calc = calcFor(writer);
        try (RecordBatch result = calc.evaluate(writer.finish())) {
            view.bind(result);
            int rows = view.rowCount();
            for (int i = 0; i < rows; i++) {
                view.setRow(i);
                output.collect(out.replace(view));
            }
            metrics.batchDone(rows);
        }
    }

    /** The handle for the writer's current schema; a row-kind sidecar needs a second one. */
    private NativeCalc calcFor(BatchWriter w) {
        if (w.carriesRowKind()) {
            if (rowKindCalc == null) {
                rowKindCalc = NativeCalc.create(spec.substraitPlan(), w.schema(), expectedOutput, allocator);
            }
            return rowKindCalc;
        }
        if (insertOnlyCalc == null) {
            insertOnlyCalc = NativeCalc.create(spec.substraitPlan(), w.schema(), expectedOutput, allocator);
        }
        return insertOnlyCalc;
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
        try (NativeCalc c1 = insertOnlyCalc;
             NativeCalc c2 = rowKindCalc;
             BatchWriter w = writer) {
            if (w != null) {
                w.discard();
            }
        } finally {
            allocator = null;
            insertOnlyCalc = null;
            rowKindCalc = null;
            writer = null;
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
