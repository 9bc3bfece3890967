package dev.gatun.arrow.vector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.cdata.CDataExporter;
import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.arrow.testing.TestTypes;
import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Field;
import dev.gatun.arrow.types.Schema;
import dev.gatun.ffm.ReleaseUpcall;
import dev.gatun.ffm.internal.ArrowArray;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The per-value write API a row-at-a-time writer uses, and the in-place readers. */
@ExtendWith(LeakCheckExtension.class)
class VectorWriteReadTest {
    @Test
    void fixedWidthWritesAndExactNullCount() {
        try (RecordBatch batch = RecordBatch.allocate(Schema.of(Field.nullable("i", ArrowType.INT64)), 100)) {
            Int64Vector v = batch.column(0, Int64Vector.class);
            for (int i = 0; i < 100; i++) {
                if (i % 7 == 0) {
                    v.setNull(i);
                } else {
                    v.setLong(i, -i);
                }
            }
            v.setNull(1);
            v.setLong(1, 42); // a value written over a NULL makes the row valid again
            batch.seal(100);
            assertEquals(15, v.nullCount());
            assertEquals(42, v.getLong(1));
            assertTrue(v.isNull(98));
            assertFalse(v.isNull(99));
            assertEquals(-99, v.getLong(99));
        }
    }

    @Test
    void aVectorStartedAllNullHoldsOnlyTheRowsWritten() {
        Schema schema = Schema.of(Field.nullable("i", ArrowType.INT64), Field.nullable("b", ArrowType.BOOL));
        try (RecordBatch batch = RecordBatch.allocate(schema, 10)) {
            Int64Vector v = batch.column(0, Int64Vector.class);
            BoolVector b = batch.column(1, BoolVector.class);
            v.startAllNull();
            b.startAllNull();
            for (int i = 0; i < 40; i += 3) {
                v.ensureCapacity(i + 1); // grown rows start NULL too
                b.ensureCapacity(i + 1);
                v.setLong(i, i);
                b.setBoolean(i, true);
            }
            v.setNull(3); // an explicit NULL stays NULL
            v.seal(40); // past the batch's capacity: sealed one by one
            b.seal(40);
            assertEquals(40 - 13, v.nullCount());
            assertEquals(40 - 14, b.nullCount());
            for (int i = 0; i < 40; i++) {
                boolean written = i % 3 == 0 && i != 3;
                assertEquals(!written, v.isNull(i), "row " + i);
                if (written) {
                    assertEquals(i, v.getLong(i));
                }
                assertEquals(i % 3 != 0, b.isNull(i), "row " + i);
            }
        }
    }

    @Test
    void onlyFixedWidthAndBoolVectorsStartAllNull() {
        Schema schema = Schema.of(Field.nullable("s", ArrowType.UTF8), Field.nullable("i", ArrowType.INT32));
        try (RecordBatch batch = RecordBatch.allocate(schema, 4)) {
            ValueVector s = batch.column(0);
            IllegalStateException e = assertThrows(IllegalStateException.class, s::startAllNull);
            assertTrue(e.getMessage().contains("only fixed-width and boolean"), e.getMessage());
            assertFalse(Vectors.canStartAllNull(s.field()));
            assertTrue(Vectors.canStartAllNull(batch.column(1).field()));
            batch.seal(0);
            assertThrows(IllegalStateException.class, batch.column(1)::startAllNull, "sealed");
        }
    }

    @Test
    void boolIsBitPacked() {
        try (RecordBatch batch = RecordBatch.allocate(Schema.of(Field.nullable("b", ArrowType.BOOL)), 20)) {
            BoolVector v = batch.column(0, BoolVector.class);
            for (int i = 0; i < 20; i++) {
                v.setBoolean(i, i % 3 == 0);
            }
            v.setBoolean(3, false);
            batch.seal(20);
            for (int i = 0; i < 20; i++) {
                assertEquals(i % 3 == 0 && i != 3, v.getBoolean(i), "bit " + i);
            }
            assertEquals(0, v.nullCount());
        }
    }

