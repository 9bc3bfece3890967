package dev.gatun.planner.runtime;

import java.util.Objects;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

/** The type of a native island's entry edge: rows of {@code rowType} with a {@link BorrowingRowDataSerializer}. */
final class BorrowingRowDataTypeInfo extends TypeInformation<RowData> {
    private static final long serialVersionUID = 1L;

    private final RowType rowType;

    BorrowingRowDataTypeInfo(RowType rowType) {
        this.rowType = Objects.requireNonNull(rowType, "rowType");
    }

    @Override
    public TypeSerializer<RowData> createSerializer(SerializerConfig config) {
        return new BorrowingRowDataSerializer(InternalTypeInfo.of(rowType).toRowSerializer());
    }

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    @Override
    public int getArity() {
        return rowType.getFieldCount();
    }

    @Override
    public int getTotalFields() {
        return rowType.getFieldCount();
    }

    @Override
    public Class<RowData> getTypeClass() {
        return RowData.class;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public String toString() {
        return "Borrowing(" + rowType.asSummaryString() + ")";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BorrowingRowDataTypeInfo b && rowType.equals(b.rowType);
    }

    @Override
    public int hashCode() {
        return 31 * rowType.hashCode() + 11;
    }

    @Override
    public boolean canEqual(Object o) {
        return o instanceof BorrowingRowDataTypeInfo;
    }
}
