package dev.gatun.planner.substrait;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** How the planner reads functions.json, including entries Rust registers but the planner must not use. */
class AdmittedFunctionsTest {
    private static AdmittedFunctions parse(String json) throws Exception {
        return AdmittedFunctions.parse(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void anUnadmittedEntryIsRefusedWithItsReason() throws Exception {
        AdmittedFunctions a = parse("""
                {"functions": [
                  {"name": "gatun_flink_upper", "args": [["Utf8"]], "tests": ["x::y"]},
                  {"name": "gatun_flink_lower", "args": [["Utf8"]], "unadmitted": "final sigma differs", "tests": ["x::y"]},
                  {"name": "gatun_flink_concat", "args": [["Utf8", "..."]], "tests": ["x::y"]}
                ]}""");
        assertTrue(a.admits("gatun_flink_upper", 1));
        assertNull(a.unadmittedReason("gatun_flink_upper"));
        assertFalse(a.admits("gatun_flink_lower", 1));
        assertEquals("final sigma differs", a.unadmittedReason("gatun_flink_lower"));
        assertTrue(a.admits("gatun_flink_concat", 3));
        assertFalse(a.admits("gatun_flink_upper", 2));
    }

    @Test
    void theShippedListAdmitsTheFunctionsTheParityTestsCover() {
        AdmittedFunctions a = AdmittedFunctions.get();
        for (String name : new String[] {"gatun_flink_upper", "gatun_flink_lower", "gatun_flink_divide", "gatun_flink_cast", "and"}) {
            String reason = a.unadmittedReason(name);
            assertNull(reason, name + " is unadmitted: " + reason);
        }
        assertTrue(a.admits("gatun_flink_substring", 3));
        assertTrue(a.admitsUnit("gatun_flink_ceil", "QUARTER"));
    }
}
