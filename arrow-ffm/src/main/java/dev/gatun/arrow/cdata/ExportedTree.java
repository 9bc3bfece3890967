package dev.gatun.arrow.cdata;

import dev.gatun.arrow.memory.FaultHook;
import dev.gatun.arrow.memory.FaultPoint;
import dev.gatun.arrow.memory.NativeBuffer;
import dev.gatun.ffm.ReleaseUpcall;
import dev.gatun.ffm.internal.ArrowArray;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Private data of one exported array tree: one registry entry for all its nodes (node 0 is the
 * root, a node's children have consecutive numbers). The nodes' pointer arrays and child structs
 * live in one metadata block, freed with the last node released; each node owns its buffers and
 * frees them when it is released. Releasing a node releases its children still in place (a child
 * moved out by the consumer has {@code release == NULL} in its slot and is skipped, and outlives
 * its parent). Every step runs even when one fails; the first failure is thrown at the end with
 * the others suppressed.
 */
final class ExportedTree implements ReleaseUpcall.TreeHandler {
    private static final long ARRAY_SIZE = ArrowArray.sizeof();

    private final NativeBuffer block;
    private final MemorySegment blockView;
    /** Every node's buffers: node n owns {@code buffers[bufferStart[n] .. bufferStart[n + 1])}. */
    private final NativeBuffer[] buffers;
    private final int[] bufferStart;
    /** Node n's children are nodes {@code childStart[n] .. childStart[n] + childCount[n] - 1}. */
    private final int[] childStart;
    private final int[] childCount;
    /** Offset of node n's struct in the block (n ≥ 1; the root's struct is the consumer's). */
    private final long[] structAt;
    private final AtomicIntegerArray claimed;
    private final AtomicInteger live;
    private final Runnable onRootReleased;
    private long key;

    ExportedTree(NativeBuffer block, NativeBuffer[] buffers, int[] bufferStart, int[] childStart, int[] childCount,
                 long[] structAt, Runnable onRootReleased) {
        this.block = block;
        this.blockView = block.unscopedView();
        this.buffers = buffers;
        this.bufferStart = bufferStart;
        this.childStart = childStart;
        this.childCount = childCount;
        this.structAt = structAt;
        this.claimed = new AtomicIntegerArray(childCount.length);
        this.live = new AtomicInteger(childCount.length);
        this.onRootReleased = onRootReleased;
    }

    /** Registers the tree; returns its key (the nodes' ids are {@code ReleaseUpcall.nodeId(key, n)}). */
    long register() {
        key = ReleaseUpcall.registerTree(this);
        return key;
    }

    @Override
    public boolean claim(int node) {
        return node >= 0 && node < childCount.length && claimed.compareAndSet(node, 0, 1);
    }

    @Override
    public void release(int node, MemorySegment struct) throws Exception {
        Throwable failure = releaseClaimed(node);
        if (failure instanceof Exception e) {
            throw e;
        } else if (failure != null) {
            throw (Error) failure;
        }
    }

    private Throwable releaseClaimed(int node) {
        Throwable failure = null;
        try {
            FaultHook.hit(FaultPoint.RELEASE);
        } catch (Throwable t) {
            failure = t;
        }
        int first = childStart[node];
        for (int c = first; c < first + childCount[node]; c++) {
            try {
                MemorySegment slot = blockView.asSlice(structAt[c], ARRAY_SIZE);
                if (ArrowArray.release(slot).address() != 0 && claim(c)) {
                    try {
                        failure = addTo(failure, releaseClaimed(c));
                    } finally {
                        ArrowArray.release(slot, MemorySegment.NULL);
                    }
                }
            } catch (Throwable t) {
                failure = addTo(failure, t);
            }
        }
        for (int b = bufferStart[node]; b < bufferStart[node + 1]; b++) {
            try {
                buffers[b].free();
            } catch (Throwable t) {
                failure = addTo(failure, t);
            }
        }
        if (node == 0 && onRootReleased != null) {
            try {
                onRootReleased.run();
            } catch (Throwable t) {
                failure = addTo(failure, t);
            }
        }
        if (live.decrementAndGet() == 0) {
            try {
                ReleaseUpcall.unregisterTree(key);
                block.free(); // last: the child structs live in the block
            } catch (Throwable t) {
                failure = addTo(failure, t);
            }
        }
        return failure;
    }

    private static Throwable addTo(Throwable first, Throwable next) {
        if (first == null) {
            return next;
        }
        if (next != null && next != first) {
            first.addSuppressed(next);
        }
        return first;
    }
}
