package dev.gatun.planner.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.runtime.NativeCalcSpec;
import dev.gatun.planner.testing.RuntimeJobs;
import dev.gatun.planner.testing.TestRowsFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.metrics.groups.InternalOperatorMetricGroup;
import org.apache.flink.runtime.metrics.groups.UnregisteredMetricGroups;
import org.apache.flink.runtime.metrics.util.InterceptingOperatorMetricGroup;
import org.apache.flink.runtime.operators.testutils.MockEnvironment;
import org.apache.flink.runtime.operators.testutils.MockEnvironmentBuilder;
import org.apache.flink.runtime.util.TestingTaskManagerRuntimeInfo;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The operator alone, in Flink's operator test harness: each flush trigger emits a partial
 * batch exactly when it should (and not before), closing discards it, metrics count what
 * happened, and the task off-heap budget bounds native memory.
 */
@ExtendWith(LeakCheckExtension.class)
class IslandOperatorTest {
    private static final String SQL = "SELECT id, a + 1, UPPER(s) FROM h WHERE a > 0";

    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void closeHarnesses() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    /** The spec Gatun plans for {@link #SQL} with {@code batchRows} and a latency of {@code latencyMs}. */
    private static NativeCalcSpec spec(int batchRows, long latencyMs) {
        TableEnvironment tEnv = RuntimeJobs.env(true, Map.of(
                "gatun.batch.rows", Integer.toString(batchRows),
                "gatun.batch.latency", latencyMs + " ms"));
        tEnv.executeSql("CREATE TEMPORARY TABLE h (id BIGINT NOT NULL, a INT, s STRING) "
                + TestRowsFactory.register(List.of()));
        List<NativeCalcSpec> specs = RuntimeJobs.nativeSpecs(tEnv, SQL);
        assertEquals(1, specs.size(), "one native Calc in " + SQL);
        return specs.get(0);
    }

    private OneInputStreamOperatorTestHarness<RowData, RowData> harness(NativeCalcSpec spec, MockEnvironment env)
            throws Exception {
        IslandOperator operator = new IslandOperator(spec);
        OneInputStreamOperatorTestHarness<RowData, RowData> h = env == null
                ? new OneInputStreamOperatorTestHarness<>(operator)
                : new OneInputStreamOperatorTestHarness<>(operator, env);
        // the harness keeps what it receives: copy each row off the reused columnar view
        h.setup(new RowDataSerializer(spec.outputType()));
        h.open();
        open.add(0, h);
        return h;
    }

    private static StreamRecord<RowData> row(long id, Integer a, String s) {
        return new StreamRecord<>(GenericRowData.of(id, a, s == null ? null : StringData.fromString(s)));
    }

    /** The harness output as strings: rows as {@code +I[id, a1, S]}, watermarks as {@code W<ts>}. */
    private static List<String> output(OneInputStreamOperatorTestHarness<RowData, RowData> h, NativeCalcSpec spec) {
        List<LogicalType> types = spec.outputType().getChildren();
        List<String> out = new ArrayList<>();
        for (Object o : h.getOutput()) {
            if (o instanceof Watermark w) {
                out.add("W" + w.getTimestamp());
            } else if (o instanceof StreamRecord<?> r) {
                RowData row = (RowData) r.getValue();
                StringBuilder sb = new StringBuilder(row.getRowKind().shortString()).append('[');
                for (int i = 0; i < types.size(); i++) {
                    sb.append(i == 0 ? "" : ", ").append(RowData.createFieldGetter(types.get(i), i).getFieldOrNull(row));
                }
                out.add(sb.append(']').toString());
            }
        }
        return out;
    }

    @Test
    void aFullBatchIsFlushedAtTheRowLimit() throws Exception {
        NativeCalcSpec spec = spec(4, 60_000);
        var h = harness(spec, null);
        h.processElement(row(1, 5, "a"));
        h.processElement(row(2, -5, "b")); // filtered out
        h.processElement(row(3, 7, null));
        assertEquals(List.of(), output(h, spec), "three rows of four stay in the batch");
        h.processElement(row(4, 1, "d"));
        assertEquals(List.of("+I[1, 6, A]", "+I[3, 8, null]", "+I[4, 2, D]"), output(h, spec));
    }

    @Test
    void aPartialBatchIsFlushedBeforeAWatermark() throws Exception {
        NativeCalcSpec spec = spec(100, 60_000);
        var h = harness(spec, null);
        h.processElement(row(1, 5, "a"));
        h.processElement(row(2, 6, "b"));
        assertEquals(List.of(), output(h, spec));
        h.processWatermark(new Watermark(1000));
        assertEquals(List.of("+I[1, 6, A]", "+I[2, 7, B]", "W1000"), output(h, spec), "rows first, then the watermark");
    }

