package dev.gatun.planner.testing;

import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@code 'connector' = 'gatun-test-reused'}: a producer that hands over ONE mutable row object
 * (and one nested row object) for every record, overwriting its fields before each emit, as a
 * deserializer that reuses its output row does. Columns {@link #COLUMNS}; row {@code i} is
 * {@link #values(long)}.
 */
public final class ReusedRowSourceFactory implements DynamicTableSourceFactory {
    public static final String COLUMNS = "id BIGINT, s STRING, r ROW<a INT, b STRING>";
    static final ConfigOption<Long> ROWS = ConfigOptions.key("rows").longType().defaultValue(1000L);

    /** Row {@code i} as {@code Row.toString()} prints it. */
    public static String values(long i) {
        return "+I[" + i + ", " + text(i) + ", +I[" + (int) (i * 3) + ", " + nested(i) + "]]";
    }

    private static String text(long i) {
        return i % 9 == 0 ? "null" : "row-" + i + "-" + "x".repeat((int) (i % 13));
    }

    private static String nested(long i) {
        return "n" + (i % 5);
    }

    @Override
    public String factoryIdentifier() {
        return "gatun-test-reused";
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of();
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of(ROWS);
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
        helper.validate();
        return new Source(helper.getOptions().get(ROWS), (RowType) context.getPhysicalRowDataType().getLogicalType());
    }

    /** Overwrites and returns the same two row objects on every call. */
    private static final class Reusing implements GeneratorFunction<Long, RowData> {
        private transient GenericRowData row;
        private transient GenericRowData inner;

        @Override
        public RowData map(Long index) {
            if (row == null) {
                row = new GenericRowData(3);
                inner = new GenericRowData(2);
            }
            long i = index;
            row.setField(0, i);
            row.setField(1, i % 9 == 0 ? null : StringData.fromString(text(i)));
            inner.setField(0, (int) (i * 3));
            inner.setField(1, StringData.fromString(nested(i)));
            row.setField(2, inner);
            return row;
        }
    }

    private record Source(long rows, RowType type) implements ScanTableSource {
        @Override
        public ChangelogMode getChangelogMode() {
            return ChangelogMode.insertOnly();
        }

        @Override
        public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
            return SourceProvider.of(new DataGeneratorSource<>(new Reusing(), rows, InternalTypeInfo.of(type)));
        }

        @Override
        public DynamicTableSource copy() {
            return new Source(rows, type);
        }

        @Override
        public String asSummaryString() {
            return "gatun-test-reused";
        }
    }
}
