package dev.gatun.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.runtime.BorrowedInput;
import dev.gatun.planner.testing.CollectSinkFactory;
import dev.gatun.planner.testing.RetainingSinkFactory;
import dev.gatun.planner.testing.ReusedRowSourceFactory;
import dev.gatun.planner.testing.RuntimeJobs;
import dev.gatun.planner.testing.SharedMiniCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.streaming.api.transformations.PartitionTransformation;
import org.apache.flink.streaming.runtime.partitioner.KeyGroupStreamPartitioner;
import org.apache.flink.table.api.StatementSet;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.bridge.java.StreamStatementSet;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Entry borrowing: a native island chained to its producer skips Flink's per-record copy on its
 * own input edge only. A producer that overwrites one row object for every record still gives
 * stock's results, a sibling consumer of the same producer still gets its own copies, and the
 * island heading a chain (network input) still deserializes normally.
 */
@ExtendWith(LeakCheckExtension.class)
@ExtendWith(SharedMiniCluster.class)
class EntryBorrowingTest {
    private static final int ROWS = 3000;
    private static final String SOURCE = "CREATE TEMPORARY TABLE src (" + ReusedRowSourceFactory.COLUMNS
            + ") WITH ('connector' = 'gatun-test-reused', 'rows' = '" + ROWS + "')";
    private static final String NATIVE_QUERY = "SELECT id * 2 AS twice, UPPER(s) AS s, r.a + 1 AS a, r.b AS b"
            + " FROM src WHERE MOD(id, 3) <> 1";
    private static final String COLUMNS = "twice BIGINT, s STRING, a INT, b STRING";

    /** The native query's results and the retaining sibling's rows, from one job reading one source. */
    private record Results(List<String> nativeRows, List<String> siblingRows) {}

    private static Results run(boolean nativeEnabled, Map<String, String> settings) throws Exception {
        TableEnvironment tEnv = RuntimeJobs.env(nativeEnabled, settings);
        tEnv.executeSql(SOURCE);
        String collect = CollectSinkFactory.newId();
        String retain = "retain-" + collect;
        tEnv.executeSql("CREATE TEMPORARY TABLE out_t (" + COLUMNS + ") WITH ('connector' = 'gatun-test-collect',"
                + " 'id' = '" + collect + "')");
        tEnv.executeSql("CREATE TEMPORARY TABLE kept_t (" + ReusedRowSourceFactory.COLUMNS
                + ") WITH ('connector' = 'gatun-test-retaining', 'id' = '" + retain + "')");
        StatementSet set = tEnv.createStatementSet();
        set.addInsertSql("INSERT INTO out_t " + NATIVE_QUERY);
        set.addInsertSql("INSERT INTO kept_t SELECT * FROM src");
        String plan = set.explain();
        assertTrue(plan.contains("Reused(reference_id="), "both inserts must read one source:\n" + plan);
        assertEquals(nativeEnabled, Gatun.explain(tEnv, "INSERT INTO out_t " + NATIVE_QUERY).contains("NativeCalc("));
        set.execute().await();
        RuntimeJobs.awaitNoNativeLeaks(Duration.ofSeconds(10));
        return new Results(CollectSinkFactory.take(collect), RetainingSinkFactory.take(retain));
    }

