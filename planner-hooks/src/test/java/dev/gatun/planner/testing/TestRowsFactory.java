package dev.gatun.planner.testing;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@code 'connector' = 'gatun-test-rows', 'id' = '...'}: a bounded FLIP-27 source of rows
 * registered in this JVM (tests share the JVM with their MiniCluster). No projection push-down,
 * so the Calc reads from full rows.
 */
public final class TestRowsFactory implements DynamicTableSourceFactory {
    static final ConfigOption<String> ID = ConfigOptions.key("id").stringType().noDefaultValue();
    private static final Map<String, List<RowData>> ROWS = new ConcurrentHashMap<>();
    private static final AtomicInteger NEXT = new AtomicInteger();

    /** Registers {@code rows} (internal data structures) and returns the table's WITH clause. */
    public static String register(List<RowData> rows) {
        String id = "rows" + NEXT.incrementAndGet();
        ROWS.put(id, List.copyOf(rows));
        return "WITH ('connector' = 'gatun-test-rows', 'id' = '" + id + "')";
    }

    @Override
    public String factoryIdentifier() {
        return "gatun-test-rows";
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of(ID);
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of();
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
        helper.validate();
        RowType type = (RowType) context.getPhysicalRowDataType().getLogicalType();
        return new Source(helper.getOptions().get(ID), type);
    }

    private record Source(String id, RowType type) implements ScanTableSource {
        @Override
        public ChangelogMode getChangelogMode() {
            return ChangelogMode.insertOnly();
        }

        @Override
        public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
            String key = id;
            GeneratorFunction<Long, RowData> rows = i -> ROWS.get(key).get(i.intValue());
            return SourceProvider.of(new DataGeneratorSource<>(rows, ROWS.get(id).size(), InternalTypeInfo.of(type)));
        }

        @Override
        public DynamicTableSource copy() {
            return new Source(id, type);
        }

        @Override
        public String asSummaryString() {
            return "gatun-test-rows(" + id + ")";
        }
    }
}
