package dev.gatun.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.testing.CommitSinkFactory;
import dev.gatun.planner.testing.RuntimeJobs;
import dev.gatun.planner.testing.SharedMiniCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.source.legacy.SourceFunction;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A native Calc chained to a legacy source, which hands it rows on the source's own thread
 * while flushes triggered by timers and the end of input run on the task thread: results equal
 * stock Flink's and nothing leaks.
 */
@ExtendWith(LeakCheckExtension.class)
@ExtendWith(SharedMiniCluster.class)
class LegacySourceTest {
    private static List<String> collect(TableEnvironment tEnv, String query) throws Exception {
        TableResult result = tEnv.executeSql(query);
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = result.collect()) {
            it.forEachRemaining(r -> rows.add(r.toString()));
        }
        rows.sort(null);
        return rows;
    }

    @Test
    void valuesFlushedAtTheEndOfInputGiveStockResults() throws Exception {
        String query = "SELECT k * 2, v + 1, UPPER(s) FROM (VALUES (1, CAST(10 AS BIGINT), 'a'), (2, CAST(NULL AS BIGINT), 'b'),"
                + " (3, CAST(-4 AS BIGINT), CAST(NULL AS STRING)), (4, CAST(7 AS BIGINT), 'dd')) AS t(k, v, s) WHERE k > 1";
        TableEnvironment nativeEnv = RuntimeJobs.env(true, Map.of());
        String plan = Gatun.explain(nativeEnv, query);
        assertTrue(plan.contains("Values(") && plan.contains("NativeCalc("), plan);
        List<String> stock = collect(RuntimeJobs.env(false, Map.of()), query);
        assertEquals(List.of("+I[4, null, B]", "+I[6, -3, null]", "+I[8, 8, DD]"), stock);
        assertEquals(stock, collect(nativeEnv, query));
    }

    /** Emits rows 0..4, waits until the sink has seen them, then emits rows 5..9. */
    static final class TwoBurstSource implements SourceFunction<Row> {
        static final Map<String, Boolean> SEEN_WHILE_RUNNING = new ConcurrentHashMap<>();

        private final String sink;
        private volatile boolean running = true;

        TwoBurstSource(String sink) {
            this.sink = sink;
        }

        @Override
        public void run(SourceContext<Row> ctx) throws Exception {
            emit(ctx, 0, 5);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (running && CommitSinkFactory.received(sink) < 5 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            SEEN_WHILE_RUNNING.put(sink, CommitSinkFactory.received(sink) == 5);
            emit(ctx, 5, 10);
        }

        private static void emit(SourceContext<Row> ctx, long from, long to) {
            for (long i = from; i < to; i++) {
                synchronized (ctx.getCheckpointLock()) {
                    ctx.collect(Row.of(i, i * 10));
                }
            }
        }

        @Override
        public void cancel() {
            running = false;
        }
    }

    @Test
    void theLatencyTimerFlushesOnTheTaskThreadWhileTheSourceThreadWaits() throws Exception {
        String sink = "sink-" + UUID.randomUUID();
        Configuration conf = new Configuration();
        conf.setString("parallelism.default", "1");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        tEnv.getConfig().set(GatunOptions.FORCE, true);
        tEnv.getConfig().set("gatun.batch.latency", "20 ms");
        assertTrue(Gatun.enable(tEnv));
        tEnv.createTemporaryView("legacy", env.addSource(new TwoBurstSource(sink),
                Types.ROW_NAMED(new String[] {"id", "v"}, Types.LONG, Types.LONG)));
        tEnv.executeSql("CREATE TEMPORARY TABLE sink_t (id2 BIGINT, v1 BIGINT) " + CommitSinkFactory.with(sink));
        String insert = "INSERT INTO sink_t SELECT id * 2, v + 1 FROM legacy WHERE id >= 0";
        String plan = Gatun.explain(tEnv, insert);
        assertTrue(plan.contains("NativeCalc("), plan);
        tEnv.executeSql(insert).await();
        assertEquals(Boolean.TRUE, TwoBurstSource.SEEN_WHILE_RUNNING.get(sink),
                "the first five rows reached the sink on the latency timer while the source was still running");
        assertEquals(10, CommitSinkFactory.received(sink));
        RuntimeJobs.awaitNoNativeLeaks(Duration.ofSeconds(30));
    }
}
