package dev.gatun.bench.e2e;

import dev.gatun.bench.nexmark.TightLoopGeneratorSource;
import dev.gatun.bench.rows.RowFormat;
import dev.gatun.bench.rows.RowShape;
import dev.gatun.bench.rows.Shapes;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * {@code 'connector' = 'gatun-nexmark'}: a bounded, deterministic source of Nexmark-style rows
 * ({@code kind} = bid, person, auction, wide40, mixed20 or strings) produced as {@code RowData}
 * directly. No projection push-down, on purpose: a Calc that reads a few columns of a wide row
 * must receive the full rows, as with a source that cannot prune.
 */
public final class NexmarkSourceFactory implements DynamicTableSourceFactory {
    public static final String IDENTIFIER = "gatun-nexmark";
    public static final ConfigOption<String> KIND = ConfigOptions.key("kind").stringType().defaultValue("bid")
            .withDescription("Row shape: " + Shapes.all().stream().map(RowShape::name).toList());
    public static final ConfigOption<Long> ROWS = ConfigOptions.key("rows").longType().defaultValue(1_000_000L)
            .withDescription("Number of rows; the source is bounded.");
    public static final ConfigOption<Long> SEED = ConfigOptions.key("seed").longType().defaultValue(42L)
            .withDescription("Seed of the deterministic values.");
    public static final ConfigOption<String> ROW_FORMAT = ConfigOptions.key("row-format").stringType()
            .defaultValue("generic").withDescription("generic (GenericRowData, lazy strings) or binary (BinaryRowData).");

    public static final ConfigOption<String> CPU_KEY = ConfigOptions.key("cpu-key").stringType().noDefaultValue()
            .withDescription("Where the source reports its task thread's CPU time when it closes (TaskCpu).");

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of();
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of(KIND, ROWS, SEED, ROW_FORMAT, CPU_KEY);
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
        helper.validate();
        ReadableConfig options = helper.getOptions();
        RowShape shape = Shapes.byName(options.get(KIND));
        LogicalType declared = context.getPhysicalRowDataType().getLogicalType();
        if (!declared.copy(true).equals(shape.rowType())) { // the physical row type itself is NOT NULL
            throw new ValidationException("table " + context.getObjectIdentifier() + " declares " + declared
                    + " but kind '" + shape.name() + "' produces (" + columnsDdl(shape) + ")");
        }
        return new TableSource(shape.name(), options.get(ROWS), options.get(SEED), RowFormat.of(options.get(ROW_FORMAT)),
                options.getOptional(CPU_KEY).orElse(null));
    }

    /** The column list of a {@code CREATE TABLE} for {@code shape}. */
    public static String columnsDdl(RowShape shape) {
        return shape.rowType().getFields().stream()
                .map(f -> "`" + f.getName() + "` " + f.getType().asSerializableString())
                .collect(Collectors.joining(", "));
    }

    /** A complete {@code CREATE TEMPORARY TABLE} statement for a source of {@code rows} rows of {@code shape}. */
    public static String createTableDdl(String table, RowShape shape, long rows, long seed, RowFormat format) {
        return createTableDdl(table, shape, rows, seed, format, null);
    }

    /** {@link #createTableDdl(String, RowShape, long, long, RowFormat)} reporting task CPU under {@code cpuKey} (if not null). */
    public static String createTableDdl(String table, RowShape shape, long rows, long seed, RowFormat format,
                                        String cpuKey) {
        return "CREATE TEMPORARY TABLE `" + table + "` (" + columnsDdl(shape) + ") WITH ('connector' = '"
                + IDENTIFIER + "', 'kind' = '" + shape.name() + "', 'rows' = '" + rows + "', 'seed' = '" + seed
                + "', 'row-format' = '" + format.name().toLowerCase(java.util.Locale.ROOT) + "'"
                + (cpuKey == null ? "" : ", 'cpu-key' = '" + cpuKey + "'") + ")";
    }

    private record TableSource(String kind, long rows, long seed, RowFormat format, String cpuKey) implements ScanTableSource {
        @Override
        public ChangelogMode getChangelogMode() {
            return ChangelogMode.insertOnly();
        }

        @Override
        public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
            RowShape shape = Shapes.byName(kind);
            return SourceProvider.of(new TightLoopGeneratorSource<>(new RowGenerator(kind, seed, format, cpuKey), rows,
                    InternalTypeInfo.of(shape.rowType())));
        }

        @Override
        public DynamicTableSource copy() {
            return new TableSource(kind, rows, seed, format, cpuKey);
        }

        @Override
        public String asSummaryString() {
            return "gatun-nexmark(" + kind + ", " + rows + " rows, " + Boundedness.BOUNDED + ")";
        }
    }
}
