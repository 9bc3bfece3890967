package dev.gatun.transpose.testing;

import java.util.Random;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.utils.JoinedRowData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;

/** The shapes one logical row can arrive in at the entry transpose. */
public enum RowForms {
    /** Objects behind getters. */
    GENERIC,
    /** Flink's binary format in one heap segment (the fast path). */
    BINARY_HEAP,
    /** Binary, spread over several equal heap segments at a non-zero offset. */
    BINARY_MULTI_SEGMENT,
    /** Binary in one off-heap segment. */
    BINARY_OFF_HEAP,
    /** A {@link JoinedRowData} of a generic head and a binary tail. */
    JOINED,
    /** A {@link ProjectedRowData} over a wider row with extra fields in between. */
    PROJECTED;

    /** {@code row} in this form; binary forms copy, so the original stays untouched. */
    public RowData convert(GenericRowData row, RowType type, Random random) {
        return switch (this) {
            case GENERIC -> row;
            case BINARY_HEAP -> binary(row, type);
            case BINARY_MULTI_SEGMENT -> multiSegment(binary(row, type), random);
            case BINARY_OFF_HEAP -> offHeap(binary(row, type), random);
            case JOINED -> joined(row, type, random);
            case PROJECTED -> projected(row, random);
        };
    }

    public boolean isBinary() {
        return this == BINARY_HEAP || this == BINARY_MULTI_SEGMENT || this == BINARY_OFF_HEAP;
    }

    static BinaryRowData binary(RowData row, RowType type) {
        return new RowDataSerializer(type).toBinaryRow(row).copy();
    }

    private static byte[] bytes(BinaryRowData row) {
        byte[] bytes = new byte[row.getSizeInBytes()];
        row.getSegments()[0].get(row.getOffset(), bytes, 0, bytes.length);
        return bytes;
    }

    /** Equal segments just larger than the fixed part, so variable parts straddle boundaries. */
    static BinaryRowData multiSegment(BinaryRowData row, Random random) {
        byte[] bytes = bytes(row);
        int fixed = BinaryRowData.calculateFixPartSizeInBytes(row.getArity());
        int offset = 8 * random.nextInt(3);
        int segmentSize = offset + fixed + 1 + random.nextInt(16);
        int total = offset + bytes.length;
        int count = Math.max(1, (total + segmentSize - 1) / segmentSize);
        MemorySegment[] segments = new MemorySegment[count];
        for (int s = 0; s < count; s++) {
            segments[s] = MemorySegmentFactory.wrap(new byte[segmentSize]);
        }
        for (int i = 0; i < bytes.length; i++) {
            int at = offset + i;
            segments[at / segmentSize].put(at % segmentSize, bytes[i]);
        }
        BinaryRowData out = new BinaryRowData(row.getArity());
        out.pointTo(segments, offset, bytes.length);
        return out;
    }

    static BinaryRowData offHeap(BinaryRowData row, Random random) {
        byte[] bytes = bytes(row);
        int offset = 8 * random.nextInt(3);
        MemorySegment segment = MemorySegmentFactory.allocateUnpooledOffHeapMemory(offset + bytes.length + 1);
        segment.put(offset, bytes, 0, bytes.length);
        BinaryRowData out = new BinaryRowData(row.getArity());
        out.pointTo(segment, offset, bytes.length);
        return out;
    }

    private static RowData joined(GenericRowData row, RowType type, Random random) {
        int arity = row.getArity();
        int split = random.nextInt(arity + 1);
        GenericRowData head = new GenericRowData(split);
        GenericRowData tail = new GenericRowData(arity - split);
        for (int i = 0; i < arity; i++) {
            if (i < split) {
                head.setField(i, row.getField(i));
            } else {
                tail.setField(i - split, row.getField(i));
            }
        }
        RowType tailType = new RowType(type.getFields().subList(split, arity));
        return new JoinedRowData(row.getRowKind(), head, binary(tail, tailType));
    }

    private static RowData projected(GenericRowData row, Random random) {
        int arity = row.getArity();
        int extra = 1 + random.nextInt(3);
        int[] mapping = new int[arity];
        GenericRowData wide = new GenericRowData(row.getRowKind(), arity + extra);
        for (int i = 0; i < arity; i++) {
            mapping[i] = arity + extra - 1 - i; // reversed, extra fields first
            wide.setField(mapping[i], row.getField(i));
        }
        return ProjectedRowData.from(mapping).replaceRow(wide);
    }
}
