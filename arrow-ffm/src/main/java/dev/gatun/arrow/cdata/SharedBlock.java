package dev.gatun.arrow.cdata;

import dev.gatun.arrow.memory.NativeBuffer;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A raw block shared by the nodes of one exported array tree, freed when the last of them is
 * released. Nodes may be released on different threads and in any order (a consumer may move a
 * child out and release it after the root), so the count is atomic.
 */
final class SharedBlock {
    private final NativeBuffer buffer;
    private final AtomicInteger references;

    SharedBlock(NativeBuffer buffer, int references) {
        this.buffer = buffer;
        this.references = new AtomicInteger(references);
    }

    NativeBuffer buffer() {
        return buffer;
    }

    /** Drops one reference; the last one frees the block. */
    void release() {
        int left = references.decrementAndGet();
        if (left == 0) {
            buffer.free();
        } else if (left < 0) {
            throw new IllegalStateException("shared export block released more often than it has nodes");
        }
    }
}
