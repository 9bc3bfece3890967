package dev.gatun.arrow.cdata;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.memory.FaultHook;
import dev.gatun.arrow.memory.FaultPoint;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.memory.NativeBuffer;
import dev.gatun.arrow.memory.Tracking;
import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Field;
import dev.gatun.arrow.types.Schema;
import dev.gatun.ffm.ReleaseUpcall;
import dev.gatun.ffm.internal.ArrowArray;
import dev.gatun.ffm.internal.ArrowSchema;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Fills consumer-allocated {@code ArrowArray}/{@code ArrowSchema} structs (C Data Interface).
 *
 * <p>An array tree (see {@link ArrayExport}) has one metadata block and one release registry
 * entry for all its nodes; each schema node owns one raw metadata block (its {@code children}
 * pointer array, its children's structs and its strings) and one entry, all released through the
 * single {@link ReleaseUpcall} stub. Exporting a batch closes its confined arena: Java can no
 * longer read it, the consumer's {@code release} frees it from any thread. Failure-atomic: if
 * anything fails, the handlers are unregistered, the metadata freed, the batch stays SEALED and
 * the consumer's struct keeps {@code release == NULL}. {@code offset} is always 0; the validity
 * buffer is NULL when the null count is 0.
 */
public final class CDataExporter {
    private static final long ARRAY_SIZE = ArrowArray.sizeof();
    private static final long SCHEMA_SIZE = ArrowSchema.sizeof();
    private static final long FLAG_NULLABLE = 2;

    private CDataExporter() {}

    /** Exports a SEALED batch (owner thread only) as a struct array into {@code out}: {@code SEALED → EXPORTED}. */
    public static void exportBatch(RecordBatch batch, MemorySegment out) {
        batch.checkExportable();
        MemorySegment root = emptyStruct(out, ARRAY_SIZE, ArrowArray.release$offset(), "ArrowArray");
        ArrayExport.export(batch, root);
    }

    /** Exports {@code schema} as a struct schema into {@code out}, accounted by the root allocator. */
    public static void exportSchema(Schema schema, MemorySegment out) {
        exportSchema(NativeAllocator.root(), schema, out);
    }

    /** Exports {@code schema}; the export is tracked as a live "exported schema" until released. */
    public static void exportSchema(NativeAllocator allocator, Schema schema, MemorySegment out) {
        MemorySegment root = emptyStruct(out, SCHEMA_SIZE, ArrowSchema.release$offset(), "ArrowSchema");
        Export export = new Export(allocator);
        Tracking tracking = allocator.track(NativeAllocator.Kind.EXPORTED_SCHEMA, "exported schema " + schema.fields());
        boolean success = false;
        try {
            export.fillSchema(root, "+s", "", 0, schema.metadata(), schema.fields(), tracking::close);
            FaultHook.hit(FaultPoint.EXPORT_SCHEMA);
            ArrowSchema.release(root, ReleaseUpcall.stub());
            success = true;
        } finally {
            if (!success) {
                export.rollBack();
                tracking.close();
            }
        }
    }

    private static MemorySegment emptyStruct(MemorySegment out, long size, long releaseOffset, String name) {
        if (out.address() == 0) {
            throw new IllegalArgumentException("out " + name + " is NULL");
        }
        MemorySegment s = out.byteSize() >= size ? out : out.reinterpret(size);
        if (s.get(ValueLayout.ADDRESS, releaseOffset).address() != 0) {
            throw new IllegalArgumentException("out " + name + " still holds a live struct (release is set);"
                    + " release it first");
        }
        return s;
    }

    /** State of one export, for roll-back. */
    private static final class Export {
        private final NativeAllocator allocator;
        private final List<NativeBuffer> blocks = new ArrayList<>();
        private final List<MemorySegment> ids = new ArrayList<>();
        Export(NativeAllocator allocator) {
            this.allocator = allocator;
        }

        void rollBack() {
            for (MemorySegment id : ids) {
                ReleaseUpcall.unregister(id);
            }
            for (NativeBuffer b : blocks) {
                b.free();
            }
        }

        private NativeBuffer block(long bytes) {
            NativeBuffer b = allocator.allocate(bytes);
            blocks.add(b);
            return b;
        }

        /** Fills {@code s} for one schema node; the root's release is set by the caller, last. */
        void fillSchema(MemorySegment s, String format, String name, long flags, Map<String, String> metadata,
                        List<Field> children, Runnable onReleased) {
            byte[] formatBytes = cString(format);
            byte[] nameBytes = cString(name);
            byte[] metadataBytes = Metadata.encode(metadata);
            int nc = children.size();
            long childStructsAt = 8L * nc;
            long formatAt = childStructsAt + nc * SCHEMA_SIZE;
            long nameAt = formatAt + formatBytes.length;
            long metadataAt = nameAt + nameBytes.length;
            long size = metadataAt + (metadataBytes == null ? 0 : metadataBytes.length);
            NativeBuffer meta = block(size);
            MemorySegment m = meta.unscopedView();
            MemorySegment.copy(formatBytes, 0, m, ValueLayout.JAVA_BYTE, formatAt, formatBytes.length);
            MemorySegment.copy(nameBytes, 0, m, ValueLayout.JAVA_BYTE, nameAt, nameBytes.length);
            if (metadataBytes != null) {
                MemorySegment.copy(metadataBytes, 0, m, ValueLayout.JAVA_BYTE, metadataAt, metadataBytes.length);
            }
            for (int j = 0; j < nc; j++) {
                MemorySegment child = m.asSlice(childStructsAt + j * SCHEMA_SIZE, SCHEMA_SIZE);
                m.set(ValueLayout.ADDRESS, 8L * j, child);
                Field f = children.get(j);
                long childFlags = (f.nullable() ? FLAG_NULLABLE : 0)
                        | (f.type() instanceof ArrowType.MapType map && map.keysSorted() ? FormatStrings.MAP_KEYS_SORTED : 0);
                fillSchema(child, FormatStrings.of(f.type()), f.name(), childFlags, f.metadata(), f.children(), null);
                ArrowSchema.release(child, ReleaseUpcall.stub());
            }
            MemorySegment id = register(new ExportedNode(true, List.of(meta), m.asSlice(childStructsAt), nc,
                    onReleased));
            ArrowSchema.format(s, m.asSlice(formatAt));
            ArrowSchema.name(s, m.asSlice(nameAt));
            ArrowSchema.metadata(s, metadataBytes == null ? MemorySegment.NULL : m.asSlice(metadataAt));
            ArrowSchema.flags(s, flags);
            ArrowSchema.n_children(s, nc);
            ArrowSchema.children(s, m);
            ArrowSchema.dictionary(s, MemorySegment.NULL);
            ArrowSchema.private_data(s, id);
        }

        private MemorySegment register(ReleaseUpcall.Handler handler) {
            MemorySegment id = ReleaseUpcall.register(handler);
            ids.add(id);
            return id;
        }

        private static byte[] cString(String s) {
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            byte[] out = new byte[utf8.length + 1];
            System.arraycopy(utf8, 0, out, 0, utf8.length);
            return out;
        }
    }
}
