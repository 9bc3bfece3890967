package dev.gatun.bench.demo;

import dev.gatun.bench.e2e.BlackholeSinkFactory;
import dev.gatun.bench.e2e.Checksums;
import dev.gatun.bench.e2e.NexmarkSourceFactory;
import dev.gatun.bench.rows.RowFormat;
import dev.gatun.bench.rows.Shapes;
import dev.gatun.ffm.GatunLibrary;
import dev.gatun.planner.Gatun;
import dev.gatun.planner.GatunOptions;
import java.util.List;
import java.util.Locale;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.TableDescriptor;
import org.apache.flink.table.api.TableEnvironment;

/**
 * The main job behind {@code bin/gatun demo}: a few stateless Flink SQL queries over Nexmark-style
 * bids on an embedded cluster, each run on stock Flink and with Gatun's native Calcs. It prints
 * Gatun's EXPLAIN, checks that both give the same rows (order-independent checksum) and prints
 * rows per second side by side. Optional argument: the number of bids (default 1,000,000).
 */
public final class MainJob {
    private static final List<String[]> QUERIES = List.of(
            new String[] {"q1 currency", "SELECT auction, bidder, price * 0.908 AS euro, `dateTime` FROM bid"},
            new String[] {"q2 filter", "SELECT auction, price FROM bid WHERE auction % 123 = 0"},
            new String[] {"strings+case", "SELECT auction, UPPER(channel) AS channel,"
                    + " CASE WHEN price < 10000 THEN 'small' WHEN price < 1000000 THEN 'medium' ELSE 'large' END"
                    + " AS band, CHAR_LENGTH(url) AS url_length FROM bid WHERE channel LIKE '%o%'"});

    private MainJob() {}

    public static void main(String[] args) throws Exception {
        long rows = args.length > 0 && !args[0].isBlank() ? Long.parseLong(args[0].trim()) : 1_000_000L;
        System.out.printf("JDK %s, native library %s (ABI %d), %,d bids per run%n",
                Runtime.version(), GatunLibrary.path(), GatunLibrary.abiVersion(), rows);
        boolean allEqual = true;
        for (String[] query : QUERIES) {
            allEqual &= compare(query[0], query[1], rows);
        }
        System.out.println("native live handles after the runs: " + GatunLibrary.stats().liveHandles());
        if (!allEqual) {
            throw new IllegalStateException("native results differ from stock Flink (see above)");
        }
    }

    private static boolean compare(String name, String sql, long rows) throws Exception {
        System.out.println("\n=== " + name + ": " + sql);
        Run stock = run(sql, rows, false, name);
        Run gatun = run(sql, rows, true, name);
        System.out.println(gatun.explain.substring(gatun.explain.indexOf("== Gatun ==")).strip());
        System.out.println("(forced: gatun.native.force=true; by default the cost rule decides: "
                + defaultDecision(sql, rows) + ")");
        boolean same = stock.checksum.equals(gatun.checksum);
        System.out.printf(Locale.ROOT, "stock  %,12.0f rows/s   %,d result rows, checksum %s%n",
                stock.rowsPerSecond, stock.checksum.rows(), stock.checksum.hex());
        System.out.printf(Locale.ROOT, "gatun  %,12.0f rows/s   %,d result rows, checksum %s   %s (%.2fx)%n",
                gatun.rowsPerSecond, gatun.checksum.rows(), gatun.checksum.hex(),
                same ? "same rows as stock" : "DIFFERENT ROWS", gatun.rowsPerSecond / stock.rowsPerSecond);
        return same;
    }

    /** The Gatun line of EXPLAIN without the force switch: what a job gets from Gatun.enable alone. */
    private static String defaultDecision(String sql, long rows) {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        Gatun.enable(tEnv);
        tEnv.executeSql(NexmarkSourceFactory.createTableDdl("bid", Shapes.byName("bid"), rows, 42, RowFormat.of("generic")));
        String explain = Gatun.explain(tEnv, sql);
        String section = explain.substring(explain.indexOf("== Gatun ==") + "== Gatun ==".length()).strip();
        int colon = section.indexOf("): Calc(");
        return colon > 0 ? section.substring(0, colon + 1) : section.lines().findFirst().orElse(section);
    }

    private record Run(String explain, Checksums.Checksum checksum, double rowsPerSecond) {}

    private static Run run(String sql, long rows, boolean gatun, String name) throws Exception {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tEnv.getConfig().set("parallelism.default", "1");
        if (gatun) {
            if (!Gatun.enable(tEnv)) {
                throw new IllegalStateException("Gatun could not load its native library in this JVM");
            }
            tEnv.getConfig().set(GatunOptions.FORCE, true);
        }
        tEnv.executeSql(NexmarkSourceFactory.createTableDdl("bid", Shapes.byName("bid"), rows, 42, RowFormat.of("generic")));
        String key = "demo/" + name + "/" + (gatun ? "gatun" : "stock");
        tEnv.createTemporaryTable("sink", TableDescriptor.forConnector(BlackholeSinkFactory.IDENTIFIER)
                .schema(Schema.newBuilder().fromResolvedSchema(tEnv.sqlQuery(sql).getResolvedSchema()).build())
                .option(BlackholeSinkFactory.KEY, key)
                .build());
        String insert = "INSERT INTO sink " + sql;
        String explain = gatun ? Gatun.explain(tEnv, insert) : tEnv.explainSql(insert);
        Checksums.take(key);
        long start = System.nanoTime();
        tEnv.executeSql(insert).getJobClient().orElseThrow().getJobExecutionResult().get();
        double seconds = (System.nanoTime() - start) / 1e9;
        return new Run(explain, Checksums.take(key), rows / seconds);
    }
}
