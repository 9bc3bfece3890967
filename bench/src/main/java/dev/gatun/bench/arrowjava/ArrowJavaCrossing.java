package dev.gatun.bench.arrowjava;

import dev.gatun.ffm.GatunNative;
import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;
import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Arrow Java's C Data path into Gatun's Rust library: the root is exported as a struct array with
 * Arrow Java (JNI-backed release callbacks), moved through {@code gatun_roundtrip} or
 * {@code gatun_passthrough} by
 * {@link GatunNative} (the struct memory wrapped as segments), and imported back with Arrow Java.
 * The schema crosses once; the input struct is reused, the output struct is new per call (Arrow
 * Java's import takes it over and frees it).
 */
public final class ArrowJavaCrossing implements AutoCloseable {
    /** Sizes of the C Data Interface structs on 64-bit targets. */
    private static final long ARROW_SCHEMA_SIZE = 72;
    private static final long ARROW_ARRAY_SIZE = 80;

    private final BufferAllocator allocator;
    private final ArrowSchema schema;
    private final ArrowArray in;
    private final ArrowSchema outSchema;
    private final VectorSchemaRoot target;
    private final MemorySegment schemaSegment;
    private final MemorySegment inSegment;
    private final MemorySegment outSchemaSegment;
    private final MemorySegment passthrough;

    public ArrowJavaCrossing(BufferAllocator allocator, Schema arrowSchema) {
        this.allocator = allocator;
        this.schema = ArrowSchema.allocateNew(allocator);
        this.in = ArrowArray.allocateNew(allocator);
        this.outSchema = ArrowSchema.allocateNew(allocator);
        Data.exportSchema(allocator, arrowSchema, null, schema);
        this.target = VectorSchemaRoot.create(arrowSchema, allocator);
        this.schemaSegment = segment(schema.memoryAddress(), ARROW_SCHEMA_SIZE);
        this.inSegment = segment(in.memoryAddress(), ARROW_ARRAY_SIZE);
        this.outSchemaSegment = segment(outSchema.memoryAddress(), ARROW_SCHEMA_SIZE);
        this.passthrough = GatunNative.passthroughCreate(schemaSegment);
    }

    private static MemorySegment segment(long address, long size) {
        return MemorySegment.ofAddress(address).reinterpret(size);
    }

    /**
     * Sends {@code root} through Rust and back. The returned root (owned by this object, reused)
     * holds the imported buffers until its next {@code clear()} or the next roundtrip.
     */
    public VectorSchemaRoot roundtrip(VectorSchemaRoot root) {
        return cross(root, out -> {
            GatunNative.roundtrip(schemaSegment, inSegment, outSchemaSegment, out);
            outSchema.release(); // gatun_roundtrip exports the schema on every call; it crossed already
        });
    }

    /**
     * Sends {@code root} through {@code gatun_passthrough} (no validation of values, no schema per
     * call) and back; the returned root is reused as in {@link #roundtrip}.
     */
    public VectorSchemaRoot passthrough(VectorSchemaRoot root) {
        return cross(root, out -> GatunNative.passthrough(passthrough, inSegment, out));
    }

    /** Exports {@code root}, lets {@code call} fill the output array, imports it into the reused root. */
    private VectorSchemaRoot cross(VectorSchemaRoot root, Consumer<MemorySegment> call) {
        ArrowArray out = ArrowArray.allocateNew(allocator);
        try {
            Data.exportVectorSchemaRoot(allocator, root, null, in);
            call.accept(segment(out.memoryAddress(), ARROW_ARRAY_SIZE));
            Data.importIntoVectorSchemaRoot(allocator, out, target, null); // releases and closes `out`
            out = null;
            return target;
        } finally {
            if (out != null) {
                out.release();
                out.close();
            }
        }
    }

    @Override
    public void close() {
        GatunNative.passthroughFree(passthrough);
        target.close();
        schema.release();
        schema.close();
        in.close();
        outSchema.close();
    }
}
