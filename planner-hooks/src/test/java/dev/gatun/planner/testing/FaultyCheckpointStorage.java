package dev.gatun.planner.testing;

import dev.gatun.planner.runtime.KeyedIslandOperator;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.runtime.state.CheckpointStateOutputStream;
import org.apache.flink.runtime.state.CheckpointStateToolset;
import org.apache.flink.runtime.state.CheckpointStorage;
import org.apache.flink.runtime.state.CheckpointStorageAccess;
import org.apache.flink.runtime.state.CheckpointStorageFactory;
import org.apache.flink.runtime.state.CheckpointStorageLocation;
import org.apache.flink.runtime.state.CheckpointStorageLocationReference;
import org.apache.flink.runtime.state.CheckpointStreamFactory;
import org.apache.flink.runtime.state.CheckpointedStateScope;
import org.apache.flink.runtime.state.CompletedCheckpointStorageLocation;
import org.apache.flink.runtime.state.StreamStateHandle;
import org.apache.flink.runtime.state.memory.ByteStreamStateHandle;
import org.apache.flink.runtime.state.storage.JobManagerCheckpointStorage;

/**
 * Flink's JobManager checkpoint storage with one injected failure in the streams of Gatun's native
 * window state: the raw keyed state streams that {@link KeyedIslandOperator#snapshotState} opens
 * (found by the caller on the stack when the stream is opened). Chosen per job through
 * configuration, so nothing in the shipped code knows about it:
 * {@code execution.checkpointing.storage: dev.gatun.planner.testing.FaultyCheckpointStorage$Factory}
 * with the options below ({@link #options}).
 *
 * <ul>
 *   <li>{@code snapshot}: once the commit sink {@code after-commit-of} has committed a checkpoint
 *       (so an earlier checkpoint exists), the first write of a native state section (a write of
 *       more than the 8 bytes of a frame header, made while the native snapshot is held) throws;
 *   <li>{@code restore}: the first read of the last 8 bytes of such a stream (a restore reads them
 *       last) throws, when the other key groups are already restored into the native handle.
 * </ul>
 *
 * Each fails once per {@code run}; {@link #injected} returns the stack of the failure.
 */
public final class FaultyCheckpointStorage implements CheckpointStorage {
    private static final long serialVersionUID = 1L;

    static final ConfigOption<String> RUN = ConfigOptions.key("gatun-test.faulty-storage.run").stringType().noDefaultValue();
    static final ConfigOption<String> MODE = ConfigOptions.key("gatun-test.faulty-storage.mode").stringType().noDefaultValue();
    static final ConfigOption<String> AFTER_COMMIT_OF =
            ConfigOptions.key("gatun-test.faulty-storage.after-commit-of").stringType().noDefaultValue();

    private static final Map<String, String> INJECTED = new ConcurrentHashMap<>();

    /** Where a failure is injected. */
    public enum Mode { SNAPSHOT, RESTORE }

    private final JobManagerCheckpointStorage delegate = new JobManagerCheckpointStorage();
    private final String run;
    private final Mode mode;
    private final String afterCommitOf;

    private FaultyCheckpointStorage(String run, Mode mode, String afterCommitOf) {
        this.run = run;
        this.mode = mode;
        this.afterCommitOf = afterCommitOf;
    }

    /** The job configuration that selects this storage. */
    public static Map<String, String> options(String run, Mode mode, String afterCommitOf) {
        return Map.of("execution.checkpointing.storage", Factory.class.getName(),
                RUN.key(), run, MODE.key(), mode.name(), AFTER_COMMIT_OF.key(), afterCommitOf);
    }

    /** The stack trace of the failure injected in {@code run}, or null if none was. */
    public static String injected(String run) {
        return INJECTED.get(run);
    }

    /** Found through {@code execution.checkpointing.storage}. */
    public static final class Factory implements CheckpointStorageFactory<FaultyCheckpointStorage> {
        @Override
        public FaultyCheckpointStorage createFromConfig(ReadableConfig config, ClassLoader classLoader) {
            return new FaultyCheckpointStorage(config.get(RUN), Mode.valueOf(config.get(MODE)),
                    config.get(AFTER_COMMIT_OF));
        }
    }

    @Override
    public CompletedCheckpointStorageLocation resolveCheckpoint(String externalPointer) throws IOException {
        return delegate.resolveCheckpoint(externalPointer);
    }

    @Override
    public CheckpointStorageAccess createCheckpointStorage(JobID jobId) throws IOException {
        return new Access(delegate.createCheckpointStorage(jobId));
    }

    private IOException inject(String what) {
        IOException failure = new IOException("injected: the checkpoint storage failed " + what + " (run " + run + ")");
        StringWriter trace = new StringWriter();
        failure.printStackTrace(new PrintWriter(trace));
        INJECTED.put(run, trace.toString());
        return failure;
    }

    private boolean armed() {
        return !INJECTED.containsKey(run) && (afterCommitOf == null || CommitSinkFactory.hasCommits(afterCommitOf));
    }

    private static boolean openedByTheNativeWindowSnapshot() {
        return StackWalker.getInstance().walk(frames -> frames.anyMatch(
                f -> f.getClassName().equals(KeyedIslandOperator.class.getName())));
    }