    @Test
    void decimal128AtPrecision38() {
        Schema schema = Schema.of(Field.nullable("d", new ArrowType.Decimal128(38, 4)));
        try (RecordBatch batch = RecordBatch.allocate(schema, 6)) {
            DecimalVector v = batch.column(0, DecimalVector.class);
            BigDecimal max = new BigDecimal(BigInteger.TEN.pow(38).subtract(BigInteger.ONE), 4);
            v.setDecimal(0, max);
            v.setDecimal(1, max.negate());
            v.setUnscaled(2, -12345L);
            v.setDecimal(3, new BigDecimal("1.5"));
            assertThrows(IllegalArgumentException.class, () -> v.setDecimal(4, max.add(BigDecimal.ONE)));
            assertThrows(ArithmeticException.class, () -> v.setDecimal(4, new BigDecimal("0.00001")));
            v.setUnscaled(4, 0L, 1L); // 2^64
            v.setNull(5);
            batch.seal(6);
            assertEquals(max, v.getDecimal(0));
            assertEquals(max.negate(), v.getDecimal(1));
            assertEquals(new BigDecimal("-1.2345"), v.getDecimal(2));
            assertEquals(new BigDecimal("1.5000"), v.getDecimal(3));
            assertEquals(new BigDecimal(BigInteger.ONE.shiftLeft(64), 4), v.getDecimal(4));
            assertEquals(-1L, v.getUnscaledHigh(2));
        }
    }

    @Test
    void varBinaryCopiesFromSegmentsAndGrows() {
        Schema schema = Schema.of(Field.nullable("s", ArrowType.UTF8));
        try (Arena arena = Arena.ofConfined(); RecordBatch batch = RecordBatch.allocate(schema, 10)) {
            VarBinaryVector v = batch.column(0, VarBinaryVector.class);
            byte[] emoji = "😀𝄞".getBytes(StandardCharsets.UTF_8);
            MemorySegment heap = MemorySegment.ofArray(("xx" + "hello").getBytes(StandardCharsets.UTF_8));
            MemorySegment offHeap = arena.allocate(300);
            offHeap.fill((byte) 'z');
            v.setBytes(0, heap, 2, 5);
            v.appendBytes(emoji, 0, emoji.length);
            v.setNull(3); // row 2 skipped over: NULL
            v.appendBytes(offHeap, 0, 300); // forces growth
            v.setUtf8(5, "");
            assertThrows(IllegalStateException.class, () -> v.setUtf8(1, "again"));
            assertThrows(IllegalStateException.class, () -> v.getSlice(0), "no zero-copy slice while growing");
            batch.seal(8); // rows 6 and 7 become NULL
            assertEquals("hello", v.getUtf8(0));
            assertEquals("😀𝄞", v.getUtf8(1));
            assertTrue(v.isNull(2) && v.isNull(3) && v.isNull(6) && v.isNull(7));
            assertEquals(300, v.valueLength(4));
            assertEquals("", v.getUtf8(5));
            assertEquals(4, v.nullCount());
            assertEquals('z', (char) v.getSlice(4).get(ValueLayout.JAVA_BYTE, 299));
            assertThrows(IllegalArgumentException.class, () -> v.getSlice(4).set(ValueLayout.JAVA_BYTE, 0, (byte) 1));
        }
    }

    @Test
    void fixedSizeBinary() {
        try (RecordBatch batch = RecordBatch.allocate(Schema.of(Field.nullable("f", new ArrowType.FixedSizeBinary(3))), 2)) {
            FixedSizeBinaryVector v = batch.column(0, FixedSizeBinaryVector.class);
            v.setBytes(0, new byte[] {1, 2, 3});
            assertThrows(IllegalArgumentException.class, () -> v.setBytes(1, new byte[] {1}));
            v.setBytes(1, MemorySegment.ofArray(new byte[] {9, 8, 7, 6}), 1);
            batch.seal(2);
            assertArrayEquals(new byte[] {1, 2, 3}, v.getBytes(0));
            assertArrayEquals(new byte[] {8, 7, 6}, v.getBytes(1));
        }
    }

