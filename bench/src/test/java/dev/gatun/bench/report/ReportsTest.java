package dev.gatun.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.bench.e2e.Queries;
import dev.gatun.bench.e2e.Trial;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Summaries and charts from synthetic results (the numbers mean nothing). */
class ReportsTest {
    @BeforeAll
    static void headless() {
        System.setProperty("java.awt.headless", "true");
    }

    private static Trial trial(String query, String engine, int index, long netMillis) {
        return new Trial(query, engine, "trial", index, 1_000_000, netMillis, netMillis + 900, 1_000_000, "00ff");
    }

    private static Trial trial(String query, String engine, int index, long netMillis, long cpuMillis) {
        return new Trial(query, engine, "trial", index, 1_000_000, netMillis, netMillis + 900, 1_000_000, "00ff",
                cpuMillis);
    }

    @Test
    void e2eSummaryHasRatiosTargetsAndCharts(@TempDir Path dir) throws Exception {
        List<Trial> trials = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            trials.add(trial("q1", "stock", i, 1000 + i, 1000));
            trials.add(trial("q1", "gatun", i, 500 + i, 400)); // 2.5× less task CPU: target 1.6× met
            trials.add(trial("wide", "stock", i, 1000, 1000));
            trials.add(trial("wide", "gatun", i, 1200, 1000)); // the same task CPU: target 1.2× missed
            trials.add(trial("q2", "stock", i, 800));
        }
        E2eReport.writeCsv(trials, dir.resolve(E2eReport.CSV));
        assertEquals(trials, E2eReport.readCsv(dir.resolve(E2eReport.CSV)));

