package dev.gatun.planner.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.testing.RuntimeJobs;
import dev.gatun.planner.testing.TestRowsFactory;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Meter;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.metrics.groups.InternalOperatorMetricGroup;
import org.apache.flink.runtime.metrics.groups.UnregisteredMetricGroups;
import org.apache.flink.runtime.metrics.util.InterceptingOperatorMetricGroup;
import org.apache.flink.runtime.operators.testutils.MockEnvironment;
import org.apache.flink.runtime.operators.testutils.MockEnvironmentBuilder;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.planner.plan.utils.KeySelectorUtil;
import org.apache.flink.table.runtime.keyselector.RowDataKeySelector;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The native global window aggregate (a {@link KeyedIslandOperator}) in Flink's keyed operator test
 * harness: its input is the local phase's rows ({@code s}, COUNT(*) and SUM(a) accumulators,
 * {@code $slice_end}); windows fire when the watermark passes them and before it passes on; its state
 * survives a snapshot into a new instance, at the same or another parallelism, and the key group of
 * every key in the native snapshot is the one Flink assigns through the stock key selector.
 */
@ExtendWith(LeakCheckExtension.class)
class GlobalWindowAggregateIslandTest {
    private static final String SQL = "SELECT s, COUNT(*), SUM(a), window_start, window_end"
            + " FROM TABLE(TUMBLE(TABLE h, DESCRIPTOR(ts), INTERVAL '1' SECOND)) GROUP BY window_start, window_end, s";
    private static final int MAX_PARALLELISM = 8;

    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void closeHarnesses() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    private static NativeCalcSpec spec() {
        return spec(SQL);
    }

    private static NativeCalcSpec spec(String sql) {
        TableEnvironment tEnv = RuntimeJobs.env(true, Map.of(
                "table.optimizer.agg-phase-strategy", "TWO_PHASE",
                "gatun.batch.rows", "3"));
        tEnv.executeSql("CREATE TEMPORARY TABLE h (id BIGINT NOT NULL, a INT, s STRING, ts TIMESTAMP(3),"
                + " WATERMARK FOR ts AS ts) " + TestRowsFactory.register(List.of()));
        List<NativeCalcSpec> specs = RuntimeJobs.nativeSpecs(tEnv, sql).stream()
                .filter(NativeCalcSpec::windowAggregate).toList();
        assertEquals(1, specs.size(), "one native global window aggregate in " + sql);
        return specs.get(0);
    }

    private static RowDataKeySelector keys(NativeCalcSpec spec) {
        return KeySelectorUtil.getRowDataSelector(GlobalWindowAggregateIslandTest.class.getClassLoader(),
                new int[] {0}, InternalTypeInfo.of(spec.inputType()));
    }

    private KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness(
            NativeCalcSpec spec, int parallelism, int subtask, OperatorSubtaskState restore) throws Exception {
        return IslandHarnesses.keyed(spec, keys(spec), MAX_PARALLELISM, parallelism, subtask, restore, open);
    }

    /** A local phase row: key {@code s}, COUNT(*) and SUM(a) accumulators, slice end. */
    private static StreamRecord<RowData> row(String s, long count, Integer sum, long sliceEnd) {
        return new StreamRecord<>(GenericRowData.of(s == null ? null : StringData.fromString(s), count, sum, sliceEnd));
    }

    /** The output as {@code [s, count, sum, start, end]} strings (sorted between watermarks) and {@code W<ts>}. */
    private static List<String> output(KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> h,
                                       NativeCalcSpec spec) {
        return IslandHarnesses.output(h.getOutput(), spec);
    }

    @Test
    void theInputIsTheLocalRowTypeAndTheOutputTheStockGlobalRowType() {
        NativeCalcSpec spec = spec();
        assertEquals(List.of("s", "count1$0", "sum$1", "$slice_end"), spec.inputType().getFieldNames());
        assertEquals(List.of("s", "EXPR$1", "EXPR$2", "window_start", "window_end"), spec.outputType().getFieldNames());
        assertTrue(spec.explainSummary().contains("state=keyed, window=TUMBLE(size=1000ms)"), spec.explainSummary());
        assertFalse(spec.localAggregate());
    }

