package dev.gatun.bench.jmh;

/**
 * The Gatun side of the JMH suite, to add as the modules land (same classes, same {@code @Param}s,
 * so every comparison is in one run). Not a benchmark; nothing here runs.
 *
 * <ul>
 *   <li>{@link EntryTransposeBench}: {@code gatun()} — {@code dev.gatun.transpose}'s entry writer
 *       for {@code batch.shape().rowType()} narrowed to {@code batch.shape().selected()}, writing
 *       {@code batch.rows()} into an arrow-ffm batch, sealed, then released (the same
 *       allocate/write/release cycle as the Arrow Java writers). Targets: ≤ 2.0× ({@code floorRead
 *       + floorCopy}) and ≥ 2.5× faster than {@code arrowJavaGrowing} on {@code bid/*}; ≤ 8 heap
 *       bytes per row ({@code -prof gc}: {@code gc.alloc.rate.norm / 4096}).
 *   <li>{@code ExitTransposeBench} (new): one imported 4096-row Bid batch; {@code columnarView()}
 *       reads every value through the exit transpose's reused columnar {@code RowData} view;
 *       {@code copyToBinaryRows()} copies each row into a {@code BinaryRowData} with
 *       {@code BinaryRowWriter} and reads it back.
 *   <li>{@link ReleaseCostBench}: once arrow-ffm's batch memory exists, {@code batchMemory()} —
 *       the production allocate/seal/export/release path for the same ten buffers.
 * </ul>
 */
final class GatunPendingBenchmarks {
    private GatunPendingBenchmarks() {}
}
