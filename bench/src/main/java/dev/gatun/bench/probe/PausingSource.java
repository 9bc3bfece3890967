package dev.gatun.bench.probe;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * A source that stops after {@code pauseAfter} records of each reader until a checkpoint taken
 * there has completed, so that both engines' checkpoints cover exactly the same prefix of the
 * stream ({@link CheckpointProbe} triggers it when {@link #paused} says so). The reader is the
 * wrapped one otherwise: one counter per record, no rate limiter in the hot path.
 */
public final class PausingSource<T, S extends SourceSplit, E> implements Source<T, S, E> {
    private static final long serialVersionUID = 1L;
    /** Readers paused now, by gate key (the benchmark runs its jobs in this JVM). */
    private static final Map<String, Boolean> PAUSED = new ConcurrentHashMap<>();

    private final Source<T, S, E> source;
    private final String key;
    private final long pauseAfter;

    public PausingSource(Source<T, S, E> source, String key, long pauseAfter) {
        this.source = source;
        this.key = key;
        this.pauseAfter = pauseAfter;
    }

    /** Whether a reader of {@code key} waits for a checkpoint now. */
    public static boolean paused(String key) {
        return PAUSED.getOrDefault(key, false);
    }

    @Override
    public Boundedness getBoundedness() {
        return source.getBoundedness();
    }

    @Override
    public SplitEnumerator<S, E> createEnumerator(SplitEnumeratorContext<S> context) throws Exception {
        return source.createEnumerator(context);
    }

    @Override
    public SplitEnumerator<S, E> restoreEnumerator(SplitEnumeratorContext<S> context, E checkpoint) throws Exception {
        return source.restoreEnumerator(context, checkpoint);
    }

    @Override
    public SimpleVersionedSerializer<S> getSplitSerializer() {
        return source.getSplitSerializer();
    }

    @Override
    public SimpleVersionedSerializer<E> getEnumeratorCheckpointSerializer() {
        return source.getEnumeratorCheckpointSerializer();
    }

    @Override
    public SourceReader<T, S> createReader(SourceReaderContext context) throws Exception {
        long share = pauseAfter / context.currentParallelism();
        return new Reader<>(source.createReader(context), key, share);
    }

    private static final class Reader<T, S extends SourceSplit> implements SourceReader<T, S> {
        private final SourceReader<T, S> reader;
        private final String key;
        private long left;
        private CompletableFuture<Void> resumed;

        Reader(SourceReader<T, S> reader, String key, long pauseAfter) {
            this.reader = reader;
            this.key = key;
            this.left = pauseAfter;
        }

        @Override
        public void start() {
            reader.start();
        }

        @Override
        public InputStatus pollNext(ReaderOutput<T> output) throws Exception {
            if (left == 0) {
                if (resumed == null) {
                    resumed = new CompletableFuture<>();
                    PAUSED.put(key, true);
                }
                return InputStatus.NOTHING_AVAILABLE;
            }
            InputStatus status = reader.pollNext(output);
            if (left > 0) {
                left--;
            }
            return status;
        }

        @Override
        public CompletableFuture<Void> isAvailable() {
            return left == 0 ? (resumed == null ? CompletableFuture.completedFuture(null) : resumed)
                    : reader.isAvailable();
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) throws Exception {
            reader.notifyCheckpointComplete(checkpointId);
            if (resumed != null) {
                left = -1; // one pause per job
                PAUSED.remove(key);
                resumed.complete(null);
                resumed = null;
            }
        }

        @Override
        public List<S> snapshotState(long checkpointId) {
            return reader.snapshotState(checkpointId);
        }

        @Override
        public void addSplits(List<S> splits) {
            reader.addSplits(splits);
        }

        @Override
        public void notifyNoMoreSplits() {
            reader.notifyNoMoreSplits();
        }

        @Override
        public void close() throws Exception {
            PAUSED.remove(key);
            reader.close();
        }
    }
}
