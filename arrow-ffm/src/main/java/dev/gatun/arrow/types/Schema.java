package dev.gatun.arrow.types;

import java.util.List;
import java.util.Map;

/** The fields of a record batch, in column order, plus schema-level metadata. */
public record Schema(List<Field> fields, Map<String, String> metadata) {
    public Schema {
        fields = List.copyOf(fields);
        metadata = Map.copyOf(metadata);
    }

    public static Schema of(Field... fields) {
        return new Schema(List.of(fields), Map.of());
    }

    public Field field(int i) {
        return fields.get(i);
    }

    public int size() {
        return fields.size();
    }
}
