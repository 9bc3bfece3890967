package dev.gatun.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.ffm.internal.gatun_h;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Without --enable-native-access the facade fails clearly, before any restricted call. */
class NativeAccessFlagTest {
    @TempDir
    Path dir;

    @Test
    void withoutTheFlagLoadingFailsNamingIt() throws Exception {
        ChildJvm.Result result = ChildJvm.run(dir, List.of(), AbiVersionMain.class);

        assertNotEquals(0, result.exitCode(), result.output());
        assertTrue(result.output().contains("--enable-native-access=ALL-UNNAMED"), result.output());
        assertTrue(result.output().contains("Native access is not enabled"), result.output());
        assertFalse(result.output().contains("WARNING: A restricted method"),
                "a restricted method ran before the check:\n" + result.output());
    }

    @Test
    void withTheFlagTheVersionIsPrinted() throws Exception {
        ChildJvm.Result result = ChildJvm.run(dir, List.of("--enable-native-access=ALL-UNNAMED"), AbiVersionMain.class);

        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.output().contains("gatun abi version " + gatun_h.GATUN_ABI_VERSION()), result.output());
    }
}
