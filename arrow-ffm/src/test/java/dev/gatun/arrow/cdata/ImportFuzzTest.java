package dev.gatun.arrow.cdata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.arrow.testing.OurValues;
import dev.gatun.arrow.testing.TestTypes;
import dev.gatun.arrow.testing.TestValues;
import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Field;
import dev.gatun.arrow.types.Schema;
import dev.gatun.ffm.ReleaseUpcall;
import dev.gatun.ffm.internal.ArrowArray;
import dev.gatun.ffm.internal.ArrowSchema;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Feeds corrupted {@code ArrowArray} and {@code ArrowSchema} structs to the importer. The
 * producer is our own exporter (real buffers, large enough for what the structs claim); one
 * field of one node is then corrupted. Every struct must be rejected with an
 * {@link ArrowFormatException} naming the corrupted field, consumed (release NULL), and nothing
 * may leak. The JVM surviving is part of the test.
 */
@ExtendWith(LeakCheckExtension.class)
class ImportFuzzTest {
    private static final int ARRAY_CASES = 8_000;
    private static final int SCHEMA_CASES = 4_000;
    private static final List<Field> FIELDS = TestTypes.all();

    enum ArrayMutation {
        NEGATIVE_LENGTH(".length"), LENGTH_TOO_LARGE(".length"), NEGATIVE_OFFSET(".offset"), OFFSET_OVERFLOW(".offset"),
        NULL_COUNT_ABOVE_LENGTH(".null_count"), NULL_COUNT_BELOW_MINUS_ONE(".null_count"),
        WRONG_BUFFER_COUNT(".n_buffers"), WRONG_CHILD_COUNT(".n_children"), BUFFERS_NULL(".buffers"),
        REQUIRED_BUFFER_NULL(".buffers[1]"), VALIDITY_NULL_WITH_NULLS(".buffers[0]"),
        CHILDREN_NULL(".children"), CHILD_POINTER_NULL(".children["), CHILD_RELEASED(".release"),
        DICTIONARY_SET(".dictionary"), NEGATIVE_OFFSET_VALUE(".buffers[1]"), DECREASING_OFFSETS(".buffers[1]"),
        MIN_VALUE_OFFSET(".buffers[1]"),
        LIST_CHILD_TOO_SHORT(".length"), STRUCT_CHILD_TOO_SHORT(".length");

        final String where;

        ArrayMutation(String where) {
            this.where = where;
        }
    }

    enum SchemaMutation {
        BAD_FORMAT(".format"), FORMAT_NULL(".format"), WRONG_CHILD_COUNT(".n_children"), CHILDREN_NULL(".children"),
        CHILD_POINTER_NULL(".children["), CHILD_RELEASED(".release"), UNKNOWN_FLAGS(".flags"),
        DICTIONARY_ORDERED_FLAG(".flags"), DICTIONARY_SET(".dictionary"), BAD_METADATA(".metadata");

        final String where;

        SchemaMutation(String where) {
            this.where = where;
        }
    }

    /** One struct of the exported tree. */
    record Node(MemorySegment struct, Field field, String path, boolean column, boolean root) {}

