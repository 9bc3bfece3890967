package dev.gatun.planner.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.testing.RuntimeJobs;
import dev.gatun.planner.testing.TestRowsFactory;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.planner.plan.utils.KeySelectorUtil;
import org.apache.flink.table.runtime.keyselector.RowDataKeySelector;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The native one-phase window aggregate (a {@link KeyedIslandOperator} over the raw rows) in Flink's
 * keyed operator test harness: rows are sliced by their rowtime, windows fire when the watermark passes
 * them and before it passes on, late rows are dropped; its state (pending rows included: batches of 3)
 * survives a snapshot into a new instance and a restore at other parallelisms, and the key group of every
 * key is the one Flink assigns through the stock key selector.
 */
@ExtendWith(LeakCheckExtension.class)
class OnePhaseWindowAggregateIslandTest {
    private static final String TUMBLE = "SELECT s, COUNT(*), SUM(a), window_start, window_end FROM TABLE(TUMBLE("
            + "TABLE h, DESCRIPTOR(ts), INTERVAL '1' SECOND)) GROUP BY window_start, window_end, s";
    private static final String HOP = "SELECT s, COUNT(*), MIN(a), window_start, window_end"
            + " FROM TABLE(HOP(TABLE h, DESCRIPTOR(ts), INTERVAL '1' SECOND, INTERVAL '3' SECOND))"
            + " GROUP BY window_start, window_end, s";
    private static final int MAX_PARALLELISM = 8;

    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void closeHarnesses() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    private static NativeCalcSpec spec(String sql) {
        TableEnvironment tEnv = RuntimeJobs.env(true, Map.of(
                "table.optimizer.agg-phase-strategy", "ONE_PHASE",
                "gatun.batch.rows", "3"));
        tEnv.executeSql("CREATE TEMPORARY TABLE h (id BIGINT NOT NULL, a INT, s STRING, ts TIMESTAMP(3),"
                + " WATERMARK FOR ts AS ts) " + TestRowsFactory.register(List.of()));
        String plan = dev.gatun.planner.Gatun.explain(tEnv, sql);
        assertTrue(plan.contains("native: WindowAggregate(") && !plan.contains("LocalWindowAggregate"), plan);
        List<NativeCalcSpec> specs = RuntimeJobs.nativeSpecs(tEnv, sql).stream()
                .filter(NativeCalcSpec::windowAggregate).toList();
        assertEquals(1, specs.size(), "one native window aggregate in " + sql);
        return specs.get(0);
    }

    /** The stock operator's key selector: the group key {@code s} of the input rows. */
    private static RowDataKeySelector keys(NativeCalcSpec spec) {
        return KeySelectorUtil.getRowDataSelector(OnePhaseWindowAggregateIslandTest.class.getClassLoader(),
                new int[] {spec.inputType().getFieldIndex("s")}, InternalTypeInfo.of(spec.inputType()));
    }

    private KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness(
            NativeCalcSpec spec, int parallelism, int subtask, OperatorSubtaskState restore) throws Exception {
        return IslandHarnesses.keyed(spec, keys(spec), MAX_PARALLELISM, parallelism, subtask, restore, open);
    }

    /** An input row: {@code a}, {@code s} and the rowtime {@code ts} (ms), placed by the spec's input columns. */
    private static StreamRecord<RowData> row(NativeCalcSpec spec, String s, Integer a, long ts) {
        GenericRowData row = new GenericRowData(spec.inputType().getFieldCount());
        row.setField(spec.inputType().getFieldIndex("s"), s == null ? null : StringData.fromString(s));
        row.setField(spec.inputType().getFieldIndex("a"), a);
        row.setField(spec.inputType().getFieldIndex("ts"), TimestampData.fromEpochMillis(ts));
        return new StreamRecord<>(row);
    }

    /** The output as {@code [s, count, sum, start, end]} strings (sorted between watermarks) and {@code W<ts>}. */
    private static List<String> output(KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> h,
                                       NativeCalcSpec spec) {
        return IslandHarnesses.output(h.getOutput(), spec);
    }

    private static List<String> rowsOnly(List<String> output) {
        List<String> rows = new ArrayList<>(output.stream().filter(r -> r.startsWith("[")).toList());
        rows.sort(null);
        return rows;
    }

    @Test
    void theInputIsTheRawRowsAndTheOutputTheStockRowType() {
        NativeCalcSpec spec = spec(TUMBLE);
        assertEquals(List.of("s", "a", "ts"), spec.inputType().getFieldNames());
        assertEquals(List.of("s", "EXPR$1", "EXPR$2", "window_start", "window_end"), spec.outputType().getFieldNames());
        assertTrue(spec.explainSummary().contains("state=keyed, window=TUMBLE(size=1000ms)"), spec.explainSummary());
        assertFalse(spec.localAggregate());
    }

