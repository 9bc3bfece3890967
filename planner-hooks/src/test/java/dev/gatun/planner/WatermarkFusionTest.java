package dev.gatun.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.runtime.NativeCalcSpec;
import dev.gatun.planner.testing.CollectSinkFactory;
import dev.gatun.planner.testing.RuntimeJobs;
import dev.gatun.planner.testing.SharedMiniCluster;
import dev.gatun.planner.testing.TestRowsFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A Calc on a WatermarkAssigner over a table's computed-column Calc (the Nexmark shape: views over
 * a wide event table whose rowtime is a computed column) runs as ONE native island that also
 * assigns the watermarks. An event-time window downstream sees the same rows and watermarks as
 * with stock Flink, late rows included: with {@code pipeline.auto-watermark-interval = 0} stock
 * emits a watermark after every row that advances it, so both runs are deterministic and must
 * agree exactly.
 */
@ExtendWith(LeakCheckExtension.class)
@ExtendWith(SharedMiniCluster.class)
class WatermarkFusionTest {
    private static final long EPOCH = 1_700_000_000_000L;
    static final String COLUMNS = "kind INT, payload ROW<k INT, v BIGINT, s STRING, ts TIMESTAMP(3)>,"
            + " other ROW<id BIGINT, ts TIMESTAMP(3)>,"
            + " `rowtime` AS CASE WHEN kind = 0 THEN other.ts ELSE payload.ts END,"
            + " WATERMARK FOR `rowtime` AS `rowtime` - INTERVAL '2' SECOND";
    static final String VIEW_QUERY = "SELECT payload.k AS k, payload.v * 2 AS v2, UPPER(payload.s) AS s,"
            + " `rowtime` FROM ev WHERE kind = 1";
    static final String WINDOWS = "SELECT window_start, window_end, k, COUNT(*) AS c, SUM(v2) AS total"
            + " FROM TABLE(TUMBLE(TABLE v, DESCRIPTOR(`rowtime`), INTERVAL '5' SECOND))"
            + " GROUP BY window_start, window_end, k";

