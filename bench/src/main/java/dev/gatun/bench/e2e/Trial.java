package dev.gatun.bench.e2e;

/**
 * One job run: {@code phase} is {@code warmup} or {@code trial}; rows/s come from Flink's net job
 * runtime; {@code taskCpuMillis} is the CPU time of every task thread of the job (-1 if unknown),
 * {@code sourceTaskCpuMillis} that of the source's task alone (the local phase of a two-phase
 * aggregate; the whole job when everything is chained);
 * {@code objectReuse} is whether the job ran with object reuse (its sink saw it: always on in batch
 * mode); {@code mode} is the job's {@code execution.runtime-mode}, {@link #STREAMING} or {@link #BATCH};
 * {@code stateBackend} its {@code state.backend.type} ({@link #HEAP}, Flink's default, or
 * {@code rocksdb}); {@code checkpointBytes} and {@code checkpointMillis} the size and end-to-end
 * duration of the one checkpoint taken halfway through the stream ({@code --checkpoint}), -1 without.
 */
public record Trial(String query, String engine, String phase, int index, long rows, long netMillis,
                    long wallMillis, long resultRows, String checksum, long taskCpuMillis, boolean objectReuse,
                    String mode, long sourceTaskCpuMillis, String stateBackend, long checkpointBytes,
                    long checkpointMillis) {
    public static final String STREAMING = "streaming";
    public static final String BATCH = "batch";
    /** Flink's default state backend ({@code state.backend.type: hashmap}). */
    public static final String HEAP = "heap";
    public static final String CSV_HEADER = "query,engine,phase,trial,rows,net_ms,wall_ms,rows_per_s,result_rows,"
            + "checksum,task_cpu_ms,object_reuse,execution_mode,source_task_cpu_ms,state_backend,checkpoint_bytes,"
            + "checkpoint_ms";

    public Trial {
        if (!mode.equals(STREAMING) && !mode.equals(BATCH)) {
            throw new IllegalArgumentException("execution mode is 'streaming' or 'batch', not '" + mode + "'");
        }
        if (!stateBackend.equals(HEAP) && !stateBackend.equals("rocksdb")) {
            throw new IllegalArgumentException("state backend is 'heap' or 'rocksdb', not '" + stateBackend + "'");
        }
    }

    public Trial(String query, String engine, String phase, int index, long rows, long netMillis, long wallMillis,
                 long resultRows, String checksum, long taskCpuMillis, boolean objectReuse, String mode,
                 long sourceTaskCpuMillis) {
        this(query, engine, phase, index, rows, netMillis, wallMillis, resultRows, checksum, taskCpuMillis,
                objectReuse, mode, sourceTaskCpuMillis, HEAP, -1, -1);
    }

    /** Flink's {@code state.backend.type} value of a backend as the CSV names it. */
    public static String flinkBackendType(String backend) {
        return backend.equals(HEAP) ? "hashmap" : backend;
    }

    public Trial(String query, String engine, String phase, int index, long rows, long netMillis, long wallMillis,
                 long resultRows, String checksum, long taskCpuMillis, boolean objectReuse, String mode) {
        this(query, engine, phase, index, rows, netMillis, wallMillis, resultRows, checksum, taskCpuMillis,
                objectReuse, mode, -1);
    }

    public Trial(String query, String engine, String phase, int index, long rows, long netMillis, long wallMillis,
                 long resultRows, String checksum, long taskCpuMillis, boolean objectReuse) {
        this(query, engine, phase, index, rows, netMillis, wallMillis, resultRows, checksum, taskCpuMillis,
                objectReuse, STREAMING, -1);
    }

    public Trial(String query, String engine, String phase, int index, long rows, long netMillis, long wallMillis,
                 long resultRows, String checksum) {
        this(query, engine, phase, index, rows, netMillis, wallMillis, resultRows, checksum, -1, false);
    }

    public Trial(String query, String engine, String phase, int index, long rows, long netMillis, long wallMillis,
                 long resultRows, String checksum, long taskCpuMillis) {
        this(query, engine, phase, index, rows, netMillis, wallMillis, resultRows, checksum, taskCpuMillis, false);
    }

    /** {@code on} or {@code off}, as the CSV and {@code --reuse} spell it. */
    public static String reuseLabel(boolean objectReuse) {
        return objectReuse ? "on" : "off";
    }

    public static boolean parseReuse(String label) {
        return switch (label.trim()) {
            case "on", "true" -> true;
            case "off", "false" -> false;
            default -> throw new IllegalArgumentException("object reuse is 'on' or 'off', not '" + label + "'");
        };
    }

    public String reuseLabel() {
        return reuseLabel(objectReuse);
    }

    public double rowsPerSecond() {
        return rows * 1000.0 / Math.max(netMillis, 1);
    }

    public boolean batch() {
        return mode.equals(BATCH);
    }

    public boolean measured() {
        return phase.equals("trial");
    }

    /**
     * A CSV line. The query column carries {@code @backend} for a backend other than the heap, so
     * that a query's heap and RocksDB trials pair separately in tools that read the query column only.
     */
    public String csv() {
        String queryColumn = stateBackend.equals(HEAP) ? query : query + "@" + stateBackend;
        return String.join(",", queryColumn, engine, phase, Integer.toString(index), Long.toString(rows),
                Long.toString(netMillis), Long.toString(wallMillis), String.format(java.util.Locale.ROOT, "%.1f",
                        rowsPerSecond()), Long.toString(resultRows), checksum, Long.toString(taskCpuMillis),
                reuseLabel(), mode, Long.toString(sourceTaskCpuMillis), stateBackend, Long.toString(checkpointBytes),
                Long.toString(checkpointMillis));
    }

    /**
     * A CSV line; files written before the {@code task_cpu_ms}, {@code object_reuse},
     * {@code execution_mode}, {@code source_task_cpu_ms} or checkpoint columns read as -1, off,
     * streaming, -1, heap, -1 and -1.
     */
    public static Trial parse(String line) {
        String[] f = line.split(",");
        String query = f[0].contains("@") ? f[0].substring(0, f[0].indexOf('@')) : f[0];
        return new Trial(query, f[1], f[2], Integer.parseInt(f[3]), Long.parseLong(f[4]), Long.parseLong(f[5]),
                Long.parseLong(f[6]), Long.parseLong(f[8]), f[9], f.length > 10 ? Long.parseLong(f[10]) : -1,
                f.length > 11 && parseReuse(f[11]), f.length > 12 ? f[12] : STREAMING,
                f.length > 13 ? Long.parseLong(f[13]) : -1, f.length > 14 ? f[14] : HEAP,
                f.length > 15 ? Long.parseLong(f[15]) : -1, f.length > 16 ? Long.parseLong(f[16]) : -1);
    }
}
