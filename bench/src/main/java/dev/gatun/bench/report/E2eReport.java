package dev.gatun.bench.report;

import dev.gatun.bench.e2e.E2eRunner;
import dev.gatun.bench.e2e.Query;
import dev.gatun.bench.e2e.Trial;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The end-to-end outputs: every run as CSV ({@code e2e-trials.csv}), a markdown summary with
 * median and range of rows/s per engine, the native/stock ratio and its target, one table per
 * streaming object-reuse setting and one for batch mode ({@code e2e-summary.md}), and charts with
 * one series per engine (or ratio) and setting ({@code e2e-throughput.png}; {@code e2e-ratio.png}
 * once Gatun ran).
 */
public final class E2eReport {
    public static final String CSV = "e2e-trials.csv";
    static final String STOCK = "stock";
    static final String GATUN = "gatun";

    private E2eReport() {}

    public static void writeCsv(List<Trial> trials, Path out) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add(Trial.CSV_HEADER);
        trials.forEach(t -> lines.add(t.csv()));
        Files.write(out, lines);
    }

    public static List<Trial> readCsv(Path csv) throws IOException {
        return Files.readAllLines(csv).stream().skip(1).filter(l -> !l.isBlank()).map(Trial::parse).toList();
    }

    /** Writes the summary and charts next to {@code outDir/e2e-trials.csv}. */
    public static void writeSummary(List<Trial> trials, List<Query> queries, String command, String note,
                                    Path outDir) throws IOException {
        writeSummary(trials, queries, command, note, Map.of(), Map.of(), outDir);
    }

    /**
     * As above, one table per streaming object-reuse setting found in {@code trials} (off first),
     * then one for batch mode. {@code notNative} maps the queries whose forced Gatun plan kept a Calc
     * on Flink to Gatun's decision, and their status says so instead of met/missed; {@code defaults}
     * maps each query to what Gatun decides without {@code gatun.native.force}. Both are keyed by
     * {@link E2eRunner#planId} (the query id, {@code -batch} appended in batch mode).
     */
    public static void writeSummary(List<Trial> trials, List<Query> queries, String command, String note,
                                    Map<String, String> notNative, Map<String, String> defaults, Path outDir)
            throws IOException {
        Charts.RangeBars throughput = new Charts.RangeBars();
        Charts.RangeBars ratios = new Charts.RangeBars();
        boolean anyGatun = false;
        StringBuilder md = new StringBuilder();
        md.append("# End-to-end: stock Flink vs Gatun\n\n")
                .append("Command: `").append(command).append("`  \n")
                .append("Machine: ").append(Machine.describe()).append("  \n");
        if (note != null) {
            md.append("Note: ").append(note).append("  \n");
        }
        md.append("\nRows/s from Flink's net job runtime (input rows: events for the Nexmark queries); median"
                        + " (min–max) of the measured trials. Ratio = Gatun median / stock median rows/s (> 1: Gatun"
                        + " faster); its range spans the per-pair ratios.\n\n")
                .append("Task CPU: CPU time of every task thread of the job, as its sources and sinks report it when"
                        + " they close (a Calc query is one chained task: source, Calc and sink; a two-phase aggregate"
                        + " adds the global aggregate's task after the exchange), median ms per job; CPU ratio = stock CPU / Gatun CPU (> 1: Gatun cheaper), range over trial"
                        + " pairs. It does not count time a thread waited for a core, so it holds on a loaded"
                        + " machine.\n");
        List<Setting> settings = trials.stream().map(t -> new Setting(t.mode(), t.objectReuse(), t.stateBackend()))
                .distinct().sorted(Setting.ORDER).toList();
        for (Setting setting : settings) {
            boolean reuse = setting.objectReuse();
            String mode = setting.mode();
            String label = setting.label();
            md.append("\n").append(setting.heading()).append("\n\n")
                    .append("| query | rows | stock rows/s | Gatun rows/s | ratio | stock task CPU ms | Gatun task CPU ms"
                            + " | CPU ratio | target | status |\n")
                    .append("|---|---|---|---|---|---|---|---|---|---|\n");
            for (Query query : queries) {
                Map<String, List<Trial>> byEngine = measured(trials, query.id(), setting);
                List<Trial> stock = byEngine.getOrDefault(STOCK, List.of());
                List<Trial> gatun = byEngine.getOrDefault(GATUN, List.of());
                if (stock.isEmpty()) {
                    continue;
                }
                Stats s = rowsPerSecond(stock);
                throughput.add(STOCK + ", " + label, query.id(), s);
                String gatunCell = "unavailable";
                String ratioCell = "—";
                String stockCpu = cpuCell(stock);
                String gatunCpu = "—";
                String cpuRatio = "—";
                double target = query.targets().under(mode, reuse, setting.backend());
                String targetCell = Double.isNaN(target) ? "–" : String.format(Locale.ROOT, "≥ %.1f× task CPU", target);
                String status = "pending (Gatun unavailable)";
                if (!gatun.isEmpty()) {
                    anyGatun = true;
                    Stats g = rowsPerSecond(gatun);
                    throughput.add(GATUN + ", " + label, query.id(), g);
                    Stats pairs = pairRatios(stock, gatun);
                    double ratio = g.median() / s.median();
                    ratios.add("Gatun / stock rows/s, " + label, query.id(),
                            new Stats(ratio, pairs.min(), pairs.max(), pairs.n()));
                    gatunCell = format(g);
                    gatunCpu = cpuCell(gatun);
                    Stats cpuPairs = cpuPairRatios(stock, gatun);
                    status = Double.isNaN(target) ? "–" : "no task CPU recorded";
                    if (cpuPairs != null) {
                        double cpu = cpuMedian(stock) / cpuMedian(gatun);
                        if (!Double.isNaN(target)) {
                            status = cpu >= target ? "met" : "**missed**";
                        }
                        cpuRatio = String.format(Locale.ROOT, "%.2f× (%.2f–%.2f)", cpu, cpuPairs.min(), cpuPairs.max());
                        ratios.add("stock task CPU / Gatun task CPU, " + label, query.id(),
                                new Stats(cpu, cpuPairs.min(), cpuPairs.max(), cpuPairs.n()));
                    }
                    ratioCell = String.format(Locale.ROOT, "%.2f× (%.2f–%.2f)", ratio, pairs.min(), pairs.max());
                    String planned = E2eRunner.planId(query, mode);
                    if (notNative.containsKey(planned)) {
                        status = "not native: " + notNative.get(planned).lines().findFirst().orElse("")
                                .replace("|", "/");
                    }
                }
                md.append(String.format(Locale.ROOT, "| %s | %,d | %s | %s | %s | %s | %s | %s | %s | %s |%n",
                        query.title(), stock.get(0).rows(), format(s), gatunCell, ratioCell, stockCpu, gatunCpu,
                        cpuRatio, targetCell, status));
            }
        }
        appendCheckpoints(md, trials, queries, settings);
        if (!defaults.isEmpty()) {
            md.append("\n## Gatun without `gatun.native.force`\n\n")
                    .append("The runs above force every admitted Calc native, except those of the queries marked"
                            + " *as planned* (the aggregates), which run as `Gatun.enable` alone plans them. What"
                            + " `Gatun.enable` alone (its cost rule) would do with each query:\n\n");
            for (Query query : queries) {
                for (String mode : List.of(Trial.STREAMING, Trial.BATCH)) {
                    String id = E2eRunner.planId(query, mode);
                    String decision = defaults.get(id);
                    if (decision != null) {
                        md.append("- `").append(id).append("`").append(query.forced() ? "" : " (as planned)")
                                .append(": ").append(decision).append('\n');
                    }
                }
            }
        }
        Files.writeString(outDir.resolve("e2e-summary.md"), md);
        Charts.rangeBars("End-to-end throughput by mode and object reuse (median, range)", "rows/s", throughput, null,
                outDir.resolve("e2e-throughput.png"));
        if (anyGatun) {
            Charts.rangeBars("Gatun vs stock by mode and object reuse: throughput ratio and task-CPU ratio (median, pair range;"
                    + " > 1: Gatun better)", "ratio", ratios, 1.0,
                    outDir.resolve("e2e-ratio.png"));
        }
    }

    /** A table of the summary: streaming under one object-reuse setting and state backend, or batch. */
    private record Setting(String mode, boolean objectReuse, String backend) {
        /** Streaming first, the heap backend (Flink's default) first, reuse off (Flink's default) first. */
        static final java.util.Comparator<Setting> ORDER = java.util.Comparator
                .comparing((Setting s) -> s.mode().equals(Trial.BATCH))
                .thenComparing((Setting s) -> !s.backend().equals(Trial.HEAP))
                .thenComparing(Setting::objectReuse);

        String heading() {
            if (mode.equals(Trial.BATCH)) {
                return "## Batch mode (`execution.runtime-mode: batch`; Flink's batch executor always reuses objects)";
            }
            return "## `pipeline.object-reuse=" + objectReuse + '`'
                    + (objectReuse ? "" : " (Flink's default, as the Nexmark benchmark runs)")
                    + (backend.equals(Trial.HEAP) ? "" : ", `state.backend.type: " + backend + '`');
        }

        /** The series label in the charts. */
        String label() {
            return mode.equals(Trial.BATCH) ? "batch"
                    : "reuse " + Trial.reuseLabel(objectReuse) + (backend.equals(Trial.HEAP) ? "" : ", " + backend);
        }
    }

    private static Map<String, List<Trial>> measured(List<Trial> trials, String query, Setting setting) {
        Map<String, List<Trial>> byEngine = new LinkedHashMap<>();
        for (Trial t : trials) {
            if (t.query().equals(query) && t.measured() && t.mode().equals(setting.mode())
                    && t.objectReuse() == setting.objectReuse() && t.stateBackend().equals(setting.backend())) {
                byEngine.computeIfAbsent(t.engine(), e -> new ArrayList<>()).add(t);
            }
        }
        return byEngine;
    }

    /** The checkpoints taken halfway through the stream ({@code --checkpoint on}): median size and duration. */
    private static void appendCheckpoints(StringBuilder md, List<Trial> trials, List<Query> queries,
                                          List<Setting> settings) {
        if (trials.stream().noneMatch(t -> t.measured() && t.checkpointBytes() >= 0)) {
            return;
        }
        md.append("\n## Checkpoints\n\nOne checkpoint per job, its sources stopped after half the input rows (the"
                        + " same point of the stream for both engines): checkpointed bytes and end-to-end duration,"
                        + " median (min–max) of the measured trials.\n\n")
                .append("| query | setting | stock bytes | Gatun bytes | stock ms | Gatun ms |\n|---|---|---|---|---|---|\n");
        for (Setting setting : settings) {
            for (Query query : queries) {
                Map<String, List<Trial>> byEngine = measured(trials, query.id(), setting);
                List<Trial> stock = byEngine.getOrDefault(STOCK, List.of()).stream()
                        .filter(t -> t.checkpointBytes() >= 0).toList();
                List<Trial> gatun = byEngine.getOrDefault(GATUN, List.of()).stream()
                        .filter(t -> t.checkpointBytes() >= 0).toList();
                if (stock.isEmpty() && gatun.isEmpty()) {
                    continue;
                }
                md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s |%n", query.id(), setting.label(),
                        checkpointCell(stock, Trial::checkpointBytes), checkpointCell(gatun, Trial::checkpointBytes),
                        checkpointCell(stock, Trial::checkpointMillis), checkpointCell(gatun, Trial::checkpointMillis)));
            }
        }
    }

    private static String checkpointCell(List<Trial> trials, java.util.function.ToLongFunction<Trial> value) {
        if (trials.isEmpty()) {
            return "—";
        }
        Stats s = Stats.of(trials.stream().map(t -> (double) value.applyAsLong(t)).toList());
        return String.format(Locale.ROOT, "%,.0f (%,.0f–%,.0f)", s.median(), s.min(), s.max());
    }

    private static Stats rowsPerSecond(List<Trial> trials) {
        return Stats.of(trials.stream().map(Trial::rowsPerSecond).toList());
    }

    /** Ratios of the Gatun and stock runs with the same trial index. */
    private static Stats pairRatios(List<Trial> stock, List<Trial> gatun) {
        List<Double> ratios = new ArrayList<>();
        for (Trial g : gatun) {
            stock.stream().filter(s -> s.index() == g.index()).findFirst()
                    .ifPresent(s -> ratios.add(g.rowsPerSecond() / s.rowsPerSecond()));
        }
        return Stats.of(ratios);
    }

    private static boolean hasCpu(List<Trial> trials) {
        return !trials.isEmpty() && trials.stream().allMatch(t -> t.taskCpuMillis() > 0);
    }

    private static double cpuMedian(List<Trial> trials) {
        return Stats.of(trials.stream().map(t -> (double) t.taskCpuMillis()).toList()).median();
    }

    private static String cpuCell(List<Trial> trials) {
        if (!hasCpu(trials)) {
            return "—";
        }
        Stats c = Stats.of(trials.stream().map(t -> (double) t.taskCpuMillis()).toList());
        return String.format(Locale.ROOT, "%,.0f (%,.0f–%,.0f)", c.median(), c.min(), c.max());
    }

    /** stock CPU / Gatun CPU of the runs with the same trial index; null without CPU figures. */
    private static Stats cpuPairRatios(List<Trial> stock, List<Trial> gatun) {
        if (!hasCpu(stock) || !hasCpu(gatun)) {
            return null;
        }
        List<Double> ratios = new ArrayList<>();
        for (Trial g : gatun) {
            stock.stream().filter(s -> s.index() == g.index()).findFirst()
                    .ifPresent(s -> ratios.add((double) s.taskCpuMillis() / g.taskCpuMillis()));
        }
        return ratios.isEmpty() ? null : Stats.of(ratios);
    }

    private static String format(Stats s) {
        return String.format(Locale.ROOT, "%,.0f (%,.0f–%,.0f)", s.median(), s.min(), s.max());
    }
}
