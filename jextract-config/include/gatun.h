/*
 * Gatun native C ABI. The Rust cdylib in native/ implements it; the Java bindings in
 * ffm-bindings are generated from it (jextract shape) and checked against it by the
 * layout-conformance test.
 *
 * Conventions (docs/architecture.md):
 *  - every function returns a status code (GATUN_OK or a GATUN_ERR_*), except
 *    gatun_abi_version;
 *  - on failure the message is copied, NUL-terminated and truncated at a UTF-8
 *    boundary, into the caller-owned buffer (err_buf, err_cap); err_buf may be NULL;
 *    on GATUN_OK the buffer is not touched;
 *  - GATUN_ERR_INVALID_ARGUMENT covers NULL, misaligned or already-released struct
 *    pointers, and names the argument;
 *  - a Rust panic is caught inside the call and reported as GATUN_ERR_PANIC;
 *  - Arrow structs follow the C Data Interface: an input ArrowArray is moved in
 *    (its release is set to NULL when consumed); output structs are allocated by
 *    the caller and filled by the callee; any struct whose release is still
 *    non-NULL after a call belongs to the caller.
 */
#ifndef GATUN_H
#define GATUN_H

#include <stddef.h>
#include <stdint.h>
#include "arrow_c_data.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped on every incompatible change of this header. */
#define GATUN_ABI_VERSION 10

#define GATUN_OK 0
#define GATUN_ERR_INVALID_ARGUMENT 1
#define GATUN_ERR_ARROW 2
#define GATUN_ERR_PLAN 3
#define GATUN_ERR_EXECUTION 4
#define GATUN_ERR_PANIC 5

/* gatun_operator_create kinds. */
#define GATUN_OPERATOR_CALC 1
#define GATUN_OPERATOR_LOCAL_AGGREGATE 2
#define GATUN_OPERATOR_WINDOW_AGGREGATE 3

/* gatun_operator_create output formats. */
#define GATUN_OUTPUT_ARROW 0
#define GATUN_OUTPUT_FLINK_ROWS 1

/* Live native resources, for leak checks. */
typedef struct GatunNativeStats {
  int64_t live_handles;          /* native handles created and not yet freed */
  int64_t live_exported_arrays;  /* ArrowArrays exported by Rust, not yet released */
  int64_t live_exported_schemas; /* ArrowSchemas exported by Rust, not yet released */
  int64_t allocated_bytes;       /* bytes held by this library's Rust heap (not Java's buffers) */
  int64_t peak_allocated_bytes;  /* high-water mark of allocated_bytes for the process */
} GatunNativeStats;

/* The GATUN_ABI_VERSION this library was built from. */
uint32_t gatun_abi_version(void);

/* Fills *out with the current counters. */
int32_t gatun_native_stats(GatunNativeStats* out, char* err_buf, size_t err_cap);

/*
 * Native oracle: moves in_array in (described by in_schema, which stays the
 * caller's), imports it with arrow-rs, validates it fully (buffers, offsets, UTF-8,
 * children) and exports it back into the caller-allocated out_schema/out_array
 * without copying values. The output keeps the input alive; releasing the output
 * releases the input. Whenever in_array is non-NULL and not yet released it is
 * consumed, even if another argument is then rejected, so on failure it has been
 * released; a NULL or released in_array is not touched.
 */
int32_t gatun_roundtrip(const struct ArrowSchema* in_schema, struct ArrowArray* in_array,
                        struct ArrowSchema* out_schema, struct ArrowArray* out_array,
                        char* err_buf, size_t err_cap);

/*
 * Pass-through: the bare crossing (benchmarks). The handle keeps the schema (a
 * struct "+s" schema for a batch, or any other type; borrowed at create: schemas
 * cross once). gatun_passthrough
 * moves input in (consumed on every path, like gatun_roundtrip), checks its shape
 * against the schema and imports it like gatun_operator_process (no copy), then exports
 * the same buffers into the caller-allocated output (release it once). Values are
 * never read: there is no full validation, unlike gatun_roundtrip. Handles count as
 * live handles; NULL, freed or unknown handles are GATUN_ERR_INVALID_ARGUMENT.
 */
typedef struct GatunPassthrough GatunPassthrough;

int32_t gatun_passthrough_create(const struct ArrowSchema* schema, GatunPassthrough** out,
                                 char* err_buf, size_t err_cap);

