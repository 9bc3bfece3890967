package dev.gatun.bench.nexmark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource.NumberSequenceSplit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.metrics.groups.SourceReaderMetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.util.UserCodeClassLoader;
import org.junit.jupiter.api.Test;

class TightLoopGeneratorSourceTest {

    @Test
    void everyPollEmitsOneRecordUntilTheEndWithoutWaitingForTheMailbox() throws Exception {
        TightLoopGeneratorSource<Long> source = new TightLoopGeneratorSource<>(i -> i * 10, 5, Types.LONG);
        List<Long> emitted = new ArrayList<>();
        List<InputStatus> statuses = new ArrayList<>();
        try (SourceReader<Long, NumberSequenceSplit> reader = source.createReader(new Context())) {
            reader.start();
            reader.addSplits(List.of(new NumberSequenceSplit("0", 0, 4)));
            reader.notifyNoMoreSplits();
            InputStatus status;
            do {
                status = reader.pollNext(new Collecting(emitted));
                statuses.add(status);
            } while (status == InputStatus.MORE_AVAILABLE && statuses.size() < 20);
        }
        assertEquals(List.of(0L, 10L, 20L, 30L, 40L), emitted);
        // Flink's DataGeneratorSource answers "nothing available" after every record.
        assertEquals(List.of(InputStatus.MORE_AVAILABLE, InputStatus.MORE_AVAILABLE, InputStatus.MORE_AVAILABLE,
                InputStatus.MORE_AVAILABLE, InputStatus.MORE_AVAILABLE, InputStatus.END_OF_INPUT), statuses);
    }

    private record Collecting(List<Long> into) implements ReaderOutput<Long> {
        @Override
        public void collect(Long record) {
            into.add(record);
        }

        @Override
        public void collect(Long record, long timestamp) {
            into.add(record);
        }

        @Override
        public void emitWatermark(Watermark watermark) {}

        @Override
        public void markIdle() {}

        @Override
        public void markActive() {}

        @Override
        public SourceOutput<Long> createOutputForSplit(String splitId) {
            return this;
        }

        @Override
        public void releaseOutputForSplit(String splitId) {}
    }

    private static final class Context implements SourceReaderContext {
        @Override
        public SourceReaderMetricGroup metricGroup() {
            return UnregisteredMetricsGroup.createSourceReaderMetricGroup();
        }

        @Override
        public Configuration getConfiguration() {
            return new Configuration();
        }

        @Override
        public String getLocalHostName() {
            return "localhost";
        }

        @Override
        public int getIndexOfSubtask() {
            return 0;
        }

        @Override
        public void sendSplitRequest() {}

        @Override
        public void sendSourceEventToCoordinator(org.apache.flink.api.connector.source.SourceEvent sourceEvent) {}

        @Override
        public UserCodeClassLoader getUserCodeClassLoader() {
            ClassLoader loader = getClass().getClassLoader();
            return new UserCodeClassLoader() {
                @Override
                public ClassLoader asClassLoader() {
                    return loader;
                }

                @Override
                public void registerReleaseHookIfAbsent(String name, Runnable hook) {}
            };
        }

        @Override
        public int currentParallelism() {
            return 1;
        }
    }
}
