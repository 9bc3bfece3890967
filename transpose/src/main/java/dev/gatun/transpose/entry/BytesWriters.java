package dev.gatun.transpose.entry;

import dev.gatun.arrow.vector.ValueVector;
import dev.gatun.arrow.vector.VarBinaryVector;
import java.nio.charset.StandardCharsets;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinarySection;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.data.binary.BinaryStringData;

/**
 * CHAR/VARCHAR into Utf8 and BINARY/VARBINARY into Binary. Bytes already in a heap segment are
 * copied straight into the Arrow buffer (no intermediate {@code byte[]}); a lazy string that only
 * holds a {@code java.lang.String} is encoded with the JDK's intrinsic {@code getBytes(UTF_8)},
 * which produces the bytes Flink's own encoder would (it defers to the JDK for unpaired
 * surrogates); off-heap and multi-segment bytes go through a reused scratch array. Each batch
 * reserves as many value bytes as the previous one wrote, so in steady state the data buffer is
 * allocated once instead of growing (and copying) several times per batch.
 */
final class BytesWriters {
    private BytesWriters() {}

    /** A growable byte array shared by the writers of one batch writer (one thread). */
    static final class Scratch {
        private byte[] bytes = new byte[256];

        byte[] atLeast(int size) {
            if (bytes.length < size) {
                bytes = new byte[Math.max(size, bytes.length * 2)];
            }
            return bytes;
        }
    }

    abstract static class Base extends ValueWriter {
        final Scratch scratch;
        private VarBinaryVector vector;
        /** Value bytes written into the current batch: the next batch's reservation. */
        private long written;

        Base(String name, boolean nullable, Scratch scratch) {
            super(name, nullable);
            this.scratch = scratch;
        }

        @Override
        final void bind(ValueVector v) {
            vector = (VarBinaryVector) v;
            long previous = written;
            written = 0;
            if (previous > 0) {
                vector.reserveData(Math.min(Integer.MAX_VALUE, previous + (previous >>> 4)));
            }
        }

        final void put(int index, byte[] src, int offset, int length) {
            vector.setBytes(index, src, offset, length);
            written += length;
        }

        final void put(int index, byte[] src) {
            put(index, src, 0, src.length);
        }

        @Override
        final void setNull(int index) {
            vector.setNull(index);
        }

        @Override
        final void fromBinary(byte[] mem, int base, int at, int index) {
            long word = FlinkBinary.getLong(mem, at);
            if (FlinkBinary.isInline(word)) {
                put(index, mem, at, FlinkBinary.inlineLength(word));
            } else {
                put(index, mem, FlinkBinary.target(base, word), FlinkBinary.size(word));
            }
        }

        /** Bytes of a Flink binary section, wherever they live. */
        final void fromSegments(MemorySegment[] segments, int offset, int size, int index) {
            MemorySegment first = segments[0];
            if (!first.isOffHeap() && offset + size <= first.size()) {
                put(index, first.getArray(), offset, size);
            } else {
                byte[] copy = scratch.atLeast(size);
                BinarySegmentUtils.copyToBytes(segments, offset, copy, 0, size);
                put(index, copy, 0, size);
            }
        }
    }

    static final class Utf8 extends Base {
        Utf8(String name, boolean nullable, Scratch scratch) {
            super(name, nullable, scratch);
        }

        @Override
        void fromRow(RowData row, int pos, int index) {
            write(row.getString(pos), index);
        }

        @Override
        void fromArray(ArrayData array, int i, int index) {
            write(array.getString(i), index);
        }

        private void write(StringData value, int index) {
            if (value instanceof BinaryStringData s) {
                BinarySection section = s.getBinarySection();
                if (section != null) {
                    fromSegments(section.getSegments(), section.getOffset(), section.getSizeInBytes(), index);
                } else {
                    // Lazy: reading through the StringData would materialize (and mutate) the producer's object.
                    put(index, s.getJavaObject().getBytes(StandardCharsets.UTF_8));
                }
            } else {
                put(index, value.toBytes());
            }
        }
    }

    static final class Binary extends Base {
        Binary(String name, boolean nullable, Scratch scratch) {
            super(name, nullable, scratch);
        }

        @Override
        void fromRow(RowData row, int pos, int index) {
            put(index, row.getBinary(pos));
        }

        @Override
        void fromArray(ArrayData array, int i, int index) {
            put(index, array.getBinary(i));
        }
    }
}
