package dev.gatun.planner.substrait;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.substrait.SubstraitVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Java ({@code io.substrait:core}) and Rust ({@code substrait} inside {@code datafusion-substrait})
 * must speak one Substrait spec version: native/admission/substrait-spec-version holds it, this
 * test compares it with the Java library and {@code tests/c_abi/spec_pin.rs} with the Rust crate.
 */
class SubstraitSpecPinTest {
    static final Path PIN = Path.of("..", "native", "admission", "substrait-spec-version");

    @Test
    void javaSubstraitSpeaksThePinnedSpecVersion() throws IOException {
        String pinned = Files.readString(PIN).strip();
        assertEquals(pinned, SubstraitVersion.VERSION, () -> "io.substrait:core speaks Substrait spec "
                + SubstraitVersion.VERSION + ", but " + PIN.toAbsolutePath().normalize() + " pins " + pinned
                + ". Java (io.substrait:core) and Rust (datafusion-substrait's substrait crate) must move together:"
                + " bump both to the same spec version, then update the file and regenerate the goldens"
                + " (-Dgatun.golden.update=true).");
    }
}
