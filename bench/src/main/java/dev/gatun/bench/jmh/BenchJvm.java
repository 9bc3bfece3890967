package dev.gatun.bench.jmh;

/**
 * JVM options appended to every JMH fork (JMH forks inherit the launcher's options too; these are
 * repeated so that a run with {@code -jvmArgs} still gets them).
 */
final class BenchJvm {
    static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";
    /** Arrow Java's memory layer reflects into java.nio. */
    static final String OPEN_NIO = "--add-opens=java.base/java.nio=ALL-UNNAMED";
    /** The fair-baseline settings: Arrow Java without bounds checks ... */
    static final String ARROW_UNSAFE = "-Darrow.enable_unsafe_memory_access=true";
    /** ... and without the NULL check on get. */
    static final String ARROW_NO_NULL_CHECK = "-Darrow.enable_null_check_for_get=false";

    private BenchJvm() {}
}
