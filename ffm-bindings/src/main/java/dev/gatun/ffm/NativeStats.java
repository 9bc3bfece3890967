package dev.gatun.ffm;

/** The native resource counters ({@code GatunNativeStats}). */
public record NativeStats(
        long liveHandles,
        long liveExportedArrays,
        long liveExportedSchemas,
        long allocatedBytes,
        long peakAllocatedBytes) {

    /** No native handle, exported array or exported schema is alive (bytes are not counted). */
    public boolean hasNoLiveResources() {
        return liveHandles == 0 && liveExportedArrays == 0 && liveExportedSchemas == 0;
    }

    /** E.g. {@code "live handles=0, exported arrays=1, exported schemas=0"}. */
    public String describeLiveResources() {
        return "live handles=" + liveHandles + ", exported arrays=" + liveExportedArrays
                + ", exported schemas=" + liveExportedSchemas;
    }
}
