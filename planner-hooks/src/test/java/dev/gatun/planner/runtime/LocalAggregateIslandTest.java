package dev.gatun.planner.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.testing.RuntimeJobs;
import dev.gatun.planner.testing.TestRowsFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.LogicalType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A native local-aggregate island in Flink's operator test harness: the groups come out where
 * Flink's local aggregate finishes a bundle (the mini-batch size of rows that reach the aggregate,
 * counted past the Calc's filter; before a watermark, before a checkpoint barrier, at the end of
 * input) and not one step before; closing discards what is held and leaks nothing.
 */
@ExtendWith(LeakCheckExtension.class)
class LocalAggregateIslandTest {
    private static final String SQL = "SELECT s, COUNT(*), SUM(a) FROM h WHERE a > 0 GROUP BY s";

    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void closeHarnesses() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    /** The island Gatun plans for {@link #SQL} with bundles of {@code bundle} rows, batches of {@code batch}. */
    private static NativeCalcSpec spec(int bundle, int batch) {
        return spec(bundle, batch, "");
    }

    /** The same over a table {@code h} with {@code more} columns (a watermark, for one). */
    private static NativeCalcSpec spec(int bundle, int batch, String more) {
        TableEnvironment tEnv = RuntimeJobs.env(true, Map.of(
                "table.exec.mini-batch.enabled", "true",
                "table.exec.mini-batch.allow-latency", "1 h",
                "table.exec.mini-batch.size", Integer.toString(bundle),
                "table.optimizer.agg-phase-strategy", "TWO_PHASE",
                "gatun.batch.rows", Integer.toString(batch)));
        tEnv.executeSql("CREATE TEMPORARY TABLE h (id BIGINT NOT NULL, a INT, s STRING" + more + ") "
                + TestRowsFactory.register(List.of()));
        List<NativeCalcSpec> specs = RuntimeJobs.nativeSpecs(tEnv, SQL).stream()
                .filter(NativeCalcSpec::localAggregate).toList();
        assertEquals(1, specs.size(), "one native local aggregate in " + SQL);
        assertEquals(bundle, specs.get(0).bundleRows());
        return specs.get(0);
    }

    private OneInputStreamOperatorTestHarness<RowData, RowData> harness(NativeCalcSpec spec) throws Exception {
        OneInputStreamOperatorTestHarness<RowData, RowData> h =
                new OneInputStreamOperatorTestHarness<>(new IslandOperator(spec));
        h.setup(new RowDataSerializer(spec.outputType()));
        h.open();
        open.add(0, h);
        return h;
    }

    private static StreamRecord<RowData> row(long id, Integer a, String s) {
        return new StreamRecord<>(GenericRowData.of(id, a, s == null ? null : StringData.fromString(s)));
    }

    /** The output as {@code [s, count, sum]} strings (sorted between watermarks: bundles have no row order) and {@code W<ts>}. */
    private static List<String> output(OneInputStreamOperatorTestHarness<RowData, RowData> h, NativeCalcSpec spec) {
        List<LogicalType> types = spec.outputType().getChildren();
        List<String> out = new ArrayList<>();
        for (Object o : h.getOutput()) {
            if (o instanceof Watermark w) {
                out.add("W" + w.getTimestamp());
            } else if (o instanceof StreamRecord<?> r) {
                out.add(IslandHarnesses.text((RowData) r.getValue(), types));
            }
        }
        return out;
    }

    @Test
    void theOutputIsTheStockLocalRowType() {
        NativeCalcSpec spec = spec(3, 2);
        assertEquals(List.of("s", "count1$0", "sum$1"), spec.outputType().getFieldNames());
        assertTrue(spec.explainSummary().contains("bundle=3, batch=2"), spec.explainSummary());
        assertEquals(0, spec.latencyMillis(), "no latency timer: mini-batch watermarks pace the island");
    }

    @Test
    void groupsAreEmittedWhenTheBundleIsFullAndNotBefore() throws Exception {
        NativeCalcSpec spec = spec(3, 2);
        var h = harness(spec);
        h.processElement(row(1, 5, "x"));
        h.processElement(row(2, 6, "x")); // a full batch: folded, nothing emitted
        assertEquals(List.of(), output(h, spec));
        h.processElement(row(3, -1, "y")); // filtered out by the Calc: it never reaches the aggregate
        assertEquals(List.of(), output(h, spec));
        h.processElement(row(4, 1, null)); // the third row that reaches the aggregate ends the bundle
        assertEquals(List.of("[x, 2, 11]", "[null, 1, 1]"), output(h, spec));
        h.processElement(row(5, 2, null));
        h.processElement(row(6, 4, "x"));
        assertEquals(List.of("[x, 2, 11]", "[null, 1, 1]"), output(h, spec));
        h.endInput();
        assertEquals(List.of("[x, 2, 11]", "[null, 1, 1]", "[null, 1, 2]", "[x, 1, 4]"), output(h, spec));
    }

