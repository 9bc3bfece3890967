package dev.gatun.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.ffm.internal.gatun_h;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** A library built from another header version is refused with both versions named. */
@ExtendWith(NoLiveNativeResources.class)
class StaleLibraryTest {
    @Test
    void libraryWithAnotherAbiVersionIsRefused(@TempDir Path dir) throws Exception {
        Path source = dir.resolve("stale.c");
        Path library = dir.resolve(System.mapLibraryName("stale"));
        Files.writeString(source, "#include <stdint.h>\nuint32_t gatun_abi_version(void) { return 999; }\n");
        CCompiler.compile(List.of("-shared", "-fPIC", "-o", library.toString(), source.toString()));

        NativeLibraryLoadException e = assertThrows(NativeLibraryLoadException.class, () -> GatunLibrary.open(library));

        String message = e.getMessage();
        assertTrue(message.contains("stale native library"), message);
        assertTrue(message.contains(library.toString()), message);
        assertTrue(message.contains("ABI version is 999"), message);
        assertTrue(message.contains("need " + gatun_h.GATUN_ABI_VERSION()), message);
    }

    @Test
    void theDefaultLibraryOpensExplicitlyToo() {
        NativeLibrary library = GatunLibrary.open(GatunLibrary.path());

        assertEquals(gatun_h.GATUN_ABI_VERSION(), library.abiVersion());
        assertTrue(library.lookup().find("gatun_roundtrip").isPresent());
    }

    @Test
    void aMissingFileIsNamed(@TempDir Path dir) {
        Path missing = dir.resolve("nothing-here.so");

        NativeLibraryLoadException e = assertThrows(NativeLibraryLoadException.class, () -> GatunLibrary.open(missing));

        assertTrue(e.getMessage().contains("no such file: " + missing), e.getMessage());
    }
}
