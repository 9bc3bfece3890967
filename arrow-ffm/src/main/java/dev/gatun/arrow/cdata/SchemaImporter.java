package dev.gatun.arrow.cdata;

import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Field;
import dev.gatun.arrow.types.Schema;
import dev.gatun.ffm.ReleaseUpcall;
import dev.gatun.ffm.internal.ArrowSchema;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Reads and validates an {@code ArrowSchema} tree into a {@link Schema}. */
final class SchemaImporter {
    private static final long KNOWN_FLAGS = 1 | 2 | 4;
    private static final long DICTIONARY_ORDERED = 1;
    private static final long NULLABLE = 2;
    private static final long MAX_STRING = 1 << 16;
    private static final long MAX_CHILDREN = 1 << 16;
    private static final int MAX_DEPTH = 64;

    private SchemaImporter() {}

    /** Consumes {@code struct}: whatever happens, its release has been called when this returns. */
    static Schema importSchema(MemorySegment pointer) {
        if (pointer.address() == 0) {
            throw new IllegalArgumentException("ArrowSchema pointer is NULL");
        }
        MemorySegment s = pointer.reinterpret(ArrowSchema.sizeof());
        if (ArrowSchema.release(s).address() == 0) {
            throw new ArrowFormatException("schema.release", "is NULL: the schema was already released or never filled");
        }
        try {
            Field root = field(s, "schema", 0);
            if (!(root.type() instanceof ArrowType.StructType)) {
                throw new ArrowFormatException("schema.format",
                        "a record batch schema must be a struct (\"+s\"), got " + root.type());
            }
            return new Schema(root.children(), root.metadata());
        } finally {
            ReleaseUpcall.releaseSchema(s);
        }
    }

    private static Field field(MemorySegment s, String where, int depth) {
        if (depth > MAX_DEPTH) {
            throw new ArrowFormatException(where, "nested deeper than " + MAX_DEPTH + " levels");
        }
        String format = cString(ArrowSchema.format(s), where + ".format", false);
        String name = cString(ArrowSchema.name(s), where + ".name", true);
        long flags = ArrowSchema.flags(s);
        if ((flags & ~KNOWN_FLAGS) != 0) {
            throw new ArrowFormatException(where + ".flags", "unknown flag bits 0x" + Long.toHexString(flags & ~KNOWN_FLAGS));
        }
        if (ArrowSchema.dictionary(s).address() != 0) {
            throw new ArrowFormatException(where + ".dictionary", "is set: dictionary-encoded fields are not supported");
        }
        if ((flags & DICTIONARY_ORDERED) != 0) {
            throw new ArrowFormatException(where + ".flags", "DICTIONARY_ORDERED set on a field without a dictionary");
        }
        Map<String, String> metadata = Metadata.decode(ArrowSchema.metadata(s), where + ".metadata");
        ArrowType type = FormatStrings.parse(format, flags, where + ".format");
        long n = ArrowSchema.n_children(s);
        int expected = type.childCount();
        if (n < 0 || n > MAX_CHILDREN || (expected >= 0 && n != expected)) {
            throw new ArrowFormatException(where + ".n_children", "is " + n + " but format " + FormatStrings.quote(format)
                    + (expected >= 0 ? " needs " + expected : " allows 0.." + MAX_CHILDREN));
        }
        List<Field> children = new ArrayList<>((int) n);
        if (n > 0) {
            MemorySegment pointers = ArrowSchema.children(s);
            if (pointers.address() == 0) {
                throw new ArrowFormatException(where + ".children", "is NULL but n_children is " + n);
            }
            pointers = pointers.reinterpret(8 * n);
            for (int i = 0; i < n; i++) {
                String childWhere = where + ".children[" + i + "]";
                MemorySegment child = pointers.getAtIndex(java.lang.foreign.ValueLayout.ADDRESS, i);
                if (child.address() == 0) {
                    throw new ArrowFormatException(childWhere, "pointer is NULL");
                }
                child = child.reinterpret(ArrowSchema.sizeof());
                if (ArrowSchema.release(child).address() == 0) {
                    throw new ArrowFormatException(childWhere + ".release", "is NULL: child already released");
                }
                children.add(field(child, childWhere, depth + 1));
            }
        }
        try {
            return new Field(name, type, (flags & NULLABLE) != 0, children, metadata);
        } catch (IllegalArgumentException e) {
            throw new ArrowFormatException(where, e.getMessage());
        }
    }

    private static String cString(MemorySegment pointer, String where, boolean nullable) {
        if (pointer.address() == 0) {
            if (nullable) {
                return "";
            }
            throw new ArrowFormatException(where, "is NULL");
        }
        try {
            return pointer.reinterpret(MAX_STRING).getString(0);
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new ArrowFormatException(where, "not NUL-terminated within " + MAX_STRING + " bytes");
        }
    }
}
