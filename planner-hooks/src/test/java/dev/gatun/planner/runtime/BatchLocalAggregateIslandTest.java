package dev.gatun.planner.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.Gatun;
import dev.gatun.planner.GatunOptions;
import dev.gatun.planner.testing.RuntimeJobs;
import dev.gatun.planner.testing.TestRowsFactory;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.api.EnvironmentSettings;
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
 * A batch local-hash-aggregate island in Flink's operator test harness: the groups come out when an
 * input batch leaves the group limit's number of them (counted past the Calc's filter) and at the
 * end of input, not one step before; closing discards what is held and leaks nothing.
 */
@ExtendWith(LeakCheckExtension.class)
class BatchLocalAggregateIslandTest {
    private static final String SQL = "SELECT s, COUNT(*), SUM(a) FROM h WHERE a > 0 GROUP BY s";

    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void closeHarnesses() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    /** The island Gatun plans for {@link #SQL} in batch mode with a group limit of {@code limit}, batches of {@code batch}. */
    private static NativeCalcSpec spec(int limit, int batch) {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.getConfig().set("parallelism.default", "1");
        tEnv.getConfig().set("table.optimizer.agg-phase-strategy", "TWO_PHASE");
        tEnv.getConfig().set(GatunOptions.FORCE, true);
        tEnv.getConfig().set(GatunOptions.BATCH_AGGREGATE_GROUP_LIMIT, (long) limit);
        tEnv.getConfig().set(GatunOptions.BATCH_ROWS, batch);
        assertTrue(Gatun.enable(tEnv), "the native library did not load");
        tEnv.executeSql("CREATE TEMPORARY TABLE h (id BIGINT NOT NULL, a INT, s STRING) "
                + TestRowsFactory.register(List.of()));
        List<NativeCalcSpec> specs = RuntimeJobs.nativeSpecs(tEnv, SQL).stream()
                .filter(NativeCalcSpec::localAggregate).toList();
        assertEquals(1, specs.size(), "one native local aggregate in " + SQL);
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

    /** The output as {@code [s, count, sum]} strings, in emission order. */
    private static List<String> output(OneInputStreamOperatorTestHarness<RowData, RowData> h, NativeCalcSpec spec) {
        List<LogicalType> types = spec.outputType().getChildren();
        List<String> out = new ArrayList<>();
        for (Object o : h.getOutput()) {
            if (o instanceof StreamRecord<?> r) {
                RowData row = (RowData) r.getValue();
                StringBuilder sb = new StringBuilder("[");
                for (int i = 0; i < types.size(); i++) {
                    sb.append(i == 0 ? "" : ", ").append(RowData.createFieldGetter(types.get(i), i).getFieldOrNull(row));
                }
                out.add(sb.append(']').toString());
            }
        }
        return out;
    }

    @Test
    void theOutputIsTheStockLocalRowType() {
        NativeCalcSpec spec = spec(2, 2);
        assertEquals(List.of("s", "count1$0", "sum$1"), spec.outputType().getFieldNames());
        assertTrue(spec.explainSummary().contains("groupLimit=2, batch=2"), spec.explainSummary());
        assertEquals(0, spec.bundleRows(), "no mini-batch bundle in batch mode");
        assertEquals(0, spec.latencyMillis(), "no latency timer in batch mode");
    }

    @Test
    void groupsAreEmittedWhenABatchReachesTheLimitAndAtTheEndOfInput() throws Exception {
        NativeCalcSpec spec = spec(2, 2);
        var h = harness(spec);
        h.processElement(row(1, 5, "x"));
        h.processElement(row(2, 6, "x")); // a full batch: one group held, below the limit
        assertEquals(List.of(), output(h, spec));
        h.processElement(row(3, 1, "y"));
        h.processElement(row(4, -1, "z")); // filtered out by the Calc: z never becomes a group
        assertEquals(List.of("[x, 2, 11]", "[y, 1, 1]"), output(h, spec), "two groups held: the limit");
        h.processElement(row(5, 2, "x"));
        assertEquals(List.of("[x, 2, 11]", "[y, 1, 1]"), output(h, spec));
        h.endInput();
        assertEquals(List.of("[x, 2, 11]", "[y, 1, 1]", "[x, 1, 2]"), output(h, spec));
    }

    @Test
    void closingDiscardsTheHeldGroups() throws Exception {
        NativeCalcSpec spec = spec(100, 2);
        var h = harness(spec);
        for (int i = 1; i <= 5; i++) {
            h.processElement(row(i, i, "k" + i));
        }
        open.remove(h);
        h.close();
        assertEquals(List.of(), output(h, spec));
    }
}
