package dev.gatun.bench.demo;

import dev.gatun.ffm.GatunLibrary;
import dev.gatun.ffm.NativeStats;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * The main job behind {@code bin/gatun demo}: a Flink SQL job on an embedded cluster.
 * Today it runs the stock job and proves the native library loads and answers; the native
 * Calc islands join it as the planner work lands.
 */
public final class MainJob {
    private MainJob() {}

    public static void main(String[] args) throws Exception {
        System.out.printf("JDK %s, native library %s (ABI %d)%n",
                Runtime.version(), GatunLibrary.path(), GatunLibrary.abiVersion());

        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tEnv.getConfig().set("parallelism.default", "1");
        tEnv.executeSql("CREATE TEMPORARY TABLE bid (auction BIGINT, bidder BIGINT, price BIGINT, channel STRING)"
                + " WITH ('connector' = 'datagen', 'number-of-rows' = '200000', 'rows-per-second' = '100000000',"
                + " 'fields.auction.min' = '1', 'fields.auction.max' = '100000',"
                + " 'fields.price.min' = '1', 'fields.price.max' = '1000000', 'fields.channel.length' = '8')");
        String query = "SELECT auction, price * 0.908 AS euro, UPPER(channel) FROM bid WHERE auction % 123 = 0";
        System.out.println("Query: " + query);

        long start = System.nanoTime();
        List<Row> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = tEnv.executeSql(query).collect()) {
            it.forEachRemaining(rows::add);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        rows.stream().limit(5).forEach(r -> System.out.println("  " + r));
        System.out.printf("stock Flink: %d result rows from 200000 input rows in %.2f s (%.0f rows/s)%n",
                rows.size(), seconds, 200000 / seconds);

        NativeStats stats = GatunLibrary.stats();
        System.out.println("native: " + stats);
        System.out.println("native Calc islands: not yet available in this build (planner work in progress)");
    }
}