    @Test
    void rowsAreSlicedByRowtimeAndWindowsFireWhenTheWatermarkPassesThem() throws Exception {
        NativeCalcSpec spec = spec(TUMBLE);
        var h = harness(spec, 1, 0, null);
        h.processElement(row(spec, "x", 5, 1_500));
        h.processElement(row(spec, "y", null, 1_001));
        h.processElement(row(spec, null, 7, 2_100));
        h.processElement(row(spec, "x", 6, 1_000)); // out of order, within the open window
        h.processWatermark(new Watermark(1_998));
        assertEquals(List.of("W1998"), output(h, spec));
        h.processWatermark(new Watermark(1_999));
        assertEquals(List.of("W1998", "[x, 2, 11, 1970-01-01T00:00:01, 1970-01-01T00:00:02]",
                "[y, 1, null, 1970-01-01T00:00:01, 1970-01-01T00:00:02]", "W1999"), output(h, spec));
        h.processElement(row(spec, "z", 1, 1_999)); // late: its window fired
        h.processElement(row(spec, "z", 2, 2_000));
        h.processWatermark(new Watermark(5_000));
        assertEquals(List.of("[null, 1, 7, 1970-01-01T00:00:02, 1970-01-01T00:00:03]",
                "[z, 1, 2, 1970-01-01T00:00:02, 1970-01-01T00:00:03]", "W5000"), output(h, spec).subList(4, 7));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {TUMBLE, HOP})
    void aSnapshotWithPendingRowsRestoresIntoANewInstanceWithTheSameOutput(String sql) throws Exception {
        NativeCalcSpec spec = spec(sql);
        var uninterrupted = harness(spec, 1, 0, null);
        var first = harness(spec, 1, 0, null);
        // 4 rows with batches of 3: one row is pending in the entry batch at the snapshot
        List<StreamRecord<RowData>> before = List.of(row(spec, "a", 1, 500), row(spec, "b", 2, 1_200),
                row(spec, "a", 3, 1_700), row(spec, null, 4, 2_900));
        List<StreamRecord<RowData>> after = List.of(row(spec, "a", 5, 1_100), row(spec, "c", 6, 2_500),
                row(spec, "b", 7, 900), row(spec, "b", 8, 3_100)); // 900 is late for TUMBLE, not for HOP
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
        int firedBefore = output(first, spec).size();
        assertEquals(expected.subList(firedBefore, expected.size()), output(restored, spec),
                "the restored instance emits what the uninterrupted one emits after the snapshot");
        assertTrue(expected.stream().anyMatch(r -> r.startsWith("[c, 1, ")), expected.toString());
    }

    @Test
    void restoringAtOtherParallelismsSplitsAndMergesTheKeyGroups() throws Exception {
        NativeCalcSpec spec = spec(HOP);
        var one = harness(spec, 1, 0, null);
        for (int i = 0; i < 40; i++) {
            one.processElement(row(spec, i == 0 ? null : "k" + i, i, 1_000 + (i % 3) * 1_000L));
        }
        one.processWatermark(new Watermark(1_999)); // the windows ending at 2000 fire before the snapshot
        OperatorSubtaskState atOne = one.snapshot(1, 1);
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
            fired.addAll(rowsOnly(output(h, spec)));
        }
        int firedBefore = rowsOnly(output(one, spec)).size();
        one.processWatermark(new Watermark(Long.MAX_VALUE));
        List<String> all = output(one, spec);
        List<String> expected = rowsOnly(all.subList(all.indexOf("W1999") + 1, all.size()));
        fired.sort(null);
        assertTrue(firedBefore > 0 && expected.size() > firedBefore, firedBefore + " then " + expected.size());
        assertEquals(expected, fired);
    }

    @Test
    void theNativeKeyGroupOfEveryKeyIsFlinksForTheStockKeySelector() throws Exception {
        NativeCalcSpec spec = spec(TUMBLE);
        RowDataKeySelector selector = keys(spec);
        var all = harness(spec, 1, 0, null);
        List<String> keys = new ArrayList<>(List.of("", " ", "a", "Ärger", "日本語", "x".repeat(7), "y".repeat(8),
                "long key ".repeat(20)));
        keys.add(null);
        for (int i = 0; i < 60; i++) {
            keys.add("key-" + i);
        }
        for (String k : keys) {
            all.processElement(row(spec, k, 1, 1_500));
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
                    RowData input = row(spec, key, 1, 1_500).getValue();
                    assertEquals(KeyGroupRangeAssignment.assignToKeyGroup(selector.getKey(input), MAX_PARALLELISM),
                            group, "the key group of key '" + key + "'");
                    assertTrue(seen.add(String.valueOf(key)), "key '" + key + "' fired twice");
                }
            }
        }
        assertEquals(keys.size(), seen.size(), "every key fired once: " + seen);
    }
}
