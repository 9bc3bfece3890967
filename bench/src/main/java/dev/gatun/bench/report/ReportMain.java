package dev.gatun.bench.report;

import dev.gatun.bench.e2e.Queries;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Regenerates summaries and charts from saved results:
 * {@code jmh RESULTS.json OUT_DIR} or {@code e2e TRIALS.csv OUT_DIR COMMAND}.
 */
public final class ReportMain {
    private ReportMain() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: ReportMain jmh RESULTS.json OUT_DIR | e2e TRIALS.csv OUT_DIR [COMMAND]");
            System.exit(2);
        }
        Path input = Path.of(args[1]);
        Path out = Path.of(args[2]);
        if (!Files.isRegularFile(input)) {
            System.out.println("no results at " + input + "; nothing to report");
            return;
        }
        Files.createDirectories(out);
        switch (args[0]) {
            case "jmh" -> JmhReport.write(input, out);
            case "e2e" -> E2eReport.writeSummary(E2eReport.readCsv(input), Queries.ALL,
                    args.length > 3 ? args[3] : "(regenerated from " + input.getFileName() + ")", null, out);
            default -> throw new IllegalArgumentException("unknown report '" + args[0] + "'");
        }
        System.out.println("report written to " + out.toAbsolutePath().normalize());
    }
}
