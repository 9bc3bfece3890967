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
 * ({@code POST /jobs/:id/checkpoints}, again while the trigger fails before the checkpoint exists),
 * waits for it to complete and reads its size and duration from its checkpoint statistics, and the
 * state backend from the job's checkpoint configuration.
 */
public final class CheckpointProbe {
    /** What one checkpoint cost: bytes written (the checkpointed size), end-to-end duration, state backend. */
    public record Taken(long bytes, long millis, String backend) {}

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofMinutes(5);
    /** Trigger attempts 20 ms apart: a task still deploying when the sources paused runs well within them. */
    private static final int TRIGGER_ATTEMPTS = 250;

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
            checkDeadline(deadline, "the sources of job " + job.getJobID() + " never paused");
            Thread.sleep(1);
        }
        JobID id = job.getJobID();
        String backend = get("/jobs/" + id + "/checkpoints/config").path("state_backend").asText("unknown");
        long checkpointId = trigger(id, deadline);
        while (true) {
            JsonNode details = getOrNull("/jobs/" + id + "/checkpoints/details/" + checkpointId);
            String status = details == null ? "" : details.path("status").asText("");
            if (status.equals("COMPLETED")) {
                return new Taken(details.path("checkpointed_size").asLong(-1),
                        details.path("end_to_end_duration").asLong(-1), backend);
            }
            if (status.equals("FAILED")) {
                throw new IllegalStateException("checkpoint " + checkpointId + " of job " + id + " failed: "
                        + details.path("failure_message").asText("(no message)"));
            }
            checkDeadline(deadline, "the statistics of checkpoint " + checkpointId + " of job " + id
                    + " did not show it completed within " + TIMEOUT);
            Thread.sleep(2);
        }
    }

    /**
     * Triggers a checkpoint and waits until it completed: its id. A trigger can fail before the
     * checkpoint exists, when a task behind the paused sources is not running yet (a short job
     * pauses within milliseconds of its start); such a trigger is repeated while the job runs.
     */
    private long trigger(JobID id, long deadline) throws Exception {
        String lastFailure = null;
        int attempt = 0;
        while (++attempt <= TRIGGER_ATTEMPTS) {
            String request = send(HttpRequest.newBuilder(URI.create(base + "/jobs/" + id + "/checkpoints"))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{}"))
                    .build()).path("request-id").asText();
            JsonNode result = get("/jobs/" + id + "/checkpoints/" + request);
            while (result.path("status").path("id").asText().equals("IN_PROGRESS")) {
                checkDeadline(deadline, "the checkpoint of job " + id + " did not complete within " + TIMEOUT);
                Thread.sleep(2);
                result = get("/jobs/" + id + "/checkpoints/" + request);
            }
            JsonNode operation = result.path("operation");
            if (operation.has("checkpointId")) {
                return operation.path("checkpointId").asLong();
            }
            lastFailure = operation.path("failureCause").path("stack-trace").asText("?").lines().findFirst()
                    .orElse("?");
            if (!get("/jobs/" + id).path("state").asText().equals("RUNNING")) {
                break; // the job failed or ended: no later trigger can succeed
            }
            Thread.sleep(20);
        }
        throw new IllegalStateException("the checkpoint of job " + id + " could not be taken in "
                + Math.min(attempt, TRIGGER_ATTEMPTS) + " attempts; the last failed with " + lastFailure);
    }

    private static void checkDeadline(long deadline, String message) {
        if (System.nanoTime() > deadline) {
            throw new IllegalStateException(message);
        }
    }

    /** The JSON at {@code path}, or null when the server answers 404 (statistics not there yet). */
    private JsonNode getOrNull(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        return response.statusCode() == 404 ? null : check(response);
    }

    private JsonNode get(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET().build());
    }

    private JsonNode send(HttpRequest request) throws IOException, InterruptedException {
        return check(http.send(request, HttpResponse.BodyHandlers.ofString()));
    }

    private static JsonNode check(HttpResponse<String> response) throws IOException {
        if (response.statusCode() / 100 != 2) {
            throw new IOException(response.request().method() + " " + response.request().uri() + ": HTTP "
                    + response.statusCode() + " " + response.body());
        }
        return JSON.readTree(response.body());
    }
}
