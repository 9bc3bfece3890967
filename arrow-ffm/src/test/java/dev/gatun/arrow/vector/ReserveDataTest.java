package dev.gatun.arrow.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Field;
import dev.gatun.arrow.types.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link VarBinaryVector#reserveData}: room for value bytes up front, values unchanged. */
@ExtendWith(LeakCheckExtension.class)
class ReserveDataTest {
    private static final Schema SCHEMA = Schema.of(Field.nullable("s", ArrowType.UTF8));

    @Test
    void reservingKeepsWrittenValuesAndAvoidsGrowth() {
        try (NativeAllocator allocator = NativeAllocator.create("reserve", Long.MAX_VALUE);
             RecordBatch batch = RecordBatch.allocate(allocator, SCHEMA, 4)) {
            VarBinaryVector v = batch.column(0, VarBinaryVector.class);
            v.setUtf8(0, "before");
            v.reserveData(10_000);
            v.setUtf8(1, "x".repeat(9_000));
            v.appendNull(); // allocates the validity bitmap
            long reserved = allocator.javaBytes();
            v.reserveData(16); // smaller: nothing happens
            v.setUtf8(3, "x".repeat(900));
            assertEquals(reserved, allocator.javaBytes(), "no growth after the reservation");
            batch.seal(4);
            assertEquals("before", v.getUtf8(0));
            assertEquals(9_000, v.valueLength(1));
            assertEquals(true, v.isNull(2));
            assertEquals(900, v.valueLength(3));
            assertThrows(IllegalStateException.class, () -> v.reserveData(1 << 20));
        }
    }

    @Test
    void absurdReservationsFail() {
        try (RecordBatch batch = RecordBatch.allocate(SCHEMA, 1)) {
            VarBinaryVector v = batch.column(0, VarBinaryVector.class);
            assertThrows(IllegalArgumentException.class, () -> v.reserveData(1L << 40));
        }
    }
}
