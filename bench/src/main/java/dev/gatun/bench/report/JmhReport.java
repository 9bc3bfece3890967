package dev.gatun.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * Reads JMH's JSON results and writes {@code jmh-summary.md} (score, error and, with
 * {@code -prof gc}, heap bytes per operation and per row) and {@code transpose-us.png}
 * (µs per 4096-row batch for each entry-transpose implementation and the physical floor).
 */
public final class JmhReport {
    /** Benchmarks whose operation is one 4096-row batch, so bytes per row = bytes per op / 4096. */
    private static final List<String> PER_BATCH = List.of("EntryTransposeBench", "EntryTransposeGatunBench",
            "CrossingBench", "ExitTransposeGatunBench");
    private static final List<String> ENTRY = List.of("EntryTransposeBench", "EntryTransposeGatunBench");
    private static final int BATCH_ROWS = 4096;

    /** One benchmark result. */
    record Result(String benchmark, String method, String params, double score, double error, String unit,
                  Double allocBytesPerOp) {
        String className() {
            String[] parts = benchmark.split("\\.");
            return parts[parts.length - 2];
        }

        Double allocBytesPerRow() {
            return allocBytesPerOp == null || !PER_BATCH.contains(className()) ? null : allocBytesPerOp / BATCH_ROWS;
        }
    }

    private JmhReport() {}

    static List<Result> read(Path json) throws IOException {
        List<Result> out = new ArrayList<>();
        for (JsonNode run : new ObjectMapper().readTree(json.toFile())) {
            String benchmark = run.get("benchmark").asText();
            List<String> params = new ArrayList<>();
            JsonNode p = run.get("params");
            if (p != null) {
                p.fields().forEachRemaining(e -> params.add(e.getKey() + "=" + e.getValue().asText()));
            }
            JsonNode primary = run.get("primaryMetric");
            JsonNode alloc = run.path("secondaryMetrics").path("gc.alloc.rate.norm");
            out.add(new Result(benchmark, benchmark.substring(benchmark.lastIndexOf('.') + 1), String.join(" ", params),
                    primary.get("score").asDouble(), primary.path("scoreError").asDouble(Double.NaN),
                    primary.get("scoreUnit").asText(), alloc.isMissingNode() ? null : alloc.get("score").asDouble()));
        }
        return out;
    }

    public static void write(Path json, Path outDir) throws IOException {
        List<Result> results = read(json);
        StringBuilder md = new StringBuilder("# JMH results\n\n")
                .append("From `").append(json.getFileName()).append("`. Machine of this report: ")
                .append(Machine.describe()).append("\n\n")
                .append("| benchmark | params | score | ± error | unit | heap B/op | heap B/row |\n")
                .append("|---|---|---|---|---|---|---|\n");
        for (Result r : results) {
            md.append(String.format(Locale.ROOT, "| %s.%s | %s | %.3f | %s | %s | %s | %s |%n", r.className(),
                    r.method(), r.params(), r.score(), Double.isNaN(r.error()) ? "" : String.format(Locale.ROOT,
                            "%.3f", r.error()), r.unit(), number(r.allocBytesPerOp()),
                    number(r.allocBytesPerRow())));
        }

        DefaultCategoryDataset transposes = new DefaultCategoryDataset();
        Map<String, Map<String, Result>> byShape = new LinkedHashMap<>();
        for (Result r : results) {
            if (ENTRY.contains(r.className())) {
                byShape.computeIfAbsent(r.params().replace("rows=", ""), k -> new LinkedHashMap<>()).put(r.method(), r);
            }
        }
        if (!byShape.isEmpty()) {
            md.append("\n## Entry transpose against the floor and the Arrow Java writers\n\n")
                    .append("µs per 4096-row batch. floor = floorRead + floorCopy. Targets on Bid: Gatun ≤ 2.0× floor,"
                            + " growing / Gatun ≥ 2.5, ≤ 8 heap B/row.\n\n")
                    .append("| rows | floor (read + copy) | Gatun | Gatun / floor | Gatun B/row | pre-sized | growing |"
                            + " growing / Gatun |\n|---|---|---|---|---|---|---|---|\n");
        }
        for (Map.Entry<String, Map<String, Result>> e : byShape.entrySet()) {
            Map<String, Result> m = e.getValue();
            m.values().forEach(r -> transposes.addValue(r.score(), r.method(), e.getKey()));
            Result read = m.get("floorRead");
            Result copy = m.get("floorCopy");
            Result gatun = m.get("gatun");
            Result growing = m.get("arrowJavaGrowing");
            Result presized = m.get("arrowJavaPresized");
            double floor = read != null && copy != null ? read.score() + copy.score() : Double.NaN;
            if (!Double.isNaN(floor)) {
                transposes.addValue(floor, "floor (read + copy)", e.getKey());
            }
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s |%n", e.getKey(),
                    Double.isNaN(floor) ? "" : String.format(Locale.ROOT, "%.0f (%.0f + %.0f)", floor, read.score(),
                            copy.score()),
                    gatun == null ? "" : String.format(Locale.ROOT, "%.0f ± %.0f", gatun.score(), gatun.error()),
                    gatun == null || Double.isNaN(floor) ? "" : String.format(Locale.ROOT, "%.2f×", gatun.score() / floor),
                    gatun == null ? "" : number(gatun.allocBytesPerRow()),
                    presized == null ? "" : String.format(Locale.ROOT, "%.0f", presized.score()),
                    growing == null ? "" : String.format(Locale.ROOT, "%.0f", growing.score()),
                    gatun == null || growing == null ? "" : String.format(Locale.ROOT, "%.2f×",
                            growing.score() / gatun.score())));
        }
        Files.writeString(outDir.resolve("jmh-summary.md"), md);
        if (transposes.getRowCount() > 0) {
            Charts.bars("Entry transpose: µs per 4096-row batch vs the physical floor", "µs per batch", transposes,
                    outDir.resolve("transpose-us.png"));
        }
    }

    private static String number(Double value) {
        return value == null ? "" : String.format(Locale.ROOT, "%.1f", value);
    }
}
