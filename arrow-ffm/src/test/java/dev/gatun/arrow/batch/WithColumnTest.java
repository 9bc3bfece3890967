package dev.gatun.arrow.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gatun.arrow.testing.FaultInjection;
import dev.gatun.arrow.memory.FaultPoint;
import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Field;
import dev.gatun.arrow.types.Schema;
import dev.gatun.arrow.vector.Int32Vector;
import dev.gatun.arrow.vector.Int8Vector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link RecordBatch#withColumn}: a column added to a batch being written. */
@ExtendWith(LeakCheckExtension.class)
class WithColumnTest {
    private static final Schema SCHEMA = Schema.of(Field.nullable("i", ArrowType.INT32));
    private static final Field KIND = Field.notNull("k", ArrowType.INT8);

    @Test
    void theWidenedBatchOwnsEverythingAndTheOldOneIsRetired() {
        RecordBatch batch = RecordBatch.allocate(SCHEMA, 4);
        batch.column(0, Int32Vector.class).setInt(0, 7);
        RecordBatch widened = batch.withColumn(KIND);
        assertEquals(BatchState.RELEASED, batch.state());
        try (widened) {
            assertEquals(2, widened.columnCount());
            assertEquals("k", widened.schema().field(1).name());
            widened.column(1, Int8Vector.class).setByte(0, (byte) 3);
            widened.column(0, Int32Vector.class).setInt(1, 8);
            widened.column(1, Int8Vector.class).setByte(1, (byte) 4);
            widened.seal(2);
            assertEquals(7, widened.column(0, Int32Vector.class).getInt(0));
            assertEquals(8, widened.column(0, Int32Vector.class).getInt(1));
            assertEquals(4, widened.column(1, Int8Vector.class).getByte(1));
            assertThrows(IllegalStateException.class, () -> batch.column(0));
            batch.close(); // a retired batch frees nothing
        }
    }

    @Test
    void onlyAWritingBatchCanBeWidened() {
        try (RecordBatch batch = RecordBatch.allocate(SCHEMA, 1)) {
            batch.seal(0);
            assertThrows(IllegalStateException.class, () -> batch.withColumn(KIND));
        }
    }

    @Test
    void aFailedAllocationLeavesTheBatchAsItWas() {
        try (RecordBatch batch = RecordBatch.allocate(SCHEMA, 4)) {
            FaultInjection.install(point -> {
                if (point == FaultPoint.ALLOCATE) {
                    throw new FaultInjection.InjectedFault(point, 1);
                }
            });
            try {
                assertInstanceOf(FaultInjection.InjectedFault.class,
                        assertThrows(RuntimeException.class, () -> batch.withColumn(KIND)));
            } finally {
                FaultInjection.clear();
            }
            assertEquals(BatchState.WRITING, batch.state());
            assertEquals(1, batch.columnCount());
        }
    }
}
