package dev.gatun.bench.demo;

import dev.gatun.bench.probe.TaskCpu;
import dev.gatun.bench.e2e.BlackholeSinkFactory;
import dev.gatun.bench.e2e.E2eRunner;
import dev.gatun.bench.e2e.Checksums;
import dev.gatun.bench.nexmark.NexmarkEventSourceFactory;
import dev.gatun.bench.rows.RowFormat;
import dev.gatun.ffm.GatunLibrary;
import dev.gatun.planner.Gatun;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableDescriptor;
import org.apache.flink.table.api.TableEnvironment;

/**
 * The main job behind {@code bin/gatun demo}: stateless Nexmark queries over the benchmark's event
 * stream on an embedded cluster, each planned by {@code Gatun.enable} alone (no force switch: the
 * cost rule decides) and run on stock Flink and on Gatun. It prints Gatun's EXPLAIN decision,
 * checks that both engines give the same rows (order-independent checksum), and compares them
 * after a warm-up over a few alternating trials: rows/s and the task thread's CPU time, whose
 * ratio is the figure the benchmarks report. Optional argument: events per run (default 1,000,000).
 */
public final class MainJob {
    private static final int WARMUPS = 1;
    private static final int TRIALS = 3;

    private static final List<String[]> QUERIES = List.of(
            new String[] {"q1 currency", "SELECT auction, bidder, 0.908 * price AS price, `dateTime`, extra FROM bid"},
            new String[] {"q2 selection", "SELECT auction, price FROM bid WHERE MOD(auction, 123) = 0"},
            new String[] {"q21 channel id", "SELECT auction, bidder, price, channel, CASE WHEN lower(channel) = 'apple'"
                    + " THEN '0' WHEN lower(channel) = 'google' THEN '1' WHEN lower(channel) = 'facebook' THEN '2'"
                    + " WHEN lower(channel) = 'baidu' THEN '3' ELSE REGEXP_EXTRACT(url, '(&|^)channel_id=([^&]*)', 2)"
                    + " END AS channel_id FROM bid WHERE REGEXP_EXTRACT(url, '(&|^)channel_id=([^&]*)', 2) IS NOT NULL"
                    + " OR lower(channel) IN ('apple', 'google', 'facebook', 'baidu')"},
            new String[] {"q22 url directories", "SELECT auction, bidder, price, channel, SPLIT_INDEX(url, '/', 3) AS dir1,"
                    + " SPLIT_INDEX(url, '/', 4) AS dir2, SPLIT_INDEX(url, '/', 5) AS dir3 FROM bid"},
            new String[] {"strings+case", "SELECT auction, UPPER(channel) AS channel, CASE WHEN price < 10000"
                    + " THEN 'small' WHEN price < 1000000 THEN 'medium' ELSE 'large' END AS band,"
                    + " CHAR_LENGTH(url) AS url_length FROM bid WHERE channel LIKE '%o%'"});

    private MainJob() {}

    public static void main(String[] args) throws Exception {
        long events = args.length > 0 && !args[0].isBlank() ? Long.parseLong(args[0].trim().replace("_", "")) : 1_000_000L;
        System.out.printf("JDK %s, native library %s (ABI %d), %,d Nexmark events per run, %d warm-up and %d"
                        + " alternating trials per engine, Flink's defaults (object reuse off)%n",
                Runtime.version(), GatunLibrary.path(), GatunLibrary.abiVersion(), events, WARMUPS, TRIALS);
        boolean allEqual = true;
        for (String[] query : QUERIES) {
            allEqual &= compare(query[0], query[1], events);
        }
        System.out.println("\nnative live handles after the runs: " + GatunLibrary.stats().liveHandles());
        if (!allEqual) {
            throw new IllegalStateException("native results differ from stock Flink (see above)");
        }
    }

