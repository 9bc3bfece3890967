package dev.gatun.sql;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The SQL Gateway's REST API (v1 and later) as a user would call it with any HTTP client: open a
 * session, submit a statement, page through its result until end of stream.
 */
final class GatewayRest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration RESULT_TIMEOUT = Duration.ofMinutes(3);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final URI base;

    GatewayRest(String host, int port) {
        this.base = URI.create("http://" + host + ":" + port);
    }

    /** Opens a session with {@code properties} as session configuration; returns its handle. */
    String openSession(Map<String, String> properties) throws IOException, InterruptedException {
        return send("POST", "/v1/sessions", Map.of("properties", properties)).get("sessionHandle").asText();
    }

    void closeSession(String session) throws IOException, InterruptedException {
        send("DELETE", "/v1/sessions/" + session, null);
    }

    /** Runs {@code statement} in {@code session}; returns every result row, its fields joined by ','. */
    List<String> execute(String session, String statement) throws IOException, InterruptedException {
        String operation = send("POST", "/v1/sessions/" + session + "/statements", Map.of("statement", statement))
                .get("operationHandle").asText();
        List<String> rows = new ArrayList<>();
        String next = "/v1/sessions/" + session + "/operations/" + operation + "/result/0";
        long deadline = System.nanoTime() + RESULT_TIMEOUT.toNanos();
        while (next != null) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no end of stream for '" + statement + "' after " + RESULT_TIMEOUT);
            }
            JsonNode page = send("GET", next, null);
            String type = page.get("resultType").asText();
            if (type.equals("NOT_READY")) {
                Thread.sleep(50);
                continue;
            }
            for (JsonNode row : page.path("results").path("data")) {
                List<String> fields = new ArrayList<>();
                row.get("fields").forEach(f -> fields.add(f.asText()));
                rows.add(String.join(",", fields));
            }
            next = type.equals("EOS") ? null : page.get("nextResultUri").asText();
        }
        return rows;
    }

    private JsonNode send(String method, String path, Object body) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json");
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new AssertionError(method + " " + path + " answered " + response.statusCode() + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }
}
