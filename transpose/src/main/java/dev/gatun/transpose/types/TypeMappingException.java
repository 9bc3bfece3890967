package dev.gatun.transpose.types;

import org.apache.flink.table.types.logical.LogicalType;

/** A Flink type that Gatun cannot carry in Arrow; the message names the type and why. */
public final class TypeMappingException extends IllegalArgumentException {
    private final transient LogicalType type;

    public TypeMappingException(LogicalType type, String message) {
        super(message);
        this.type = type;
    }

    public LogicalType type() {
        return type;
    }
}
