package dev.gatun.bench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.bench.rows.RowFormat;
import dev.gatun.bench.rows.Shapes;
import java.util.List;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.ValidationException;
import org.junit.jupiter.api.Test;

/** The source and sink connectors in a real (tiny) Flink job; no timing. */
class E2eJobTest {
    private static final long ROWS = 2000;

    private static Checksums.Checksum run(String sql, String key, RowFormat format) throws Exception {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tEnv.getConfig().set("parallelism.default", "1");
        tEnv.executeSql(NexmarkSourceFactory.createTableDdl("bid", Shapes.BID, ROWS, 42, format));
        tEnv.executeSql("CREATE TEMPORARY TABLE sink (" + NexmarkSourceFactory.columnsDdl(Shapes.BID)
                + ") WITH ('connector' = 'gatun-blackhole', 'key' = '" + key + "')");
        tEnv.executeSql("INSERT INTO sink " + sql).await();
        assertTrue(Checksums.takeTaskCpuNanos(key) > 0, "the sink records its task thread's CPU time");
        return Checksums.take(key);
    }

    @Test
    void theSinkSeesExactlyTheGeneratedRows() throws Exception {
        RowHasher hasher = RowHasher.of(Shapes.BID.rowType());
        long expected = 0;
        for (long i = 0; i < ROWS; i++) {
            expected += hasher.hash(Shapes.BID.row(42, i));
        }
        Checksums.Checksum generic = run("SELECT * FROM bid", "test-generic", RowFormat.GENERIC);
        assertEquals(new Checksums.Checksum(ROWS, expected), generic);
        assertEquals(generic, run("SELECT * FROM bid", "test-binary", RowFormat.BINARY));
    }

    @Test
    void aDeclaredSchemaThatDoesNotMatchTheKindIsRejected() {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tEnv.executeSql("CREATE TEMPORARY TABLE bad (auction BIGINT) WITH ('connector' = 'gatun-nexmark', 'kind' = 'bid')");
        ValidationException e = assertThrows(ValidationException.class, () -> tEnv.sqlQuery("SELECT * FROM bad").explain());
        assertTrue(rootMessage(e).contains("`channel` VARCHAR(2147483647)"), rootMessage(e));
    }

    @Test
    void everyQueryPlansOnItsSource() {
        for (Query q : Queries.ALL) {
            TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
            tEnv.executeSql(NexmarkSourceFactory.createTableDdl(q.kind(), Shapes.byName(q.kind()), 10, 1,
                    RowFormat.GENERIC));
            assertTrue(tEnv.sqlQuery(q.sql()).explain().contains("Calc"), q.id());
        }
        assertEquals(List.of("q1", "q2"), Queries.select("q1,q2").stream().map(Query::id).toList());
    }

    @Test
    void everyQueryRunsAsANativeIslandUnderGatun() {
        GatunEngine gatun = new GatunEngine();
        assertTrue(gatun.unavailableReason().isEmpty(), () -> gatun.unavailableReason().get());
        for (Query q : Queries.ALL) {
            TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
            gatun.configure(tEnv);
            gatun.forceNative(tEnv);
            tEnv.executeSql(NexmarkSourceFactory.createTableDdl(q.kind(), Shapes.byName(q.kind()), 10, 1,
                    RowFormat.GENERIC));
            String plan = gatun.explain(tEnv, q.sql());
            assertTrue(gatun.runsNative(plan), q.id() + " has no native island:\n" + plan);
            assertTrue(!EngineConfigurer.STOCK.runsNative(plan));
        }
    }

    private static String rootMessage(Throwable t) {
        StringBuilder all = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            all.append(c.getMessage()).append(" | ");
        }
        return all.toString();
    }
}
