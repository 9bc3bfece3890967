package dev.gatun.arrow.types;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/** A named, typed column or child, with nullability, children (nested types) and metadata. */
public record Field(String name, ArrowType type, boolean nullable, List<Field> children, Map<String, String> metadata) {
    public Field {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        children = List.copyOf(children);
        metadata = Map.copyOf(metadata);
        int expected = type.childCount();
        if (expected >= 0 && children.size() != expected) {
            throw new IllegalArgumentException("field " + name + " of type " + type + " needs " + expected
                    + " children, has " + children.size());
        }
        if (type instanceof ArrowType.MapType) {
            Field entries = children.get(0);
            if (!(entries.type() instanceof ArrowType.StructType) || entries.children().size() != 2
                    || entries.nullable() || entries.children().get(0).nullable()) {
                throw new IllegalArgumentException("map field " + name
                        + " needs a non-nullable struct child of a non-nullable key and a value, got " + entries);
            }
        }
    }

    public static Field nullable(String name, ArrowType type) {
        return new Field(name, type, true, List.of(), Map.of());
    }

    public static Field notNull(String name, ArrowType type) {
        return new Field(name, type, false, List.of(), Map.of());
    }

    public static Field list(String name, boolean nullable, Field element) {
        return new Field(name, ArrowType.LIST, nullable, List.of(element), Map.of());
    }

    public static Field struct(String name, boolean nullable, Field... children) {
        return new Field(name, ArrowType.STRUCT, nullable, List.of(children), Map.of());
    }

    /** A map; the key is made non-nullable, the children are named "entries", "key", "value". */
    public static Field map(String name, boolean nullable, ArrowType keyType, Field value, boolean keysSorted) {
        Field key = Field.notNull("key", keyType);
        Field valueField = new Field("value", value.type(), value.nullable(), value.children(), value.metadata());
        Field entries = new Field("entries", ArrowType.STRUCT, false, List.of(key, valueField), Map.of());
        return new Field(name, new ArrowType.MapType(keysSorted), nullable, List.of(entries), Map.of());
    }

    public Field withMetadata(Map<String, String> newMetadata) {
        return new Field(name, type, nullable, children, newMetadata);
    }

    public Field child(int i) {
        return children.get(i);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(name).append(": ").append(type);
        if (!children.isEmpty()) {
            sb.append(children);
        }
        if (!nullable) {
            sb.append(" NOT NULL");
        }
        if (!metadata.isEmpty()) {
            sb.append(' ').append(metadata);
        }
        return sb.toString();
    }
}
