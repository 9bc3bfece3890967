package dev.gatun.ffm;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the system C compiler ({@code cc} on the PATH) and small programs built with it. */
final class CCompiler {
    private CCompiler() {}

    static Path cc() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, "cc");
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return fail("no C compiler: `cc` is not on the PATH; the ABI tests need one"
                + " (install gcc or clang, e.g. apt-get install gcc)");
    }

    /** Compiles with {@code cc ARGS...}; fails the test with the compiler's output on error. */
    static void compile(List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(cc().toString());
        command.addAll(args);
        run(command);
    }

    /** Runs {@code command} and returns its standard output; fails the test on a non-zero exit. */
    static String run(List<String> command) {
        try {
            Path out = Files.createTempFile("gatun-cc-", ".out");
            try {
                Process process = new ProcessBuilder(command)
                        .redirectErrorStream(true).redirectOutput(out.toFile()).start();
                if (!process.waitFor(120, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    fail("timed out: " + String.join(" ", command));
                }
                String output = Files.readString(out, StandardCharsets.UTF_8);
                if (process.exitValue() != 0) {
                    fail("exit " + process.exitValue() + ": " + String.join(" ", command) + "\n" + output);
                }
                return output;
            } finally {
                Files.deleteIfExists(out);
            }
        } catch (IOException e) {
            return fail("cannot run " + command.getFirst(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fail("interrupted: " + command.getFirst(), e);
        }
    }

    /** {@code ../jextract-config/include} relative to this module's base directory. */
    static Path includeDir() {
        Path basedir = Path.of(System.getProperty("basedir", System.getProperty("user.dir")));
        Path include = basedir.resolve("../jextract-config/include").normalize();
        if (!Files.isRegularFile(include.resolve("gatun.h"))) {
            fail("gatun.h not found in " + include);
        }
        return include;
    }
}
