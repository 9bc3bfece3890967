package dev.gatun.flink.packaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The packaged gatun-flink jar, as a Flink job uses it: its content, and a fresh JVM whose class
 * path is only Flink's jars, this jar and the job ({@code GatunSmokeJob}). The tests tagged
 * flink-smoke also run against the other Flink version CI builds with; the others test Gatun's
 * loading rather than Flink, so they run in the main suite only.
 */
class GatunFlinkJarIT {
    private static final String JOB = "dev.gatun.flink.job.GatunSmokeJob";
    private static final long CHILD_TIMEOUT_MINUTES = 10;
    private static final String MISSING_LIBRARY = "/nonexistent/gatun/libgatun_native.so";
    /**
     * The one class outside dev.gatun, on purpose: the stand-in for the planner loader's factory that
     * turns Gatun on from the Flink configuration in the SQL Client and Gateway (docs/using.md).
     */
    private static final String PLANNER_FACTORY_STAND_IN = "org/apache/flink/table/planner/loader/DelegatePlannerFactory.class";
    /** Gatun's table factory services: plan-node registration and the planner factory stand-in. */
    private static final Set<String> TABLE_FACTORIES = Set.of("dev.gatun.planner.nodes.PlanNodesFactory",
            "org.apache.flink.table.planner.loader.DelegatePlannerFactory");

    private static Path gatunJar;
    private static List<String> flinkJars;

    @BeforeAll
    static void inputs() throws IOException {
        gatunJar = Path.of(property("gatun.flink.jar"));
        flinkJars = Arrays.stream(Files.readString(Path.of(property("gatun.flink.classpath.file")))
                        .strip().split(File.pathSeparator))
                .filter(s -> !s.isBlank()).toList();
    }

    @Test
    @Tag("flink-smoke")
    void theChildClassPathHoldsFlinkButNoUnshadedGatunOrItsLibraries() {
        String version = property("gatun.flink.version");
        assertTrue(flinkJars.stream().anyMatch(j -> j.endsWith("flink-table-planner_2.12-" + version + ".jar")),
                String.join("\n", flinkJars));
        for (String jar : flinkJars) {
            String name = Path.of(jar).getFileName().toString();
            assertFalse(name.startsWith("gatun-") || name.startsWith("core-0.") || name.startsWith("jackson-")
                    || name.startsWith("protobuf-java"), "not a Flink jar: " + jar);
        }
    }

    @Test
    @Tag("flink-smoke")
    void theJarCarriesGatunTheNativeLibraryAndRelocatedLibrariesOnly() throws IOException {
        Set<String> outside = new TreeSet<>();
        boolean nativeLibrary = false;
        boolean relocatedSubstrait = false;
        boolean relocatedProtobuf = false;
        try (JarFile jar = new JarFile(gatunJar.toFile())) {
            for (JarEntry entry : Collections.list(jar.entries())) {
                String name = entry.getName();
                nativeLibrary |= name.matches("native/[a-z0-9_]+-[a-z0-9_]+/libgatun_native\\.(so|dylib)");
                relocatedSubstrait |= name.startsWith("dev/gatun/shaded/io/substrait/proto/");
                relocatedProtobuf |= name.equals("dev/gatun/shaded/com/google/protobuf/Message.class");
                String className = name.startsWith("META-INF/versions/")
                        ? name.replaceFirst("^META-INF/versions/\\d+/", "") : name;
                if (className.endsWith(".class") && !className.startsWith("dev/gatun/")
                        && !className.equals(PLANNER_FACTORY_STAND_IN)) {
                    outside.add(name);
                }
                assertFalse(name.startsWith("dev/gatun/planner/testing/") || name.startsWith("dev/gatun/arrow/testing/"),
                        "test code in the jar: " + name);
            }
            assertTrue(nativeLibrary, "no native/<os>-<arch>/libgatun_native in " + gatunJar);
            assertTrue(relocatedSubstrait && relocatedProtobuf, "Substrait or protobuf not relocated in " + gatunJar);
            assertEquals(Set.of(), outside, "classes outside dev.gatun (not relocated)");
            checkServiceFiles(jar);
        }
    }

