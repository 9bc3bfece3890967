package dev.gatun.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.testing.CommitSinkFactory;
import dev.gatun.planner.testing.PacedSourceFactory;
import dev.gatun.planner.testing.RuntimeJobs;
import dev.gatun.planner.testing.SharedMiniCluster;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Flush triggers in running jobs. Batches here are far larger than the input and the latency
 * timer is an hour, so rows leave a native Calc early only because of the trigger under test;
 * without it they would come out at the end of input, after the final watermark (dropped as
 * late by the window) or in the last checkpoint only.
 */
@ExtendWith(LeakCheckExtension.class)
@ExtendWith(SharedMiniCluster.class)
class FlushTriggerJobTest {
    private static final Map<String, String> NO_EARLY_FLUSH =
            Map.of("gatun.batch.rows", "100000", "gatun.batch.latency", "1 h");

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
    void anEventTimeWindowDownstreamGetsEveryRowBeforeItsWatermark() throws Exception {
        String run = UUID.randomUUID().toString();
        String table = "CREATE TEMPORARY TABLE src (" + PacedSourceFactory.COLUMNS + ", WATERMARK FOR ts AS ts) "
                + PacedSourceFactory.with("src-" + run, 600, 400, -1, null);
        String view = "CREATE TEMPORARY VIEW filtered AS SELECT ts, v * 2 AS v2 FROM src WHERE MOD(id, 3) <> 0";
        String query = "SELECT window_start, COUNT(*), SUM(v2) FROM"
                + " TABLE(TUMBLE(TABLE filtered, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end";
        TableEnvironment stockEnv = RuntimeJobs.env(false, Map.of());
        stockEnv.executeSql(table);
        stockEnv.executeSql(view);
        // the windows stay stock, so the Calc under them is a Calc island of its own (a native window
        // aggregate would absorb it, and the Calc above it)
        Map<String, String> settings = new HashMap<>(NO_EARLY_FLUSH);
        settings.put("gatun.aggregate.local.enabled", "false");
        settings.put("gatun.aggregate.window.enabled", "false");
        TableEnvironment nativeEnv = RuntimeJobs.env(true, settings);
        nativeEnv.executeSql(table);
        nativeEnv.executeSql(view);
        String plan = Gatun.explain(nativeEnv, query);
        assertTrue(plan.contains("NativeCalc(select=[*(v, 2) AS v2, ts], where=[<>(MOD(id, 3), 0)]"), plan);

        List<String> stock = collect(stockEnv, query);
        assertEquals(11, stock.size(), "600 rows one second apart from 20 s into a minute: eleven one-minute windows " + stock);
        assertEquals(stock, collect(nativeEnv, query));
    }

    @Test
    void rowsBeforeACheckpointBarrierAreCommittedByThatCheckpoint() throws Exception {
        String stockRun = UUID.randomUUID().toString();
        String nativeRun = UUID.randomUUID().toString();
        for (String run : List.of(stockRun, nativeRun)) {
            Map<String, String> conf = new HashMap<>(RuntimeJobs.checkpointed());
            boolean nativeEnabled = run.equals(nativeRun);
            if (nativeEnabled) {
                conf.putAll(NO_EARLY_FLUSH);
            }
            TableEnvironment tEnv = RuntimeJobs.env(nativeEnabled, conf);
            tEnv.executeSql("CREATE TEMPORARY TABLE src (" + PacedSourceFactory.COLUMNS + ") "
                    + PacedSourceFactory.with("src-" + run, 2000, 1000, -1, null));
            tEnv.executeSql("CREATE TEMPORARY TABLE sink_t (id BIGINT, v2 BIGINT) " + CommitSinkFactory.with("sink-" + run));
            String insert = "INSERT INTO sink_t SELECT id, v * 2 FROM src WHERE MOD(id, 4) <> 0";
            assertEquals(nativeEnabled, Gatun.explain(tEnv, insert).contains("NativeCalc("));
            tEnv.executeSql(insert).await();
        }
        assertEquals(CommitSinkFactory.committed("sink-" + stockRun), CommitSinkFactory.committed("sink-" + nativeRun));
        long checkpointsWithRows = CommitSinkFactory.committedByCheckpoint("sink-" + nativeRun).values().stream()
                .filter(rows -> !rows.isEmpty()).count();
        assertTrue(checkpointsWithRows >= 3, "rows spread over the checkpoints they were written before, not all"
                + " in the last one: " + checkpointsWithRows + " checkpoints carried rows");
    }
}