    @Test
    void aPartialBatchIsFlushedBeforeTheCheckpointBarrier() throws Exception {
        NativeCalcSpec spec = spec(100, 60_000);
        var h = harness(spec, null);
        h.processElement(row(1, 5, "a"));
        h.snapshot(1, 1); // the state snapshot alone does not flush: only the pre-barrier hook does
        assertEquals(List.of(), output(h, spec));
        h.prepareSnapshotPreBarrier(2);
        assertEquals(List.of("+I[1, 6, A]"), output(h, spec));
    }

    @Test
    void aPartialBatchIsFlushedWhenItsLatencyElapses() throws Exception {
        NativeCalcSpec spec = spec(100, 50);
        var h = harness(spec, null);
        h.setProcessingTime(1000);
        h.processElement(row(1, 5, "a"));
        h.setProcessingTime(1030);
        h.processElement(row(2, 6, "b"));
        h.setProcessingTime(1049);
        assertEquals(List.of(), output(h, spec), "49 ms after the first row");
        h.setProcessingTime(1050);
        assertEquals(List.of("+I[1, 6, A]", "+I[2, 7, B]"), output(h, spec), "50 ms after the first row");
        h.processElement(row(3, 7, "c"));
        h.setProcessingTime(1099);
        assertEquals(2, output(h, spec).size(), "a new batch starts its own 50 ms");
        h.setProcessingTime(1100);
        assertEquals(3, output(h, spec).size());
    }

    @Test
    void aPartialBatchIsFlushedAtTheEndOfInput() throws Exception {
        NativeCalcSpec spec = spec(100, 60_000);
        var h = harness(spec, null);
        h.processElement(row(1, 5, "a"));
        h.processElement(row(2, 6, null));
        h.endInput();
        assertEquals(List.of("+I[1, 6, A]", "+I[2, 7, null]"), output(h, spec));
    }

    @Test
    void closingReleasesAPartialBatchWithoutEmittingIt() throws Exception {
        NativeCalcSpec spec = spec(100, 60_000);
        var h = harness(spec, null);
        h.processElement(row(1, 5, "a"));
        assertTrue(RuntimeJobs.aGatunOperatorIsMidBatch(), "a batch is being written");
        open.remove(h);
        h.close();
        assertEquals(List.of(), output(h, spec));
        assertEquals("", dev.gatun.arrow.testing.LeakCheckExtension.liveReport());
    }

    @Test
    void rowKindsPassThrough() throws Exception {
        NativeCalcSpec spec = spec(100, 60_000);
        var h = harness(spec, null);
        StreamRecord<RowData> retract = row(1, 5, "a");
        retract.getValue().setRowKind(RowKind.UPDATE_BEFORE);
        StreamRecord<RowData> update = row(1, 6, "a");
        update.getValue().setRowKind(RowKind.UPDATE_AFTER);
        h.processElement(row(1, 5, "a"));
        h.processElement(retract);
        h.processElement(update);
        h.endInput();
        assertEquals(List.of("+I[1, 6, A]", "-U[1, 6, A]", "+U[1, 7, A]"), output(h, spec));
    }

    @Test
    void metricsCountRowsBatchesBytesAndSampledConversionTime() throws Exception {
        NativeCalcSpec spec = spec(1000, 60_000);
        CapturingTaskMetricGroup metrics = new CapturingTaskMetricGroup();
        MockEnvironment env = new MockEnvironmentBuilder().setMetricGroup(metrics).build();
        open.add(env);
        var h = harness(spec, env);
        int rows = 2 * NativeCalcMetrics.SAMPLE_EVERY + 5;
        int passing = 0;
        for (int i = 0; i < rows; i++) {
            int a = i % 4 == 0 ? -1 : i; // a quarter is filtered out
            passing += a > 0 ? 1 : 0;
            h.processElement(row(i, a, "x"));
        }
        CapturingOperatorMetricGroup group = metrics.operator;
        assertEquals(List.of(NativeCalcMetrics.GROUP), group.subgroups);
        assertTrue(gauge(group, "nativeBytesLive") > 0, "a partial batch of 53 rows is live");
        h.endInput();
        assertEquals(rows, counter(group, "rowsIn"));
        assertEquals(passing, counter(group, "rowsOut"));
        assertEquals(passing, output(h, spec).size());
        assertEquals(3, counter(group, "batches"), "1000 + 1000 + the 53 rows flushed at the end");
        assertEquals(0, gauge(group, "nativeBytesLive"), "nothing held between batches");
        assertTrue(gauge(group, "nativeBytesPeak") > 0);
        assertEquals(rows / NativeCalcMetrics.SAMPLE_EVERY, gauge(group, "entryRowsSampled"),
                "one clock-timed row in " + NativeCalcMetrics.SAMPLE_EVERY);
        assertTrue(gauge(group, "entryNanosPerRowSampled") > 0);
    }

