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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The parity suite in streaming mode: every query of {@link ParityQueries} runs on stock Flink and
 * with Gatun on the same rows, and the changelogs (row kinds included) must be equal
 * ({@link ParitySuite}). {@link BatchParityTest} runs it in batch mode.
 */
@ExtendWith(LeakCheckExtension.class)
@ExtendWith(SharedMiniCluster.class)
class ParityTest {
    private static Queries q;

    @BeforeAll
    static void tables() {
        q = new Queries();
        TestTables.createT(q, "t", 300);
        TypeTables.create(q, "ty", 120);
    }

    @Test
    void theSuiteHasAtLeast150Queries() {
        assertTrue(ParityQueries.groups().stream().mapToInt(g -> g.queries().size()).sum() >= 150);
    }

    @TestFactory
    Stream<DynamicNode> nativeEqualsStock() {
        return new ParitySuite(q, false).tests(ParityQueries.groups());
    }
}