    /** Events with out-of-order times: some arrive more than the 2 s delay late, and windows drop them. */
    static List<RowData> events(int count, long seed, boolean nullRowtime) {
        Random random = new Random(seed);
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long ts = EPOCH + i * 300L - (random.nextInt(10) == 0 ? random.nextInt(6_000) : random.nextInt(800));
            int kind = random.nextInt(5) == 0 ? 0 : 1;
            TimestampData time = nullRowtime && i == count / 2 ? null : TimestampData.fromEpochMillis(ts);
            GenericRowData payload = kind == 1 ? GenericRowData.of(random.nextInt(4),
                    random.nextInt(7) == 0 ? null : (long) random.nextInt(1000),
                    StringData.fromString("s" + random.nextInt(9)), time) : null;
            GenericRowData other = kind == 0 ? GenericRowData.of((long) i, time) : null;
            rows.add(GenericRowData.of(kind, payload, other));
        }
        return rows;
    }

    static TableEnvironment env(boolean nativeEnabled, String with, Map<String, String> settings) {
        TableEnvironment tEnv = RuntimeJobs.env(nativeEnabled, settings);
        tEnv.executeSql("CREATE TEMPORARY TABLE ev (" + COLUMNS + ") " + with);
        tEnv.executeSql("CREATE TEMPORARY VIEW v AS " + VIEW_QUERY);
        return tEnv;
    }

    static List<String> run(boolean nativeEnabled, String with, Map<String, String> settings, String query)
            throws Exception {
        TableEnvironment tEnv = env(nativeEnabled, with, settings);
        String id = CollectSinkFactory.newId();
        String columns = String.join(", ", tEnv.sqlQuery(query).getResolvedSchema().getColumns().stream()
                .map(c -> "`" + c.getName() + "` " + c.getDataType().getLogicalType().copy(true)
                        .asSerializableString().replace(" *ROWTIME*", "")).toList());
        tEnv.executeSql("CREATE TEMPORARY TABLE out_t (" + columns + ") WITH ('connector' = 'gatun-test-collect',"
                + " 'id' = '" + id + "')");
        tEnv.executeSql("INSERT INTO out_t " + query).await();
        RuntimeJobs.awaitNoNativeLeaks(Duration.ofSeconds(10));
        return CollectSinkFactory.take(id);
    }

    private static String explainNative(String with, Map<String, String> settings, String query) {
        return Gatun.explain(env(true, with, settings), query);
    }

    @Test
    void theViewCalcAssignerAndComputedColumnCalcRunAsOneIsland() {
        String with = TestRowsFactory.register(events(10, 1, false));
        String plan = explainNative(with, Map.of(), VIEW_QUERY);
        assertTrue(plan.contains("NativeCalc("), plan);
        assertTrue(plan.contains("WatermarkAssigner(") && plan.contains("fused into the NativeCalc above"), plan);
        String physical = plan.substring(plan.indexOf("== Optimized Physical Plan =="),
                plan.indexOf("== Optimized Execution Plan =="));
        assertEquals(2, physical.split("fused into the NativeCalc above", -1).length - 1,
                "the assigner and the computed-column Calc: " + physical);
        List<NativeCalcSpec> specs = RuntimeJobs.nativeSpecs(env(true, with, Map.of()), VIEW_QUERY);
        assertEquals(1, specs.size(), specs.toString());
        NativeCalcSpec spec = specs.get(0);
        assertTrue(spec.assignsWatermarks());
        assertTrue(spec.flinkRowsExit());
        // reads kind, the payload fields used, and other.ts for the rowtime; never other.id
        assertEquals("reads=[kind, payload.k, payload.v, payload.s, payload.ts, other.ts], watermarks, exit=rows,"
                + " batch=4096", spec.explainSummary());
    }

    @Test
    void eventTimeWindowsGetStocksRowsAndWatermarksLateRowsIncluded() throws Exception {
        String with = TestRowsFactory.register(events(3000, 7, false));
        Map<String, String> eager = Map.of("pipeline.auto-watermark-interval", "0 ms", "gatun.batch.rows", "7");
        List<String> stock = run(false, with, eager, WINDOWS);
        List<String> gatun = run(true, with, eager, WINDOWS);
        assertFalse(stock.isEmpty());
        assertEquals(stock.size(), gatun.size(), "windows");
        assertTrue(stock.equals(gatun), "the windows differ from stock's");
        List<String> rows = run(false, with, eager, VIEW_QUERY);
        assertEquals(rows, run(true, with, eager, VIEW_QUERY));
        long counted = stock.stream().mapToLong(r -> Long.parseLong(r.split(", ")[3])).sum();
        assertTrue(counted < rows.size(), "some rows must arrive late and be dropped by the windows: "
                + counted + " of " + rows.size());
    }

    /** Every row, with the watermark current when it reaches the next operator. */
    static final List<String> SEEN = java.util.Collections.synchronizedList(new ArrayList<>());

    private static List<String> watermarkPerRow(boolean nativeEnabled, String with) throws Exception {
        org.apache.flink.configuration.Configuration conf = new org.apache.flink.configuration.Configuration();
        conf.setString("parallelism.default", "1");
        conf.setString("pipeline.auto-watermark-interval", "0 ms");
        var env = org.apache.flink.streaming.api.environment.StreamExecutionEnvironment.getExecutionEnvironment(conf);
        var tEnv = org.apache.flink.table.api.bridge.java.StreamTableEnvironment.create(env);
        tEnv.getConfig().set(GatunOptions.FORCE, true);
        assertTrue(Gatun.enable(tEnv));
        tEnv.getConfig().set(GatunOptions.NATIVE_ENABLED, nativeEnabled);
        // small batches: watermarks that rows at the end of a batch advance must come out after the batch
        tEnv.getConfig().set(GatunOptions.BATCH_ROWS, 7);
        tEnv.executeSql("CREATE TEMPORARY TABLE ev (" + COLUMNS + ") " + with);
        SEEN.clear();
        tEnv.toDataStream(tEnv.sqlQuery(VIEW_QUERY)).process(new WatermarkRecorder()).sinkTo(
                new org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink<>());
        env.execute();
        RuntimeJobs.awaitNoNativeLeaks(Duration.ofSeconds(10));
        return new ArrayList<>(SEEN);
    }

    /** Records each row with the current watermark, in arrival order. */
    private static final class WatermarkRecorder
            extends org.apache.flink.streaming.api.functions.ProcessFunction<org.apache.flink.types.Row, String> {
        @Override
        public void processElement(org.apache.flink.types.Row row, Context ctx,
                                   org.apache.flink.util.Collector<String> out) {
            SEEN.add(row + "@" + ctx.timerService().currentWatermark());
        }
    }

    @Test
    void eachRowSeesTheWatermarkItSeesWithStock() throws Exception {
        String with = TestRowsFactory.register(events(1500, 13, false));
        List<String> stock = watermarkPerRow(false, with);
        List<String> gatun = watermarkPerRow(true, with);
        assertEquals(stock.size(), gatun.size());
        for (int i = 0; i < stock.size(); i++) {
            assertEquals(stock.get(i), gatun.get(i), "row " + i + " in arrival order");
        }
        assertTrue(stock.stream().map(r -> r.substring(r.lastIndexOf('@'))).distinct().count() > 100,
                "the watermark advances along the rows");
    }

    @Test
    void withThePeriodicIntervalTheWindowsAndRowsEqualStock() throws Exception {
        String with = TestRowsFactory.register(events(2000, 11, false));
        Map<String, String> periodic = Map.of("pipeline.auto-watermark-interval", "20 ms");
        assertEquals(run(false, with, periodic, VIEW_QUERY), run(true, with, periodic, VIEW_QUERY));
    }

    @Test
    void aNullRowtimeFailsTheJobAsStockDoes() {
        String with = TestRowsFactory.register(events(200, 3, true));
        String expected = "RowTime field should not be null, please convert it to a non-null long value.";
        for (boolean nativeEnabled : new boolean[] {false, true}) {
            Exception e = assertThrows(Exception.class, () -> run(nativeEnabled, with, Map.of(), VIEW_QUERY));
            assertTrue(ExceptionUtils.findThrowableWithMessage(e, expected).isPresent(),
                    (nativeEnabled ? "gatun: " : "stock: ") + ExceptionUtils.stringifyException(e));
        }
    }

    @Test
    void anIdleTimeoutKeepsTheAssignerStockSayingWhy() {
        String with = TestRowsFactory.register(events(10, 5, false));
        String plan = explainNative(with, Map.of("table.exec.source.idle-timeout", "5 s"), VIEW_QUERY);
        assertTrue(plan.contains("not fused with the WatermarkAssigner below: table.exec.source.idle-timeout"), plan);
        assertFalse(plan.contains("fused into the NativeCalc above"), plan);
    }
}
