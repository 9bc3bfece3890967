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
#define GATUN_ABI_VERSION 4

#define GATUN_OK 0
#define GATUN_ERR_INVALID_ARGUMENT 1
#define GATUN_ERR_ARROW 2
#define GATUN_ERR_PLAN 3
#define GATUN_ERR_EXECUTION 4
#define GATUN_ERR_PANIC 5

/* gatun_calc_create output formats. */
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
 * against the schema and imports it like gatun_calc_evaluate (no copy), then exports
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
 * Calc: a Flink Calc (projections + optional filter) compiled once, evaluated per batch.
 *
 * plan/plan_len: a serialized Substrait ExtendedExpression (spec 0.77.0, the Rust
 * `substrait` crate 0.62.2 of datafusion-substrait 53.1, the same spec as io.substrait:core
 * 0.73.0; pinned in native/admission/substrait-spec-version). referred_expr lists the
 * projections in output order, each named by output_names[0]; the filter, if any, is
 * one more BOOLEAN expression named exactly "gatun.filter" (anywhere in the list; not
 * an output column). base_schema describes the input without the row-kind column.
 * Only admitted constructs and functions compile (native/admission/functions.json);
 * anything else fails with GATUN_ERR_PLAN naming the column and the expression.
 *
 * input_schema: the input batches' struct ("+s") schema; borrowed for the call. A
 * top-level Int8 field "__gatun_row_kind" is the row-kind sidecar: never referenced
 * by the plan, filtered with its rows and appended as the LAST output column.
 * expected_output_schema: the Calc's row type as Java computed it ("+s", borrowed,
 * without the row-kind column); each projection's derived Arrow type must equal the
 * expected one (GATUN_ERR_PLAN naming the column and both types otherwise): Rust
 * never coerces.
 * output_format: how result batches come back (any other value:
 * GATUN_ERR_INVALID_ARGUMENT):
 *  - GATUN_OUTPUT_ARROW: one column per projection, plus the row-kind column last
 *    when the input has one;
 *  - GATUN_OUTPUT_FLINK_ROWS: exactly one non-null Binary column "__gatun_flink_row"
 *    whose value i is output row i in Flink's BinaryRowData format (the bytes
 *    Flink's BinaryRowWriter writes into fresh memory, little-endian; the row kind in
 *    header byte 0, INSERT without a row-kind column; docs/native.md). Only flat
 *    types are encoded: an output column of a nested type (ARRAY, MAP, MULTISET,
 *    ROW) fails with GATUN_ERR_PLAN naming it.
 * out_schema (caller-allocated, filled on success, released by the caller): the
 * actual output schema: for GATUN_OUTPUT_ARROW the expected names, nullability and
 * metadata with the derived types, plus the row-kind field when the input has one;
 * for GATUN_OUTPUT_FLINK_ROWS the one Binary field.
 * out_calc receives the handle on success (live handle count + 1); on failure neither
 * out_schema nor out_calc is written.
 */
typedef struct GatunCalc GatunCalc;

int32_t gatun_calc_create(const uint8_t* plan, size_t plan_len,
                          const struct ArrowSchema* input_schema,
                          const struct ArrowSchema* expected_output_schema,
                          int32_t output_format,
                          struct ArrowSchema* out_schema, GatunCalc** out_calc,
                          char* err_buf, size_t err_cap);

/*
 * Evaluates one batch: input is a struct array of the handle's input schema, moved in
 * and consumed on every path (like gatun_roundtrip), imported without copying and
 * checked against the input schema (GATUN_ERR_ARROW naming the field). The filter runs
 * first (NULL = FALSE), then the projections on the remaining rows, with Flink's
 * row-wise AND/OR/CASE short-circuiting. On success the result struct array, in the
 * handle's output format, is written to the caller-allocated output (release it
 * once); a filter that drops every row gives a valid 0-row batch, and a Calc without
 * columns keeps the row count (as rows of an empty fixed part in the Flink-rows
 * format). A
 * runtime error (e.g. integer division by zero, where Flink raises) returns
 * GATUN_ERR_EXECUTION naming the column and expression; output is then not written.
 * calc must be a live handle (NULL, freed or unknown pointers: GATUN_ERR_INVALID_ARGUMENT).
 * Concurrent calls on one handle are allowed; freeing it during a call is not.
 */
int32_t gatun_calc_evaluate(GatunCalc* calc, struct ArrowArray* input,
                            struct ArrowArray* output, char* err_buf, size_t err_cap);

/* Frees a live handle exactly once (live handle count - 1). NULL, freed or unknown
 * pointers: GATUN_ERR_INVALID_ARGUMENT. */
int32_t gatun_calc_free(GatunCalc* calc, char* err_buf, size_t err_cap);

/* Test only: panics inside Rust with the given message (proves the panic guard). */
int32_t gatun_debug_panic(const char* message, char* err_buf, size_t err_cap);

#ifdef __cplusplus
}
#endif

#endif /* GATUN_H */