    @Test
    void windowsFireWhenTheWatermarkPassesThemAndBeforeItPassesOn() throws Exception {
        NativeCalcSpec spec = spec();
        var h = harness(spec, 1, 0, null);
        h.processElement(row("x", 2, 5, 2_000));
        h.processElement(row("x", 1, 6, 2_000)); // the same window, from another local subtask
        h.processElement(row("y", 1, null, 2_000));
        h.processElement(row(null, 3, 7, 3_000));
        h.processWatermark(new Watermark(1_998));
        assertEquals(List.of("W1998"), output(h, spec));
        h.processWatermark(new Watermark(1_999));
        assertEquals(List.of("W1998", "[x, 3, 11, 1970-01-01T00:00:01, 1970-01-01T00:00:02]",
                "[y, 1, null, 1970-01-01T00:00:01, 1970-01-01T00:00:02]", "W1999"), output(h, spec));
        h.processElement(row("z", 1, 1, 2_000)); // late: its window fired
        h.processWatermark(new Watermark(5_000));
        assertEquals(List.of("[null, 3, 7, 1970-01-01T00:00:02, 1970-01-01T00:00:03]", "W5000"),
                output(h, spec).subList(4, 6));
    }

    /**
     * A window whose slice ends are not the trigger points of Flink's window buffer (here an offset)
     * stays on Flink: there Flink loses rows the native kernel would keep.
     */
    @Test
    void aWindowWhoseSliceEndsAreNotFlinksTriggerPointsStaysOnFlink() {
        TableEnvironment tEnv = RuntimeJobs.env(true, Map.of("table.optimizer.agg-phase-strategy", "TWO_PHASE"));
        tEnv.executeSql("CREATE TEMPORARY TABLE h (id BIGINT NOT NULL, a INT, s STRING, ts TIMESTAMP(3),"
                + " WATERMARK FOR ts AS ts) " + TestRowsFactory.register(List.of()));
        String offset = "SELECT s, COUNT(*), SUM(a), window_start, window_end FROM TABLE(TUMBLE(TABLE h,"
                + " DESCRIPTOR(ts), INTERVAL '10' SECOND, INTERVAL '5' SECOND)) GROUP BY window_start, window_end, s";
        assertTrue(RuntimeJobs.nativeSpecs(tEnv, offset).stream().noneMatch(NativeCalcSpec::windowAggregate));
        assertTrue(dev.gatun.planner.Gatun.explain(tEnv, offset).contains(
                "slice ends are not the trigger points of Flink's window buffer"), dev.gatun.planner.Gatun.explain(tEnv, offset));
    }

    @Test
    void aSnapshotRestoresIntoANewInstanceWithTheSameOutput() throws Exception {
        NativeCalcSpec spec = spec();
        var uninterrupted = harness(spec, 1, 0, null);
        var first = harness(spec, 1, 0, null);
        List<StreamRecord<RowData>> before = List.of(row("a", 1, 1, 1_000), row("b", 2, 2, 2_000),
                row("a", 1, 3, 2_000), row(null, 1, 4, 3_000));
        List<StreamRecord<RowData>> after = List.of(row("a", 5, 5, 2_000), row("c", 1, 6, 3_000),
                row("b", 1, 7, 1_000)); // late after the restore too
        for (var r : before) {
            uninterrupted.processElement(r);
            first.processElement(r);
        }
        uninterrupted.processWatermark(new Watermark(999));
        first.processWatermark(new Watermark(999));
        OperatorSubtaskState snapshot = first.snapshot(1, 1);
        var restored = harness(spec, 1, 0, snapshot);
        for (var r : after) {
            uninterrupted.processElement(r);
            restored.processElement(r);
        }
        uninterrupted.processWatermark(new Watermark(Long.MAX_VALUE));
        restored.processWatermark(new Watermark(Long.MAX_VALUE));
        List<String> expected = output(uninterrupted, spec);
        assertEquals(expected.subList(2, expected.size()), output(restored, spec),
                "the restored instance emits what the uninterrupted one emits after the snapshot");
        assertTrue(expected.contains("[c, 1, 6, 1970-01-01T00:00:02, 1970-01-01T00:00:03]"), expected.toString());
    }