        E2eReport.writeSummary(trials, Queries.select("q1,q2,wide"), "bin/gatun bench e2e", null, dir);
        String md = Files.readString(dir.resolve("e2e-summary.md"));
        assertTrue(md.contains("| 2.00× (1.99–2.00) | 1,000 (1,000–1,000) | 400 (400–400) | 2.50× (2.50–2.50) |"
                + " ≥ 1.6× task CPU | met |"), md);
        assertTrue(md.contains("| 0.83× (0.83–0.83) | 1,000 (1,000–1,000) | 1,000 (1,000–1,000) | 1.00× (1.00–1.00) |"
                + " ≥ 1.2× task CPU | **missed** |"), md);
        assertTrue(md.contains("pending (Gatun unavailable)"), md);
        assertTrue(md.contains("## `pipeline.object-reuse=false`"), md);
        assertFalse(md.contains("## `pipeline.object-reuse=true`"), "no table for a setting that did not run");
        assertTrue(Files.size(dir.resolve("e2e-ratio.png")) > 1000);
        assertTrue(Files.size(dir.resolve("e2e-throughput.png")) > 1000);
    }

    @Test
    void e2eSummaryHasOneTablePerObjectReuseSettingAndTheDefaultDecisions(@TempDir Path dir) throws Exception {
        List<Trial> trials = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            for (boolean reuse : new boolean[] {false, true}) {
                trials.add(new Trial("q0", "stock", "trial", i, 1_000_000, 1000, 1900, 10, "00ff", 900, reuse));
                trials.add(new Trial("q0", "gatun", "trial", i, 1_000_000, reuse ? 500 : 2000, 1900, 10, "00ff", 900,
                        reuse));
            }
        }
        E2eReport.writeCsv(trials, dir.resolve(E2eReport.CSV));
        assertEquals(trials, E2eReport.readCsv(dir.resolve(E2eReport.CSV)));
        assertTrue(Files.readAllLines(dir.resolve(E2eReport.CSV)).get(0)
                .endsWith(",object_reuse,execution_mode,source_task_cpu_ms,state_backend,checkpoint_bytes,checkpoint_ms"));
        E2eReport.writeSummary(trials, Queries.select("q0"), "bin/gatun bench e2e", null, Map.of(),
                Map.of("q0", "default: stock (cost rule)"), dir);
        String md = Files.readString(dir.resolve("e2e-summary.md"));
        int off = md.indexOf("## `pipeline.object-reuse=false`");
        int on = md.indexOf("## `pipeline.object-reuse=true`");
        assertTrue(off >= 0 && on > off, md);
        assertTrue(md.indexOf("| 0.50× (0.50–0.50) |") > off && md.indexOf("| 0.50× (0.50–0.50) |") < on, md);
        assertTrue(md.indexOf("| 2.00× (2.00–2.00) |") > on, md);
        assertTrue(md.contains("- `q0`: default: stock (cost rule)"), md);
        assertTrue(Files.size(dir.resolve("e2e-ratio.png")) > 1000);
    }

    @Test
    void batchTrialsSayTheirModeInTheCsvAndGetATableOfTheirOwn(@TempDir Path dir) throws Exception {
        List<Trial> trials = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            trials.add(new Trial("q1", "stock", "trial", i, 1_000_000, 1000, 1900, 10, "00ff", 900, false));
            trials.add(new Trial("q1", "gatun", "trial", i, 1_000_000, 1000, 1900, 10, "00ff", 450, false));
            trials.add(new Trial("q1", "stock", "trial", i, 1_000_000, 800, 1900, 10, "00ff", 600, true, Trial.BATCH));
            trials.add(new Trial("q1", "gatun", "trial", i, 1_000_000, 800, 1900, 10, "00ff", 500, true, Trial.BATCH));
        }
        E2eReport.writeCsv(trials, dir.resolve(E2eReport.CSV));
        List<String> lines = Files.readAllLines(dir.resolve(E2eReport.CSV));
        assertTrue(lines.get(0).endsWith(",object_reuse,execution_mode,source_task_cpu_ms,state_backend,"
                + "checkpoint_bytes,checkpoint_ms"), lines.get(0));
        assertTrue(lines.get(1).endsWith(",off,streaming,-1,heap,-1,-1") && lines.get(3).endsWith(",on,batch,-1,heap,-1,-1"),
                lines.toString());
        assertEquals(trials, E2eReport.readCsv(dir.resolve(E2eReport.CSV)));
        E2eReport.writeSummary(trials, Queries.select("q1"), "bin/gatun bench e2e --mode streaming,batch", null,
                Map.of(), Map.of("q1", "default: native", "q1-batch", "default: native (batch)"), dir);
        String md = Files.readString(dir.resolve("e2e-summary.md"));
        int streaming = md.indexOf("## `pipeline.object-reuse=false`");
        int batch = md.indexOf("## Batch mode");
        assertTrue(streaming >= 0 && batch > streaming, md);
        assertFalse(md.contains("## `pipeline.object-reuse=true`"), "the batch trials are not a streaming table");
        // streaming 900/450 = 2.00x against 1.6x; batch 600/500 = 1.20x against the batch target 1.5x
        assertTrue(md.indexOf("| 2.00× (2.00–2.00) | ≥ 1.6× task CPU | met |") > streaming
                && md.indexOf("| 2.00× (2.00–2.00) | ≥ 1.6× task CPU | met |") < batch, md);
        assertTrue(md.indexOf("| 1.20× (1.20–1.20) | ≥ 1.5× task CPU | **missed** |") > batch, md);
        assertTrue(md.contains("- `q1-batch`: default: native (batch)"), md);
        assertThrows(IllegalArgumentException.class, () -> new Trial("q1", "stock", "trial", 0, 1, 1, 1, 1, "00", 1,
                true, "Batch"));
    }

    @Test
    void backendsGetTablesOfTheirOwnAndCheckpointsATable(@TempDir Path dir) throws Exception {
        List<Trial> trials = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            for (String backend : List.of(Trial.HEAP, "rocksdb")) {
                long stockCpu = backend.equals(Trial.HEAP) ? 1000 : 3000;
                trials.add(new Trial("q7w", "stock", "trial", i, 1_000_000, 1000, 1900, 10, "00ff", stockCpu, false,
                        Trial.STREAMING, -1, backend, 4000 + i, 30 + i));
                trials.add(new Trial("q7w", "gatun", "trial", i, 1_000_000, 1000, 1900, 10, "00ff", 500, false,
                        Trial.STREAMING, -1, backend, 2000 + i, 10 + i));
            }
        }
        E2eReport.writeCsv(trials, dir.resolve(E2eReport.CSV));
        List<String> lines = Files.readAllLines(dir.resolve(E2eReport.CSV));
        // the query column keeps a backend's trials apart for tools that pair by query and trial only
        assertTrue(lines.get(1).startsWith("q7w,stock,") && lines.get(3).startsWith("q7w@rocksdb,stock,"),
                lines.toString());
        assertTrue(lines.get(3).endsWith(",rocksdb,4000,30"), lines.get(3));
        assertEquals(trials, E2eReport.readCsv(dir.resolve(E2eReport.CSV)));
        E2eReport.writeSummary(trials, Queries.select("q7w"), "bin/gatun bench e2e --backends heap,rocksdb", null,
                Map.of(), Map.of(), dir);
        String md = Files.readString(dir.resolve("e2e-summary.md"));
        int heap = md.indexOf("## `pipeline.object-reuse=false` (Flink's default, as the Nexmark benchmark runs)\n");
        int rocksdb = md.indexOf("## `pipeline.object-reuse=false` (Flink's default, as the Nexmark benchmark runs),"
                + " `state.backend.type: rocksdb`");
        assertTrue(heap >= 0 && rocksdb > heap, md);
        assertTrue(md.indexOf("| 2.00× (2.00–2.00) |") > heap && md.indexOf("| 2.00× (2.00–2.00) |") < rocksdb, md);
        assertTrue(md.indexOf("| 6.00× (6.00–6.00) |") > rocksdb, md);
        assertTrue(md.contains("| q7w | reuse off, rocksdb | 4,001 (4,000–4,002) | 2,001 (2,000–2,002) | 31 (30–32)"
                + " | 11 (10–12) |"), md);
        assertThrows(IllegalArgumentException.class, () -> new Trial("q1", "stock", "trial", 0, 1, 1, 1, 1, "00", 1,
                false, Trial.STREAMING, -1, "rocks", -1, -1));
    }

    @Test
    void oldTrialFilesReadAsObjectReuseOff() {
        Trial t = Trial.parse("q1,stock,trial,0,100,10,20,10000.0,5,00ff,7");
        assertEquals(7, t.taskCpuMillis());
        assertFalse(t.objectReuse());
        assertTrue(Trial.parse("q1,stock,trial,0,100,10,20,10000.0,5,00ff,7,on").objectReuse());
        assertEquals(Trial.STREAMING, Trial.parse("q1,stock,trial,0,100,10,20,10000.0,5,00ff,7,on").mode());
        assertEquals(Trial.HEAP, Trial.parse("q1,stock,trial,0,100,10,20,10000.0,5,00ff,7,on,streaming,3").stateBackend());
        assertEquals(-1, Trial.parse("q1,stock,trial,0,100,10,20,10000.0,5,00ff,7,on,streaming,3").checkpointBytes());
    }

    @Test
    void jmhSummaryDerivesBytesPerRowAndChartsTheTransposes(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("jmh.json");
        Files.writeString(json, """
                [{"benchmark": "dev.gatun.bench.jmh.EntryTransposeBench.floorRead", "params": {"rows": "bid/binary"},
                  "primaryMetric": {"score": 10.0, "scoreError": 0.5, "scoreUnit": "us/op"},
                  "secondaryMetrics": {"gc.alloc.rate.norm": {"score": 8192.0}}},
                 {"benchmark": "dev.gatun.bench.jmh.EntryTransposeBench.floorCopy", "params": {"rows": "bid/binary"},
                  "primaryMetric": {"score": 5.0, "scoreError": 0.1, "scoreUnit": "us/op"}},
                 {"benchmark": "dev.gatun.bench.jmh.ReleaseCostBench.sharedArena", "params": {"idleThreads": "8"},
                  "primaryMetric": {"score": 60.0, "scoreError": 1.0, "scoreUnit": "us/op"},
                  "secondaryMetrics": {"gc.alloc.rate.norm": {"score": 600.0}}}]
                """);
        JmhReport.write(json, dir);
        String md = Files.readString(dir.resolve("jmh-summary.md"));
        assertTrue(md.contains("| EntryTransposeBench.floorRead | rows=bid/binary | 10.000 | 0.500 | us/op | 8192.0 | 2.0 |"), md);
        assertTrue(md.contains("| ReleaseCostBench.sharedArena | idleThreads=8 | 60.000 | 1.000 | us/op | 600.0 |  |"), md);
        assertTrue(Files.size(dir.resolve("transpose-us.png")) > 1000);
        assertFalse(md.contains("NaN"));
    }
}
