package dev.gatun.transpose.entry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.testing.FaultInjection;
import dev.gatun.arrow.memory.FaultPoint;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.transpose.testing.RandomValues;
import dev.gatun.transpose.testing.Transposes;
import dev.gatun.transpose.types.TypeMapping;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An allocation or buffer growth that fails at any step of a workload (batch allocation, the
 * first NULL's validity bitmap, string data and list children growing, the row-kind column added
 * mid-batch) releases everything and leaves the writer usable: the same workload then runs to the
 * right result. Each occurrence of each point fails once, until a run meets no more occurrences.
 */
@ExtendWith(LeakCheckExtension.class)
class FaultInjectionTest {
    private static final RowType TYPE = (RowType) DataTypes.ROW(
            DataTypes.FIELD("id", DataTypes.INT()),
            DataTypes.FIELD("text", DataTypes.STRING()),
            DataTypes.FIELD("list", DataTypes.ARRAY(DataTypes.ROW(DataTypes.FIELD("s", DataTypes.STRING())))),
            DataTypes.FIELD("map", DataTypes.MAP(DataTypes.INT().notNull(), DataTypes.BYTES()))).getLogicalType();
    private static final int BATCH_ROWS = 8;

    private final TypeMapping types = new TypeMapping(true);

    private static List<GenericRowData> workload() {
        List<GenericRowData> rows = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            Object[] list = new Object[i % 5 * 4];
            for (int j = 0; j < list.length; j++) {
                list[j] = GenericRowData.of(StringData.fromString("element " + j + " of row " + i));
            }
            Map<Object, Object> map = new HashMap<>();
            for (int j = 0; j < i % 4; j++) {
                map.put(j, new byte[40 + j]);
            }
            rows.add(GenericRowData.ofKind(i == 10 ? RowKind.DELETE : RowKind.INSERT, i % 3 == 0 ? null : i,
                    StringData.fromString("a string longer than sixteen bytes, row " + i), new GenericArrayData(list),
                    new GenericMapData(map)));
        }
        return rows;
    }

    @ParameterizedTest
    @EnumSource(value = FaultPoint.class, names = {"ALLOCATE", "GROW"})
    void everyFailedStepReleasesEverything(FaultPoint point) {
        assertEveryStep(point, TYPE, workload(), point == FaultPoint.GROW ? 2 : 10);
    }

    /** One column per writer class, random values with NULLs: every writer's allocations and growths. */
    @ParameterizedTest
    @EnumSource(value = FaultPoint.class, names = {"ALLOCATE", "GROW"})
    void everyWritersStepsReleaseEverything(FaultPoint point) {
        RandomValues values = new RandomValues(new Random(3), 25);
        List<GenericRowData> rows = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            rows.add(values.row(FailureTest.EVERY_WRITER));
        }
        assertEveryStep(point, FailureTest.EVERY_WRITER, rows, point == FaultPoint.GROW ? 2 : 20);
    }

    private void assertEveryStep(FaultPoint point, RowType type, List<GenericRowData> rows, int atLeast) {
        int failures = 0;
        for (int target = 1; ; target++) {
            int[] hits = {0};
            int failAt = target;
            try (NativeAllocator allocator = Transposes.allocator("faults " + point + " " + target);
                 BatchWriter writer = new BatchWriter(type, Transposes.allFields(type), types, BATCH_ROWS, true,
                         allocator)) {
                FaultInjection.install(p -> {
                    if (p == point && ++hits[0] == failAt) {
                        throw new FaultInjection.InjectedFault(p, failAt);
                    }
                });
                List<RecordBatch> batches;
                try {
                    batches = Transposes.writeAll(writer, rows);
                } catch (RuntimeException e) {
                    FaultInjection.clear();
                    assertInjected(e, point, target);
                    assertEquals(0, writer.rowCount());
                    assertTrue(allocator.usage().isEmpty(), allocator.leakReport());
                    failures++;
                    // The same writer now runs the whole workload correctly.
                    Transposes.assertBatches(type, types, Transposes.writeAll(writer, rows), rows, b -> b,
                            point + " occurrence " + target);
                    continue;
                } finally {
                    FaultInjection.clear();
                }
                Transposes.assertBatches(type, types, batches, rows, b -> b, "no fault");
                assertTrue(hits[0] < target, "every occurrence was tried");
                assertTrue(failures > atLeast, failures + " failures injected");
                return;
            }
        }
    }

    private static void assertInjected(Throwable e, FaultPoint point, int target) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof FaultInjection.InjectedFault) {
                return;
            }
        }
        fail("occurrence " + target + " of " + point + " failed with something else", e);
    }
}
