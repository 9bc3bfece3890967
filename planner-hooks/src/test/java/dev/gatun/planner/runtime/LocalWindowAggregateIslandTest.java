package dev.gatun.planner.runtime;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.testing.RuntimeJobs;
import dev.gatun.planner.testing.TestRowsFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.TaskManagerOptions;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.apache.flink.table.data.TimestampData;

/**
 * A native local window-aggregate island in Flink's operator test harness: its rows carry Flink's
 * {@code $slice_end}, and the groups leave where Flink's local window buffer flushes (a watermark
 * above the earlier ones, at or past the next trigger point, once the earliest buffered slice has
 * fired; before a checkpoint barrier; at the end of input) and not one step before.
 */
@ExtendWith(LeakCheckExtension.class)
class LocalWindowAggregateIslandTest {
    private static final String SQL = "SELECT window_start, window_end, s, COUNT(*), SUM(a)"
            + " FROM TABLE(TUMBLE(TABLE h, DESCRIPTOR(ts), INTERVAL '1' SECOND)) WHERE a > 0"
            + " GROUP BY window_start, window_end, s";

    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void closeHarnesses() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    private static NativeCalcSpec spec() {
        return spec(Map.of("table.optimizer.agg-phase-strategy", "TWO_PHASE", "gatun.batch.rows", "2"));
    }

    /**
     * The island that also absorbed the row-time mini-batch assigner (1 s), the WatermarkAssigner
     * ({@code ts}, no delay) and the Calc: it reads the source's rows and assigns the watermarks.
     */
    private static NativeCalcSpec fusedSpec() {
        return spec(Map.of("table.optimizer.agg-phase-strategy", "TWO_PHASE", "gatun.batch.rows", "16",
                "table.exec.mini-batch.enabled", "true", "table.exec.mini-batch.allow-latency", "1 s",
                "table.exec.mini-batch.size", "1000"));
    }

    private static NativeCalcSpec spec(Map<String, String> settings) {
        TableEnvironment tEnv = RuntimeJobs.env(true, settings);
        tEnv.executeSql("CREATE TEMPORARY TABLE h (id BIGINT NOT NULL, a INT, s STRING, ts TIMESTAMP(3),"
                + " WATERMARK FOR ts AS ts) " + TestRowsFactory.register(List.of()));
        List<NativeCalcSpec> specs = RuntimeJobs.nativeSpecs(tEnv, SQL).stream()
                .filter(NativeCalcSpec::localAggregate).toList();
        assertEquals(1, specs.size(), "one native local window aggregate in " + SQL);
        return specs.get(0);
    }

    private OneInputStreamOperatorTestHarness<RowData, RowData> harness(NativeCalcSpec spec) throws Exception {
        OneInputStreamOperatorTestHarness<RowData, RowData> h =
                new OneInputStreamOperatorTestHarness<>(new IslandOperator(spec));
        h.getExecutionConfig().setAutoWatermarkInterval(200);
        h.setup(new RowDataSerializer(spec.outputType()));
        h.open();
        open.add(0, h);
        return h;
    }

    private static StreamRecord<RowData> row(long id, Integer a, String s, long ts) {
        return new StreamRecord<>(GenericRowData.of(id, a, s == null ? null : StringData.fromString(s),
                TimestampData.fromEpochMillis(ts)));
    }

    /** The output as {@code [s, count, sum, slice end]} strings (sorted between watermarks) and {@code W<ts>}. */
    private static List<String> output(OneInputStreamOperatorTestHarness<RowData, RowData> h, NativeCalcSpec spec) {
        return IslandHarnesses.output(h.getOutput(), spec);
    }

    @Test
    void theOutputIsTheStockLocalWindowRowType() {
        NativeCalcSpec spec = spec();
        assertEquals(List.of("s", "count1$0", "sum$1", "$slice_end"), spec.outputType().getFieldNames());
        assertTrue(spec.explainSummary().contains("window=TUMBLE(size=1000ms), batch=2"), spec.explainSummary());
        assertEquals(0, spec.bundleRows());
    }

    @Test
    void groupsLeaveOnTheWatermarkThatFiresTheEarliestSliceAndNotBefore() throws Exception {
        NativeCalcSpec spec = spec();
        var h = harness(spec);
        h.processElement(row(1, 5, "x", 1_500));
        h.processElement(row(2, 6, "x", 2_500));
        h.processElement(row(3, -1, "y", 1_200)); // filtered out: never reaches the aggregate
        h.processWatermark(new Watermark(0)); // watermarks start above 0
        h.processWatermark(new Watermark(500)); // slice 2000 fires at 1999
        h.processWatermark(new Watermark(1_998));
        assertEquals(List.of("W0", "W500", "W1998"), output(h, spec));
        h.processWatermark(new Watermark(1_999));
        assertEquals(List.of("W0", "W500", "W1998", "[x, 1, 5, 2000]", "[x, 1, 6, 3000]", "W1999"),
                output(h, spec));
        // a late row waits for the next trigger point (2999), as in Flink's buffer
        h.processElement(row(4, 7, "z", 100));
        h.processWatermark(new Watermark(2_500));
        assertEquals("W2500", output(h, spec).getLast());
        h.processWatermark(new Watermark(2_999));
        assertEquals(List.of("W2500", "[z, 1, 7, 1000]", "W2999"), output(h, spec).subList(6, 9));
    }

