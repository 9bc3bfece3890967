package dev.gatun.planner;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.testing.ParityQueries;
import dev.gatun.planner.testing.ParitySuite;
import dev.gatun.planner.testing.Queries;
import dev.gatun.planner.testing.SharedMiniCluster;
import dev.gatun.planner.testing.TestTables;
import dev.gatun.planner.testing.TypeTables;
import java.util.stream.Stream;
import org.apache.flink.table.api.EnvironmentSettings;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The parity suite in batch mode ({@code execution.runtime-mode: batch}, bounded tables): the
 * groups of {@link #BATCH_GROUPS} run on stock Flink's batch planner and runtime and with Gatun's
 * batch islands, with equal results, the same planning expectations (all native, or the named
 * fallback with its reason in EXPLAIN) as in streaming, and the native job's islands must have
 * run (their {@code gatun.rowsIn} counters).
 */
@ExtendWith(LeakCheckExtension.class)
@ExtendWith(SharedMiniCluster.class)
class BatchParityTest {
    private static Queries q;

    @BeforeAll
    static void tables() {
        q = new Queries(EnvironmentSettings.inBatchMode());
        TestTables.createT(q, "t", 300);
        TypeTables.create(q, "ty", 120);
    }

    @Test
    void theBatchSubsetHasAtLeast50Queries() {
        assertTrue(ParityQueries.batchGroups().stream().mapToInt(g -> g.queries().size()).sum() >= 50);
    }

    @TestFactory
    Stream<DynamicNode> nativeEqualsStockInBatchMode() {
        return new ParitySuite(q, true).tests(ParityQueries.batchGroups());
    }
}
