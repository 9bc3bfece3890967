package dev.gatun.arrow.memory;

import dev.gatun.ffm.NativeMemory;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Accounts native memory and tracks live owners (batches, exported schemas, imported batches).
 *
 * <p>Java-produced bytes (raw allocations made here) and native-imported bytes (buffers of
 * imported arrays, as far as their extents are known) are counted separately; the optional limit
 * applies to Java-produced bytes. All counters are thread-safe: release callbacks free memory
 * from any thread.
 *
 * <p>Creation sites of tracked owners are captured when {@link #captureSites(boolean)} is on
 * (tests turn it on; the system property {@value #CAPTURE_SITES_PROPERTY} turns it on at start).
 */
public final class NativeAllocator implements AutoCloseable {
    public static final String CAPTURE_SITES_PROPERTY = "gatun.arrow.captureSites";
    public static final String LIMIT_PROPERTY = "gatun.arrow.limitBytes";

    private static final Set<NativeAllocator> OPEN = ConcurrentHashMap.newKeySet();
    private static volatile boolean captureSites = Boolean.getBoolean(CAPTURE_SITES_PROPERTY);
    private static final NativeAllocator ROOT =
            new NativeAllocator("root", Long.getLong(LIMIT_PROPERTY, Long.MAX_VALUE), true);

    /** Kinds of tracked owners. */
    public enum Kind {
        BATCH("batch"),
        IMPORTED_BATCH("imported batch"),
        EXPORTED_SCHEMA("exported schema"),
        NATIVE_HANDLE("native handle");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        @Override
        public String toString() {
            return label;
        }
    }

    /** A live owner as seen by a leak report. */
    public record LiveObject(long id, Kind kind, String description, Throwable creationSite) {}

    /** A snapshot of the counters. */
    public record Usage(String allocator, long javaBytes, long peakJavaBytes, long importedBytes,
                        long liveBuffers, long liveBatches, long liveImportedBatches, long liveExportedSchemas,
                        long liveNativeHandles) {
        public boolean isEmpty() {
            return javaBytes == 0 && importedBytes == 0 && liveBuffers == 0 && liveBatches == 0
                    && liveImportedBatches == 0 && liveExportedSchemas == 0 && liveNativeHandles == 0;
        }
    }

    private final String name;
    private final long limit;
    private final boolean root;
    private final AtomicLong javaBytes = new AtomicLong();
    private final AtomicLong peakJavaBytes = new AtomicLong();
    private final AtomicLong importedBytes = new AtomicLong();
    private final AtomicLong liveBuffers = new AtomicLong();
    private final AtomicLong nextId = new AtomicLong(1);
    private final ConcurrentHashMap<Long, Tracking> live = new ConcurrentHashMap<>();

    private NativeAllocator(String name, long limit, boolean root) {
        if (limit < 0) {
            throw new IllegalArgumentException("negative limit " + limit);
        }
        this.name = name;
        this.limit = limit;
        this.root = root;
        OPEN.add(this);
    }

    /** The process-wide allocator (limit from {@value #LIMIT_PROPERTY}, else none). */
    public static NativeAllocator root() {
        return ROOT;
    }

    /** A separate allocator with its own counters and limit ({@code Long.MAX_VALUE}: none). */
    public static NativeAllocator create(String name, long limitBytes) {
        return new NativeAllocator(name, limitBytes, false);
    }

    /** Every allocator not yet closed, the root included. */
    public static Collection<NativeAllocator> openAllocators() {
        return List.copyOf(OPEN);
    }

    public static void captureSites(boolean on) {
        captureSites = on;
    }

    public String name() {
        return name;
    }

    public long limit() {
        return limit;
    }

    public long javaBytes() {
        return javaBytes.get();
    }

    public long peakJavaBytes() {
        return peakJavaBytes.get();
    }

    public long importedBytes() {
        return importedBytes.get();
    }

    /**
     * Allocates {@code NativeMemory.paddedSize(size)} bytes, 64-byte aligned, not zeroed. The
     * buffer has no Java view yet; see {@link NativeBuffer#view}.
     */
    public NativeBuffer allocate(long size) {
        FaultHook.hit(FaultPoint.ALLOCATE);
        long padded = NativeMemory.paddedSize(size);
        reserve(padded);
        boolean success = false;
        try {
            MemorySegment raw = NativeMemory.allocate(padded);
            if (raw.address() == 0) {
                throw new OutOfNativeMemoryException("the C library could not allocate " + padded
                        + " bytes (allocator " + name + " has " + javaBytes.get() + " live)",
                        padded, javaBytes.get(), limit);
            }
            liveBuffers.incrementAndGet();
            success = true;
            return new NativeBuffer(this, raw, padded);
        } finally {
            if (!success) {
                javaBytes.addAndGet(-padded);
            }
        }
    }

    private void reserve(long bytes) {
        while (true) {
            long current = javaBytes.get();
            long next = current + bytes;
            if (next < 0 || next > limit) {
                throw new OutOfNativeMemoryException("allocating " + bytes + " bytes would exceed the limit of "
                        + limit + " bytes of allocator " + name + " (" + current + " bytes live)",
                        bytes, current, limit);
            }
            if (javaBytes.compareAndSet(current, next)) {
                peakJavaBytes.accumulateAndGet(next, Math::max);
                return;
            }
        }
    }

    /** Called by {@link NativeBuffer#free} only. */
    void released(long bytes) {
        javaBytes.addAndGet(-bytes);
        liveBuffers.decrementAndGet();
    }

    /** Counts bytes of an imported array (until {@link #releaseImported}). */
    public void reserveImported(long bytes) {
        importedBytes.addAndGet(bytes);
    }

    public void releaseImported(long bytes) {
        importedBytes.addAndGet(-bytes);
    }

    /** Starts tracking an owner; reports describe it with its {@code toString()}. */
    public Tracking track(Kind kind, Object owner) {
        long id = nextId.getAndIncrement();
        Throwable site = captureSites ? new Throwable("created here") : null;
        Tracking tracking = new Tracking(this, id, kind, owner, site);
        live.put(id, tracking);
        return tracking;
    }

    void untrack(Tracking tracking) {
        live.remove(tracking.id());
    }

    public Usage usage() {
        long batches = 0;
        long imported = 0;
        long schemas = 0;
        long handles = 0;
        for (Tracking t : live.values()) {
            switch (t.kind()) {
                case BATCH -> batches++;
                case IMPORTED_BATCH -> imported++;
                case EXPORTED_SCHEMA -> schemas++;
                case NATIVE_HANDLE -> handles++;
            }
        }
        return new Usage(name, javaBytes.get(), peakJavaBytes.get(), importedBytes.get(), liveBuffers.get(),
                batches, imported, schemas, handles);
    }

    /** Live owners, oldest first, with their creation sites when captured. */
    public List<LiveObject> liveObjects() {
        List<LiveObject> out = new ArrayList<>();
        for (Tracking t : live.values()) {
            out.add(new LiveObject(t.id(), t.kind(), t.describe(), t.site()));
        }
        out.sort(Comparator.comparingLong(LiveObject::id));
        return out;
    }

    /** A readable report of everything live, or an empty string when nothing is. */
    public String leakReport() {
        Usage usage = usage();
        if (usage.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        sb.append("allocator ").append(name).append(": ").append(usage.javaBytes()).append(" Java bytes in ")
                .append(usage.liveBuffers()).append(" buffers, ").append(usage.importedBytes())
                .append(" imported bytes, ").append(usage.liveBatches()).append(" batches, ")
                .append(usage.liveImportedBatches()).append(" imported batches, ")
                .append(usage.liveExportedSchemas()).append(" exported schemas, ")
                .append(usage.liveNativeHandles()).append(" native handles live");
        for (LiveObject o : liveObjects()) {
            sb.append("\n  ").append(o.kind()).append(": ").append(o.description());
            if (o.creationSite() != null) {
                for (StackTraceElement e : o.creationSite().getStackTrace()) {
                    sb.append("\n      at ").append(e);
                }
            } else {
                sb.append(" (creation site not captured; set -D").append(CAPTURE_SITES_PROPERTY).append("=true)");
            }
        }
        return sb.toString();
    }

    /** Throws {@link IllegalStateException} with the {@link #leakReport()} if anything is live. */
    public void assertNothingLive() {
        String report = leakReport();
        if (!report.isEmpty()) {
            throw new IllegalStateException(report);
        }
    }

    /** Closes a non-root allocator; throws with the leak report if anything is still live. */
    @Override
    public void close() {
        if (root) {
            throw new UnsupportedOperationException("the root allocator lives as long as the process");
        }
        try {
            assertNothingLive();
        } finally {
            OPEN.remove(this);
        }
    }

    @Override
    public String toString() {
        return "NativeAllocator[" + name + ", " + javaBytes.get() + " bytes live, peak " + peakJavaBytes.get()
                + (limit == Long.MAX_VALUE ? "" : ", limit " + limit) + "]";
    }
}
