package dev.gatun.bench.e2e;

import dev.gatun.bench.report.E2eReport;
import dev.gatun.bench.report.Machine;
import dev.gatun.bench.rows.RowFormat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code bin/gatun bench e2e [--rows N] [--warmups W] [--trials T] [--queries all|id,id]
 * [--parallelism P] [--row-format generic|binary] [--seed S] [--engines stock,gatun] [--reuse off,on]
 * [--mode streaming|batch|streaming,batch] [--backends heap,rocksdb] [--checkpoint on|off] [--out DIR]
 * [--plans DIR]}: the end-to-end comparison, written
 * to {@code DIR/e2e-trials.csv}, {@code e2e-summary.md} and the PNG charts. {@code --reuse} lists the
 * {@code pipeline.object-reuse} settings to run every streaming query under (default both, off
 * first); {@code --mode} the execution modes (default streaming; a batch job always reuses objects,
 * so batch runs once per query, and its CSV rows say {@code batch} in {@code execution_mode}).
 * {@code --backends} the state backends of the streaming jobs (default heap, Flink's default;
 * {@code state_backend} in the CSV). {@code --checkpoint on}: every streaming job over the Nexmark
 * events takes one checkpoint with its source stopped after half the events (the same point of
 * the stream for both engines) and records its size and duration. {@code --rows} counts input rows:
 * events for the Nexmark queries. Exits non-zero when runs of a query disagree (across engines
 * and settings) or a job ran with the wrong object reuse.
 */
public final class E2eMain {
    private E2eMain() {}

    public static void main(String[] args) throws Exception {
        long rows = 5_000_000;
        long seed = 42;
        int warmups = 2;
        int trials = 5;
        int parallelism = 1;
        String queries = "all";
        List<String> engineNames = List.of("stock", "gatun");
        List<Boolean> reuse = List.of(false, true);
        List<String> modes = List.of(Trial.STREAMING);
        List<String> backends = List.of(Trial.HEAP);
        boolean checkpoint = false;
        RowFormat rowFormat = RowFormat.GENERIC;
        Path out = Path.of("../docs/bench");
        Path plans = Path.of("target/e2e-plans");
        List<String> userArgs = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            if (value == null) {
                throw new IllegalArgumentException("missing value after " + args[i]);
            }
            switch (args[i]) {
                case "--rows" -> rows = Long.parseLong(value.replace("_", ""));
                case "--seed" -> seed = Long.parseLong(value);
                case "--warmups" -> warmups = Integer.parseInt(value);
                case "--trials" -> trials = Integer.parseInt(value);
                case "--parallelism" -> parallelism = Integer.parseInt(value);
                case "--queries" -> queries = value;
                case "--row-format" -> rowFormat = RowFormat.of(value);
                case "--out" -> out = Path.of(value);
                case "--plans" -> plans = Path.of(value);
                case "--engines" -> engineNames = List.of(value.split(",")); // e.g. gatun alone, under a profiler
                case "--mode" -> modes = java.util.Arrays.stream(value.split(",")).map(String::trim).distinct().toList();
                case "--backends" -> backends = java.util.Arrays.stream(value.split(",")).map(String::trim).distinct()
                        .toList();
                case "--checkpoint" -> checkpoint = switch (value) {
                    case "on" -> true;
                    case "off" -> false;
                    default -> throw new IllegalArgumentException("--checkpoint is on or off, not " + value);
                };
                case "--reuse" -> reuse = java.util.Arrays.stream(value.split(",")).map(Trial::parseReuse).distinct()
                        .toList();
                default -> throw new IllegalArgumentException("unknown option " + args[i] + " (see E2eMain's javadoc)");
            }
            if (!args[i].equals("--out")) {
                userArgs.add(args[i]);
                userArgs.add(value);
            }
            i++;
        }
        if (trials < 5) {
            System.out.println("note: fewer than 5 trials: a smoke run, not a measurement");
        }
        List<Query> selected = Queries.select(queries);
        List<EngineConfigurer> engines = new ArrayList<>();
        if (engineNames.contains("stock")) {
            engines.add(EngineConfigurer.STOCK);
        }
        GatunEngine gatun = new GatunEngine();
        Optional<String> unavailable = gatun.unavailableReason();
        if (unavailable.isPresent()) {
            System.out.println("Gatun: unavailable (" + unavailable.get() + "); running stock Flink only");
        } else if (engineNames.contains("gatun")) {
            engines.add(gatun);
        }
        String command = ("bin/gatun bench e2e " + String.join(" ", userArgs)).trim();
        System.out.println("Machine: " + Machine.describe());
        System.out.println("Command: " + command);

        E2eRunner runner = new E2eRunner(new E2eRunner.Settings(rows, seed, warmups, trials, parallelism, rowFormat,
                reuse, plans, modes, backends, checkpoint), engines);
        List<Trial> all = new ArrayList<>();
        Files.createDirectories(out);
        for (Query query : selected) {
            System.out.println(query.id() + ": " + query.sql());
            all.addAll(runner.run(query));
            E2eReport.writeCsv(all, out.resolve(E2eReport.CSV)); // keep what finished if a later query fails
        }
        E2eReport.writeSummary(all, selected, command,
                unavailable.map(u -> "Gatun unavailable in this run: " + u).orElse(null), runner.notNative(),
                runner.defaults(), out);
        System.out.println("wrote " + out.toAbsolutePath().normalize().resolve(E2eReport.CSV)
                + ", e2e-summary.md and charts; plans in " + plans.toAbsolutePath().normalize());
        if (!runner.problems().isEmpty()) {
            runner.problems().forEach(p -> System.err.println("MISMATCH " + p));
            System.exit(1);
        }
        System.exit(0); // Flink's embedded cluster may leave non-daemon threads behind
    }
}