    /** assertEquals without printing thousands of rows: the counts and the first difference. */
    private static void assertSameRows(List<String> expected, List<String> actual, String what) {
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
            assertEquals(expected.get(i), actual.get(i), what + ": row " + i + " of the sorted rows");
        }
        assertEquals(expected.size(), actual.size(), what + ": row count");
    }

    private static List<String> expectedSiblingRows() {
        List<String> rows = new ArrayList<>(LongStream.range(0, ROWS).mapToObj(ReusedRowSourceFactory::values).toList());
        rows.sort(null);
        return rows;
    }

    @Test
    void aProducerReusingOneRowObjectGivesStockResultsAndTheSiblingKeepsItsCopies() throws Exception {
        Results stock = run(false, Map.of());
        Results gatun = run(true, Map.of());
        assertEquals(ROWS - ROWS / 3, stock.nativeRows().size());
        assertSameRows(stock.nativeRows(), gatun.nativeRows(), "native results");
        assertSameRows(expectedSiblingRows(), stock.siblingRows(), "stock sibling");
        assertSameRows(expectedSiblingRows(), gatun.siblingRows(), "the sibling consumer must get its own copies");
    }

    @Test
    void withObjectReuseOnTheResultsAreStocksToo() throws Exception {
        Map<String, String> reuse = Map.of("pipeline.object-reuse", "true");
        assertSameRows(run(false, Map.of()).nativeRows(), run(true, reuse).nativeRows(), "object reuse on");
    }

    @Test
    void headingAChainTheIslandDeserializesItsNetworkInput() throws Exception {
        Map<String, String> unchained = Map.of("pipeline.operator-chaining.enabled", "false");
        assertSameRows(run(false, Map.of()).nativeRows(), run(true, unchained).nativeRows(), "unchained");
    }

    /** The native operator's input serializer borrows; the producer's and the sibling's do not. */
    @Test
    void onlyTheIslandsInputEdgeBorrows() {
        StreamGraph graph = streamGraph(true);
        StreamNode island = node(graph, "NativeCalc");
        StreamNode sink = node(graph, "kept_t");
        StreamNode source = node(graph, "src");
        assertEquals("BorrowingRowDataSerializer", island.getTypeSerializersIn()[0].getClass().getSimpleName());
        assertInstanceOf(RowDataSerializer.class, sink.getTypeSerializersIn()[0]);
        assertInstanceOf(RowDataSerializer.class, source.getTypeSerializerOut());
        assertEquals(1, graph.getStreamEdges(source.getId(), island.getId()).size());
        assertEquals("FORWARD", graph.getStreamEdges(source.getId(), island.getId()).get(0).getPartitioner().toString());

        StreamNode copying = node(streamGraph(false), "NativeCalc");
        assertInstanceOf(RowDataSerializer.class, copying.getTypeSerializersIn()[0]);
    }

    /** A forward edge on top of an exchange or other virtual node would replace its partitioning. */
    @Test
    void anExchangeInputIsLeftAlone() {
        RowType type = RowType.of(new BigIntType());
        Transformation<RowData> source = streamSourceOf(type);
        PartitionTransformation<RowData> exchange = new PartitionTransformation<>(source,
                new KeyGroupStreamPartitioner<>(row -> row.getLong(0), 128));
        assertSame(exchange, BorrowedInput.over(exchange));
        Transformation<RowData> borrowed = BorrowedInput.over(source);
        assertTrue(BorrowedInput.isBorrowing(borrowed));
        TypeSerializer<RowData> serializer = borrowed.getOutputType().createSerializer(
                new org.apache.flink.api.common.serialization.SerializerConfigImpl());
        RowData row = org.apache.flink.table.data.GenericRowData.of(7L);
        assertSame(row, serializer.copy(row));
        assertSame(row, serializer.copy(row, serializer.createInstance()));
        assertEquals(InternalTypeInfo.of(type).toRowSerializer().snapshotConfiguration().getClass(),
                serializer.snapshotConfiguration().getClass());
    }

    private static Transformation<RowData> streamSourceOf(RowType type) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        return env.fromData(InternalTypeInfo.of(type), (RowData) org.apache.flink.table.data.GenericRowData.of(1L))
                .getTransformation();
    }

    private static StreamGraph streamGraph(boolean borrowing) {
        Configuration conf = new Configuration();
        conf.setString("parallelism.default", "1");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        tEnv.getConfig().set(GatunOptions.FORCE, true);
        tEnv.getConfig().set(GatunOptions.ENTRY_BORROWING, borrowing);
        assertTrue(Gatun.enable(tEnv));
        tEnv.executeSql(SOURCE);
        tEnv.executeSql("CREATE TEMPORARY TABLE out_t (" + COLUMNS + ") WITH ('connector' = 'blackhole')");
        tEnv.executeSql("CREATE TEMPORARY TABLE kept_t (" + ReusedRowSourceFactory.COLUMNS
                + ") WITH ('connector' = 'blackhole')");
        StreamStatementSet set = tEnv.createStatementSet();
        set.addInsertSql("INSERT INTO out_t " + NATIVE_QUERY);
        set.addInsertSql("INSERT INTO kept_t SELECT * FROM src");
        set.attachAsDataStream();
        return env.getStreamGraph();
    }

    private static StreamNode node(StreamGraph graph, String nameContains) {
        List<StreamNode> found = graph.getStreamNodes().stream()
                .filter(n -> n.getOperatorName().contains(nameContains)).toList();
        assertEquals(1, found.size(), nameContains + " in " + graph.getStreamNodes().stream()
                .map(StreamNode::getOperatorName).toList());
        return found.get(0);
    }
}
