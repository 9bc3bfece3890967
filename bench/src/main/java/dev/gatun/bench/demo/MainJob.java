package dev.gatun.bench.demo;

import dev.gatun.bench.probe.TaskCpu;
import dev.gatun.bench.e2e.BlackholeSinkFactory;
import dev.gatun.bench.e2e.E2eRunner;
import dev.gatun.bench.e2e.Checksums;
import dev.gatun.bench.e2e.Queries;
import dev.gatun.bench.e2e.Query;
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
 * The main job behind {@code bin/gatun demo}: Nexmark queries over the benchmark's event stream on
 * an embedded cluster (stateless ones, then q17's two-phase group aggregate under the benchmark's
 * mini-batch settings), each planned by {@code Gatun.enable} alone (no force switch: the cost rule
 * decides) and run on stock Flink and on Gatun. It prints Gatun's EXPLAIN decision, checks that
 * both engines give the same result (order-independent checksum of what the changelog leaves), and
 * compares them after a warm-up over a few alternating trials: rows/s and the CPU time of every task
 * thread, whose ratio is the figure the benchmarks report. Optional argument: events per run (default 1,000,000).
 */
public final class MainJob {
    private static final int WARMUPS = 1;
    private static final int TRIALS = 3;

    /** The README's strings query, over the Nexmark bid view. */
    private static final Query STRINGS_AND_CASE = Queries.nexmark("strings+case", "strings+case",
            "SELECT auction, UPPER(channel) AS channel, CASE WHEN price < 10000 THEN 'small' WHEN price < 1000000"
                    + " THEN 'medium' ELSE 'large' END AS band, CHAR_LENGTH(url) AS url_length FROM bid"
                    + " WHERE channel LIKE '%o%'");

    /** The benchmark's Nexmark queries the demo shows: stateless ones, then q17's two-phase group aggregate. */
    private static List<Query> queries() {
        List<Query> out = new ArrayList<>(Queries.select("q1,q2,q21,q22"));
        out.add(STRINGS_AND_CASE);
        out.addAll(Queries.select("q17"));
        return out;
    }

    private MainJob() {}

    public static void main(String[] args) throws Exception {
        long events = args.length > 0 && !args[0].isBlank() ? Long.parseLong(args[0].trim().replace("_", "")) : 1_000_000L;
        System.out.printf("JDK %s, native library %s (ABI %d), %,d Nexmark events per run, %d warm-up and %d"
                        + " alternating trials per engine, Flink's defaults (object reuse off)%n",
                Runtime.version(), GatunLibrary.path(), GatunLibrary.abiVersion(), events, WARMUPS, TRIALS);
        boolean allEqual = true;
        for (Query query : queries()) {
            allEqual &= compare(query, events);
        }
        System.out.println("\nnative live handles after the runs: " + GatunLibrary.stats().liveHandles());
        if (!allEqual) {
            throw new IllegalStateException("native results differ from stock Flink (see above)");
        }
    }

    private static boolean compare(Query query, long events) throws Exception {
        String name = query.id();
        System.out.println("\n=== " + query.title() + (query.config().isEmpty() ? "" : " " + query.config()) + ":\n"
                + query.sql());
        String explain = gatunDecisions(query, events);
        System.out.println(explain);
        List<Run> stock = new ArrayList<>();
        List<Run> gatun = new ArrayList<>();
        for (int i = 0; i < WARMUPS + TRIALS; i++) {
            boolean gatunFirst = i % 2 == 1;
            Run a = run(query, events, gatunFirst, name + "/" + i);
            Run b = run(query, events, !gatunFirst, name + "/" + i);
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

    /** Gatun's decisions for the query's islands, as EXPLAIN prints them (no force switch). */
    private static String gatunDecisions(Query query, long events) {
        TableEnvironment tEnv = environment(query, true, events, null);
        String explain = Gatun.explain(tEnv, query.sql());
        return explain.substring(explain.indexOf("== Gatun ==")).strip();
    }

    private record Run(Checksums.Checksum checksum, double rowsPerSecond, long cpuMillis) {}

    /** A fresh environment with the query's table settings and tables; sources report task CPU under {@code key}. */
    private static TableEnvironment environment(Query query, boolean gatun, long events, String key) {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tEnv.getConfig().set("parallelism.default", "1");
        query.config().forEach(tEnv.getConfig()::set);
        if (gatun && !Gatun.enable(tEnv)) {
            throw new IllegalStateException("Gatun could not load its native library in this JVM");
        }
        for (String ddl : query.ddl().statements(events, 0, RowFormat.GENERIC, key)) {
            tEnv.executeSql(ddl);
        }
        return tEnv;
    }

    private static Run run(Query query, long events, boolean gatun, String name) throws Exception {
        String key = "demo/" + name + "/" + (gatun ? "gatun" : "stock");
        TableEnvironment tEnv = environment(query, gatun, events, key);
        String sql = query.sql();
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
