package dev.gatun.bench.e2e;

import dev.gatun.bench.nexmark.NexmarkEventSourceFactory;
import dev.gatun.bench.probe.CheckpointProbe;
import dev.gatun.bench.probe.TaskCpu;
import dev.gatun.bench.rows.RowFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.TableDescriptor;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.utils.DataTypeUtils;

/**
 * Runs each query on every available engine in each execution mode and, in streaming mode, under
 * each object-reuse setting: per mode and setting, warmups, then trials whose engine order
 * alternates (stock first on even trials, Gatun first on odd ones). Every run is a fresh
 * {@link TableEnvironment} and job on an embedded MiniCluster; the timing is Flink's net job
 * runtime. Results of all runs of a query, across engines, modes and settings, must agree (rows
 * and checksum), and every job must have run with the object reuse it was given. A batch job
 * always reuses objects (Flink's batch executor turns it on), so batch mode runs once, reuse on.
 */
public final class E2eRunner {
    /** Flink's switch, set per job in the table config. */
    static final String OBJECT_REUSE = "pipeline.object-reuse";

    /**
     * What to run; {@code objectReuse} lists the streaming settings in run order, {@code modes} the
     * execution modes ({@link Trial#STREAMING}, {@link Trial#BATCH}) in run order, {@code backends}
     * the state backends every streaming job runs on ({@link Trial#HEAP}, {@code rocksdb}).
     * With {@code checkpoint}, every streaming job takes one checkpoint with its sources stopped
     * after half the input rows, and its size and duration are recorded.
     */
    public record Settings(long rows, long seed, int warmups, int trials, int parallelism, RowFormat rowFormat,
                           List<Boolean> objectReuse, Path plansDir, List<String> modes, List<String> backends,
                           boolean checkpoint) {
        public Settings {
            objectReuse = List.copyOf(objectReuse);
            modes = List.copyOf(modes);
            backends = List.copyOf(backends);
            if (backends.isEmpty() || !List.of(Trial.HEAP, "rocksdb").containsAll(backends)) {
                throw new IllegalArgumentException("state backends are heap and rocksdb, not " + backends);
            }
            if (objectReuse.isEmpty()) {
                throw new IllegalArgumentException("no object-reuse setting to run");
            }
            if (modes.isEmpty() || !List.of(Trial.STREAMING, Trial.BATCH).containsAll(modes)) {
                throw new IllegalArgumentException("execution modes are streaming and batch, not " + modes);
            }
        }

        public Settings(long rows, long seed, int warmups, int trials, int parallelism, RowFormat rowFormat,
                        List<Boolean> objectReuse, Path plansDir, List<String> modes) {
            this(rows, seed, warmups, trials, parallelism, rowFormat, objectReuse, plansDir, modes, List.of(Trial.HEAP),
                    false);
        }

        /** The state backends a mode runs on: a batch job keeps no checkpointed state. */
        List<String> backends(String mode) {
            return mode.equals(Trial.BATCH) ? List.of(Trial.HEAP) : backends;
        }

        /** Streaming mode only. */
        public Settings(long rows, long seed, int warmups, int trials, int parallelism, RowFormat rowFormat,
                        List<Boolean> objectReuse, Path plansDir) {
            this(rows, seed, warmups, trials, parallelism, rowFormat, objectReuse, plansDir, List.of(Trial.STREAMING));
        }

        /** The object-reuse settings a mode runs under: batch jobs always reuse objects. */
        List<Boolean> objectReuse(String mode) {
            return mode.equals(Trial.BATCH) ? List.of(true) : objectReuse;
        }

        /** Both settings, Flink's default (off) first. */
        public Settings(long rows, long seed, int warmups, int trials, int parallelism, RowFormat rowFormat,
                        Path plansDir) {
            this(rows, seed, warmups, trials, parallelism, rowFormat, List.of(false, true), plansDir);
        }
    }

    private final Settings settings;
    private final List<EngineConfigurer> engines;
    private final List<String> problems = new ArrayList<>();
    private final Map<String, String> notNative = new LinkedHashMap<>();
    private final Map<String, String> defaults = new LinkedHashMap<>();

    public E2eRunner(Settings settings, List<EngineConfigurer> engines) {
        this.settings = settings;
        this.engines = engines;
    }

    /**
     * Queries whose forced Gatun plan kept a Calc on Flink (query id → Gatun's decision): their
     * "Gatun" figures are (partly) stock Flink under the Gatun planner, and the summary says so.
     */
    public Map<String, String> notNative() {
        return notNative;
    }

    /**
     * What Gatun decides for each query without {@code gatun.native.force} (query id →
     * {@code native}, {@code stock (reason)} or {@code partly native (...)}), planned once per query.
     */
    public Map<String, String> defaults() {
        return defaults;
    }

    /** Disagreements between runs, empty when all agreed. */
    public List<String> problems() {
        return problems;
    }