int32_t gatun_passthrough(GatunPassthrough* passthrough, struct ArrowArray* input,
                          struct ArrowArray* output, char* err_buf, size_t err_cap);

int32_t gatun_passthrough_free(GatunPassthrough* passthrough, char* err_buf, size_t err_cap);

/*
 * Operator: one native operator handle for every kind (GATUN_OPERATOR_*), compiled once
 * for one input schema and fed batch by batch. A kind that buffers rows (aggregates)
 * emits them when it has some and on gatun_operator_flush.
 *
 * Calls on one handle take turns (a call waits for the one in progress); freeing a
 * handle during a call is not allowed. NULL, freed or unknown handles are
 * GATUN_ERR_INVALID_ARGUMENT naming the argument `op`. After a GATUN_ERR_PANIC inside
 * a kind, every later process/flush of that handle fails with GATUN_ERR_EXECUTION (its
 * state is unknown); it can still be freed.
 */
typedef struct GatunOperator GatunOperator;

/*
 * The state of Flink's WatermarkAssignerOperator across the batches of one operator
 * whose plan assigns watermarks (see GATUN_OPERATOR_CALC). The caller keeps it between
 * calls; gatun_operator_process updates it in place on success only.
 */
typedef struct GatunWatermarkProgress {
  int64_t current;   /* in/out: the highest watermark seen so far (currentWatermark; starts at 0) */
  int64_t last;      /* in/out: the last watermark emitted (lastWatermark; starts at 0) */
  int64_t interval;  /* in: pipeline.auto-watermark-interval in ms (may be 0) */
  int64_t after;     /* out: a watermark to emit after the last output row of this batch, or INT64_MIN for none */
  int64_t mini_batch_next; /* in/out: an absorbed row-time mini-batch assigner's nextWatermark (else ignored) */
} GatunWatermarkProgress;