    private final class Access implements CheckpointStorageAccess {
        private final CheckpointStorageAccess access;

        Access(CheckpointStorageAccess access) {
            this.access = access;
        }

        @Override
        public CheckpointStreamFactory resolveCheckpointStorageLocation(
                long checkpointId, CheckpointStorageLocationReference reference) throws IOException {
            CheckpointStreamFactory streams = access.resolveCheckpointStorageLocation(checkpointId, reference);
            return new CheckpointStreamFactory() {
                @Override
                public CheckpointStateOutputStream createCheckpointStateOutputStream(CheckpointedStateScope scope)
                        throws IOException {
                    CheckpointStateOutputStream out = streams.createCheckpointStateOutputStream(scope);
                    return openedByTheNativeWindowSnapshot() ? new NativeStateStream(out) : out;
                }

                @Override
                public boolean canFastDuplicate(StreamStateHandle handle, CheckpointedStateScope scope)
                        throws IOException {
                    return streams.canFastDuplicate(handle, scope);
                }

                @Override
                public List<StreamStateHandle> duplicate(List<StreamStateHandle> handles, CheckpointedStateScope scope)
                        throws IOException {
                    return streams.duplicate(handles, scope);
                }
            };
        }

        @Override
        public CheckpointStateOutputStream createTaskOwnedStateStream() throws IOException {
            return access.createTaskOwnedStateStream();
        }

        @Override
        public CheckpointStateToolset createTaskOwnedCheckpointStateToolset() {
            return access.createTaskOwnedCheckpointStateToolset();
        }

        @Override
        public boolean supportsHighlyAvailableStorage() {
            return access.supportsHighlyAvailableStorage();
        }

        @Override
        public boolean hasDefaultSavepointLocation() {
            return access.hasDefaultSavepointLocation();
        }

        @Override
        public CompletedCheckpointStorageLocation resolveCheckpoint(String externalPointer) throws IOException {
            return access.resolveCheckpoint(externalPointer);
        }

        @Override
        public void initializeBaseLocationsForCheckpoint() throws IOException {
            access.initializeBaseLocationsForCheckpoint();
        }

        @Override
        public CheckpointStorageLocation initializeLocationForCheckpoint(long checkpointId) throws IOException {
            return access.initializeLocationForCheckpoint(checkpointId);
        }

        @Override
        public CheckpointStorageLocation initializeLocationForSavepoint(long checkpointId, String externalLocationPointer)
                throws IOException {
            return access.initializeLocationForSavepoint(checkpointId, externalLocationPointer);
        }
    }

    /** The raw keyed state stream of the native window state. */
    private final class NativeStateStream extends CheckpointStateOutputStream {
        private final CheckpointStateOutputStream out;

        NativeStateStream(CheckpointStateOutputStream out) {
            this.out = out;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (mode == Mode.SNAPSHOT && len > 8 && armed()) {
                throw inject("while writing native window state");
            }
            out.write(b, off, len);
        }

        @Override
        public long getPos() throws IOException {
            return out.getPos();
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public void sync() throws IOException {
            out.sync();
        }

        @Override
        public void close() throws IOException {
            out.close();
        }

        @Override
        public StreamStateHandle closeAndGetHandle() throws IOException {
            StreamStateHandle handle = out.closeAndGetHandle();
            if (mode == Mode.RESTORE && handle instanceof ByteStreamStateHandle bytes) {
                return new FailingOnRestore(bytes.getHandleName(), bytes.getData(), run);
            }
            return handle;
        }
    }

    /**
     * Native window state whose first restore fails at its last key group. A {@code ByteStreamStateHandle}, so that
     * checkpoint metadata (which knows only Flink's handle types) still serializes it.
     */
    private static final class FailingOnRestore extends ByteStreamStateHandle {
        private static final long serialVersionUID = 1L;
        private final String run;

        FailingOnRestore(String name, byte[] data, String run) {
            super(name, data);
            this.run = run;
        }

        @Override
        public Optional<byte[]> asBytesIfInMemory() {
            return Optional.empty(); // every read goes through openInputStream
        }

        @Override
        public FSDataInputStream openInputStream() throws IOException {
            FSDataInputStream in = super.openInputStream();
            // the last key group's frame: the native handle holds every other key group's state by then
            long last = getStateSize() - 8;
            return new FSDataInputStream() {
                @Override
                public void seek(long desired) throws IOException {
                    in.seek(desired);
                }

                @Override
                public long getPos() throws IOException {
                    return in.getPos();
                }

                @Override
                public int read() throws IOException {
                    check();
                    return in.read();
                }

                @Override
                public int read(byte[] b, int off, int len) throws IOException {
                    check();
                    return in.read(b, off, len);
                }

                private void check() throws IOException {
                    if (in.getPos() >= last && !INJECTED.containsKey(run)) {
                        IOException failure = new IOException(
                                "injected: reading the native window state failed (run " + run + ")");
                        StringWriter trace = new StringWriter();
                        failure.printStackTrace(new PrintWriter(trace));
                        if (INJECTED.putIfAbsent(run, trace.toString()) == null) {
                            throw failure;
                        }
                    }
                }

                @Override
                public void close() throws IOException {
                    in.close();
                }
            };
        }
    }
}