    @Test
    void watermarksBeforeTheFirstRowSetTheTriggerPointsToo() throws Exception {
        NativeCalcSpec spec = spec();
        var h = harness(spec);
        h.processWatermark(new Watermark(1_000));
        h.processWatermark(new Watermark(2_000)); // the next trigger point is now 2999
        h.processElement(row(1, 5, "x", 100)); // late, slice 1000
        h.processWatermark(new Watermark(2_500));
        assertEquals(List.of("W1000", "W2000", "W2500"), output(h, spec));
        h.processWatermark(new Watermark(2_999));
        assertEquals(List.of("W1000", "W2000", "W2500", "[x, 1, 5, 1000]", "W2999"), output(h, spec));
    }

    @Test
    void theGroupsLeaveBeforeTheCheckpointBarrierAndAtTheEndOfInput() throws Exception {
        NativeCalcSpec spec = spec();
        var h = harness(spec);
        h.processElement(row(1, 5, "x", 1_500));
        h.snapshot(1, 1);
        assertEquals(List.of(), output(h, spec));
        h.prepareSnapshotPreBarrier(2);
        assertEquals(List.of("[x, 1, 5, 2000]"), output(h, spec));
        h.processElement(row(2, 1, null, -1));
        h.endInput();
        assertEquals(List.of("[null, 1, 1, 0]", "[x, 1, 5, 2000]"), output(h, spec));
    }

    @Test
    void aNullRowtimeFailsWithFlinksMessage() throws Exception {
        NativeCalcSpec spec = spec();
        var h = harness(spec);
        h.processElement(new StreamRecord<>(GenericRowData.of(1L, 1, StringData.fromString("x"), null)));
        Exception e = assertThrows(Exception.class, h::endInput);
        assertTrue(e.getMessage().contains("RowTime field should not be null"), e.getMessage());
    }

    @Test
    void theAbsorbedAssignersForwardTheWatermarksOfABatchBetweenItsGroups() throws Exception {
        NativeCalcSpec spec = fusedSpec();
        assertTrue(spec.assignsWatermarks() && spec.miniBatchIntervalMillis() == 1_000, spec.explainSummary());
        var h = harness(spec);
        // each row advances the watermark by more than the 200 ms interval (so the assigner emits it)
        // unless said; the mini-batch assigner forwards it once it reaches the end of the second
        h.processElement(row(1, 5, "x", 1_500)); // forwarded: 1500 >= 999, the next end is 1999
        h.processElement(row(2, 6, "y", 1_900)); // emitted by the assigner, not forwarded
        h.processElement(row(3, 7, "x", 2_600)); // forwarded at a trigger point: slice 2000 fired
        h.processElement(row(4, -1, "z", 2_700)); // filtered; only 100 ms on
        h.processElement(row(5, 8, "x", 3_100)); // forwarded; its slice 4000 has not fired
        assertEquals(List.of(), output(h, spec));
        h.prepareSnapshotPreBarrier(1);
        // 2600 and 3100 have no row between them: the island emits the later one only
        assertEquals(List.of("W1500", "[x, 1, 5, 2000]", "[x, 1, 7, 3000]", "[y, 1, 6, 2000]", "W3100",
                "[x, 1, 8, 4000]"), output(h, spec));
    }

    @Test
    void thePeriodicWatermarkPassesOnlyWhereTheMiniBatchAssignerForwardsIt() throws Exception {
        NativeCalcSpec spec = fusedSpec();
        var h = harness(spec);
        h.processElement(row(1, 5, "x", 1_000)); // forwarded: the next end is 1999
        h.processElement(row(2, 6, "y", 1_950)); // emitted by the assigner, not forwarded
        h.processElement(row(3, 7, "x", 2_010)); // only 60 ms on: waits for the periodic emission
        h.setProcessingTime(200);
        assertEquals(List.of("W1000", "[x, 1, 5, 2000]", "[x, 1, 7, 3000]", "[y, 1, 6, 2000]", "W2010"),
                output(h, spec));
        h.processElement(row(4, 8, "z", 2_100));
        h.setProcessingTime(400); // the assigner emits 2100; below 2999, the mini-batch assigner holds it
        assertEquals(5, output(h, spec).size(), output(h, spec).toString());
        h.processWatermark(new Watermark(Long.MAX_VALUE));
        assertEquals(List.of("[z, 1, 8, 3000]", "W" + Long.MAX_VALUE), output(h, spec).subList(5, 7));
    }

    @Test
    void beyondTheTaskOffHeapBudgetTheGroupsLeaveEarlyAsAFullFlinkBufferFlushes() throws Exception {
        NativeCalcSpec spec = spec();
        Configuration conf = new Configuration();
        conf.set(TaskManagerOptions.TASK_OFF_HEAP_MEMORY, MemorySize.parse("1 mb"));
        MockEnvironment env = new MockEnvironmentBuilder()
                .setTaskManagerRuntimeInfo(new TestingTaskManagerRuntimeInfo(conf)).build();
        open.add(env);
        var h = new OneInputStreamOperatorTestHarness<RowData, RowData>(new IslandOperator(spec), env);
        h.setup(new RowDataSerializer(spec.outputType()));
        h.open();
        open.add(0, h);
        int keys = 40_000; // one window; far more groups than 1 MB holds
        for (int i = 0; i < keys; i++) {
            h.processElement(row(i, 1, "key-" + i, 1_500));
        }
        int early = h.getOutput().size();
        assertTrue(early > 0 && early < keys, "groups that left before any watermark or barrier: " + early);
        h.endInput();
        List<String> out = output(h, spec);
        assertEquals(keys, out.size(), "each key once");
        assertTrue(out.stream().allMatch(r -> r.endsWith(", 1, 1, 2000]")), out.subList(0, 3).toString());
    }
}
