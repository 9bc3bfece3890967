package dev.gatun.bench.nexmark;

import java.util.Collection;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource.NumberSequenceSplit;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratingIteratorSourceReader;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * A bounded generator source that emits in a tight loop, as the Nexmark benchmark's own source
 * does: {@link DataGeneratorSource}'s splits, enumerator and checkpoints, but its reader without the
 * {@code RateLimitedSourceReader} that {@code DataGeneratorSource} always puts around it. That
 * wrapper answers every record with "nothing available" and two futures even with no rate limit:
 * a mailbox round trip per record, paid by both engines alike, that the benchmark's source does
 * not have.
 */
public final class TightLoopGeneratorSource<T>
        implements Source<T, NumberSequenceSplit, Collection<NumberSequenceSplit>> {
    private static final long serialVersionUID = 1L;

    private final DataGeneratorSource<T> splits;

    public TightLoopGeneratorSource(GeneratorFunction<Long, T> generator, long count, TypeInformation<T> type) {
        this.splits = new DataGeneratorSource<>(generator, count, type);
    }

    @Override
    public Boundedness getBoundedness() {
        return splits.getBoundedness();
    }

    @Override
    public SourceReader<T, NumberSequenceSplit> createReader(SourceReaderContext context) {
        return new GeneratingIteratorSourceReader<>(context, splits.getGeneratorFunction());
    }

    @Override
    public SplitEnumerator<NumberSequenceSplit, Collection<NumberSequenceSplit>> createEnumerator(
            SplitEnumeratorContext<NumberSequenceSplit> context) {
        return splits.createEnumerator(context);
    }

    @Override
    public SplitEnumerator<NumberSequenceSplit, Collection<NumberSequenceSplit>> restoreEnumerator(
            SplitEnumeratorContext<NumberSequenceSplit> context, Collection<NumberSequenceSplit> checkpoint) {
        return splits.restoreEnumerator(context, checkpoint);
    }

    @Override
    public SimpleVersionedSerializer<NumberSequenceSplit> getSplitSerializer() {
        return splits.getSplitSerializer();
    }

    @Override
    public SimpleVersionedSerializer<Collection<NumberSequenceSplit>> getEnumeratorCheckpointSerializer() {
        return splits.getEnumeratorCheckpointSerializer();
    }
}
