package dev.gatun.transpose.entry;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.transpose.testing.Transposes;
import dev.gatun.transpose.types.TypeMapping;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The producer owns its row again as soon as {@code write} returns: a source that reuses and
 * mutates one row object (with one nested array, row, byte array and string buffer) for every
 * record still finds, in every emitted batch, the values as they were when written.
 */
@ExtendWith(LeakCheckExtension.class)
class OwnershipTest {
    private static final RowType TYPE = (RowType) DataTypes.ROW(
            DataTypes.FIELD("id", DataTypes.BIGINT()),
            DataTypes.FIELD("name", DataTypes.STRING()),
            DataTypes.FIELD("tags", DataTypes.ARRAY(DataTypes.INT())),
            DataTypes.FIELD("bin", DataTypes.BYTES()),
            DataTypes.FIELD("inner", DataTypes.ROW(DataTypes.FIELD("n", DataTypes.INT()),
                    DataTypes.FIELD("s", DataTypes.STRING())))).getLogicalType();
    private static final int RECORDS = 60;
    private static final int BATCH_ROWS = 7;

    private final TypeMapping types = TypeMapping.defaults();

    private static GenericRowData expected(int i) {
        return GenericRowData.ofKind(i % 3 == 0 ? RowKind.UPDATE_AFTER : RowKind.INSERT, (long) i,
                StringData.fromString(name(i)), new GenericArrayData(new Object[] {i, i + 1, i * 2}), bytes(i),
                GenericRowData.of(-i, StringData.fromString("inner " + i)));
    }

    private static String name(int i) {
        return "name number " + i + (i % 2 == 0 ? " \uD83D\uDE00" : "");
    }

    private static byte[] bytes(int i) {
        return new byte[] {(byte) i, (byte) (i >> 8), 42};
    }

    @Test
    void aReusedGenericRowIsCopiedAtWrite() {
        GenericRowData row = new GenericRowData(5);
        Object[] tags = new Object[3];
        GenericArrayData tagArray = new GenericArrayData(tags);
        byte[] bin = new byte[3];
        GenericRowData inner = new GenericRowData(2);
        byte[] nameBuffer = new byte[64];
        MemorySegment nameSegment = MemorySegmentFactory.wrap(nameBuffer);
        try (NativeAllocator allocator = Transposes.allocator("ownership");
             BatchWriter writer = new BatchWriter(TYPE, Transposes.allFields(TYPE), types, BATCH_ROWS, false, allocator)) {
            List<RecordBatch> batches = new ArrayList<>();
            List<GenericRowData> expected = new ArrayList<>();
            try {
                for (int i = 0; i < RECORDS; i++) {
                    GenericRowData e = expected(i);
                    expected.add(e);
                    row.setRowKind(e.getRowKind());
                    row.setField(0, (long) i);
                    byte[] name = name(i).getBytes(StandardCharsets.UTF_8);
                    Arrays.fill(nameBuffer, (byte) 'X');
                    nameSegment.put(0, name);
                    row.setField(1, BinaryStringData.fromAddress(new MemorySegment[] {nameSegment}, 0, name.length));
                    tags[0] = i;
                    tags[1] = i + 1;
                    tags[2] = i * 2;
                    row.setField(2, tagArray);
                    System.arraycopy(bytes(i), 0, bin, 0, 3);
                    row.setField(3, bin);
                    inner.setField(0, -i);
                    inner.setField(1, StringData.fromString("inner " + i));
                    row.setField(4, inner);
                    writer.write(row);
                    scribble(tags, bin, nameBuffer, inner);
                    if (writer.isFull()) {
                        batches.add(writer.finish());
                    }
                }
                batches.add(writer.finish());
            } catch (RuntimeException | Error e) {
                batches.forEach(RecordBatch::close);
                throw e;
            }
            Transposes.assertBatches(TYPE, types, batches, expected, b -> b, "reused generic row");
        }
    }

    /** What a producer does to its objects right after the write returned. */
    private static void scribble(Object[] tags, byte[] bin, byte[] nameBuffer, GenericRowData inner) {
        Arrays.fill(tags, null);
        Arrays.fill(bin, (byte) -1);
        Arrays.fill(nameBuffer, (byte) 0);
        inner.setField(0, null);
        inner.setField(1, StringData.fromString("scribbled"));
    }

    @Test
    void aReusedBinaryRowIsCopiedAtWrite() {
        BinaryRowData row = new BinaryRowData(TYPE.getFieldCount());
        byte[] buffer = new byte[4096];
        MemorySegment segment = MemorySegmentFactory.wrap(buffer);
        RowDataSerializer serializer = new RowDataSerializer(TYPE);
        try (NativeAllocator allocator = Transposes.allocator("ownership");
             BatchWriter writer = new BatchWriter(TYPE, Transposes.allFields(TYPE), types, BATCH_ROWS, false, allocator)) {
            List<RecordBatch> batches = new ArrayList<>();
            List<GenericRowData> expected = new ArrayList<>();
            try {
                for (int i = 0; i < RECORDS; i++) {
                    GenericRowData e = expected(i);
                    expected.add(e);
                    // Rewrite the same BinaryRowData and buffer, as a deserializer with object reuse does.
                    BinaryRowData fresh = serializer.toBinaryRow(e);
                    fresh.getSegments()[0].copyTo(fresh.getOffset(), segment, 8, fresh.getSizeInBytes());
                    row.pointTo(segment, 8, fresh.getSizeInBytes());
                    writer.write(row);
                    Arrays.fill(buffer, (byte) 0x5A);
                    if (writer.isFull()) {
                        batches.add(writer.finish());
                    }
                }
                batches.add(writer.finish());
            } catch (RuntimeException | Error e) {
                batches.forEach(RecordBatch::close);
                throw e;
            }
            Transposes.assertBatches(TYPE, types, batches, expected, b -> b, "reused binary row");
        }
    }
}
