package dev.gatun.transpose.exit;

import org.apache.flink.types.RowKind;

/** A nested ROW value: one index of a struct's children. */
final class StructRow extends AccessorRow {
    private RowKind kind = RowKind.INSERT;

    StructRow(Accessor[] fields, int index) {
        super(fields);
        this.index = index;
    }

    @Override
    public RowKind getRowKind() {
        return kind;
    }

    @Override
    public void setRowKind(RowKind kind) {
        this.kind = kind;
    }
}