    @Test
    void restoringAtOtherParallelismsSplitsAndMergesTheKeyGroups() throws Exception {
        NativeCalcSpec spec = spec();
        var one = harness(spec, 1, 0, null);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            keys.add(i == 0 ? null : "k" + i);
        }
        for (int i = 0; i < keys.size(); i++) {
            one.processElement(row(keys.get(i), 1, i, 2_000 + (i % 3) * 1_000L));
        }
        OperatorSubtaskState atOne = one.snapshot(1, 1);
        // 1 -> 3, then 3 -> 2: each window of each key once, from the subtask owning its key group
        List<OperatorSubtaskState> atThree = new ArrayList<>();
        for (int subtask = 0; subtask < 3; subtask++) {
            var h = harness(spec, 3, subtask, AbstractStreamOperatorTestHarness.repartitionOperatorState(
                    atOne, MAX_PARALLELISM, 1, 3, subtask));
            atThree.add(h.snapshot(2, 2));
        }
        OperatorSubtaskState mergedThree = AbstractStreamOperatorTestHarness.repackageState(
                atThree.toArray(new OperatorSubtaskState[0]));
        List<String> fired = new ArrayList<>();
        for (int subtask = 0; subtask < 2; subtask++) {
            var h = harness(spec, 2, subtask, AbstractStreamOperatorTestHarness.repartitionOperatorState(
                    mergedThree, MAX_PARALLELISM, 3, 2, subtask));
            h.processWatermark(new Watermark(Long.MAX_VALUE));
            fired.addAll(output(h, spec).stream().filter(r -> r.startsWith("[")).toList());
        }
        one.processWatermark(new Watermark(Long.MAX_VALUE));
        List<String> expected = new ArrayList<>(output(one, spec).stream().filter(r -> r.startsWith("[")).toList());
        expected.sort(null);
        fired.sort(null);
        assertEquals(40, expected.size());
        assertEquals(expected, fired);
    }

    @Test
    void theNativeKeyGroupOfEveryKeyIsFlinksForTheStockKeySelector() throws Exception {
        NativeCalcSpec spec = spec();
        RowDataKeySelector selector = keys(spec);
        var all = harness(spec, 1, 0, null);
        List<String> keys = new ArrayList<>(List.of("", " ", "a", "Ärger", "日本語", "a%b_c", "x".repeat(7),
                "y".repeat(8), "z".repeat(9), "long key ".repeat(20)));
        keys.add(null);
        for (int i = 0; i < 60; i++) {
            keys.add("key-" + i);
        }
        for (String k : keys) {
            all.processElement(row(k, 1, 1, 2_000));
        }
        OperatorSubtaskState snapshot = all.snapshot(1, 1);
        // at parallelism = max parallelism each subtask owns one key group: the keys it fires are that group's
        Set<String> seen = new HashSet<>();
        for (int group = 0; group < MAX_PARALLELISM; group++) {
            var h = harness(spec, MAX_PARALLELISM, group, AbstractStreamOperatorTestHarness.repartitionOperatorState(
                    snapshot, MAX_PARALLELISM, 1, MAX_PARALLELISM, group));
            h.processWatermark(new Watermark(Long.MAX_VALUE));
            for (Object o : h.getOutput()) {
                if (o instanceof StreamRecord<?> r) {
                    RowData out = (RowData) r.getValue();
                    String key = out.isNullAt(0) ? null : out.getString(0).toString();
                    RowData input = row(key, 1, 1, 2_000).getValue();
                    assertEquals(KeyGroupRangeAssignment.assignToKeyGroup(selector.getKey(input), MAX_PARALLELISM),
                            group, "the key group of key '" + key + "'");
                    assertTrue(seen.add(String.valueOf(key)), "key '" + key + "' fired twice");
                }
            }
        }
        assertEquals(keys.size(), seen.size(), "every key fired once: " + seen);
    }

    @Test
    void stateThatIsNotANativeFrameFailsTheRestoreNamingTheOperator() throws Exception {
        NativeCalcSpec spec = spec();
        // a keyed operator's raw keyed state written by something else: Flink's own timers here
        var other = new KeyedOneInputStreamOperatorTestHarness<>(new RawStateWriter(0x0BADF00D, null), keys(spec),
                keys(spec).getProducedType(), MAX_PARALLELISM, 1, 0);
        open.add(0, other);
        other.open();
        other.processElement(row("a", 1, 1, 2_000));
        OperatorSubtaskState foreign = other.snapshot(1, 1);
        Exception e = assertThrows(Exception.class, () -> harness(spec, 1, 0, foreign));
        String message = org.apache.flink.util.ExceptionUtils.stringifyException(e);
        assertTrue(message.contains("was not written by Gatun's native window aggregate")
                && message.contains("gatun.aggregate.window.enabled=false"), message);
    }

    @Test
    void aSectionTheKernelRefusesFailsTheRestoreAndLeaksNothing() throws Exception {
        NativeCalcSpec spec = spec();
        byte[] junk = "not an Arrow IPC section".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        var other = new KeyedOneInputStreamOperatorTestHarness<>(new RawStateWriter(KeyedIslandOperator.FRAME_MAGIC, junk),
                keys(spec), keys(spec).getProducedType(), MAX_PARALLELISM, 1, 0);
        open.add(0, other);
        other.open();
        OperatorSubtaskState corrupt = other.snapshot(1, 1);
        Exception e = assertThrows(Exception.class, () -> harness(spec, 1, 0, corrupt));
        assertTrue(e instanceof dev.gatun.ffm.NativeException
                        || org.apache.flink.util.ExceptionUtils.findThrowable(e, dev.gatun.ffm.NativeException.class)
                        .isPresent(), org.apache.flink.util.ExceptionUtils.stringifyException(e));
        // the harness is closed after the test, and the leak check then finds nothing live
    }

    @Test
    void aSnapshotThatFailsMidwayLeavesTheStateAsItWas() throws Exception {
        NativeCalcSpec spec = spec();
        var expected = harness(spec, 1, 0, null);
        var failing = harness(spec, 1, 0, null);
        for (int i = 0; i < 30; i++) {
            expected.processElement(row("k" + i, 1, i, 2_000));
            failing.processElement(row("k" + i, 1, i, 2_000));
        }
        KeyedIslandOperator op = (KeyedIslandOperator) failing.getOperator();
        op.processPending();
        int[] calls = {0};
        java.io.IOException failure = assertThrows(java.io.IOException.class,
                () -> op.statefulHandle().snapshot(MAX_PARALLELISM, (group, section) -> {
                    if (++calls[0] == 2) {
                        throw new java.io.IOException("injected: the checkpoint stream failed");
                    }
                }));
        assertTrue(failure.getMessage().contains("injected"), failure.getMessage());
        failing.snapshot(1, 1); // and a later checkpoint succeeds
        expected.processWatermark(new Watermark(Long.MAX_VALUE));
        failing.processWatermark(new Watermark(Long.MAX_VALUE));
        assertEquals(output(expected, spec), output(failing, spec));
    }

    @Test
    void lateRowsCountInFlinksNumLateRecordsDroppedOfTheOperatorGroup() throws Exception {
        NativeCalcSpec spec = spec();
        InterceptingOperatorMetricGroup operatorGroup = new InterceptingOperatorMetricGroup();
        MockEnvironment env = new MockEnvironmentBuilder().setMaxParallelism(MAX_PARALLELISM)
                .setMetricGroup(new UnregisteredMetricGroups.UnregisteredTaskMetricGroup() {
                    @Override
                    public InternalOperatorMetricGroup getOrAddOperator(OperatorID id, String name,
                                                                        Map<String, String> variables) {
                        return operatorGroup;
                    }
                }).build();
        open.add(env);
        RowDataKeySelector selector = keys(spec);
        var h = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedIslandOperator(spec), selector,
                selector.getProducedType(), env);
        h.setup(new RowDataSerializer(spec.outputType()));
        open.add(0, h);
        h.open();
        // Flink's names, on the operator's own group (the gatun subgroup is another group)
        Counter dropped = (Counter) operatorGroup.get("numLateRecordsDropped");
        assertTrue(operatorGroup.get("lateRecordsDroppedRate") instanceof Meter);
        h.processElement(row("x", 1, 1, 2_000));
        h.processWatermark(new Watermark(1_999));
        assertEquals(0, dropped.getCount());
        h.processElement(row("x", 1, 1, 2_000)); // late
        h.processElement(row("y", 1, 1, 1_000)); // late
        h.processElement(row("y", 1, 1, 3_000));
        h.processWatermark(new Watermark(2_999)); // the batch is processed before the watermark
        assertEquals(2, dropped.getCount());
        h.processElement(row("z", 1, 1, 2_000));
        h.processWatermark(new Watermark(3_999));
        assertEquals(3, dropped.getCount());
        assertEquals(List.of("[y, 1, 1, 1970-01-01T00:00:02, 1970-01-01T00:00:03]"),
                output(h, spec).stream().filter(r -> r.startsWith("[y")).toList());
    }

    /**
     * Rescaled so that one subtask receives no key group holding state: it still continues from the
     * watermark of the subtask that wrote the state (Flink's union list state of every subtask's
     * watermark), so it drops the rows of windows that fired before the snapshot, as Flink's window
     * operator does, and a lower watermark passes on as that progress.
     */
    @Test
    void aSubtaskRestoredWithoutStateContinuesFromTheWatermarkOfAllSubtasks() throws Exception {
        NativeCalcSpec spec = spec();
        RowDataKeySelector selector = keys(spec);
        var one = harness(spec, 1, 0, null);
        one.processElement(row("a", 1, 1, 2_000));
        one.processElement(row("a", 1, 2, 3_000));
        one.processWatermark(new Watermark(1_999));
        OperatorSubtaskState atOne = one.snapshot(1, 1);
        int owner = subtaskOf(selector, "a", 2);
        String other = null;
        for (int i = 0; other == null; i++) {
            if (subtaskOf(selector, "k" + i, 2) != owner) {
                other = "k" + i;
            }
        }
        var empty = harness(spec, 2, 1 - owner, AbstractStreamOperatorTestHarness.repartitionOperatorState(
                atOne, MAX_PARALLELISM, 1, 2, 1 - owner));
        KeyedIslandOperator op = (KeyedIslandOperator) empty.getOperator();
        assertEquals(0, op.statefulHandle().stateStats().keys(), "no key group of this subtask holds state");
        assertEquals(1_999, op.statefulHandle().stateStats().progress());
        empty.processElement(row(other, 1, 7, 2_000)); // its window fired before the snapshot
        empty.processElement(row(other, 1, 8, 3_000));
        empty.processWatermark(new Watermark(500)); // the restored source starts over
        empty.processWatermark(new Watermark(Long.MAX_VALUE));
        assertEquals(List.of("W1999", "[" + other + ", 1, 8, 1970-01-01T00:00:02, 1970-01-01T00:00:03]",
                "W" + Long.MAX_VALUE), output(empty, spec));
        assertEquals(1, op.statefulHandle().stateStats().lateRows());

        var owning = harness(spec, 2, owner, AbstractStreamOperatorTestHarness.repartitionOperatorState(
                atOne, MAX_PARALLELISM, 1, 2, owner));
        owning.processWatermark(new Watermark(Long.MAX_VALUE));
        assertEquals(List.of("[a, 1, 2, 1970-01-01T00:00:02, 1970-01-01T00:00:03]", "W" + Long.MAX_VALUE),
                output(owning, spec));
    }

    private static int subtaskOf(RowDataKeySelector selector, String key, int parallelism) throws Exception {
        return KeyGroupRangeAssignment.assignKeyToParallelOperator(selector.getKey(row(key, 1, 1, 0).getValue()),
                MAX_PARALLELISM, parallelism);
    }

    /**
     * Writes into every key group's raw keyed state {@code magic}, then, with a {@code payload}, its
     * length and it (state another operator, or a broken writer, left behind).
     */
    static final class RawStateWriter extends org.apache.flink.streaming.api.operators.AbstractStreamOperator<RowData>
            implements org.apache.flink.streaming.api.operators.OneInputStreamOperator<RowData, RowData> {
        private final int magic;
        private final byte[] payload;

        RawStateWriter(int magic, byte[] payload) {
            this.magic = magic;
            this.payload = payload;
        }

        @Override
        public void processElement(StreamRecord<RowData> element) {}

        @Override
        protected boolean isUsingCustomRawKeyedState() {
            return true;
        }

        @Override
        public void snapshotState(org.apache.flink.runtime.state.StateSnapshotContext context) throws Exception {
            super.snapshotState(context);
            var out = context.getRawKeyedOperatorStateOutput();
            for (int group : out.getKeyGroupList()) {
                out.startNewKeyGroup(group);
                var data = new java.io.DataOutputStream(out);
                data.writeInt(magic);
                if (payload != null) {
                    data.writeInt(payload.length);
                    data.write(payload);
                }
            }
        }
    }
}