/*
 * Compiles an operator of `kind` (GATUN_OPERATOR_*; any other value:
 * GATUN_ERR_INVALID_ARGUMENT).
 *
 * plan/plan_len: for GATUN_OPERATOR_CALC a serialized Substrait ExtendedExpression (spec 0.77.0, the Rust
 * `substrait` crate 0.62.2 of datafusion-substrait 53.1, the same spec as io.substrait:core
 * 0.73.0; pinned in native/admission/substrait-spec-version). base_schema describes the
 * input without the row-kind column. Only admitted constructs and functions compile
 * (native/admission/functions.json); anything else fails with GATUN_ERR_PLAN naming the
 * column and the expression.
 *
 * GATUN_OPERATOR_CALC, a Flink Calc (projections + optional filter), optionally preceded
 * by Flink's WatermarkAssignerOperator: referred_expr lists the projections in output
 * order, each named by output_names[0]. Three names in the "gatun." namespace are not
 * output columns (anywhere in the list, each at most once; any other "gatun." name is
 * GATUN_ERR_PLAN):
 *  - "gatun.filter": the filter, BOOLEAN;
 *  - "gatun.rowtime" and "gatun.watermark", both or neither, each Timestamp(ms) with no
 *    zone or zone "UTC": the plan assigns watermarks. Per batch, over ALL input rows in
 *    order and before the filter (as Flink's WatermarkAssignerOperator sees them), row i:
 *    a NULL rowtime fails the call with GATUN_ERR_EXECUTION and Flink's message
 *    "RowTime field should not be null, please convert it to a non-null long value.";
 *    a non-NULL watermark value w raises current to max(current, w); the row is emitted
 *    if the filter selects it; then if current - last > interval (two's complement
 *    wrap-around, as Java's long) and current > last, last = current and the watermark
 *    current is emitted after that row. The emissions come back relative to the output
 *    rows: the result has one more column, last, the nullable Int64 "__gatun_watermark",
 *    whose value j is the watermark to emit BEFORE output row j (several watermarks with
 *    no output row between them collapse into the last), NULL for none; a watermark
 *    emitted after the batch's last output row goes to progress->after (INT64_MIN for
 *    none).
 *
 * GATUN_OPERATOR_LOCAL_AGGREGATE, Flink's local (pre-shuffle) phase of a two-phase
 * group aggregate with the Calc below it: plan/plan_len is a serialized Substrait Plan
 * whose one RelRoot is an AggregateRel over an optional ProjectRel (the Calc's
 * projections) over an optional FilterRel (the Calc's filter) over a ReadRel whose
 * base_schema describes the input. Group keys, measure arguments and measure FILTERs
 * are field references into the AggregateRel's input; one grouping set (none for a
 * global aggregate); measures are count (no argument: COUNT(*)), count, sum, avg, min,
 * max, each in phase AGGREGATION_PHASE_INITIAL_TO_INTERMEDIATE, invocation ALL, no sorts
 * (anything else: GATUN_ERR_PLAN naming the measure). The output row is the group keys,
 * then each measure's accumulators in Flink's local layout (AVG: sum and count;
 * docs/native.md "Aggregation kernel"); RelRoot.names, when given, and the expected
 * output schema name them, and their types must equal the expected ones. The input must
 * be insert-only (no row-kind column) and the plan assigns no watermarks.
 * The AggregateRel's advanced_extension may carry one optimization, a
 * google.protobuf.UInt64Value: Flink's bundle size. gatun_operator_process folds each
 * batch into the groups and writes output only when bundles ended in it (the groups of
 * each, in order, every time that many rows reached the aggregate past the filter);
 * gatun_operator_flush emits one row per group and starts over.
 * A local WINDOW aggregate (Flink's local phase of a two-phase window aggregate over a
 * TUMBLE, HOP or CUMULATE window on event time) has the AggregateRel's
 * advanced_extension.enhancement, an Any of type "type.gatun.dev/gatun.WindowSlicing"
 * (message in native/src/ops/local_aggregate/window_plan.rs: window kind, size, step,
 * offset, the rowtime's input column and the session zone's offset transitions for
 * TIMESTAMP_LTZ rowtimes) and no bundle size: each row (past the filter) is assigned to
 * a slice as Flink's SliceAssigners do (a NULL rowtime is GATUN_ERR_EXECUTION with
 * Flink's message), the slice end is grouped on after the keys and emitted last as the
 * BIGINT "$slice_end"; its groups leave on gatun_operator_advance and _flush.
 *
 * GATUN_OPERATOR_WINDOW_AGGREGATE, Flink's window aggregate over a TUMBLE, HOP or CUMULATE
 * window on event time with its state in native memory: a plan shaped like a local
 * aggregate's with the WindowSlicing enhancement, which also lists the window properties
 * to emit (field 10: 1 window_start, 2 window_end, 3 window_time), the COUNT(*) measure
 * that tells empty windows (field 11: its index + 1, 0 for none) and whether Flink inserted
 * it (field 12: not emitted). All measures have one phase:
 * AGGREGATION_PHASE_INTERMEDIATE_TO_RESULT (the global phase of a two-phase window
 * aggregate: the input is the local phase's output, each argument one of the call's
 * accumulator columns (AVG: sum, then count), the time column its "$slice_end", no FILTER)
 * or AGGREGATION_PHASE_INITIAL_TO_RESULT (one phase: arguments and FILTERs as a local
 * aggregate's, the time column the rowtime). The output row is the group keys, each
 * emitted measure's final value in Flink's result type, then the window properties
 * (TIMESTAMP(3) as Timestamp(ms) without zone; window_time of a TIMESTAMP_LTZ rowtime as
 * Timestamp(ms, "UTC")). gatun_operator_process folds each batch into the state and writes
 * no output; a row whose slice has fired for the progress (the highest watermark passed to
 * gatun_operator_advance) is dropped as Flink drops late rows. gatun_operator_advance fires
 * every window whose timer is at or before the watermark, in timer order, with Flink's
 * slice merging, and frees the slices no window needs; gatun_operator_flush writes nothing.
 *
 * input_schema: the input batches' struct ("+s") schema; borrowed for the call. A
 * top-level Int8 field "__gatun_row_kind" is the row-kind sidecar: never referenced
 * by the plan, filtered with its rows and appended after the output columns.
 * expected_output_schema: the output row type as Java computed it ("+s", borrowed,
 * without the row-kind and watermark columns); each projection's derived Arrow type
 * must equal the expected one (GATUN_ERR_PLAN naming the column and both types
 * otherwise): Rust never coerces.
 * output_format: how result batches come back (any other value:
 * GATUN_ERR_INVALID_ARGUMENT):
 *  - GATUN_OUTPUT_ARROW: one column per projection, then the row-kind column when the
 *    input has one, then "__gatun_watermark" when the plan assigns watermarks;
 *  - GATUN_OUTPUT_FLINK_ROWS: one non-null Binary column "__gatun_flink_row" whose value
 *    i is output row i in Flink's BinaryRowData format (the bytes Flink's BinaryRowWriter
 *    writes into fresh memory, little-endian; the row kind in header byte 0, INSERT
 *    without a row-kind column; docs/native.md), then "__gatun_watermark" when the plan
 *    assigns watermarks. Only flat types are encoded: an output column of a nested type
 *    (ARRAY, MAP, MULTISET, ROW) fails with GATUN_ERR_PLAN naming it.
 * out_schema (caller-allocated, filled on success, released by the caller): the
 * actual output schema: the expected names, nullability and metadata with the derived
 * types, and the extra columns above.
 * out_operator receives the handle on success (live handle count + 1); on failure
 * neither out_schema nor out_operator is written.
 */