    public List<Trial> run(Query query) throws Exception {
        List<Trial> out = new ArrayList<>();
        for (String mode : settings.modes()) {
            for (EngineConfigurer engine : engines) {
                if (engine.canForceNative()) {
                    planWithoutForce(query, engine, mode);
                }
            }
            for (String backend : settings.backends(mode)) {
                for (boolean reuse : settings.objectReuse(mode)) {
                    Run run = new Run(mode, reuse, backend);
                    for (int w = 0; w < settings.warmups(); w++) {
                        for (EngineConfigurer engine : engines) {
                            out.add(runOnce(query, engine, run, "warmup", w));
                        }
                    }
                    for (int t = 0; t < settings.trials(); t++) {
                        List<EngineConfigurer> order = new ArrayList<>(engines);
                        if (t % 2 == 1) {
                            Collections.reverse(order);
                        }
                        for (EngineConfigurer engine : order) {
                            out.add(runOnce(query, engine, run, "trial", t));
                        }
                    }
                }
            }
        }
        Trial first = out.get(0);
        for (Trial trial : out) {
            if (trial.resultRows() != first.resultRows() || !trial.checksum().equals(first.checksum())) {
                problems.add(query.id() + ": " + describe(trial) + " gave " + trial.resultRows() + " rows / "
                        + trial.checksum() + ", but " + describe(first) + " gave " + first.resultRows() + " / "
                        + first.checksum());
            }
        }
        return out;
    }

    private static String describe(Trial t) {
        return t.engine() + " (" + t.mode() + ", object reuse " + t.reuseLabel() + ", " + t.stateBackend() + ") "
                + t.phase() + " " + t.index();
    }

    /** One setting a query's jobs run under. */
    private record Run(String mode, boolean reuse, String backend) {}

    private String firstPhase() {
        return settings.warmups() > 0 ? "warmup" : "trial";
    }

    /**
     * A fresh environment with the query's tables and views and a blackhole sink under {@code key},
     * on {@code backend}; with a {@code restPort} > 0 its embedded cluster serves REST there and
     * takes checkpoints only when asked ({@link CheckpointProbe}), its sources pausing halfway.
     */
    private TableEnvironment prepare(Query query, EngineConfigurer engine, String mode, boolean force, boolean reuse,
                                     String backend, int restPort, String key) {
        Configuration cluster = new Configuration();
        cluster.setString("state.backend.type", Trial.flinkBackendType(backend));
        if (restPort > 0) {
            cluster.setString("rest.bind-port", Integer.toString(restPort));
            cluster.setString("rest.address", "127.0.0.1");
            cluster.setString("rest.bind-address", "127.0.0.1");
            cluster.setString("execution.checkpointing.interval", "1 h"); // on, but only the probe's one
            cluster.setString("execution.checkpointing.checkpoints-after-tasks-finish", "false");
        }
        EnvironmentSettings.Builder environment = mode.equals(Trial.BATCH)
                ? EnvironmentSettings.newInstance().inBatchMode() : EnvironmentSettings.newInstance().inStreamingMode();
        TableEnvironment tEnv = TableEnvironment.create(environment.withConfiguration(cluster).build());
        cluster.toMap().forEach(tEnv.getConfig()::set);
        if (restPort > 0) {
            tEnv.getConfig().set(NexmarkEventSourceFactory.PAUSE_FOR_CHECKPOINT.key(),
                    Long.toString(settings.rows() / 2));
        }
        tEnv.getConfig().set("parallelism.default", Integer.toString(settings.parallelism()));
        tEnv.getConfig().set(OBJECT_REUSE, Boolean.toString(reuse));
        query.config().forEach(tEnv.getConfig()::set);
        engine.configure(tEnv);
        if (force) {
            engine.forceNative(tEnv);
        }
        for (String statement : query.ddl().statements(settings.rows(), settings.seed(), settings.rowFormat(), key)) {
            tEnv.executeSql(statement);
        }
        tEnv.createTemporaryTable("sink", TableDescriptor.forConnector(BlackholeSinkFactory.IDENTIFIER)
                .schema(sinkSchema(tEnv.sqlQuery(query.sql()).getResolvedSchema()))
                .option(BlackholeSinkFactory.KEY, key)
                .build());
        return tEnv;
    }

    /** The query's columns as plain types: a time attribute (Nexmark's {@code dateTime}) is written as its timestamp. */
    public static Schema sinkSchema(ResolvedSchema query) {
        Schema.Builder schema = Schema.newBuilder();
        for (Column column : query.getColumns()) {
            DataType type = DataTypeUtils.removeTimeAttribute(column.getDataType());
            schema.column(column.getName(), type);
        }
        return schema.build();
    }

    /**
     * Plans the query on {@code engine} without the force switch: the decision Gatun would take by
     * default (streaming under the first object-reuse setting; keyed {@code <id>-batch} for batch).
     */
    private void planWithoutForce(Query query, EngineConfigurer engine, String mode) throws IOException {
        TableEnvironment tEnv = prepare(query, engine, mode, false, settings.objectReuse(mode).get(0),
                settings.backends(mode).get(0), 0, "default-plan");
        String plan = engine.explain(tEnv, "INSERT INTO sink " + query.sql());
        String decision = "default: " + PlanDecisions.of(plan).summary();
        String id = planId(query, mode);
        defaults.put(id, decision);
        if (settings.plansDir() != null) {
            Files.createDirectories(settings.plansDir());
            Files.writeString(settings.plansDir().resolve(id + "-" + engine.name() + "-default.txt"),
                    decision + "\n(planned without gatun.native.force)\n\n" + plan);
        }
        System.out.println("  " + id + " " + engine.name() + " " + decision);
    }

