package dev.gatun.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.python.util.PythonDependencyUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Flink's SQL Client in embedded mode running a SQL file ({@code -f}) in a fresh JVM laid out as
 * {@code bin/sql-client.sh} lays it out: a {@code lib/} folder (Flink's jars with the stock planner
 * loader, and gatun-flink named {@code flink-gatun-*.jar}) on the class path in file-name order,
 * the client after it, and a configuration folder ({@code FLINK_CONF_DIR}) whose config.yaml turns
 * Gatun on. Its jobs run on a loopback MiniCluster in this JVM.
 */
class SqlClientFileTest {
    private static final long CHILD_TIMEOUT_MINUTES = 8;
    private static final Pattern TABLEAU_ROW = Pattern.compile("^\\|\\s*\\+I\\s*\\|\\s*(\\d+)\\s*\\|\\s*(-?\\d+)\\s*\\|$");

    private static LoopbackCluster cluster;
    private static Path work;
    private static List<String> classPath;

    @BeforeAll
    static void layOut() throws Exception {
        cluster = LoopbackCluster.start();
        work = Path.of(property("gatun.it.work.dir"), "sql-client");
        Files.createDirectories(work);
        classPath = sqlClientClassPath(work.resolve("lib"));
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            LoopbackCluster.awaitNoNativeLeaks(Duration.ofSeconds(30));
        } finally {
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    @Test
    void aSqlFileRunsNativelyExplainsAndMatchesStock() throws Exception {
        String file = String.join("\n",
                "SET 'sql-client.execution.result-mode' = 'tableau';",
                Bids.CREATE + ";",
                "EXPLAIN " + Bids.NATIVE_QUERY + ";",
                "EXPLAIN " + Bids.FALLBACK_QUERY + ";",
                Bids.NATIVE_QUERY + ";",
                "SET 'gatun.native.enabled' = 'false';",
                "EXPLAIN " + Bids.NATIVE_QUERY + ";",
                Bids.NATIVE_QUERY + ";", "");
        long before = NativeRowsReporter.total();
        Child child = runClient("native", file, true);
        assertEquals(0, child.exitCode(), child.describe());
        String out = child.output();
        assertEquals(Bids.ROWS, NativeRowsReporter.total() - before,
                "only the first SELECT's island should have read bids, once:\n" + child.describe());
        int secondPlan = out.indexOf("== Abstract Syntax Tree ==", out.indexOf(Bids.FALLBACK_REASON));
        assertTrue(out.substring(0, secondPlan).contains("NativeCalc(select=[auction, ")
                && out.contains(Bids.FALLBACK_REASON), child.describe());
        assertFalse(out.substring(secondPlan).contains("NativeCalc("), "after SET false the plan is stock\n" + out);

        List<Set<String>> results = tableauResults(out);
        assertEquals(2, results.size(), child.describe());
        assertEquals(Bids.expectedNativeQueryRows(), results.get(0), child.describe());
        assertEquals(results.get(1), results.get(0));
    }

    @Test
    void withoutNativeAccessTheFirstNativePlanningFailsNamingTheFlag() throws Exception {
        String file = String.join("\n", Bids.CREATE + ";", "EXPLAIN " + Bids.NATIVE_QUERY + ";", "");
        Child child = runClient("noflag", file, false);
        assertTrue(child.output().contains("--enable-native-access=ALL-UNNAMED")
                && child.output().contains("gatun.native.enabled=true in the Flink configuration")
                && !child.output().contains("NativeCalc("), child.describe());
    }

    @Test
    void anUnloadableLibraryLeavesQueriesStockWithALogLine() throws Exception {
        String missing = "/nonexistent/gatun/libgatun_native.so";
        String file = String.join("\n", Bids.CREATE + ";", "EXPLAIN " + Bids.NATIVE_QUERY + ";", "");
        Child child = runClient("nolibrary", file, true, "-Dgatun.native.library=" + missing);
        assertEquals(0, child.exitCode(), child.describe());
        assertTrue(child.output().contains("the native library is unavailable, queries run on stock Flink")
                && child.output().contains(missing) && child.output().contains("== Optimized Execution Plan ==")
                && !child.output().contains("NativeCalc("), child.describe());
    }

    private record Child(String mode, List<String> command, int exitCode, String output) {
        String describe() {
            return "SQL Client (" + mode + ") exited " + exitCode + "\ncommand: " + String.join(" ", command)
                    + "\n--- output ---\n" + output;
        }
    }

    /** Runs the SQL Client on {@code sql} with the config.yaml of this cluster and Gatun on. */
    private static Child runClient(String mode, String sql, boolean nativeAccess, String... jvmArgs) throws Exception {
        Path dir = work.resolve(mode);
        Path conf = dir.resolve("conf");
        Files.createDirectories(conf);
        Path sqlFile = dir.resolve("queries.sql");
        Files.writeString(sqlFile, sql);
        var client = cluster.clientConfiguration();
        Files.writeString(conf.resolve("config.yaml"), String.join("\n",
                "execution.target: remote",
                "rest.address: " + client.get(org.apache.flink.configuration.RestOptions.ADDRESS),
                "rest.port: " + client.get(org.apache.flink.configuration.RestOptions.PORT),
                "gatun.native.enabled: true",
                "gatun.native.force: true", ""));
        Files.writeString(conf.resolve("log4j-cli.properties"), String.join("\n",
                "rootLogger.level = WARN", "rootLogger.appenderRef.console.ref = Console",
                "appender.console.type = Console", "appender.console.name = Console",
                "appender.console.target = SYSTEM_ERR",
                "appender.console.layout.type = PatternLayout", "appender.console.layout.pattern = %-5p %c{1} - %m%n",
                "logger.gatun.name = dev.gatun", "logger.gatun.level = INFO", ""));

        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        if (nativeAccess) {
            command.add("--enable-native-access=ALL-UNNAMED");
        }
        command.addAll(Arrays.asList(jvmArgs));
        command.addAll(Arrays.asList(property("gatun.jvm.options").strip().split("\\s+")));
        command.add("-Xmx768m");
        command.add("-Dlog4j.configurationFile=" + conf.resolve("log4j-cli.properties").toUri());
        command.add("-Dgatun.native.extract.dir=" + property("gatun.native.extract.dir"));
        command.add("-cp");
        command.add(String.join(File.pathSeparator, classPath));
        command.add("org.apache.flink.table.client.SqlClient");
        command.add("-f");
        command.add(sqlFile.toString());
        Path log = dir.resolve("output.log");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("FLINK_CONF_DIR", conf.toString());
        builder.directory(dir.toFile());
        Process process = builder.start();
        if (!process.waitFor(CHILD_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
            process.destroyForcibly().waitFor();
            return new Child(mode, command, -1, "TIMED OUT after " + CHILD_TIMEOUT_MINUTES + " min\n" + Files.readString(log));
        }
        return new Child(mode, command, process.exitValue(), Files.readString(log));
    }

    /**
     * The class path {@code bin/sql-client.sh} builds: every jar of {@code lib/} in file-name order,
     * then the SQL Client and Gateway jars (a distribution keeps them in {@code opt/}). gatun-flink
     * is copied into lib as {@code flink-gatun-<version>.jar}, the name docs/using.md gives it.
     */
    private static List<String> sqlClientClassPath(Path lib) throws Exception {
        Files.createDirectories(lib);
        List<String> opt = new ArrayList<>();
        for (String entry : Files.readString(Path.of(property("gatun.it.classpath.file"))).strip().split(File.pathSeparator)) {
            Path jar = Path.of(entry);
            String name = jar.getFileName().toString();
            if (name.startsWith("flink-sql-client") || name.startsWith("flink-sql-gateway")
                    || name.startsWith("flink-sql-jdbc-driver")) {
                opt.add(entry);
            } else if (name.startsWith("junit") || name.startsWith("opentest4j") || name.startsWith("apiguardian")) {
                continue; // the test framework, not Flink
            } else {
                String target = name.startsWith("gatun-flink-") ? "flink-gatun-" + name.substring("gatun-flink-".length()) : name;
                Files.copy(jar, lib.resolve(target), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
        List<String> classPath = new ArrayList<>();
        try (var files = Files.list(lib)) {
            files.map(Path::toString).sorted().forEach(classPath::add);
        }
        classPath.addAll(opt);
        // this module's test classes, for the flink-python stand-in only (see PythonDependencyUtils)
        classPath.add(Path.of(PythonDependencyUtils.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
        return classPath;
    }

    /** The rows of each SELECT the client printed as a tableau, as "auction,score". */
    private static List<Set<String>> tableauResults(String output) {
        List<Set<String>> results = new ArrayList<>();
        Set<String> current = null;
        for (String line : output.lines().toList()) {
            Matcher row = TABLEAU_ROW.matcher(line.strip());
            if (line.startsWith("| op |")) {
                current = new TreeSet<>();
                results.add(current);
            } else if (row.matches() && current != null) {
                current.add(row.group(1) + "," + row.group(2));
            }
        }
        return results;
    }

    private static String property(String name) {
        String value = System.getProperty(name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("system property " + name + " is not set (surefire sets it in sql-gateway-it/pom.xml)");
        }
        return value;
    }
}