int32_t gatun_operator_create(uint32_t kind, const uint8_t* plan, size_t plan_len,
                              const struct ArrowSchema* input_schema,
                              const struct ArrowSchema* expected_output_schema,
                              int32_t output_format,
                              struct ArrowSchema* out_schema, GatunOperator** out_operator,
                              char* err_buf, size_t err_cap);

/*
 * Processes one batch: input is a struct array of the handle's input schema, moved in
 * and consumed on every path (like gatun_roundtrip), imported without copying and
 * checked against the input schema (GATUN_ERR_ARROW naming the field).
 * progress: NULL unless the plan assigns watermarks, then required (a mismatch either
 * way is GATUN_ERR_INVALID_ARGUMENT); current and last are updated in place and after
 * is written on success; on failure it is not written.
 * output (caller-allocated, release NULL on entry): written only when the operator
 * emits rows for this input (release it once); its release stays NULL otherwise.
 * GATUN_OPERATOR_CALC always writes it: the filter (NULL = FALSE), then the
 * projections on the remaining rows, with Flink's row-wise AND/OR/CASE
 * short-circuiting; a filter that drops every row gives a valid 0-row batch, and a Calc
 * without columns keeps the row count (as rows of an empty fixed part in the Flink-rows
 * format). A runtime error (e.g. integer division by zero, where Flink raises) returns
 * GATUN_ERR_EXECUTION naming the column and expression; output is then not written.
 */
int32_t gatun_operator_process(GatunOperator* op, struct ArrowArray* input,
                               GatunWatermarkProgress* progress,
                               struct ArrowArray* output, char* err_buf, size_t err_cap);

/*
 * Emits and resets what a buffering kind (aggregates) holds: output (caller-allocated,
 * release NULL on entry) is written only when there are rows. GATUN_OPERATOR_CALC
 * buffers nothing and writes nothing.
 */
int32_t gatun_operator_flush(GatunOperator* op, struct ArrowArray* output,
                             char* err_buf, size_t err_cap);

/*
 * A watermark reached the operator, after every batch before it: emits what the kind must
 * emit before the watermark passes on; output (caller-allocated, release NULL on entry) is
 * written only when there are rows. GATUN_OPERATOR_LOCAL_AGGREGATE without a window:
 * everything (as gatun_operator_flush; Flink's local group aggregate ends its bundle
 * before every watermark). With a window: the groups, only when Flink's local window
 * buffer would flush them (the watermark is above every earlier one, which start at 0,
 * and at or past the next trigger point, and the earliest buffered slice has fired).
 * GATUN_OPERATOR_CALC writes nothing.
 */
int32_t gatun_operator_advance(GatunOperator* op, int64_t watermark, struct ArrowArray* output,
                               char* err_buf, size_t err_cap);

/*
 * *out_bytes: the bytes the operator holds between calls (a local aggregate's groups and
 * accumulators; 0 for GATUN_OPERATOR_CALC), for the native memory budget.
 */
int32_t gatun_operator_held_bytes(GatunOperator* op, int64_t* out_bytes,
                                  char* err_buf, size_t err_cap);

/*
 * The native state of an operator (GATUN_OPERATOR_WINDOW_AGGREGATE), for metrics.
 */