    @Test
    void listOfStructOfMapWrittenRowByRow() {
        Schema schema = Schema.of(TestTypes.listOfStructOfMap());
        try (RecordBatch batch = RecordBatch.allocate(schema, 3)) {
            ListVector list = batch.column(0, ListVector.class);
            StructVector item = (StructVector) list.child();
            Int32Vector id = (Int32Vector) item.child(0);
            MapVector attrs = (MapVector) item.child(1);
            VarBinaryVector keys = (VarBinaryVector) attrs.keys();
            DecimalVector values = (DecimalVector) attrs.values();

            int base = list.startList(0, 2);          // row 0: two structs
            id.setInt(base, 7);
            int entry = attrs.startMap(base, 1);
            keys.setUtf8(entry, "k");
            values.setUnscaled(entry, 123456L);
            item.setNull(base + 1);                    // second struct NULL (cascades to its children)
            list.setNull(1);                           // row 1: NULL list
            base = list.startList(2, 1);               // row 2: one struct with an empty map
            id.setInt(base, -1);
            attrs.startMap(base, 0);
            batch.seal(3);

            assertEquals(2, list.listSize(0));
            assertEquals(7, id.getInt(list.listStart(0)));
            assertEquals(1, attrs.listSize(list.listStart(0)));
            assertEquals("k", keys.getUtf8(attrs.listStart(0)));
            assertEquals(new BigDecimal("1.23456"), values.getDecimal(attrs.listStart(0)));
            assertTrue(item.isNull(1));
            assertTrue(list.isNull(1));
            assertEquals(0, list.listSize(1));
            assertEquals(0, attrs.listSize(list.listStart(2)));
            assertEquals(3, item.length());
            assertEquals(1, list.nullCount());
        }
    }

    @Test
    void exportOmitsValidityWithoutNullsAndAlwaysHasLengthPlusOneOffsets() {
        Schema schema = Schema.of(Field.nullable("a", ArrowType.INT32), Field.nullable("s", ArrowType.UTF8));
        try (Arena arena = Arena.ofConfined(); RecordBatch batch = RecordBatch.allocate(schema, 4)) {
            batch.seal(0);
            MemorySegment struct = ArrowArray.allocate(arena);
            CDataExporter.exportBatch(batch, struct);
            MemorySegment children = ArrowArray.children(struct).reinterpret(16);
            for (int c = 0; c < 2; c++) {
                MemorySegment child = children.getAtIndex(ValueLayout.ADDRESS, c).reinterpret(ArrowArray.sizeof());
                assertEquals(0, ArrowArray.offset(child));
                assertEquals(0, ArrowArray.null_count(child));
                MemorySegment buffers = ArrowArray.buffers(child).reinterpret(8 * ArrowArray.n_buffers(child));
                assertEquals(0, buffers.getAtIndex(ValueLayout.ADDRESS, 0).address(), "no validity without NULLs");
                for (int b = 1; b < ArrowArray.n_buffers(child); b++) {
                    assertTrue(buffers.getAtIndex(ValueLayout.ADDRESS, b).address() != 0, "buffer " + b + " present");
                    assertEquals(0, buffers.getAtIndex(ValueLayout.ADDRESS, b).address() % 64, "aligned");
                }
            }
            MemorySegment strings = children.getAtIndex(ValueLayout.ADDRESS, 1).reinterpret(ArrowArray.sizeof());
            MemorySegment offsets = ArrowArray.buffers(strings).reinterpret(24).getAtIndex(ValueLayout.ADDRESS, 1).reinterpret(4);
            assertEquals(0, offsets.get(ValueLayout.JAVA_INT, 0), "an empty array still has one offset");
            ReleaseUpcall.releaseArray(struct);
        }
    }

    @Test
    void fixedWidthChildOfAListGrows() {
        Schema schema = Schema.of(Field.list("l", true, TestTypes.item(ArrowType.INT16)));
        try (RecordBatch batch = RecordBatch.allocate(schema, 2)) {
            ListVector list = batch.column(0, ListVector.class);
            Int16Vector child = (Int16Vector) list.child();
            int base = list.startList(0, 1000);
            for (int k = 0; k < 1000; k++) {
                child.setShort(base + k, (short) k);
            }
            base = list.startList(1, 3);
            child.setShort(base, (short) -1);
            child.setNull(base + 1);
            child.setShort(base + 2, (short) -3);
            batch.seal(2);
            assertEquals(1003, child.length());
            assertEquals(999, child.getShort(999));
            assertTrue(child.isNull(1001));
            assertEquals(-3, child.getShort(1002));
        }
    }
}
