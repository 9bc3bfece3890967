package dev.gatun.arrow.cdata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.testing.FaultInjection;
import dev.gatun.arrow.testing.FaultInjection.InjectedFault;
import dev.gatun.arrow.memory.FaultPoint;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.arrow.testing.OurValues;
import dev.gatun.arrow.testing.RustRoundTrip;
import dev.gatun.arrow.testing.TestTypes;
import dev.gatun.arrow.testing.TestValues;
import dev.gatun.arrow.types.Field;
import dev.gatun.arrow.types.Schema;
import dev.gatun.ffm.GatunLibrary;
import dev.gatun.ffm.ReleaseUpcall;
import dev.gatun.ffm.internal.ArrowArray;
import dev.gatun.ffm.internal.ArrowSchema;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Throws at every step of a batch's life, one occurrence at a time (allocation, growth, export of
 * schema and array, before and after the native call, import, release) and checks that the
 * failure is clear and that nothing leaks: no batch, byte, export or native resource.
 */
@ExtendWith(LeakCheckExtension.class)
class FaultInjectionTest {
    private static final Schema SCHEMA = new Schema(List.of(
            Field.nullable("i", dev.gatun.arrow.types.ArrowType.INT64),
            Field.nullable("s", dev.gatun.arrow.types.ArrowType.UTF8),
            TestTypes.listOfStructOfMap()), Map.of());
    private static final int ROWS = 300;

    /** Fails on the n-th hit of one point. */
    private static final class NthHit implements FaultInjection.Injector {
        private final FaultPoint point;
        private final int n;
        private final AtomicInteger hits = new AtomicInteger();

        NthHit(FaultPoint point, int n) {
            this.point = point;
            this.n = n;
        }

        @Override
        public void onHit(FaultPoint p) {
            if (p == point && hits.incrementAndGet() == n) {
                throw new InjectedFault(p, n);
            }
        }

        boolean fired() {
            return hits.get() >= n;
        }
    }

    @ParameterizedTest
    @EnumSource(FaultPoint.class)
    void everyOccurrenceOfEveryPointFailsCleanly(FaultPoint point) {
        int fired = 0;
        for (int n = 1; ; n++) {
            NthHit injector = new NthHit(point, n);
            FaultInjection.install(injector);
            Throwable thrown = null;
            try {
                scenario();
            } catch (Throwable t) {
                thrown = t;
            } finally {
                FaultInjection.clear();
            }
            if (!injector.fired()) {
                assertEquals(null, thrown, "no fault injected, yet the scenario failed");
                break;
            }
            fired++;
            if (point == FaultPoint.RELEASE) {
                // Release runs inside the upcall: the failure is recorded, never thrown.
                assertEquals(null, thrown);
                List<Throwable> recorded = ReleaseUpcall.drainFailures();
                assertEquals(1, recorded.size(), "recorded failures " + recorded);
                assertInstanceOf(InjectedFault.class, recorded.get(0));
            } else {
                assertInstanceOf(InjectedFault.class, rootCause(thrown), "a clear failure: " + thrown);
            }
            assertNoLeaks(point + " #" + n);
        }
        assertTrue(fired > 0, "the scenario never reached " + point);
    }

    /** Build (with growth) → export schema → exchange through Rust → import → read → close. */
    private static void scenario() {
        Random random = new Random(42);
        List<List<Object>> values = new ArrayList<>();
        for (Field f : SCHEMA.fields()) {
            values.add(TestValues.column(f, ROWS, TestValues.Nulls.RANDOM, random));
        }
        try (RecordBatch batch = OurValues.batch(SCHEMA, values, ROWS);
             RecordBatch back = RustRoundTrip.roundTrip(batch)) {
            assertEquals(values, OurValues.columns(back));
        }
    }

    @Test
    void failureInTheMiddleOfARowLeavesNothingBehind() {
        RecordBatch batch = RecordBatch.allocate(SCHEMA, 10);
        try (batch) {
            for (int row = 0; row < 10; row++) {
                batch.column(0, dev.gatun.arrow.vector.Int64Vector.class).setLong(row, row);
                if (row == 7) {
                    throw new InjectedFault(FaultPoint.ALLOCATE, 0);
                }
                batch.column(1, dev.gatun.arrow.vector.VarBinaryVector.class).setUtf8(row, "row " + row);
            }
            fail("unreachable");
        } catch (InjectedFault expected) {
            assertEquals(dev.gatun.arrow.batch.BatchState.RELEASED, batch.state());
        }
        assertNoLeaks("mid-row");
    }

    @Test
    void failedExportLeavesTheBatchSealedAndTheStructEmpty() {
        try (Arena arena = Arena.ofConfined();
             RecordBatch batch = OurValues.batch(SCHEMA, List.of(List.of(), List.of(), List.of()), 0)) {
            MemorySegment array = ArrowArray.allocate(arena);
            MemorySegment schema = ArrowSchema.allocate(arena);
            FaultInjection.install(p -> {
                if (p == FaultPoint.EXPORT_ARRAY || p == FaultPoint.EXPORT_SCHEMA) {
                    throw new InjectedFault(p, 1);
                }
            });
            try {
                CDataExporter.exportBatch(batch, array);
                fail("export should fail");
            } catch (InjectedFault expected) {
                assertEquals(dev.gatun.arrow.batch.BatchState.SEALED, batch.state());
                assertEquals(MemorySegment.NULL, ArrowArray.release(array));
            }
            try {
                CDataExporter.exportSchema(SCHEMA, schema);
                fail("export should fail");
            } catch (InjectedFault expected) {
                assertEquals(MemorySegment.NULL, ArrowSchema.release(schema));
            }
            FaultInjection.clear();
            CDataExporter.exportBatch(batch, array);
            ReleaseUpcall.releaseArray(array);
        }
    }

    private static Throwable rootCause(Throwable t) {
        while (t != null && !(t instanceof InjectedFault) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    private static void assertNoLeaks(String when) {
        NativeAllocator root = NativeAllocator.root();
        assertTrue(root.usage().isEmpty(), when + ": " + root.leakReport());
        assertEquals(0, ReleaseUpcall.registeredCount(), when + ": exported structs not released");
        assertTrue(GatunLibrary.stats().hasNoLiveResources(), when + ": " + GatunLibrary.stats().describeLiveResources());
        assertTrue(LeakCheckExtension.liveReport().isEmpty(), when + ": " + LeakCheckExtension.liveReport());
    }
}
