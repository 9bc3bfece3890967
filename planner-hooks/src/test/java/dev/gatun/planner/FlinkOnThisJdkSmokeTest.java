package dev.gatun.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.planner.testing.SharedMiniCluster;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Proves stock Flink SQL runs unchanged on the JDK the launcher picked (22+), with its JVM options. */
@ExtendWith(SharedMiniCluster.class)
class FlinkOnThisJdkSmokeTest {

    @Test
    void runsASmallSqlJobOnTheEmbeddedCluster() throws Exception {
        assertTrue(Runtime.version().feature() >= 22, "tests must run on JDK 22+, got " + Runtime.version());
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tEnv.getConfig().set("parallelism.default", "1");
        tEnv.executeSql("CREATE TEMPORARY VIEW bids AS SELECT * FROM (VALUES "
                + "(1, 'apple', CAST(100 AS BIGINT)), (2, 'pear', CAST(250 AS BIGINT)), "
                + "(3, 'fig', CAST(NULL AS BIGINT)), (4, 'kiwi', CAST(123 AS BIGINT))) AS t(auction, item, price)");
        TableResult result = tEnv.executeSql(
                "SELECT auction, UPPER(item), price * 2 FROM bids WHERE auction % 2 = 0 OR price IS NULL");
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = result.collect()) {
            it.forEachRemaining(r -> rows.add(r.toString()));
        }
        rows.sort(null);
        assertEquals(List.of("+I[2, PEAR, 500]", "+I[3, FIG, null]", "+I[4, KIWI, 246]"), rows);
    }
}
