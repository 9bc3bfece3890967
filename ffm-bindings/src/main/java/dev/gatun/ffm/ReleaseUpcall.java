package dev.gatun.ffm;

import dev.gatun.ffm.internal.ArrowArray;
import dev.gatun.ffm.internal.ArrowSchema;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The one release callback of every {@code ArrowArray} and {@code ArrowSchema} that Java
 * exports: a single upcall stub in the global arena for {@code void release(struct X*)}.
 *
 * <p>Native memory cannot hold a Java reference, so the exporter {@linkplain #register registers}
 * a {@link Handler} and stores the returned id as the struct's {@code private_data}. When a
 * consumer calls {@code release}, on whatever thread and at whatever time, the stub removes the
 * handler for that id and runs it, then sets {@code release = NULL} last. Removal makes it
 * idempotent and thread-safe: only one caller ever gets the handler. Every {@link Throwable} is
 * caught (an exception escaping an upcall would kill the JVM) and recorded for
 * {@link #failures()}.
 *
 * <p>A whole tree of structs (an exported batch) may instead {@linkplain #registerTree register}
 * one {@link TreeHandler}: each node's {@code private_data} is a {@linkplain #nodeId node id}
 * (a tag bit, the tree's key, the node's number), the handler claims each node once and removes
 * itself after its last node. One registry entry per batch instead of one per column.
 *
 * <p>One stub serves both struct kinds: {@code release} sits at a different offset in each
 * (56 in {@code ArrowSchema}, 64 in {@code ArrowArray}). A schema being released still holds the
 * stub's address at its {@code release} offset, while an array holds its {@code dictionary}
 * pointer there, which is data, never this code address.
 */
public final class ReleaseUpcall {
    /** The producer's cleanup for one exported struct; runs at most once. */
    @FunctionalInterface
    public interface Handler {
        /**
         * @param struct the struct being released (possibly a moved copy), sized to its layout;
         *     its {@code release} is set to NULL after this returns or throws
         */
        void release(MemorySegment struct) throws Exception;
    }

    /**
     * The producer's cleanup for every node of one exported tree (one registry entry for the whole
     * tree): the id of node {@code n} is {@link #nodeId nodeId(tree, n)}.
     */
    public interface TreeHandler {
        /** Claims node {@code node} for release: true for exactly one call per node. */
        boolean claim(int node);

        /**
         * Releases a claimed node; the stub sets the struct's {@code release} to NULL after this
         * returns or throws.
         *
         * @param struct the node's struct (possibly a moved copy), sized to its layout
         */
        void release(int node, MemorySegment struct) throws Exception;
    }

    /** Node ids of a tree: tag bit, tree key, node index in the low {@value #NODE_BITS} bits. */
    private static final int NODE_BITS = 20;
    /** Most nodes one {@link TreeHandler} may carry. */
    public static final int MAX_TREE_NODES = 1 << NODE_BITS;
    private static final long TREE_TAG = 1L << 62;
    private static final int MAX_RECORDED_FAILURES = 64;

    private static final ConcurrentHashMap<Long, Handler> HANDLERS = new ConcurrentHashMap<>();
    private static final ConcurrentHashMap<Long, TreeHandler> TREES = new ConcurrentHashMap<>();
    private static final AtomicLong NEXT_TREE = new AtomicLong(1);
    private static final AtomicLong NEXT_ID = new AtomicLong(1);
    private static final List<Throwable> FAILURES = new ArrayList<>();
    private static final AtomicLong FAILURE_COUNT = new AtomicLong();
    private static final long STRUCT_SIZE = Math.max(ArrowArray.sizeof(), ArrowSchema.sizeof());
    private static final MemorySegment STUB;
    private static final MethodHandle FOREIGN_RELEASE;

    static {
        if (ArrowSchema.release$offset() == ArrowArray.release$offset()) {
            throw new AssertionError("ArrowSchema and ArrowArray have release at the same offset");
        }
        GatunLibrary.requireNativeAccess();
        Linker linker = Linker.nativeLinker();
        FunctionDescriptor signature = FunctionDescriptor.ofVoid(ValueLayout.ADDRESS);
        try {
            MethodHandle target = MethodHandles.lookup().findStatic(ReleaseUpcall.class, "onRelease",
                    MethodType.methodType(void.class, MemorySegment.class));
            STUB = linker.upcallStub(target, signature, Arena.global());
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
        FOREIGN_RELEASE = linker.downcallHandle(signature);
    }

    private ReleaseUpcall() {}

    /** The function pointer to store in {@code release}. */
    public static MemorySegment stub() {
        return STUB;
    }

    /** Whether {@code functionPointer} is this stub. */
    public static boolean isStub(MemorySegment functionPointer) {
        return functionPointer.address() == STUB.address();
    }

    /** Registers {@code handler}; returns the value to store in the struct's {@code private_data}. */
    public static MemorySegment register(Handler handler) {
        Objects.requireNonNull(handler, "handler");
        long id = NEXT_ID.getAndIncrement();
        HANDLERS.put(id, handler);
        return MemorySegment.ofAddress(id);
    }

    /**
     * Removes a handler without running it, for an exporter that fails before handing the struct
     * out. Returns whether it was still registered.
     */
    public static boolean unregister(MemorySegment privateData) {
        return HANDLERS.remove(privateData.address()) != null;
    }

    /**
     * Registers the handler of a whole tree; returns its key for {@link #nodeId} and
     * {@link #unregisterTree}. The handler unregisters itself once its last node is released.
     */
    public static long registerTree(TreeHandler handler) {
        Objects.requireNonNull(handler, "handler");
        long tree = NEXT_TREE.getAndIncrement();
        TREES.put(tree, handler);
        return tree;
    }

    /** The {@code private_data} of node {@code node} (0 ≤ node < {@value #MAX_TREE_NODES}) of {@code tree}. */
    public static MemorySegment nodeId(long tree, int node) {
        if (node < 0 || node >= MAX_TREE_NODES) {
            throw new IllegalArgumentException("node " + node + " outside 0.." + (MAX_TREE_NODES - 1));
        }
        return MemorySegment.ofAddress(TREE_TAG | tree << NODE_BITS | node);
    }

    /** Removes a tree's handler (after its last node, or for an exporter that failed). */
    public static boolean unregisterTree(long tree) {
        return TREES.remove(tree) != null;
    }

    /** Handlers registered and not yet run (a tree counts once): exported structs not yet released. */
    public static int registeredCount() {
        return HANDLERS.size() + TREES.size();
    }

    /**
     * Calls {@code array->release(array)} unless it is NULL: our own handler runs directly in
     * Java, a foreign one through a downcall.
     */
    public static void releaseArray(MemorySegment array) {
        MemorySegment fn = ArrowArray.release(array);
        if (fn.address() == 0) {
            return;
        }
        if (isStub(fn)) {
            onRelease(array);
        } else {
            invokeForeign(fn, array);
        }
    }

    /** Like {@link #releaseArray} for an {@code ArrowSchema}. */
    public static void releaseSchema(MemorySegment schema) {
        MemorySegment fn = ArrowSchema.release(schema);
        if (fn.address() == 0) {
            return;
        }
        if (isStub(fn)) {
            onRelease(schema);
        } else {
            invokeForeign(fn, schema);
        }
    }

    private static void invokeForeign(MemorySegment fn, MemorySegment struct) {
        try {
            FOREIGN_RELEASE.invokeExact(fn, struct);
        } catch (Throwable e) {
            throw new AssertionError("a native release callback cannot throw", e);
        }
    }

    /** Failures recorded by release handlers (at most the first 64), oldest first. */
    public static List<Throwable> failures() {
        synchronized (FAILURES) {
            return List.copyOf(FAILURES);
        }
    }

    /** Returns the recorded failures and forgets them. */
    public static List<Throwable> drainFailures() {
        synchronized (FAILURES) {
            List<Throwable> copy = List.copyOf(FAILURES);
            FAILURES.clear();
            FAILURE_COUNT.set(0);
            return copy;
        }
    }

    /** How many failures were recorded since the last drain, including those not kept. */
    public static long failureCount() {
        return FAILURE_COUNT.get();
    }

    /**
     * The upcall target. Must never throw. Only the caller that wins the handler clears
     * {@code release}; a repeated or racing call on the same struct does nothing.
     */
    private static void onRelease(MemorySegment pointer) {
        try {
            if (pointer.address() == 0) {
                return;
            }
            MemorySegment raw = pointer.reinterpret(STRUCT_SIZE);
            long atSchemaRelease = raw.get(ValueLayout.ADDRESS, ArrowSchema.release$offset()).address();
            long atArrayRelease = raw.get(ValueLayout.ADDRESS, ArrowArray.release$offset()).address();
            boolean schema = atSchemaRelease == STUB.address();
            if (!schema && atArrayRelease != STUB.address()) {
                if (atSchemaRelease == 0 || atArrayRelease == 0) {
                    return; // already released: a second call is a harmless no-op
                }
                throw new IllegalStateException("release callback invoked on a struct whose release is not"
                        + " Gatun's (address 0x" + Long.toHexString(pointer.address()) + ")");
            }
            MemorySegment struct = pointer.reinterpret(schema ? ArrowSchema.sizeof() : ArrowArray.sizeof());
            long privateData = (schema ? ArrowSchema.private_data(struct) : ArrowArray.private_data(struct)).address();
            if ((privateData & TREE_TAG) != 0) {
                releaseTreeNode(privateData, struct, schema);
                return;
            }
            Handler handler = HANDLERS.remove(privateData);
            if (handler == null) {
                return; // another thread is releasing it, or did
            }
            try {
                handler.release(struct);
            } finally {
                if (schema) {
                    ArrowSchema.release(struct, MemorySegment.NULL);
                } else {
                    ArrowArray.release(struct, MemorySegment.NULL);
                }
            }
        } catch (Throwable t) {
            record(t);
        }
    }

    private static void releaseTreeNode(long privateData, MemorySegment struct, boolean schema) throws Exception {
        TreeHandler tree = TREES.get((privateData & ~TREE_TAG) >>> NODE_BITS);
        if (tree == null) {
            return; // every node was released already
        }
        int node = (int) (privateData & (MAX_TREE_NODES - 1));
        if (!tree.claim(node)) {
            return; // another thread is releasing it, or did
        }
        try {
            tree.release(node, struct);
        } finally {
            if (schema) {
                ArrowSchema.release(struct, MemorySegment.NULL);
            } else {
                ArrowArray.release(struct, MemorySegment.NULL);
            }
        }
    }

    private static void record(Throwable t) {
        try {
            FAILURE_COUNT.incrementAndGet();
            synchronized (FAILURES) {
                if (FAILURES.size() < MAX_RECORDED_FAILURES) {
                    FAILURES.add(t);
                }
            }
        } catch (Throwable ignored) {
            // Nothing may escape the upcall; the count above is the best we can still do.
        }
    }
}
