package dev.gatun.arrow.cdata;

import dev.gatun.arrow.memory.FaultHook;
import dev.gatun.arrow.memory.FaultPoint;
import dev.gatun.arrow.memory.NativeBuffer;
import dev.gatun.ffm.ReleaseUpcall;
import dev.gatun.ffm.internal.ArrowArray;
import dev.gatun.ffm.internal.ArrowSchema;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * Private data of one exported struct (array or schema node), found through its registry id:
 * the raw buffers it owns and where its children's structs live. Releasing releases the children
 * still live (a child moved out by the consumer has {@code release == NULL} here and is skipped),
 * then frees the owned buffers; it always frees, even when a step fails, and then rethrows.
 */
final class ExportedNode implements ReleaseUpcall.Handler {
    private final boolean schema;
    private final List<NativeBuffer> owned;
    private final MemorySegment childStructs;
    private final int childCount;
    private final Runnable onReleased;

    ExportedNode(boolean schema, List<NativeBuffer> owned, MemorySegment childStructs, int childCount,
                 Runnable onReleased) {
        this.schema = schema;
        this.owned = List.copyOf(owned);
        this.childStructs = childStructs;
        this.childCount = childCount;
        this.onReleased = onReleased;
    }

    @Override
    public void release(MemorySegment struct) throws Exception {
        Throwable failure = null;
        try {
            FaultHook.hit(FaultPoint.RELEASE);
        } catch (Throwable t) {
            failure = t;
        }
        try {
            long size = schema ? ArrowSchema.sizeof() : ArrowArray.sizeof();
            for (int i = 0; i < childCount; i++) {
                MemorySegment child = childStructs.asSlice(i * size, size);
                if (schema) {
                    ReleaseUpcall.releaseSchema(child);
                } else {
                    ReleaseUpcall.releaseArray(child);
                }
            }
        } catch (Throwable t) {
            failure = addTo(failure, t);
        } finally {
            for (NativeBuffer b : owned) {
                try {
                    b.free();
                } catch (Throwable t) {
                    failure = addTo(failure, t);
                }
            }
            if (onReleased != null) {
                try {
                    onReleased.run();
                } catch (Throwable t) {
                    failure = addTo(failure, t);
                }
            }
        }
        if (failure instanceof Exception e) {
            throw e;
        } else if (failure != null) {
            throw (Error) failure;
        }
    }

    private static Throwable addTo(Throwable first, Throwable next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }
}