    private static boolean compare(String name, String sql, long events) throws Exception {
        System.out.println("\n=== " + name + ": " + sql);
        String explain = gatunDecisions(sql, events);
        System.out.println(explain);
        List<Run> stock = new ArrayList<>();
        List<Run> gatun = new ArrayList<>();
        for (int i = 0; i < WARMUPS + TRIALS; i++) {
            boolean gatunFirst = i % 2 == 1;
            Run a = run(sql, events, gatunFirst, name + "/" + i);
            Run b = run(sql, events, !gatunFirst, name + "/" + i);
            if (i >= WARMUPS) {
                (gatunFirst ? gatun : stock).add(a);
                (gatunFirst ? stock : gatun).add(b);
            }
        }
        boolean same = stock.stream().allMatch(r -> r.checksum.equals(gatun.get(0).checksum))
                && gatun.stream().allMatch(r -> r.checksum.equals(gatun.get(0).checksum));
        Run s = median(stock);
        Run g = median(gatun);
        System.out.printf(Locale.ROOT, "stock  %,12.0f rows/s  task CPU %,6d ms   %,d result rows, checksum %s%n",
                s.rowsPerSecond, s.cpuMillis, s.checksum.rows(), s.checksum.hex());
        System.out.printf(Locale.ROOT, "gatun  %,12.0f rows/s  task CPU %,6d ms   %s; CPU stock/Gatun %.2fx,"
                        + " rows/s %.2fx (medians of %d)%n",
                g.rowsPerSecond, g.cpuMillis, same ? "same rows as stock" : "DIFFERENT ROWS",
                (double) s.cpuMillis / g.cpuMillis, g.rowsPerSecond / s.rowsPerSecond, TRIALS);
        return same;
    }

    private static Run median(List<Run> runs) {
        List<Run> byCpu = new ArrayList<>(runs);
        byCpu.sort((x, y) -> Long.compare(x.cpuMillis, y.cpuMillis));
        List<Double> rates = new ArrayList<>(runs.stream().map(r -> r.rowsPerSecond).toList());
        rates.sort(null);
        Run mid = byCpu.get(byCpu.size() / 2);
        return new Run(mid.checksum, rates.get(rates.size() / 2), mid.cpuMillis);
    }

    /** Gatun's decisions for the query's Calcs, as EXPLAIN prints them (no force switch). */
    private static String gatunDecisions(String sql, long events) {
        TableEnvironment tEnv = environment(true, events);
        String explain = Gatun.explain(tEnv, sql);
        return explain.substring(explain.indexOf("== Gatun ==")).strip();
    }

    private record Run(Checksums.Checksum checksum, double rowsPerSecond, long cpuMillis) {}

    private static TableEnvironment environment(boolean gatun, long events) {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tEnv.getConfig().set("parallelism.default", "1");
        if (gatun && !Gatun.enable(tEnv)) {
            throw new IllegalStateException("Gatun could not load its native library in this JVM");
        }
        for (String ddl : NexmarkEventSourceFactory.ddl(events, NexmarkEventSourceFactory.EVENTS_PER_SECOND
                .defaultValue(), RowFormat.GENERIC)) {
            tEnv.executeSql(ddl);
        }
        return tEnv;
    }

    private static Run run(String sql, long events, boolean gatun, String name) throws Exception {
        TableEnvironment tEnv = environment(gatun, events);
        String key = "demo/" + name + "/" + (gatun ? "gatun" : "stock");
        tEnv.createTemporaryTable("sink", TableDescriptor.forConnector(BlackholeSinkFactory.IDENTIFIER)
                .schema(E2eRunner.sinkSchema(tEnv.sqlQuery(sql).getResolvedSchema()))
                .option(BlackholeSinkFactory.KEY, key)
                .build());
        Checksums.take(key);
        TaskCpu.take(key);
        long start = System.nanoTime();
        tEnv.executeSql("INSERT INTO sink " + sql).getJobClient().orElseThrow().getJobExecutionResult().get();
        double seconds = (System.nanoTime() - start) / 1e9;
        long cpu = TaskCpu.take(key) / 1_000_000;
        return new Run(Checksums.take(key), events / seconds, cpu);
    }
}
