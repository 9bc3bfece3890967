package dev.gatun.arrow.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Field;
import dev.gatun.arrow.types.Schema;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/** The leak extension fails a test that leaves a batch open, and names where it was created. */
@ExtendWith(LeakCheckExtension.class)
class LeakCheckExtensionTest {
    static RecordBatch leaked;

    private static final String SELF_TEST = "gatun.leakcheck.selftest";

    /** Runs only inside the test kit below (the property is set there), never on its own. */
    @ExtendWith(LeakCheckExtension.class)
    @EnabledIfSystemProperty(named = SELF_TEST, matches = "true")
    static class LeakyCase {
        @Test
        void leavesABatchOpen() {
            leaked = RecordBatch.allocate(Schema.of(Field.nullable("x", ArrowType.INT32)), 16);
        }

        @Test
        void closesWhatItOpens() {
            RecordBatch.allocate(Schema.of(Field.nullable("y", ArrowType.INT32)), 16).close();
        }
    }

    @Test
    void failsTheLeakingTestOnly() {
        System.setProperty(SELF_TEST, "true");
        try {
            List<Event> failed = EngineTestKit.engine("junit-jupiter").selectors(selectClass(LeakyCase.class)).execute()
                    .testEvents().failed().list();
            assertEquals(1, failed.size(), "only the leaking test fails");
            Throwable cause = failed.get(0).getPayload(org.junit.platform.engine.TestExecutionResult.class)
                    .orElseThrow().getThrowable().orElseThrow();
            String message = cause.getMessage();
            assertTrue(cause instanceof AssertionError, cause.toString());
            assertTrue(message.contains("leavesABatchOpen() leaked"), message);
            assertTrue(message.contains("RecordBatch[WRITING"), message);
            assertTrue(message.contains("LeakyCase.leavesABatchOpen"), "creation site: " + message);
        } finally {
            System.clearProperty(SELF_TEST);
            if (leaked != null) {
                leaked.close();
            }
        }
    }
}
