package dev.gatun.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.gateway.SqlGateway;
import org.apache.flink.table.gateway.service.context.DefaultContext;
import org.apache.flink.table.gateway.service.session.SessionManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Flink's SQL Gateway, started in this JVM with its REST endpoint on a loopback port over a
 * loopback MiniCluster, with only configuration for Gatun: the packaged gatun-flink jar ahead of
 * the stock flink-table-planner-loader on the class path and {@code gatun.native.enabled: true}
 * ({@code gatun.native.force} so that the cost rule does not keep the Calc on Flink). Queries
 * go in through Flink's JDBC driver and through the REST API; they must run natively (the
 * cluster's {@code gatun.rowsIn} counters grow) and return stock Flink's rows.
 */
class SqlGatewayTest {
    private static LoopbackCluster cluster;
    private static SqlGateway gateway;
    private static int port;

    @BeforeAll
    static void startGateway() throws Exception {
        cluster = LoopbackCluster.start();
        port = freeLoopbackPort();
        Configuration configuration = cluster.clientConfiguration();
        configuration.setString("gatun.native.enabled", "true");
        configuration.setString("gatun.native.force", "true");
        configuration.setString("sql-gateway.endpoint.rest.address", LoopbackCluster.HOST);
        configuration.setString("sql-gateway.endpoint.rest.bind-address", LoopbackCluster.HOST);
        configuration.setString("sql-gateway.endpoint.rest.port", Integer.toString(port));
        gateway = new SqlGateway(configuration, SessionManager.create(new DefaultContext(configuration, List.of())));
        gateway.start();
    }

    @AfterAll
    static void stopGateway() throws Exception {
        try {
            if (gateway != null) {
                gateway.stop();
            }
            LoopbackCluster.awaitNoNativeLeaks(Duration.ofSeconds(30));
        } finally {
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    @Test
    void jdbcQueriesRunNativelyAndReturnStockRows() throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:flink://" + LoopbackCluster.HOST + ":" + port);
             Statement statement = connection.createStatement()) {
            statement.execute(Bids.CREATE);

            long before = NativeRowsReporter.total();
            Set<String> gatun = query(statement, Bids.NATIVE_QUERY);
            assertEquals(Bids.ROWS, NativeRowsReporter.total() - before,
                    "the native island should have read every row of bids");

            statement.execute("SET 'gatun.native.enabled' = 'false'");
            long beforeStock = NativeRowsReporter.total();
            Set<String> stock = query(statement, Bids.NATIVE_QUERY);
            assertEquals(beforeStock, NativeRowsReporter.total(), "gatun.native.enabled=false must run no island");

            assertEquals(stock, gatun);
            assertEquals(Bids.expectedNativeQueryRows(), gatun);
        }
    }

    @Test
    void restStatementsRunNativelyAndExplainShowsIslandsAndReasons() throws Exception {
        GatewayRest rest = new GatewayRest(LoopbackCluster.HOST, port);
        String session = rest.openSession(Map.of());
        String stockSession = rest.openSession(Map.of("gatun.native.enabled", "false"));
        try {
            rest.execute(session, Bids.CREATE);
            rest.execute(stockSession, Bids.CREATE);

            String island = String.join("\n", rest.execute(session, "EXPLAIN " + Bids.NATIVE_QUERY));
            assertTrue(island.contains("NativeCalc(select=[auction, ") && island.contains("native=[reads=[auction, price]"),
                    island);
            String fallback = String.join("\n", rest.execute(session, "EXPLAIN " + Bids.FALLBACK_QUERY));
            assertTrue(fallback.contains(Bids.FALLBACK_REASON) && !fallback.contains("NativeCalc("), fallback);
            String stockPlan = String.join("\n", rest.execute(stockSession, "EXPLAIN " + Bids.NATIVE_QUERY));
            assertFalse(stockPlan.contains("NativeCalc(") || stockPlan.contains("gatun=["), stockPlan);

            long before = NativeRowsReporter.total();
            Set<String> gatun = new TreeSet<>(rest.execute(session, Bids.NATIVE_QUERY));
            assertEquals(Bids.ROWS, NativeRowsReporter.total() - before);
            long beforeStock = NativeRowsReporter.total();
            Set<String> stock = new TreeSet<>(rest.execute(stockSession, Bids.NATIVE_QUERY));
            assertEquals(beforeStock, NativeRowsReporter.total());
            assertEquals(stock, gatun);
            assertEquals(Bids.expectedNativeQueryRows(), gatun);
        } finally {
            rest.closeSession(session);
            rest.closeSession(stockSession);
        }
    }

    private static Set<String> query(Statement statement, String sql) throws SQLException {
        Set<String> rows = new TreeSet<>();
        try (ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                rows.add(result.getLong(1) + "," + result.getLong(2));
            }
        }
        return rows;
    }

    private static int freeLoopbackPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LoopbackCluster.HOST))) {
            return socket.getLocalPort();
        }
    }
}