    @Test
    void javaAllocationsBeyondTheTaskOffHeapBudgetFailNamingIt() throws Exception {
        NativeCalcSpec spec = spec(4096, 60_000);
        var h = harness(spec, envWithOffHeap(MemorySize.parse("16 kb")));
        Exception e = assertThrows(Exception.class, () -> h.processElement(row(1, 5, "a")));
        assertInstanceOf(NativeMemoryBudget.NativeMemoryBudgetException.class, e);
        assertTrue(e.getMessage().contains("beyond the task off-heap budget taskmanager.memory.task.off-heap.size = 16.000kb (16384 bytes)")
                && e.getMessage().contains("gatun.batch.rows"), e.getMessage());
    }

    @Test
    void importedResultsCountAgainstTheBudgetToo() throws Exception {
        NativeCalcSpec spec = spec(64, 60_000);
        // measure: the entry batch alone, then the peak with the result imported
        CapturingTaskMetricGroup metrics = new CapturingTaskMetricGroup();
        MockEnvironment measureEnv = new MockEnvironmentBuilder().setMetricGroup(metrics).build();
        open.add(measureEnv);
        var measure = harness(spec, measureEnv);
        for (int i = 0; i < 63; i++) {
            measure.processElement(row(i, 5, "some text to upper-case " + i));
        }
        assertEquals(List.of(), output(measure, spec));
        measure.processElement(row(63, 5, "some text to upper-case"));
        long javaPeak = NativeAllocator.openAllocators().stream()
                .filter(a -> a.name().startsWith("gatun ")).mapToLong(NativeAllocator::peakJavaBytes).max().orElseThrow();
        long peak = gauge(metrics.operator, "nativeBytesPeak");
        assertTrue(peak > javaPeak, "the peak " + peak + " holds the imported result beyond the Java-written peak "
                + javaPeak);
        long entryBytes = javaPeak;

        // a budget the entry batch fits in but not the entry batch plus the result
        var h = harness(spec, envWithOffHeap(new MemorySize(entryBytes)));
        for (int i = 0; i < 63; i++) {
            h.processElement(row(i, 5, "some text to upper-case " + i));
        }
        Exception e = assertThrows(Exception.class, () -> h.processElement(row(63, 5, "some text to upper-case")));
        assertInstanceOf(NativeMemoryBudget.NativeMemoryBudgetException.class, e);
        assertEquals(null, e.getCause(), "refused after the import, not at a Java allocation");
        assertTrue(e.getMessage().contains("taskmanager.memory.task.off-heap.size = ")
                && e.getMessage().contains("(" + entryBytes + " bytes)")
                && e.getMessage().contains("imported bytes;"), e.getMessage());
    }

    private MockEnvironment envWithOffHeap(MemorySize budget) {
        Configuration conf = new Configuration();
        conf.set(TaskManagerOptions.TASK_OFF_HEAP_MEMORY, budget);
        MockEnvironment env = new MockEnvironmentBuilder()
                .setTaskManagerRuntimeInfo(new TestingTaskManagerRuntimeInfo(conf)).build();
        open.add(env);
        return env;
    }

    private static long counter(CapturingOperatorMetricGroup group, String name) {
        Metric m = group.get(name);
        assertInstanceOf(Counter.class, m, name);
        return ((Counter) m).getCount();
    }

    private static long gauge(CapturingOperatorMetricGroup group, String name) {
        Metric m = group.get(name);
        assertInstanceOf(Gauge.class, m, name);
        return ((Number) ((Gauge<?>) m).getValue()).longValue();
    }

    /** A task metric group whose operator group keeps every metric registered in it or its subgroups. */
    static final class CapturingTaskMetricGroup extends UnregisteredMetricGroups.UnregisteredTaskMetricGroup {
        CapturingOperatorMetricGroup operator;

        @Override
        public InternalOperatorMetricGroup getOrAddOperator(OperatorID id, String name, Map<String, String> variables) {
            operator = new CapturingOperatorMetricGroup();
            return operator;
        }
    }

    /** Subgroups are flattened into this group; their names are recorded. */
    static final class CapturingOperatorMetricGroup extends InterceptingOperatorMetricGroup {
        final List<String> subgroups = new ArrayList<>();

        @Override
        public MetricGroup addGroup(String name) {
            subgroups.add(name);
            return this;
        }
    }
}
