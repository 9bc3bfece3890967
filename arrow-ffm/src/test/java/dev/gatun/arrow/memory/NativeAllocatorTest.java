package dev.gatun.arrow.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Field;
import dev.gatun.arrow.types.Schema;
import dev.gatun.arrow.vector.VarBinaryVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Accounting, limit, alignment, padding, growth and live tracking. */
@ExtendWith(LeakCheckExtension.class)
class NativeAllocatorTest {
    @Test
    void buffersAre64ByteAlignedAndPadded() {
        try (NativeAllocator allocator = NativeAllocator.create("alignment", Long.MAX_VALUE)) {
        for (long size : new long[] {0, 1, 63, 64, 65, 1000, 4096, 100_001}) {
            NativeBuffer b = allocator.allocate(size);
            try {
                assertEquals(0, b.address().address() % 64, "alignment of " + size);
                assertEquals(0, b.size() % 64, "padding of " + size);
                assertTrue(b.size() >= Math.max(size, 64));
            } finally {
                b.free();
            }
        }
        assertEquals(0, allocator.javaBytes());
        }
    }

    @Test
    void accountingCountsLiveAndPeakBytes() {
        try (NativeAllocator allocator = NativeAllocator.create("accounting", Long.MAX_VALUE)) {
            NativeBuffer a = allocator.allocate(100);
            NativeBuffer b = allocator.allocate(1000);
            assertEquals(128 + 1024, allocator.javaBytes());
            a.free();
            a.free(); // at most once
            assertEquals(1024, allocator.javaBytes());
            assertEquals(128 + 1024, allocator.peakJavaBytes());
            b.free();
            assertEquals(0, allocator.javaBytes());
        }
    }

    @Test
    void exceedingTheLimitThrowsWithTheNumbersAndLeaksNothing() {
        try (NativeAllocator allocator = NativeAllocator.create("limited", 64 * 1024)) {
            Schema schema = Schema.of(Field.nullable("a", ArrowType.INT64), Field.nullable("b", ArrowType.INT64));
            OutOfNativeMemoryException e = assertThrows(OutOfNativeMemoryException.class,
                    () -> RecordBatch.allocate(allocator, schema, 5000));
            assertEquals(64 * 1024, e.limit());
            assertEquals(40_000, e.requested());
            assertEquals(40_000, e.live());
            assertTrue(e.getMessage().contains("40000") && e.getMessage().contains("65536"), e.getMessage());
            assertEquals(0, allocator.javaBytes(), "the failed batch freed what it had");
            assertTrue(allocator.usage().isEmpty(), allocator.leakReport());
        }
    }

    @Test
    void growthFreesTheOldBufferAndStaysAccounted() {
        try (NativeAllocator allocator = NativeAllocator.create("growth", Long.MAX_VALUE);
             RecordBatch batch = RecordBatch.allocate(allocator, Schema.of(Field.nullable("s", ArrowType.UTF8)), 100)) {
            VarBinaryVector v = batch.column(0, VarBinaryVector.class);
            long buffers = allocator.usage().liveBuffers();
            long before = allocator.javaBytes();
            byte[] value = new byte[500];
            for (int i = 0; i < 100; i++) {
                v.setBytes(i, value);
            }
            assertEquals(buffers, allocator.usage().liveBuffers(), "every grown buffer replaced the old one");
            assertTrue(allocator.javaBytes() >= before + 100 * 500 - 1600);
            assertTrue(allocator.javaBytes() <= before + 2 * 100 * 500 + 1600, "geometric, not per value");
            batch.seal(100);
            assertEquals(500, v.getBytes(99).length);
        }
    }

    @Test
    void liveBatchesAreReportedWithTheirCreationSite() {
        NativeAllocator allocator = NativeAllocator.create("tracking", Long.MAX_VALUE);
        RecordBatch batch = RecordBatch.allocate(allocator, Schema.of(Field.nullable("a", ArrowType.INT32)), 8);
        String report = allocator.leakReport();
        assertTrue(report.contains("batch: RecordBatch[WRITING"), report);
        assertTrue(report.contains("liveBatchesAreReportedWithTheirCreationSite"), report);
        IllegalStateException e = assertThrows(IllegalStateException.class, allocator::close);
        assertTrue(e.getMessage().contains("1 batches"), e.getMessage());
        batch.close();
        assertEquals("", allocator.leakReport());
    }
}
