package dev.gatun.arrow.testing;

import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.ffm.GatunLibrary;
import dev.gatun.ffm.NativeStats;
import dev.gatun.ffm.ReleaseUpcall;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Leak check for every test that touches native memory: after each test, no live batch
 * (written, exported-not-released or imported), no Java-produced or imported bytes, no exported
 * schema, no Java export whose release has not run, no recorded release-callback failure, and no
 * native handle or native-exported array/schema ({@code GatunLibrary.stats()}).
 *
 * <p>Creation sites are captured, so the failure names where each leaked batch was made. If a
 * previous test already leaked, the check compares with what was live before this test, so one
 * leak is reported once. Also clears any installed fault injector.
 *
 * <p>Reusable downstream: depend on {@code gatun-arrow-ffm} with {@code <type>test-jar</type>}.
 */
public final class LeakCheckExtension implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(LeakCheckExtension.class);

    /** Counters that must return to their value before the test. */
    record Snapshot(Map<NativeAllocator, NativeAllocator.Usage> allocators, long registeredHandlers, NativeStats nativeStats) {}

    @Override
    public void beforeAll(ExtensionContext context) {
        NativeAllocator.captureSites(true);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        NativeAllocator.captureSites(true);
        ReleaseUpcall.drainFailures();
        context.getStore(NS).put("before", snapshot());
    }

    @Override
    public void afterEach(ExtensionContext context) {
        FaultInjection.clear();
        Snapshot before = context.getStore(NS).get("before", Snapshot.class);
        String report = check(before);
        if (!report.isEmpty()) {
            throw new AssertionError(context.getDisplayName() + " leaked:\n" + report);
        }
    }

    /** Everything live now, as a report; empty when nothing is. */
    public static String liveReport() {
        return check(null);
    }

    static Snapshot snapshot() {
        Map<NativeAllocator, NativeAllocator.Usage> usage = new IdentityHashMap<>();
        for (NativeAllocator a : NativeAllocator.openAllocators()) {
            usage.put(a, a.usage());
        }
        return new Snapshot(usage, ReleaseUpcall.registeredCount(), GatunLibrary.stats());
    }

    private static String check(Snapshot before) {
        List<String> problems = new ArrayList<>();
        for (NativeAllocator a : NativeAllocator.openAllocators()) {
            NativeAllocator.Usage now = a.usage();
            NativeAllocator.Usage was = before == null ? null : before.allocators().get(a);
            boolean leaked = was == null || was.isEmpty()
                    ? !now.isEmpty()
                    : now.javaBytes() > was.javaBytes() || now.importedBytes() > was.importedBytes()
                            || now.liveBatches() > was.liveBatches()
                            || now.liveImportedBatches() > was.liveImportedBatches()
                            || now.liveExportedSchemas() > was.liveExportedSchemas();
            if (leaked) {
                problems.add(a.leakReport());
            }
        }
        long handlers = ReleaseUpcall.registeredCount();
        long handlersBefore = before == null ? 0 : before.registeredHandlers();
        if (handlers > handlersBefore) {
            problems.add((handlers - handlersBefore) + " exported C Data structs were never released");
        }
        long failures = ReleaseUpcall.failureCount();
        if (failures > 0) {
            StringBuilder sb = new StringBuilder(failures + " release callbacks failed:");
            for (Throwable t : ReleaseUpcall.drainFailures()) {
                sb.append("\n  ").append(t);
            }
            problems.add(sb.toString());
        }
        NativeStats stats = GatunLibrary.stats();
        NativeStats was = before == null ? null : before.nativeStats();
        if (stats.liveHandles() > (was == null ? 0 : was.liveHandles())
                || stats.liveExportedArrays() > (was == null ? 0 : was.liveExportedArrays())
                || stats.liveExportedSchemas() > (was == null ? 0 : was.liveExportedSchemas())) {
            problems.add("native: " + stats.describeLiveResources());
        }
        return String.join("\n", problems);
    }
}