    /** The query id, with {@code -batch} appended in batch mode, for plan files and decisions. */
    public static String planId(Query query, String mode) {
        return mode.equals(Trial.BATCH) ? query.id() + "-batch" : query.id();
    }

    private Trial runOnce(Query query, EngineConfigurer engine, Run run, String phase, int index) throws Exception {
        String mode = run.mode();
        boolean reuse = run.reuse();
        String key = query.id() + "/" + engine.name() + "/" + mode + "/reuse-" + Trial.reuseLabel(reuse) + "/"
                + run.backend() + "/" + phase + "/" + index;
        boolean checkpoint = settings.checkpoint() && mode.equals(Trial.STREAMING);
        int restPort = checkpoint ? CheckpointProbe.freePort() : 0;
        TableEnvironment tEnv = prepare(query, engine, mode, query.forced(), reuse, run.backend(), restPort, key);
        String insert = "INSERT INTO sink " + query.sql();
        if (index == 0 && phase.equals(firstPhase()) && settings.plansDir() != null) {
            String plan = engine.explain(tEnv, insert);
            Files.createDirectories(settings.plansDir());
            Files.writeString(settings.plansDir().resolve(planId(query, mode) + "-" + engine.name() + "-reuse-"
                    + Trial.reuseLabel(reuse) + ".txt"), plan);
            PlanDecisions decisions = PlanDecisions.of(plan);
            String id = planId(query, mode);
            boolean asExpected = query.forced() ? decisions.allNative() : decisions.anyNative();
            if (engine.canForceNative() && !asExpected && !notNative.containsKey(id)) {
                String why = decisions.querySummary();
                notNative.put(id, why);
                System.out.println("  NOTE: " + id + " is not all native on " + engine.name() + ": " + why);
            }
        }
        Checksums.take(key);
        TaskCpu.take(key);
        TaskCpu.takeSource(key);
        Checksums.takeObjectReuse(key);
        long start = System.nanoTime();
        TableResult result = tEnv.executeSql(insert);
        JobClient client = result.getJobClient().orElseThrow();
        CheckpointProbe.Taken taken;
        try {
            taken = checkpoint ? new CheckpointProbe(restPort).takeWhenPaused(key, client) : null;
        } catch (Exception e) {
            // its paused sources would keep the job, and with it this JVM, running
            cancelQuietly(client, e);
            throw e;
        }
        JobExecutionResult job = client.getJobExecutionResult().get();
        long wallMillis = (System.nanoTime() - start) / 1_000_000;
        Checksums.Checksum checksum = Checksums.take(key);
        long cpuNanos = TaskCpu.take(key);
        long sourceCpuNanos = TaskCpu.takeSource(key);
        Boolean sawReuse = Checksums.takeObjectReuse(key);
        if (sawReuse == null || sawReuse != reuse) {
            problems.add(query.id() + ": " + engine.name() + " " + mode + " " + phase + " " + index
                    + " was to run with object reuse " + reuse + " but its sink saw " + sawReuse);
        }
        Trial trial = new Trial(query.id(), engine.name(), phase, index, settings.rows(), job.getNetRuntime(),
                wallMillis, checksum.rows(), checksum.hex(), cpuNanos < 0 ? -1 : cpuNanos / 1_000_000, reuse, mode,
                sourceCpuNanos < 0 ? -1 : sourceCpuNanos / 1_000_000, run.backend(), taken == null ? -1 : taken.bytes(),
                taken == null ? -1 : taken.millis());
        if (taken != null && !taken.backend().toLowerCase(java.util.Locale.ROOT).contains(
                run.backend().equals(Trial.HEAP) ? "hashmap" : run.backend())) {
            problems.add(query.id() + ": " + describe(trial) + " was to run on " + run.backend()
                    + " but its checkpoint configuration says " + taken.backend());
        }
        System.out.printf(java.util.Locale.ROOT,
                "  %-9s %-6s %-9s reuse %-3s %-7s %-6s %d: %,12.0f rows/s (net %d ms, wall %d ms, task CPU %d ms,"
                        + " source task %d ms)%s,"
                        + " %d result rows, checksum %s%n",
                query.id(), engine.name(), mode, trial.reuseLabel(), run.backend(), phase, index, trial.rowsPerSecond(),
                trial.netMillis(), wallMillis, trial.taskCpuMillis(), trial.sourceTaskCpuMillis(),
                taken == null ? "" : String.format(java.util.Locale.ROOT, ", checkpoint %,d bytes in %d ms",
                        taken.bytes(), taken.millis()),
                trial.resultRows(), trial.checksum());
        return trial;
    }

    private static void cancelQuietly(JobClient client, Exception cause) {
        try {
            client.cancel().get(1, java.util.concurrent.TimeUnit.MINUTES);
        } catch (Exception e) {
            cause.addSuppressed(e);
        }
    }
}
