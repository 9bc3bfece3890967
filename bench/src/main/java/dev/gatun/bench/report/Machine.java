package dev.gatun.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** What a result was measured on, for the summaries. */
public final class Machine {
    private Machine() {}

    public static String describe() {
        return String.format(Locale.ROOT, "%s; %d CPUs available to the JVM; %s %s (%s); %s %s; max heap %d MiB",
                cpuModel(), Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.name"),
                Runtime.version(), System.getProperty("java.vendor"), System.getProperty("os.name"),
                System.getProperty("os.arch"), Runtime.getRuntime().maxMemory() >> 20);
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                    .filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst().orElse("unknown CPU");
        } catch (IOException | RuntimeException e) {
            return "unknown CPU";
        }
    }
}