    @Test
    void corruptedArraysAreRejected() {
        Random random = new Random(20240601);
        Map<ArrayMutation, Integer> applied = new EnumMap<>(ArrayMutation.class);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment dummy = ArrowArray.allocate(arena);
            for (int i = 0; i < ARRAY_CASES; i++) {
                Schema schema = randomSchema(random);
                int rows = 1 + random.nextInt(12);
                List<List<Object>> values = new ArrayList<>();
                for (Field f : schema.fields()) {
                    values.add(TestValues.column(f, rows, TestValues.Nulls.RANDOM, random));
                }
                MemorySegment struct = ArrowArray.allocate(arena);
                try (RecordBatch batch = OurValues.batch(schema, values, rows)) {
                    CDataExporter.exportBatch(batch, struct);
                }
                List<Node> nodes = new ArrayList<>();
                collect(struct, new Field("", ArrowType.STRUCT, false, schema.fields(), Map.of()), "array", nodes, false, true);
                MemorySegment moved = null;
                ArrayMutation m;
                while (true) {
                    m = ArrayMutation.values()[random.nextInt(ArrayMutation.values().length)];
                    Node node = nodes.get(random.nextInt(nodes.size()));
                    MemorySegment result = mutate(m, node, random, dummy, arena);
                    if (result != null) {
                        moved = result == node.struct() ? null : result;
                        break;
                    }
                }
                applied.merge(m, 1, Integer::sum);
                try {
                    RecordBatch imported = CDataImporter.importBatch(struct, schema);
                    imported.close();
                    fail("accepted a corrupted array (" + m + ")");
                } catch (ArrowFormatException e) {
                    assertTrue(e.getMessage().contains(m.where), m + " should name " + m.where + ": " + e.getMessage());
                }
                assertEquals(MemorySegment.NULL, ArrowArray.release(struct), "the importer consumed the struct");
                if (moved != null) {
                    ReleaseUpcall.releaseArray(moved); // the child we "moved out" before corrupting
                }
                if (i % 1000 == 999) {
                    assertTrue(NativeAllocator.root().usage().isEmpty(), NativeAllocator.root().leakReport());
                }
            }
        }
        assertEquals(ArrayMutation.values().length, applied.size(), "every mutation was exercised: " + applied);
    }

    @Test
    void corruptedSchemasAreRejected() {
        Random random = new Random(777);
        Map<SchemaMutation, Integer> applied = new EnumMap<>(SchemaMutation.class);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment dummy = ArrowSchema.allocate(arena);
            for (int i = 0; i < SCHEMA_CASES; i++) {
                Schema schema = randomSchema(random);
                MemorySegment struct = ArrowSchema.allocate(arena);
                CDataExporter.exportSchema(schema, struct);
                List<MemorySegment> nodes = new ArrayList<>();
                collectSchema(struct, nodes);
                SchemaMutation m;
                MemorySegment moved;
                while (true) {
                    m = SchemaMutation.values()[random.nextInt(SchemaMutation.values().length)];
                    MemorySegment node = nodes.get(random.nextInt(nodes.size()));
                    moved = mutateSchema(m, node, random, dummy, arena);
                    if (moved != null) {
                        break;
                    }
                }
                applied.merge(m, 1, Integer::sum);
                try {
                    CDataImporter.importSchema(struct);
                    fail("accepted a corrupted schema (" + m + ")");
                } catch (ArrowFormatException e) {
                    assertTrue(e.getMessage().contains(m.where), m + " should name " + m.where + ": " + e.getMessage());
                }
                assertEquals(MemorySegment.NULL, ArrowSchema.release(struct), "the importer released the schema");
                if (moved != MemorySegment.NULL) {
                    ReleaseUpcall.releaseSchema(moved);
                }
            }
        }
        assertEquals(SchemaMutation.values().length, applied.size(), "every mutation was exercised: " + applied);
    }

    private static Schema randomSchema(Random random) {
        int n = 1 + random.nextInt(3);
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Field f = FIELDS.get(random.nextInt(FIELDS.size()));
            fields.add(new Field(f.name() + "_" + i, f.type(), f.nullable(), f.children(), f.metadata()));
        }
        return new Schema(fields, Map.of());
    }

    private static void collect(MemorySegment struct, Field field, String path, List<Node> out, boolean column, boolean root) {
        MemorySegment s = struct.reinterpret(ArrowArray.sizeof());
        out.add(new Node(s, field, path, column, root));
        long n = ArrowArray.n_children(s);
        MemorySegment children = ArrowArray.children(s).reinterpret(8 * n);
        for (int j = 0; j < n; j++) {
            collect(children.getAtIndex(ValueLayout.ADDRESS, j), field.child(j), path + ".children[" + j + "]", out, root, false);
        }
    }

    private static void collectSchema(MemorySegment struct, List<MemorySegment> out) {
        MemorySegment s = struct.reinterpret(ArrowSchema.sizeof());
        out.add(s);
        long n = ArrowSchema.n_children(s);
        MemorySegment children = ArrowSchema.children(s).reinterpret(8 * n);
        for (int j = 0; j < n; j++) {
            collectSchema(children.getAtIndex(ValueLayout.ADDRESS, j), out);
        }
    }

    private static MemorySegment buffer(MemorySegment s, int i, long bytes) {
        return ArrowArray.buffers(s).reinterpret(8L * ArrowArray.n_buffers(s)).getAtIndex(ValueLayout.ADDRESS, i).reinterpret(bytes);
    }

    private static MemorySegment child(MemorySegment s, int j) {
        return ArrowArray.children(s).reinterpret(8L * ArrowArray.n_children(s)).getAtIndex(ValueLayout.ADDRESS, j)
                .reinterpret(ArrowArray.sizeof());
    }

    private static boolean hasOffsets(ArrowType t) {
        return t instanceof ArrowType.Utf8 || t instanceof ArrowType.Binary || t instanceof ArrowType.ListType
                || t instanceof ArrowType.MapType;
    }

    /**
     * Corrupts {@code node}; returns null if the mutation does not apply to it, a moved-out child
     * the caller must release, or {@code node.struct()} otherwise.
     */
    private static MemorySegment mutate(ArrayMutation m, Node node, Random random, MemorySegment dummy, Arena arena) {
        MemorySegment s = node.struct();
        ArrowType type = node.field().type();
        long length = ArrowArray.length(s);
        long nb = ArrowArray.n_buffers(s);
        long nc = ArrowArray.n_children(s);
        switch (m) {
            case NEGATIVE_LENGTH -> ArrowArray.length(s, -1 - random.nextInt(1000));
            case LENGTH_TOO_LARGE -> ArrowArray.length(s, Integer.MAX_VALUE + (long) random.nextInt(1000));
            case NEGATIVE_OFFSET -> ArrowArray.offset(s, -1 - random.nextInt(1000));
            case OFFSET_OVERFLOW -> ArrowArray.offset(s, Long.MAX_VALUE - random.nextInt(1000));
            case NULL_COUNT_ABOVE_LENGTH -> ArrowArray.null_count(s, length + 1 + random.nextInt(100));
            case NULL_COUNT_BELOW_MINUS_ONE -> ArrowArray.null_count(s, -2 - random.nextInt(100));
            case WRONG_BUFFER_COUNT -> ArrowArray.n_buffers(s, nb + (random.nextBoolean() ? 1 + random.nextInt(3) : -1 - random.nextInt(3)));
            case WRONG_CHILD_COUNT -> ArrowArray.n_children(s, nc + (random.nextBoolean() ? 1 + random.nextInt(3) : -1 - random.nextInt(3)));
            case BUFFERS_NULL -> {
                if (nb == 0) {
                    return null;
                }
                ArrowArray.buffers(s, MemorySegment.NULL);
            }
            case REQUIRED_BUFFER_NULL -> {
                if (!node.column() || length == 0 || nb < 2) {
                    return null;
                }
                buffer(s, 1, 0); // exists
                ArrowArray.buffers(s).reinterpret(8 * nb).setAtIndex(ValueLayout.ADDRESS, 1, MemorySegment.NULL);
            }
            case VALIDITY_NULL_WITH_NULLS -> {
                if (!node.column() || length == 0 || nb == 0 || type instanceof ArrowType.Null) {
                    return null;
                }
                ArrowArray.buffers(s).reinterpret(8 * nb).setAtIndex(ValueLayout.ADDRESS, 0, MemorySegment.NULL);
                ArrowArray.null_count(s, 1 + random.nextInt((int) length));
            }
            case CHILDREN_NULL -> {
                if (nc == 0) {
                    return null;
                }
                ArrowArray.children(s, MemorySegment.NULL);
            }
            case CHILD_POINTER_NULL -> {
                if (nc == 0) {
                    return null;
                }
                ArrowArray.children(s).reinterpret(8 * nc).setAtIndex(ValueLayout.ADDRESS, random.nextInt((int) nc), MemorySegment.NULL);
            }
            case CHILD_RELEASED -> {
                if (nc == 0) {
                    return null;
                }
                MemorySegment c = child(s, random.nextInt((int) nc));
                MemorySegment copy = ArrowArray.allocate(arena);
                copy.copyFrom(c);
                ArrowArray.release(c, MemorySegment.NULL);
                return copy;
            }
            case DICTIONARY_SET -> ArrowArray.dictionary(s, dummy);
            case NEGATIVE_OFFSET_VALUE -> {
                if (!node.column() || length == 0 || !hasOffsets(type)) {
                    return null;
                }
                buffer(s, 1, 4).set(ValueLayout.JAVA_INT, 0, -1 - random.nextInt(1000));
            }
            case DECREASING_OFFSETS -> {
                if (!node.column() || length == 0 || !hasOffsets(type)) {
                    return null;
                }
                MemorySegment offsets = buffer(s, 1, (length + 1) * 4);
                int k = random.nextInt((int) length);
                offsets.setAtIndex(ValueLayout.JAVA_INT, k + 1, offsets.getAtIndex(ValueLayout.JAVA_INT, k) - 1 - random.nextInt(5));
            }
            case MIN_VALUE_OFFSET -> {
                if (!node.column() || length == 0 || !hasOffsets(type)) {
                    return null;
                }
                // a drop whose int difference would overflow to a positive number
                int k = random.nextInt((int) length);
                buffer(s, 1, (length + 1) * 4).setAtIndex(ValueLayout.JAVA_INT, k + 1, Integer.MIN_VALUE);
            }
            case LIST_CHILD_TOO_SHORT -> {
                if (!node.column() || length == 0 || !(type instanceof ArrowType.ListType || type instanceof ArrowType.MapType)) {
                    return null;
                }
                int end = buffer(s, 1, (length + 1) * 4).getAtIndex(ValueLayout.JAVA_INT, length);
                if (end == 0) {
                    return null;
                }
                ArrowArray.length(child(s, 0), random.nextInt(end));
            }
            case STRUCT_CHILD_TOO_SHORT -> {
                if (!(type instanceof ArrowType.StructType) || nc == 0 || length == 0 || !(node.root() || node.column())) {
                    return null;
                }
                ArrowArray.length(child(s, random.nextInt((int) nc)), random.nextInt((int) length));
            }
        }
        return s;
    }

    /** Returns null if not applicable, NULL when applied, or a moved-out child to release. */
    private static MemorySegment mutateSchema(SchemaMutation m, MemorySegment s, Random random, MemorySegment dummy,
                                              Arena arena) {
        long nc = ArrowSchema.n_children(s);
        String format = ArrowSchema.format(s).reinterpret(64).getString(0);
        switch (m) {
            case BAD_FORMAT -> ArrowSchema.format(s, arena.allocateFrom(BadFormats.next(random)));
            case FORMAT_NULL -> ArrowSchema.format(s, MemorySegment.NULL);
            case WRONG_CHILD_COUNT -> {
                if (format.equals("+s")) {
                    ArrowSchema.n_children(s, -1 - random.nextInt(5));
                } else {
                    ArrowSchema.n_children(s, nc + 1 + random.nextInt(3));
                }
            }
            case CHILDREN_NULL -> {
                if (nc == 0) {
                    return null;
                }
                ArrowSchema.children(s, MemorySegment.NULL);
            }
            case CHILD_POINTER_NULL -> {
                if (nc == 0) {
                    return null;
                }
                ArrowSchema.children(s).reinterpret(8 * nc).setAtIndex(ValueLayout.ADDRESS, random.nextInt((int) nc), MemorySegment.NULL);
            }
            case CHILD_RELEASED -> {
                if (nc == 0) {
                    return null;
                }
                MemorySegment c = ArrowSchema.children(s).reinterpret(8 * nc)
                        .getAtIndex(ValueLayout.ADDRESS, random.nextInt((int) nc)).reinterpret(ArrowSchema.sizeof());
                MemorySegment copy = ArrowSchema.allocate(arena);
                copy.copyFrom(c);
                ArrowSchema.release(c, MemorySegment.NULL);
                return copy;
            }
            case UNKNOWN_FLAGS -> ArrowSchema.flags(s, ArrowSchema.flags(s) | (8L << random.nextInt(50)));
            case DICTIONARY_ORDERED_FLAG -> ArrowSchema.flags(s, ArrowSchema.flags(s) | 1);
            case DICTIONARY_SET -> ArrowSchema.dictionary(s, dummy);
            case BAD_METADATA -> {
                MemorySegment md = arena.allocate(16);
                if (random.nextBoolean()) {
                    md.set(ValueLayout.JAVA_INT, 0, -1 - random.nextInt(100));
                } else {
                    md.set(ValueLayout.JAVA_INT, 0, 1);
                    md.set(ValueLayout.JAVA_INT, 4, -1 - random.nextInt(100));
                }
                ArrowSchema.metadata(s, md);
            }
        }
        return MemorySegment.NULL;
    }

    /** Format strings that are not valid for any supported type. */
    static final class BadFormats {
        private static final String[] NEAR_MISSES = {
            "", " ", "i ", "ii", "I", "x", "+", "+L", "+w:3", "+ud:1", "+us", "d", "d:", "d:38", "d:39,2", "d:0,0",
            "d:10,11", "d:1,2,256", "d:38,2,64", "d:a,b", "d:10,-40", "w", "w:", "w:-1", "w:x", "w:99999999999",
            "ts", "tsx:", "tsm", "ts:", "tt", "ttu", "ttn", "tdm", "td", "tD", "tDx", "tiD", "tin", "tss", "+l ",
            "u\u0001", "nn", "\u00ff", "e", "vu", "vz", "Z", "U", "+vl", "+L", "+r", "+ud:0"
        };
        private static final Pattern VALID = Pattern.compile(
                "[nbcsilfguz]|tdD|tt[sm]|tiM|\\+[lsm]|d:\\d{1,9},-?\\d{1,9}(,128)?|w:\\d{1,9}|ts[smun]:.*|tD[smun]");
        private static final String ALPHABET = "nbcsilfguzdwtDMsmun+:,-0123456789 xyZ\u00e9";

        static String next(Random random) {
            while (true) {
                String candidate;
                if (random.nextInt(3) == 0) {
                    candidate = NEAR_MISSES[random.nextInt(NEAR_MISSES.length)];
                } else {
                    StringBuilder sb = new StringBuilder();
                    int n = random.nextInt(8);
                    for (int i = 0; i < n; i++) {
                        sb.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
                    }
                    candidate = sb.toString();
                }
                if (!isValid(candidate)) {
                    return candidate;
                }
            }
        }

        /** An independent judgement of validity (not the code under test). */
        private static boolean isValid(String f) {
            if (!VALID.matcher(f).matches()) {
                return false;
            }
            if (f.startsWith("d:")) {
                String[] p = f.substring(2).split(",");
                int precision = Integer.parseInt(p[0]);
                int scale = Integer.parseInt(p[1]);
                return precision >= 1 && precision <= 38 && scale <= precision && scale >= -38;
            }
            return true;
        }
    }
}
