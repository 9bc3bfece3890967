package dev.gatun.arrow.cdata;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.memory.FaultHook;
import dev.gatun.arrow.memory.FaultPoint;
import dev.gatun.arrow.memory.NativeBuffer;
import dev.gatun.arrow.vector.ValueVector;
import dev.gatun.ffm.ReleaseUpcall;
import dev.gatun.ffm.internal.ArrowArray;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * The export of one batch as a struct array tree: nodes numbered breadth first (0 is the root, a
 * node's children consecutive), one metadata block holding every child struct (node n at
 * {@code (n - 1) * sizeof(ArrowArray)}) and then every node's {@code buffers} and {@code children}
 * pointer arrays, and one {@link ExportedTree} registered once for all nodes.
 */
final class ArrayExport {
    private static final long ARRAY_SIZE = ArrowArray.sizeof();

    private ArrayExport() {}

    /** Fills {@code root} (an empty struct) from a SEALED {@code batch}; {@code SEALED → EXPORTED}. */
    static void export(RecordBatch batch, MemorySegment root) {
        List<ValueVector> columns = batch.columns();
        // Breadth first: nodes[n] is node n's vector (null for the root), numbered as found.
        List<ValueVector> nodes = new ArrayList<>(1 + columns.size());
        nodes.add(null);
        nodes.addAll(columns);
        int[] childStart = new int[1 + columns.size()];
        int[] childCount = new int[1 + columns.size()];
        int[] bufferStart = new int[2 + columns.size()];
        List<NativeBuffer> owned = new ArrayList<>(2 * (1 + columns.size()));
        childStart[0] = 1;
        childCount[0] = columns.size();
        long pointerBytes = 8L * (1 + columns.size());
        for (int n = 1; n < nodes.size(); n++) {
            ValueVector v = nodes.get(n);
            List<ValueVector> children = v.children();
            if (nodes.size() + children.size() > ReleaseUpcall.MAX_TREE_NODES) {
                throw new IllegalArgumentException("a batch of more than " + ReleaseUpcall.MAX_TREE_NODES
                        + " nested vectors cannot be exported");
            }
            if (n >= childStart.length) {
                childStart = Arrays.copyOf(childStart, 2 * n);
                childCount = Arrays.copyOf(childCount, 2 * n);
                bufferStart = Arrays.copyOf(bufferStart, 2 * n + 1);
            }
            childStart[n] = nodes.size();
            childCount[n] = children.size();
            nodes.addAll(children);
            bufferStart[n] = owned.size();
            v.collectBuffers(owned);
            pointerBytes += 8L * (v.bufferCount() + children.size());
        }
        int count = nodes.size();
        childStart = Arrays.copyOf(childStart, count);
        childCount = Arrays.copyOf(childCount, count);
        bufferStart = Arrays.copyOf(bufferStart, count + 1);
        bufferStart[count] = owned.size();
        long structBytes = (count - 1) * ARRAY_SIZE;
        NativeBuffer block = batch.allocator().allocate(structBytes + pointerBytes);
        long key = 0;
        boolean success = false;
        try {
            MemorySegment m = block.unscopedView();
            long base = m.address();
            long[] structAt = new long[count];
            for (int n = 1; n < count; n++) {
                structAt[n] = (n - 1) * ARRAY_SIZE;
            }
            ExportedTree tree = new ExportedTree(block, owned.toArray(new NativeBuffer[0]), bufferStart, childStart,
                    childCount, structAt, batch::exportReleased);
            key = tree.register();
            long cursor = structBytes;
            for (int n = 0; n < count; n++) {
                ValueVector v = nodes.get(n);
                int nb = v == null ? 1 : v.bufferCount();
                int nc = childCount[n];
                MemorySegment s = n == 0 ? root : m.asSlice(structAt[n], ARRAY_SIZE);
                long buffersAt = cursor;
                cursor += 8L * (nb + nc);
                for (int i = 0; i < nb; i++) {
                    m.set(ValueLayout.ADDRESS, buffersAt + 8L * i, v == null ? MemorySegment.NULL : v.exportBuffer(i));
                }
                for (int j = 0; j < nc; j++) {
                    m.set(ValueLayout.JAVA_LONG, buffersAt + 8L * (nb + j), base + structAt[childStart[n] + j]);
                }
                ArrowArray.length(s, v == null ? batch.rowCount() : v.length());
                ArrowArray.null_count(s, v == null ? 0 : v.nullCount());
                ArrowArray.offset(s, 0);
                ArrowArray.n_buffers(s, nb);
                ArrowArray.n_children(s, nc);
                s.set(ValueLayout.JAVA_LONG, ArrowArray.buffers$offset(), base + buffersAt);
                s.set(ValueLayout.JAVA_LONG, ArrowArray.children$offset(), nc == 0 ? 0 : base + buffersAt + 8L * nb);
                ArrowArray.dictionary(s, MemorySegment.NULL);
                ArrowArray.private_data(s, ReleaseUpcall.nodeId(key, n));
                if (n > 0) {
                    ArrowArray.release(s, ReleaseUpcall.stub());
                }
            }
            Set<NativeBuffer> claimed = Collections.newSetFromMap(new IdentityHashMap<>(2 * owned.size()));
            claimed.addAll(owned);
            FaultHook.hit(FaultPoint.EXPORT_ARRAY);
            batch.completeExport(claimed);
            ArrowArray.release(root, ReleaseUpcall.stub());
            success = true;
        } finally {
            if (!success) {
                if (key != 0) {
                    ReleaseUpcall.unregisterTree(key);
                }
                block.free();
            }
        }
    }
}
