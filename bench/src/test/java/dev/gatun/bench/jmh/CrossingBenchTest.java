package dev.gatun.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gatun.bench.rows.RowBatch;
import org.junit.jupiter.api.Test;

/** The gatun side of {@link CrossingBench} crosses every pooled batch and leaks nothing. */
class CrossingBenchTest {
    @Test
    void everyPooledBatchCrossesAndTheAllocatorEndsEmpty() {
        String columns = CrossingBench.SHAPE.name();
        CrossingBench bench = new CrossingBench();
        CrossingBench.GatunBatches batches = new CrossingBench.GatunBatches();
        batches.setUp();
        try {
            CrossingBench.FullPool full = new CrossingBench.FullPool();
            full.write(batches);
            assertEquals(CrossingBench.POOL * RowBatch.ROWS, bench.gatun(full), columns);
            batches.releaseUnused();

            CrossingBench.EmptyPool empty = new CrossingBench.EmptyPool();
            empty.write(batches);
            assertEquals(0, bench.gatunEmpty(empty), columns);
            batches.releaseUnused();

            full.write(batches);
            CrossingBench.Scratch scratch = new CrossingBench.Scratch();
            try {
                assertEquals((long) CrossingBench.POOL * RowBatch.ROWS, bench.gatunExportRelease(full, scratch), columns);
            } finally {
                scratch.close();
            }
            batches.releaseUnused();
        } finally {
            batches.tearDown(); // closes the allocator: throws with a leak report if anything is live
        }
    }
}
