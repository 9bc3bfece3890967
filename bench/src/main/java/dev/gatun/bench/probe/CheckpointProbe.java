package dev.gatun.bench.probe;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.apache.flink.api.common.JobID;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;

/**
 * One checkpoint at a fixed point of the stream, through the embedded cluster's REST API: waits
 * until the job's {@link PausingSource} readers stopped, triggers a checkpoint
 * ({@code POST /jobs/:id/checkpoints}), waits for it to complete and reads its size and duration
 * from the job's checkpoint statistics, and the state backend from its checkpoint configuration.
 */
public final class CheckpointProbe {
    /** What one checkpoint cost: bytes written (the checkpointed size), end-to-end duration, state backend. */
    public record Taken(long bytes, long millis, String backend) {}

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofMinutes(5);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final String base;

    public CheckpointProbe(int restPort) {
        this.base = "http://127.0.0.1:" + restPort;
    }

    /** A loopback port free now, for the embedded cluster's REST endpoint. */
    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /**
     * Waits for the pause of {@code gateKey}'s sources, then takes and measures one checkpoint of
     * {@code job}; null when the job ended without pausing (its sources cannot pause).
     */
    public Taken takeWhenPaused(String gateKey, JobClient job) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!PausingSource.paused(gateKey)) {
            if (job.getJobStatus().get().isTerminalState()) {
                return null;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the sources of job " + job.getJobID() + " never paused");
            }
            Thread.sleep(1);
        }
        JobID id = job.getJobID();
        String backend = get("/jobs/" + id + "/checkpoints/config").path("state_backend").asText("unknown");
        send(HttpRequest.newBuilder(URI.create(base + "/jobs/" + id + "/checkpoints"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{}")).build());
        while (System.nanoTime() < deadline) {
            JsonNode stats = get("/jobs/" + id + "/checkpoints");
            JsonNode completed = stats.path("latest").path("completed");
            if (!completed.isMissingNode() && !completed.isNull()) {
                return new Taken(completed.path("checkpointed_size").asLong(-1),
                        completed.path("end_to_end_duration").asLong(-1), backend);
            }
            if (stats.path("counts").path("failed").asLong(0) > 0) {
                throw new IllegalStateException("the checkpoint of job " + id + " failed: " + stats.path("latest"));
            }
            Thread.sleep(2);
        }
        throw new IllegalStateException("the checkpoint of job " + id + " did not complete within " + TIMEOUT);
    }

    private JsonNode get(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET().build());
    }

    private JsonNode send(HttpRequest request) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            throw new IOException(request.method() + " " + request.uri() + ": HTTP " + response.statusCode() + " "
                    + response.body());
        }
        return JSON.readTree(response.body());
    }
}