typedef struct GatunStateStats {
  int64_t keys;       /* distinct group keys holding state */
  int64_t slices;     /* (key, slice) entries holding accumulators */
  int64_t bytes;      /* bytes of native state (also counted by gatun_operator_held_bytes) */
  int64_t late_rows;  /* input rows dropped as late since the handle was created (rows whose
                         last window had fired: Flink's numLateRecordsDropped) */
  int64_t progress;   /* the watermark progress: the highest watermark passed to
                         gatun_operator_advance, or the restored one; INT64_MIN before either */
} GatunStateStats;

/*
 * GATUN_OPERATOR_WINDOW_AGGREGATE only (any other kind: GATUN_ERR_INVALID_ARGUMENT naming
 * the kind). Writes the state for the key groups of max_parallelism (1..32768, else
 * GATUN_ERR_INVALID_ARGUMENT) into output (caller-allocated, release NULL on entry, always
 * written on success, release it once): a struct array of two non-null columns, "key_group"
 * Int32 and "state" Binary, one row per key group that holds state, ascending by key group.
 * Each value is a self-describing section (docs/native.md "Window state format"): a header
 * (magic, format version, a fingerprint and a readable description of the state layout, the
 * operator's watermark progress), then an Arrow IPC stream of the state rows (accumulators
 * per key and slice, and the pending window timers per key).
 * The key group of a key is Flink's for the operator's key selector: the key's fields encoded
 * as the BinaryRowData that Flink's BinaryRowDataKeySelector produces (BinaryRowWriter into
 * fresh memory), its hashCode (MurmurHashUtil.hashByWords over the row's bytes), then
 * KeyGroupRangeAssignment.computeKeyGroupForKeyHash (MathUtils.murmurHash(hash) %
 * max_parallelism). The state is unchanged.
 */
int32_t gatun_operator_snapshot(GatunOperator* op, int32_t max_parallelism,
                                struct ArrowArray* output, char* err_buf, size_t err_cap);

/*
 * GATUN_OPERATOR_WINDOW_AGGREGATE only. Adds one section (section/section_len, borrowed)
 * written by gatun_operator_snapshot of an operator with the same state layout, possibly
 * another subtask's at another parallelism; the progress becomes the lowest of the restored
 * sections' and of a progress set by gatun_operator_restore_progress. A wrong magic, an unknown
 * version, a truncated or corrupt section or a different layout fails with
 * GATUN_ERR_INVALID_ARGUMENT naming what differs (for a layout, both descriptions); the
 * operator must then be freed. Restored windows fire exactly as they would have in the
 * operator that wrote them: none fires twice and none is lost.
 */
int32_t gatun_operator_restore(GatunOperator* op, const uint8_t* section, size_t section_len,
                               char* err_buf, size_t err_cap);

/*
 * GATUN_OPERATOR_WINDOW_AGGREGATE only (any other kind: GATUN_ERR_INVALID_ARGUMENT): the
 * progress a restored operator continues from, in place of the lowest of the restored
 * sections' (sections restored afterwards can only lower it). Flink restores its window
 * operator's watermark as the lowest of EVERY subtask's, kept in union operator state, so
 * that a subtask which receives no section still drops the rows of windows that fired before
 * the snapshot; the caller keeps the progress the same way (gatun_operator_state_stats
 * reports it) and passes the restored one here, before the first process or advance.
 */
int32_t gatun_operator_restore_progress(GatunOperator* op, int64_t progress, char* err_buf,
                                        size_t err_cap);

/*
 * GATUN_OPERATOR_WINDOW_AGGREGATE only: a bound on the native state's bytes (INT64_MAX, the
 * default: none; negative: GATUN_ERR_INVALID_ARGUMENT). A later gatun_operator_process that
 * grows the state beyond it fails with GATUN_ERR_EXECUTION naming the bound, the bytes and
 * the key (its values as text) whose row crossed it.
 */
int32_t gatun_operator_limit_state(GatunOperator* op, int64_t max_bytes, char* err_buf,
                                   size_t err_cap);

/* Fills *out with the operator's native state (for kinds without state: zeros, progress
 * INT64_MIN). */
int32_t gatun_operator_state_stats(GatunOperator* op, GatunStateStats* out, char* err_buf,
                                   size_t err_cap);

/* Frees a live handle exactly once (live handle count - 1). NULL, freed or unknown
 * pointers: GATUN_ERR_INVALID_ARGUMENT. */
int32_t gatun_operator_free(GatunOperator* op, char* err_buf, size_t err_cap);

#ifdef __cplusplus
}
#endif

#endif /* GATUN_H */