    /**
     * Every service file names a relocated type, or Flink's table {@code Factory} (only Gatun's
     * plan-node registration and planner factory stand-in), and implementations the jar holds; no
     * test factory.
     */
    private static void checkServiceFiles(JarFile jar) throws IOException {
        List<String> services = Collections.list(jar.entries()).stream().map(JarEntry::getName)
                .filter(n -> n.startsWith("META-INF/services/") && !n.endsWith("/")).toList();
        assertFalse(services.isEmpty(), "Jackson's service files are missing");
        for (String service : services) {
            String type = service.substring("META-INF/services/".length());
            boolean flinkFactory = type.equals("org.apache.flink.table.factories.Factory");
            assertTrue(type.startsWith("dev.gatun.") || flinkFactory, "service of an unrelocated type: " + service);
            assertFalse(type.startsWith("dev.gatun.shaded.org.apache.flink"), service);
            String body;
            try (InputStream in = jar.getInputStream(jar.getEntry(service))) {
                body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            for (String line : body.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList()) {
                assertTrue(jar.getEntry(line.replace('.', '/') + ".class") != null,
                        service + " names " + line + ", which the jar does not hold");
                assertFalse(line.contains(".testing."), service + " ships a test class: " + line);
                assertTrue(!flinkFactory || TABLE_FACTORIES.contains(line),
                        service + " names " + line + " (Gatun's table factories are " + TABLE_FACTORIES + ")");
            }
        }
    }

    @Test
    @Tag("flink-smoke")
    void aFreshJvmRunsTheJobNativelyWithNoLeaks() throws Exception {
        Child child = runChild("native", true);
        assertEquals(0, child.exitCode(), child.describe());
        assertTrue(child.output().contains("GATUN-SMOKE native OK") && child.output().contains("NativeCalc("),
                child.describe());
    }

    @Test
    void withoutNativeAccessTheJvmFailsNamingTheFlag() throws Exception {
        Child child = runChild("noflag", false);
        assertNotEquals(0, child.exitCode(), child.describe());
        assertTrue(child.output().contains("NativeAccessException")
                && child.output().contains("--enable-native-access=ALL-UNNAMED")
                && !child.output().contains("GATUN-SMOKE"), child.describe());
    }

    @Test
    void withoutNativeAccessButDisabledByConfigTheJobRunsStock() throws Exception {
        Child child = runChild("disabled", false);
        assertEquals(0, child.exitCode(), child.describe());
        assertTrue(child.output().contains("GATUN-SMOKE stock OK")
                && child.output().contains("gatun.native.enabled=false, queries run on stock Flink"), child.describe());
    }

    @Test
    void anUnloadableLibraryLeavesTheJobStock() throws Exception {
        Child child = runChild("stock", true, "-Dgatun.native.library=" + MISSING_LIBRARY);
        assertEquals(0, child.exitCode(), child.describe());
        assertTrue(child.output().contains("GATUN-SMOKE stock OK")
                && child.output().contains("the native library is unavailable, queries run on stock Flink")
                && child.output().contains(MISSING_LIBRARY), child.describe());
    }

    @Test
    void anUnloadableLibraryFailsAStrictJob() throws Exception {
        Child child = runChild("strict", true, "-Dgatun.native.library=" + MISSING_LIBRARY);
        assertNotEquals(0, child.exitCode(), child.describe());
        assertTrue(child.output().contains("gatun.native.strict") && child.output().contains(MISSING_LIBRARY)
                && !child.output().contains("GATUN-SMOKE"), child.describe());
    }

    private record Child(String mode, List<String> command, int exitCode, String output) {
        String describe() {
            return "child JVM (" + mode + ") exited " + exitCode + "\ncommand: " + String.join(" ", command)
                    + "\n--- output ---\n" + output;
        }
    }

    private static Child runChild(String mode, boolean nativeAccess, String... jvmArgs) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        if (nativeAccess) {
            command.add("--enable-native-access=ALL-UNNAMED");
        }
        command.addAll(Arrays.asList(jvmArgs));
        command.addAll(Arrays.asList(property("gatun.jvm.options").strip().split("\\s+")));
        command.add("-Xmx512m");
        command.add("-Dlog4j2.level=WARN");
        command.add("-Dgatun.native.extract.dir=" + property("gatun.native.extract.dir"));
        List<String> classPath = new ArrayList<>(flinkJars);
        classPath.add(gatunJar.toString());
        classPath.add(property("gatun.flink.job.jar"));
        command.add("-cp");
        command.add(String.join(File.pathSeparator, classPath));
        command.add(JOB);
        command.add(mode);
        Path log = gatunJar.resolveSibling("fresh-jvm-" + mode + ".log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!process.waitFor(CHILD_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
            process.destroyForcibly().waitFor();
            return new Child(mode, command, -1, "TIMED OUT after " + CHILD_TIMEOUT_MINUTES + " min\n" + Files.readString(log));
        }
        return new Child(mode, command, process.exitValue(), Files.readString(log));
    }

    private static String property(String name) {
        String value = System.getProperty(name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("system property " + name + " is not set (failsafe sets it in flink/pom.xml)");
        }
        return value;
    }
}
