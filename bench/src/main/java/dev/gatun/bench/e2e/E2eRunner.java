package dev.gatun.bench.e2e;

import dev.gatun.bench.rows.RowFormat;
import dev.gatun.bench.rows.Shapes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.TableDescriptor;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;

/**
 * Runs each query on every available engine in one sequence: warmups, then trials whose engine
 * order alternates (stock first on even trials, Gatun first on odd ones). Every run is a fresh
 * {@link TableEnvironment} and job on an embedded MiniCluster; the timing is Flink's net job
 * runtime. Results of all runs of a query must agree (rows and checksum).
 */
public final class E2eRunner {
    /** What to run. */
    public record Settings(long rows, long seed, int warmups, int trials, int parallelism, RowFormat rowFormat,
                           Path plansDir) {}

    private final Settings settings;
    private final List<EngineConfigurer> engines;
    private final List<String> problems = new ArrayList<>();
    private final java.util.Map<String, String> notNative = new java.util.LinkedHashMap<>();

    public E2eRunner(Settings settings, List<EngineConfigurer> engines) {
        this.settings = settings;
        this.engines = engines;
    }

    /**
     * Queries whose Gatun plan had no native island (query id → Gatun's decision lines): their
     * "Gatun" figures are stock Flink under the Gatun planner, and the summary says so.
     */
    public java.util.Map<String, String> notNative() {
        return notNative;
    }

    /** Disagreements between runs, empty when all agreed. */
    public List<String> problems() {
        return problems;
    }

    public List<Trial> run(Query query) throws Exception {
        List<Trial> out = new ArrayList<>();
        for (int w = 0; w < settings.warmups(); w++) {
            for (EngineConfigurer engine : engines) {
                out.add(runOnce(query, engine, "warmup", w));
            }
        }
        for (int t = 0; t < settings.trials(); t++) {
            List<EngineConfigurer> order = new ArrayList<>(engines);
            if (t % 2 == 1) {
                java.util.Collections.reverse(order);
            }
            for (EngineConfigurer engine : order) {
                out.add(runOnce(query, engine, "trial", t));
            }
        }
        Trial first = out.get(0);
        for (Trial trial : out) {
            if (trial.resultRows() != first.resultRows() || !trial.checksum().equals(first.checksum())) {
                problems.add(query.id() + ": " + trial.engine() + " " + trial.phase() + " " + trial.index() + " gave "
                        + trial.resultRows() + " rows / " + trial.checksum() + ", but " + first.engine() + " "
                        + first.phase() + " " + first.index() + " gave " + first.resultRows() + " / " + first.checksum());
            }
        }
        return out;
    }

    private String firstPhase() {
        return settings.warmups() > 0 ? "warmup" : "trial";
    }

    private Trial runOnce(Query query, EngineConfigurer engine, String phase, int index)
            throws ExecutionException, InterruptedException, IOException {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tEnv.getConfig().set("parallelism.default", Integer.toString(settings.parallelism()));
        engine.configure(tEnv);
        engine.forceNative(tEnv);
        tEnv.executeSql(NexmarkSourceFactory.createTableDdl(query.kind(), Shapes.byName(query.kind()),
                settings.rows(), settings.seed(), settings.rowFormat()));
        String key = query.id() + "/" + engine.name() + "/" + phase + "/" + index;
        tEnv.createTemporaryTable("sink", TableDescriptor.forConnector(BlackholeSinkFactory.IDENTIFIER)
                .schema(Schema.newBuilder().fromResolvedSchema(tEnv.sqlQuery(query.sql()).getResolvedSchema()).build())
                .option(BlackholeSinkFactory.KEY, key)
                .build());
        String insert = "INSERT INTO sink " + query.sql();
        if (index == 0 && phase.equals(firstPhase()) && settings.plansDir() != null) {
            String plan = engine.explain(tEnv, insert);
            Files.createDirectories(settings.plansDir());
            Files.writeString(settings.plansDir().resolve(query.id() + "-" + engine.name() + ".txt"), plan);
            if (!engine.name().equals("stock") && !engine.runsNative(plan)) {
                String why = plan.contains("== Gatun ==") ? plan.substring(plan.indexOf("== Gatun ==") + 11).strip() : "";
                notNative.put(query.id(), why);
                System.out.println("  NOTE: " + query.id() + " has no native island on " + engine.name() + ": " + why);
            }
        }
        Checksums.take(key);
        Checksums.takeTaskCpuNanos(key);
        long start = System.nanoTime();
        TableResult result = tEnv.executeSql(insert);
        JobExecutionResult job = result.getJobClient().orElseThrow().getJobExecutionResult().get();
        long wallMillis = (System.nanoTime() - start) / 1_000_000;
        Checksums.Checksum checksum = Checksums.take(key);
        long cpuNanos = Checksums.takeTaskCpuNanos(key);
        Trial trial = new Trial(query.id(), engine.name(), phase, index, settings.rows(), job.getNetRuntime(),
                wallMillis, checksum.rows(), checksum.hex(), cpuNanos < 0 ? -1 : cpuNanos / 1_000_000);
        System.out.printf(java.util.Locale.ROOT,
                "  %-9s %-6s %-6s %d: %,12.0f rows/s (net %d ms, wall %d ms, task CPU %d ms), %d result rows,"
                        + " checksum %s%n",
                query.id(), engine.name(), phase, index, trial.rowsPerSecond(), trial.netMillis(), wallMillis,
                trial.taskCpuMillis(),
                trial.resultRows(), trial.checksum());
        return trial;
    }
}
