package dev.gatun.planner.runtime;

import java.io.IOException;
import java.util.Objects;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;

/**
 * The input serializer of a native island's entry edge: {@link RowDataSerializer} in everything
 * but {@code copy}, which hands the row through.
 *
 * <p>With object reuse off, Flink copies each record into a chained consumer with that consumer's
 * input serializer. The island's entry transpose writes every value it reads into Arrow before
 * {@code processElement} returns and keeps no reference to the row, so that copy protects
 * nothing there. Network input (the island heading a chain) is deserialized by the delegate as
 * usual. Only for consumers that never keep their input past the call.
 */
final class BorrowingRowDataSerializer extends TypeSerializer<RowData> {
    private static final long serialVersionUID = 1L;

    private final RowDataSerializer delegate;

    BorrowingRowDataSerializer(RowDataSerializer delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    @Override
    public RowData copy(RowData from) {
        return from;
    }

    @Override
    public RowData copy(RowData from, RowData reuse) {
        return from;
    }

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public TypeSerializer<RowData> duplicate() {
        return new BorrowingRowDataSerializer((RowDataSerializer) delegate.duplicate());
    }

    @Override
    public RowData createInstance() {
        return delegate.createInstance();
    }

    @Override
    public int getLength() {
        return delegate.getLength();
    }

    @Override
    public void serialize(RowData record, DataOutputView target) throws IOException {
        delegate.serialize(record, target);
    }

    @Override
    public RowData deserialize(DataInputView source) throws IOException {
        return delegate.deserialize(source);
    }

    @Override
    public RowData deserialize(RowData reuse, DataInputView source) throws IOException {
        return delegate.deserialize(reuse, source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        delegate.copy(source, target);
    }

    /**
     * The delegate's snapshot: an input serializer is never part of state, and whatever restores
     * from this snapshot gets an ordinary, copying {@link RowDataSerializer}.
     */
    @Override
    public TypeSerializerSnapshot<RowData> snapshotConfiguration() {
        return delegate.snapshotConfiguration();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BorrowingRowDataSerializer b && delegate.equals(b.delegate);
    }

    @Override
    public int hashCode() {
        return 31 * delegate.hashCode() + 7;
    }

    @Override
    public String toString() {
        return "BorrowingRowDataSerializer(" + delegate + ")";
    }
}
