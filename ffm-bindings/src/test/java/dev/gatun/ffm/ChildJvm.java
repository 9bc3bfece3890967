package dev.gatun.ffm;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs a main class of the test class path in a fresh JVM (same java executable). */
final class ChildJvm {
    record Result(int exitCode, String output) {}

    private ChildJvm() {}

    /** Forwards the Gatun loading properties unless {@code jvmArgs} sets them itself. */
    static Result run(Path workDir, List<String> jvmArgs, Class<?> mainClass) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow());
        command.addAll(jvmArgs);
        for (String property : List.of(GatunLibrary.PATH_PROPERTY, GatunLibrary.EXTRACT_DIR_PROPERTY)) {
            String value = System.getProperty(property);
            if (value != null && jvmArgs.stream().noneMatch(a -> a.startsWith("-D" + property + "="))) {
                command.add("-D" + property + "=" + value);
            }
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass.getName());

        Path output = workDir.resolve("child-" + System.nanoTime() + ".out");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
        Map<String, String> env = builder.environment();
        env.remove("JDK_JAVA_OPTIONS"); // would add options behind our back
        env.remove("JAVA_TOOL_OPTIONS");
        Process process = builder.start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("child JVM timed out: " + command);
        }
        return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
    }
}