    @Test
    void aWatermarkFlushesTheGroupsFirst() throws Exception {
        NativeCalcSpec spec = spec(100, 100);
        var h = harness(spec);
        h.processElement(row(1, 5, "x"));
        h.processElement(row(2, 6, "y"));
        h.processElement(row(3, 7, "x"));
        assertEquals(List.of(), output(h, spec));
        h.processWatermark(new Watermark(1000));
        assertEquals(List.of("[x, 2, 12]", "[y, 1, 6]", "W1000"), output(h, spec));
        h.processWatermark(new Watermark(2000));
        assertEquals(List.of("[x, 2, 12]", "[y, 1, 6]", "W1000", "W2000"), output(h, spec), "nothing held");
    }

    @Test
    void theGroupsLeaveBeforeTheCheckpointBarrier() throws Exception {
        NativeCalcSpec spec = spec(100, 100);
        var h = harness(spec);
        h.processElement(row(1, 5, "x"));
        h.snapshot(1, 1);
        assertEquals(List.of(), output(h, spec));
        h.prepareSnapshotPreBarrier(2);
        assertEquals(List.of("[x, 1, 5]"), output(h, spec));
    }

    @Test
    void theEndOfInputEmitsWhatIsHeld() throws Exception {
        NativeCalcSpec spec = spec(100, 2);
        var h = harness(spec);
        for (int i = 0; i < 5; i++) {
            h.processElement(row(i, i, "k"));
        }
        assertEquals(List.of(), output(h, spec));
        h.endInput();
        assertEquals(List.of("[k, 4, 10]"), output(h, spec));
    }

    @Test
    void anAbsorbedMiniBatchAssignerEndsTheBundlesOnProcessingTime() throws Exception {
        NativeCalcSpec spec = spec(100, 2, ", ts TIMESTAMP(3), WATERMARK FOR ts AS ts");
        assertEquals(3_600_000, spec.miniBatchIntervalMillis(), spec.explainSummary());
        var h = harness(spec);
        h.processElement(new StreamRecord<>(GenericRowData.of(1L, 5, StringData.fromString("x"), ts(1))));
        h.processElement(new StreamRecord<>(GenericRowData.of(2L, 6, StringData.fromString("x"), ts(2))));
        h.processWatermark(new Watermark(5_000)); // the absorbed assigners drop watermarks from below
        assertEquals(List.of(), output(h, spec));
        h.setProcessingTime(3_600_000); // the assigner's timer: the next interval starts
        assertEquals(List.of("[x, 2, 11]", "W3600000"), output(h, spec));
        h.setProcessingTime(3_600_500);
        h.processElement(new StreamRecord<>(GenericRowData.of(3L, 7, StringData.fromString("y"), ts(3))));
        h.setProcessingTime(7_200_100); // a row in a newer interval ends the bundle before it
        h.processElement(new StreamRecord<>(GenericRowData.of(4L, 8, StringData.fromString("y"), ts(4))));
        assertEquals(List.of("[x, 2, 11]", "W3600000", "[y, 1, 7]", "W7200000"), output(h, spec));
        h.processWatermark(Watermark.MAX_WATERMARK); // the final watermark passes, after the groups
        assertEquals(List.of("[x, 2, 11]", "W3600000", "[y, 1, 7]", "W7200000", "[y, 1, 8]",
                "W" + Long.MAX_VALUE), output(h, spec));
    }

    @Test
    void aNullRowtimeUnderAnAbsorbedAssignerFailsAsFlinkDoes() throws Exception {
        NativeCalcSpec spec = spec(100, 2, ", ts TIMESTAMP(3), WATERMARK FOR ts AS ts");
        var h = harness(spec);
        h.processElement(new StreamRecord<>(GenericRowData.of(1L, -5, StringData.fromString("x"), null)));
        Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class,
                () -> h.processElement(new StreamRecord<>(GenericRowData.of(2L, 6, StringData.fromString("x"),
                        ts(2)))));
        assertTrue(e.getMessage().contains("RowTime field should not be null"), e.getMessage());
    }

    private static org.apache.flink.table.data.TimestampData ts(long millis) {
        return org.apache.flink.table.data.TimestampData.fromEpochMillis(millis);
    }

    @Test
    void closingDiscardsTheHeldGroups() throws Exception {
        NativeCalcSpec spec = spec(100, 2);
        var h = harness(spec);
        for (int i = 1; i <= 5; i++) {
            h.processElement(row(i, i, "k"));
        }
        open.remove(h);
        h.close();
        assertEquals(List.of(), output(h, spec));
    }
}
