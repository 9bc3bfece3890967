//! The window-aggregate kind end to end through the C ABI: the global phase (merging the local
//! phase's accumulators) and the one-phase aggregate, TUMBLE, HOP and CUMULATE firing, late
//! rows, snapshot / restore per key group (also into other operators, as after rescaling),
//! the state bound, the state statistics, and bad arguments.

use std::ffi::c_char;
use std::ptr;
use std::sync::Arc;

use arrow::array::{
    Array, ArrayRef, AsArray, BinaryArray, Float64Array, Int32Array, Int64Array, RecordBatch,
    StringArray, StructArray, TimestampMillisecondArray,
};
use arrow::datatypes::{
    DataType, Field, Fields, Float64Type, Int32Type, Int64Type, Schema, TimeUnit,
    TimestampMillisecondType,
};
use arrow::ffi::{from_ffi, FFI_ArrowArray};
use datafusion::logical_expr::{binary_expr, Operator};
use datafusion_substrait::substrait::proto::function_argument::ArgType;
use datafusion_substrait::substrait::proto::plan_rel::RelType as PlanRelType;
use datafusion_substrait::substrait::proto::rel::RelType;
use datafusion_substrait::substrait::proto::{AggregationPhase, FunctionArgument, Plan};
use gatun_native::ffi::abi::{
    GatunStateStats, GATUN_ERR_EXECUTION, GATUN_ERR_INVALID_ARGUMENT, GATUN_ERR_PLAN, GATUN_OK,
    GATUN_OPERATOR_WINDOW_AGGREGATE, GATUN_OUTPUT_ARROW,
};
use gatun_native::ops::local_aggregate::window_plan::WINDOW_TYPE_URL;
use gatun_native::{
    gatun_operator_limit_state, gatun_operator_restore, gatun_operator_restore_progress,
    gatun_operator_snapshot, gatun_operator_state_stats,
};
use prost::encoding::{encode_key, encode_varint, WireType};
use prost::Message;

use crate::agg_util::*;
use crate::calc_util::*;
use crate::common::message;
use crate::local_window_aggregate::{with_enhancement, Window};

fn ts() -> DataType {
    DataType::Timestamp(TimeUnit::Millisecond, None)
}

/// The window message with the window aggregate's fields: properties (1 start, 2 end,
/// 3 time), the COUNT(*) measure (index + 1) and whether Flink inserted it.
fn window_bytes(window: &Window, properties: &[u64], count_star: i64, inserted: bool) -> Vec<u8> {
    let mut b = window.encode();
    for p in properties {
        encode_key(10, WireType::Varint, &mut b);
        encode_varint(*p, &mut b);
    }
    encode_key(11, WireType::Varint, &mut b);
    encode_varint(count_star as u64, &mut b);
    encode_key(12, WireType::Varint, &mut b);
    encode_varint(inserted as u64, &mut b);
    b
}

fn hop(size: i64, slide: i64) -> Window {
    Window {
        kind: 2,
        step: slide,
        ..Window::tumble(size)
    }
}

fn cumulate(size: i64, step: i64) -> Window {
    Window {
        kind: 3,
        step,
        ..Window::tumble(size)
    }
}

/// The local phase's output: `k`, COUNT(*)'s `count1`, SUM(BIGINT)'s `sum`, MAX(DOUBLE)'s
/// `max`, AVG(INT)'s `sum` and `count`, then `$slice_end`.
fn global_input(rows: &[(&str, i64, Option<i64>, Option<f64>, i64, i64, i64)]) -> RecordBatch {
    batch(vec![
        (
            "k",
            Arc::new(StringArray::from_iter_values(rows.iter().map(|r| r.0))) as ArrayRef,
        ),
        (
            "c",
            Arc::new(Int64Array::from_iter_values(rows.iter().map(|r| r.1))),
        ),
        (
            "s",
            Arc::new(Int64Array::from(
                rows.iter().map(|r| r.2).collect::<Vec<_>>(),
            )),
        ),
        (
            "mx",
            Arc::new(Float64Array::from(
                rows.iter().map(|r| r.3).collect::<Vec<_>>(),
            )),
        ),
        (
            "as",
            Arc::new(Int64Array::from_iter_values(rows.iter().map(|r| r.4))),
        ),
        (
            "ac",
            Arc::new(Int64Array::from_iter_values(rows.iter().map(|r| r.5))),
        ),
        (
            "$slice_end",
            Arc::new(Int64Array::from_iter_values(rows.iter().map(|r| r.6))),
        ),
    ])
}

/// The plan of `SELECT k, COUNT(*), SUM(s), MAX(mx), AVG(a), window_start, window_end,
/// window_time` as the global phase, over [`global_input`]'s schema.
fn global_plan(schema: &Schema, window: &Window, inserted_count: bool) -> (Vec<u8>, Schema) {
    let projections: Vec<(&str, _)> = schema
        .fields()
        .iter()
        .map(|f| (f.name().as_str(), col(f.name())))
        .collect();
    let phase = AggregationPhase::IntermediateToResult;
    let mut measures = vec![
        M {
            phase,
            ..m("count", 1)
        },
        M {
            phase,
            ..m("sum", 2)
        },
        M {
            phase,
            ..m("max", 3)
        },
        M {
            phase,
            ..m("avg", 4)
        },
    ];
    if inserted_count {
        // Flink appends the COUNT(*) it checks for empty windows (HOP, CUMULATE)
        measures.rotate_left(1);
    }
    let mut proto = agg_plan_proto(schema, &projections, None, &[0], &measures, &[]);
    let avg = measures.iter().position(|x| x.function == "avg").unwrap();
    add_argument(&mut proto, avg, 5);
    let count = if inserted_count { 4 } else { 1 };
    let window = Window {
        time_column: 6,
        ..clone_window(window)
    };
    let bytes = with_enhancement(
        proto,
        WINDOW_TYPE_URL,
        window_bytes(&window, &[1, 2, 3], count, inserted_count),
    )
    .encode_to_vec();
    let mut fields = vec![Field::new("k", DataType::Utf8, true)];
    let visible = [
        ("cnt", DataType::Int64),
        ("s", DataType::Int64),
        ("mx", DataType::Float64),
        ("a", DataType::Int32),
    ];
    let order: Vec<usize> = if inserted_count {
        vec![1, 2, 3]
    } else {
        vec![0, 1, 2, 3]
    };
    for i in order {
        fields.push(Field::new(visible[i].0, visible[i].1.clone(), true));
    }
    fields.push(Field::new("window_start", ts(), false));
    fields.push(Field::new("window_end", ts(), false));
    fields.push(Field::new("window_time", ts(), false));
    (bytes, Schema::new(fields))
}

fn clone_window(w: &Window) -> Window {
    Window {
        kind: w.kind,
        time_column: w.time_column,
        size: w.size,
        step: w.step,
        offset: w.offset,
        zone: w.zone.clone(),
        mini_batch: w.mini_batch.clone(),
    }
}

/// Adds a field reference to `column` to measure `measure`'s arguments.
fn add_argument(plan: &mut Plan, measure: usize, column: i32) {
    let Some(PlanRelType::Root(root)) = &mut plan.relations[0].rel_type else {
        unreachable!()
    };
    let Some(RelType::Aggregate(aggregate)) = &mut root.input.as_mut().unwrap().rel_type else {
        unreachable!()
    };
    let f = aggregate.measures[measure].measure.as_mut().unwrap();
    f.arguments.push(FunctionArgument {
        arg_type: Some(ArgType::Value(field_ref(column))),
    });
}

fn create_window(plan: &[u8], input: &Schema, expected: &Schema) -> Result<Handle, (i32, String)> {
    create_kind(
        GATUN_OPERATOR_WINDOW_AGGREGATE,
        plan,
        input,
        expected,
        GATUN_OUTPUT_ARROW,
    )
}

fn global_handle(window: &Window, inserted_count: bool) -> Handle {
    let schema = global_input(&[]).schema();
    let (plan, expected) = global_plan(&schema, window, inserted_count);
    create_window(&plan, &schema, &expected).unwrap()
}

/// A fired row: key, the visible measures as text, window start and end, window time.
type Row = (String, String, i64, i64, i64);

fn fired(batch: Option<RecordBatch>) -> Vec<Row> {
    let Some(b) = batch else { return Vec::new() };
    let n = b.num_columns();
    let k = b.column(0).as_string::<i32>();
    let t = |c: usize| b.column(c).as_primitive::<TimestampMillisecondType>();
    (0..b.num_rows())
        .map(|i| {
            let measures: Vec<String> = (1..n - 3)
                .map(|c| {
                    let a = b.column(c);
                    if a.is_null(i) {
                        return "NULL".to_string();
                    }
                    match a.data_type() {
                        DataType::Int64 => a.as_primitive::<Int64Type>().value(i).to_string(),
                        DataType::Int32 => a.as_primitive::<Int32Type>().value(i).to_string(),
                        DataType::Float64 => a.as_primitive::<Float64Type>().value(i).to_string(),
                        other => panic!("{other}"),
                    }
                })
                .collect();
            (
                k.value(i).to_string(),
                measures.join(" "),
                t(n - 3).value(i),
                t(n - 2).value(i),
                t(n - 1).value(i),
            )
        })
        .collect()
}

fn row(k: &str, measures: &str, start: i64, end: i64) -> Row {
    (k.to_string(), measures.to_string(), start, end, end - 1)
}

/// Keys, slices and bytes of the state.
fn held(h: &Handle) -> (i64, i64, i64) {
    let s = stats_of(h);
    (s.keys, s.slices, s.bytes)
}

fn stats_of(h: &Handle) -> GatunStateStats {
    let mut out = GatunStateStats::default();
    let mut err = [0 as c_char; 1024];
    // SAFETY: valid pointers; the handle is live.
    let status =
        unsafe { gatun_operator_state_stats(h.raw(), &mut out, err.as_mut_ptr(), err.len()) };
    assert_eq!(status, GATUN_OK, "{}", message(&err));
    out
}

/// `gatun_operator_snapshot`: (key group, section) pairs.
fn snapshot(h: &Handle, max_parallelism: i32) -> Result<Vec<(i32, Vec<u8>)>, (i32, String)> {
    let mut out = FFI_ArrowArray::empty();
    let mut err = [0 as c_char; 2048];
    // SAFETY: valid pointers; the handle is live.
    let status = unsafe {
        gatun_operator_snapshot(
            h.raw(),
            max_parallelism,
            &mut out,
            err.as_mut_ptr(),
            err.len(),
        )
    };
    if status != GATUN_OK {
        assert!(out.is_released(), "wrote the output on failure");
        return Err((status, message(&err)));
    }
    let schema = struct_schema(&Schema::new(vec![
        Field::new("key_group", DataType::Int32, false),
        Field::new("state", DataType::Binary, false),
    ]));
    // SAFETY: just exported by gatun_operator_snapshot with this layout.
    let data = unsafe { from_ffi(out, &schema) }.unwrap();
    data.validate_full().unwrap();
    let array = StructArray::from(data);
    let groups = array
        .column(0)
        .as_any()
        .downcast_ref::<Int32Array>()
        .unwrap();
    let states = array
        .column(1)
        .as_any()
        .downcast_ref::<BinaryArray>()
        .unwrap();
    assert_eq!(
        array.null_count() + groups.null_count() + states.null_count(),
        0
    );
    Ok((0..array.len())
        .map(|i| (groups.value(i), states.value(i).to_vec()))
        .collect())
}

fn restore(h: &Handle, section: &[u8]) -> Result<(), (i32, String)> {
    let mut err = [0 as c_char; 4096];
    // SAFETY: valid pointers; the handle is live.
    let status = unsafe {
        gatun_operator_restore(
            h.raw(),
            section.as_ptr(),
            section.len(),
            err.as_mut_ptr(),
            err.len(),
        )
    };
    if status != GATUN_OK {
        return Err((status, message(&err)));
    }
    Ok(())
}

fn restore_progress(h: &Handle, progress: i64) -> Result<(), (i32, String)> {
    let mut err = [0 as c_char; 1024];
    // SAFETY: valid pointers; the handle is live.
    let status =
        unsafe { gatun_operator_restore_progress(h.raw(), progress, err.as_mut_ptr(), err.len()) };
    if status != GATUN_OK {
        return Err((status, message(&err)));
    }
    Ok(())
}

fn limit(h: &Handle, bytes: i64) -> Result<(), (i32, String)> {
    let mut err = [0 as c_char; 1024];
    // SAFETY: valid pointers; the handle is live.
    let status = unsafe { gatun_operator_limit_state(h.raw(), bytes, err.as_mut_ptr(), err.len()) };
    if status != GATUN_OK {
        return Err((status, message(&err)));
    }
    Ok(())
}

fn sorted(mut rows: Vec<Row>) -> Vec<Row> {
    rows.sort();
    rows
}

#[test]
fn tumble_global_merges_local_accumulators_and_fires_in_window_order() {
    let _guard = no_leaks();
    let h = global_handle(&Window::tumble(1_000), false);
    let input = global_input(&[
        ("a", 2, Some(10), Some(1.5), 7, 2, 1_000),
        ("b", 1, None, None, 0, 0, 1_000),
        ("a", 3, Some(5), Some(2.5), 6, 3, 1_000),
        ("a", 1, Some(1), Some(-1.0), 4, 1, 2_000),
    ]);
    assert!(h.process(&input, None).unwrap().is_none());
    let s = stats_of(&h);
    assert_eq!((s.keys, s.slices), (2, 3));
    assert!(s.bytes > 0);
    assert!(h.advance(998).unwrap().is_none());
    assert_eq!(
        sorted(fired(h.advance(999).unwrap())),
        vec![
            // AVG(INT) = 13 / 5 in long division
            row("a", "5 15 2.5 2", 0, 1_000),
            row("b", "1 NULL NULL NULL", 0, 1_000),
        ]
    );
    let s = stats_of(&h);
    assert_eq!((s.keys, s.slices), (1, 1));
    assert!(h.advance(999).unwrap().is_none(), "a watermark fires once");
    assert_eq!(
        fired(h.advance(i64::MAX).unwrap()),
        vec![row("a", "1 1 -1 4", 1_000, 2_000)]
    );
    assert_eq!(held(&h), (0, 0, 0));
    let s = stats_of(&h);
    assert_eq!((s.late_rows, s.progress), (0, i64::MAX));
    assert!(h.flush().unwrap().is_none());
}

#[test]
fn late_rows_of_fired_windows_are_dropped() {
    let _guard = no_leaks();
    let h = global_handle(&Window::tumble(1_000), false);
    h.process(&global_input(&[("a", 1, Some(1), None, 1, 1, 1_000)]), None)
        .unwrap();
    assert_eq!(fired(h.advance(1_500).unwrap()).len(), 1);
    h.process(
        &global_input(&[("late", 1, Some(1), None, 1, 1, 1_000)]),
        None,
    )
    .unwrap();
    assert_eq!(held(&h), (0, 0, 0), "the late row left no state");
    let s = stats_of(&h);
    assert_eq!((s.late_rows, s.progress), (1, 1_500), "counted as late");
    h.process(
        &global_input(&[("ok", 1, Some(2), None, 1, 1, 2_000)]),
        None,
    )
    .unwrap();
    assert_eq!(
        fired(h.advance(1_999).unwrap()),
        vec![row("ok", "1 2 NULL 1", 1_000, 2_000)]
    );
}

#[test]
fn late_rows_count_only_the_rows_flink_drops() {
    let _guard = no_leaks();
    let h = global_handle(&hop(3_000, 1_000), true);
    assert_eq!(stats_of(&h).progress, i64::MIN);
    h.process(
        &global_input(&[("a", 1, Some(1), Some(1.0), 1, 1, 1_000)]),
        None,
    )
    .unwrap();
    assert_eq!(fired(h.advance(1_500).unwrap()).len(), 1);
    // slice 1000 has fired, but its last window (ending at 3000) has not: folded, not dropped
    h.process(
        &global_input(&[("b", 1, Some(1), Some(1.0), 1, 1, 1_000)]),
        None,
    )
    .unwrap();
    assert_eq!(stats_of(&h).late_rows, 0);
    // slice -1000's last window ended at 1000: dropped, twice
    let late = global_input(&[
        ("c", 1, Some(1), Some(1.0), 1, 1, -1_000),
        ("a", 1, Some(1), Some(1.0), 1, 1, -1_000),
    ]);
    h.process(&late, None).unwrap();
    let s = stats_of(&h);
    assert_eq!((s.keys, s.late_rows, s.progress), (2, 2, 1_500));
}

#[test]
fn a_restored_progress_holds_without_sections_and_sections_only_lower_it() {
    let _guard = no_leaks();
    let window = Window::tumble(1_000);
    let writer = global_handle(&window, false);
    writer
        .process(&global_input(&[("a", 1, Some(1), None, 1, 1, 2_000)]), None)
        .unwrap();
    assert!(writer.advance(1_500).unwrap().is_none());
    let sections = snapshot(&writer, 128).unwrap();
    assert_eq!(sections.len(), 1);
    let old = global_input(&[("new", 1, Some(1), None, 1, 1, 1_000)]);
    // a subtask that receives no section but the progress of all subtasks drops the old window's row
    let empty = global_handle(&window, false);
    restore_progress(&empty, 1_500).unwrap();
    assert_eq!(stats_of(&empty).progress, 1_500);
    empty.process(&old, None).unwrap();
    let s = stats_of(&empty);
    assert_eq!((s.keys, s.late_rows), (0, 1), "dropped as late");
    assert!(empty.advance(1_600).unwrap().is_none());
    // without it the row would have made a window Flink never emits
    let unaware = global_handle(&window, false);
    unaware.process(&old, None).unwrap();
    assert_eq!(fired(unaware.advance(1_600).unwrap()).len(), 1);
    // a section restored afterwards only lowers the progress, never raises it
    let lower = global_handle(&window, false);
    restore_progress(&lower, 700).unwrap();
    restore(&lower, &sections[0].1).unwrap();
    assert_eq!(stats_of(&lower).progress, 700);
    let higher = global_handle(&window, false);
    restore(&higher, &sections[0].1).unwrap();
    restore_progress(&higher, 700).unwrap();
    assert_eq!(
        stats_of(&higher).progress,
        700,
        "set in place of the sections'"
    );
    assert_eq!(
        fired(higher.advance(i64::MAX).unwrap()),
        vec![row("a", "1 1 NULL 1", 1_000, 2_000)]
    );
}

#[test]
fn hop_merges_slices_newest_first_and_skips_empty_windows() {
    let _guard = no_leaks();
    // 3 s windows sliding by 1 s; Flink inserted the COUNT(*) it checks
    let h = global_handle(&hop(3_000, 1_000), true);
    h.process(
        &global_input(&[
            ("a", 1, Some(1), Some(1.0), 1, 1, 1_000),
            ("a", 1, Some(2), Some(2.0), 2, 1, 3_000),
        ]),
        None,
    )
    .unwrap();
    assert_eq!(
        fired(h.advance(i64::MAX).unwrap()),
        vec![
            row("a", "1 1 1", -2_000, 1_000),
            row("a", "1 1 1", -1_000, 2_000),
            row("a", "3 2 1", 0, 3_000),
            row("a", "2 2 2", 1_000, 4_000),
            row("a", "2 2 2", 2_000, 5_000),
        ]
    );
    assert_eq!(held(&h), (0, 0, 0));
}

#[test]
fn cumulate_accumulates_into_the_first_slice_and_frees_it_with_the_last_window() {
    let _guard = no_leaks();
    let h = global_handle(&cumulate(3_000, 1_000), true);
    h.process(
        &global_input(&[
            ("a", 1, Some(1), Some(1.0), 1, 1, 1_000),
            ("a", 1, Some(2), Some(2.0), 2, 1, 3_000),
            ("a", 1, Some(4), Some(4.0), 4, 1, 4_000),
        ]),
        None,
    )
    .unwrap();
    assert_eq!(
        fired(h.advance(2_999).unwrap()),
        vec![
            row("a", "1 1 1", 0, 1_000),
            row("a", "1 1 1", 0, 2_000),
            row("a", "3 2 1", 0, 3_000),
        ]
    );
    assert_eq!(
        stats_of(&h).slices,
        1,
        "only the next window's slice is left"
    );
    assert_eq!(
        fired(h.advance(i64::MAX).unwrap()),
        vec![
            row("a", "4 4 4", 3_000, 4_000),
            row("a", "4 4 4", 3_000, 5_000),
            row("a", "4 4 4", 3_000, 6_000),
        ]
    );
    assert_eq!(held(&h), (0, 0, 0));
}

fn many_keys(n: usize, slice_end: i64) -> RecordBatch {
    let keys: Vec<String> = (0..n).map(|i| format!("key-{i}")).collect();
    let rows: Vec<_> = keys
        .iter()
        .enumerate()
        .map(|(i, k)| {
            (
                k.as_str(),
                1,
                Some(i as i64),
                Some(i as f64),
                i as i64,
                1,
                slice_end,
            )
        })
        .collect();
    global_input(&rows)
}

#[test]
fn snapshot_and_restore_keep_every_window_exactly_once_also_across_operators() {
    let _guard = no_leaks();
    let window = hop(2_000, 1_000);
    let original = global_handle(&window, true);
    original.process(&many_keys(50, 1_000), None).unwrap();
    original.process(&many_keys(30, 2_000), None).unwrap();
    // window 1000 fired before the snapshot
    let before = fired(original.advance(999).unwrap());
    assert_eq!(before.len(), 50);
    let sections = snapshot(&original, 128).unwrap();
    assert!(
        sections.windows(2).all(|w| w[0].0 < w[1].0),
        "ascending key groups"
    );
    assert!(sections.iter().all(|(g, _)| (0..128).contains(g)));
    let stats = stats_of(&original);
    assert_eq!(
        snapshot(&original, 128).unwrap(),
        sections,
        "the state is unchanged"
    );
    let expected = sorted(fired(original.advance(i64::MAX).unwrap()));
    drop(original);
    // one operator restoring everything
    let whole = global_handle(&window, true);
    for (_, s) in &sections {
        restore(&whole, s).unwrap();
    }
    assert_eq!(stats_of(&whole), stats);
    assert_eq!(sorted(fired(whole.advance(i64::MAX).unwrap())), expected);
    // rescaled to two operators, each restoring half of the key groups
    let (low, high) = (global_handle(&window, true), global_handle(&window, true));
    for (g, s) in &sections {
        restore(if *g < 64 { &low } else { &high }, s).unwrap();
    }
    let mut both = fired(low.advance(i64::MAX).unwrap());
    both.extend(fired(high.advance(i64::MAX).unwrap()));
    assert_eq!(sorted(both), expected);
    // the restored progress drops late rows as the original would
    let late = global_handle(&window, true);
    restore(&late, &sections[0].1).unwrap();
    late.process(&many_keys(3, 1_000), None).unwrap();
    let s = stats_of(&late);
    late.process(&many_keys(3, 0), None).unwrap();
    assert_eq!(
        held(&late),
        (s.keys, s.slices, s.bytes),
        "slice 0's windows have all fired"
    );
    assert_eq!(stats_of(&late).late_rows, s.late_rows + 3);
}

#[test]
fn key_groups_follow_flinks_assignment_of_the_binary_row_key() {
    let _guard = no_leaks();
    let h = global_handle(&Window::tumble(1_000), false);
    h.process(&many_keys(200, 1_000), None).unwrap();
    let groups: std::collections::BTreeSet<i32> = snapshot(&h, 128)
        .unwrap()
        .into_iter()
        .map(|(g, _)| g)
        .collect();
    // 200 keys hash into most of the 128 groups; one group for max parallelism 1
    assert!(groups.len() > 64, "{groups:?}");
    assert_eq!(snapshot(&h, 1).unwrap().len(), 1);
    assert_eq!(snapshot(&h, 1).unwrap()[0].0, 0);
}

#[test]
fn bad_sections_fail_cleanly_naming_what_differs() {
    let _guard = no_leaks();
    let h = global_handle(&Window::tumble(1_000), false);
    h.process(&many_keys(3, 1_000), None).unwrap();
    let sections = snapshot(&h, 16).unwrap();
    let section = &sections[0].1;
    let fresh = || global_handle(&Window::tumble(1_000), false);
    let err = restore(&fresh(), b"not a section").unwrap_err();
    assert_eq!(err.0, GATUN_ERR_INVALID_ARGUMENT);
    assert!(err.1.contains("magic"), "{}", err.1);
    let mut version = section.clone();
    version[8] = 9;
    let err = restore(&fresh(), &version).unwrap_err();
    assert!(err.1.contains("format version 9"), "{}", err.1);
    for cut in [4, 20, section.len() / 2, section.len() - 1] {
        let err = restore(&fresh(), &section[..cut]).unwrap_err();
        assert_eq!(err.0, GATUN_ERR_INVALID_ARGUMENT, "{}", err.1);
    }
    let mut longer = section.clone();
    longer.extend_from_slice(b"trailing");
    let err = restore(&fresh(), &longer).unwrap_err();
    assert!(err.1.contains("follow the stream"), "{}", err.1);
    let other = global_handle(&Window::tumble(2_000), false);
    let err = restore(&other, section).unwrap_err();
    assert_eq!(err.0, GATUN_ERR_INVALID_ARGUMENT);
    assert!(
        err.1.contains("size 1000 ms") && err.1.contains("size 2000 ms"),
        "{}",
        err.1
    );
    let err = snapshot(&h, 0).unwrap_err();
    assert!(err.1.contains("max_parallelism"), "{}", err.1);
    assert!(snapshot(&h, 32_769).is_err());
}

#[test]
fn the_state_bound_fails_the_row_that_crosses_it_naming_the_key() {
    let _guard = no_leaks();
    let h = global_handle(&Window::tumble(1_000), false);
    assert_eq!(limit(&h, -1).unwrap_err().0, GATUN_ERR_INVALID_ARGUMENT);
    h.process(&many_keys(2, 1_000), None).unwrap();
    let held = stats_of(&h).bytes;
    limit(&h, held + 10).unwrap();
    let err = h
        .process(
            &global_input(&[("big-key", 1, None, None, 0, 0, 1_000)]),
            None,
        )
        .unwrap_err();
    assert_eq!(err.0, GATUN_ERR_EXECUTION);
    assert!(
        err.1.contains("big-key") && err.1.contains(&format!("{}", held + 10)),
        "{}",
        err.1
    );
    limit(&h, i64::MAX).unwrap();
    h.process(
        &global_input(&[("big-key", 1, None, None, 0, 0, 1_000)]),
        None,
    )
    .unwrap();
}

#[test]
fn state_calls_refuse_other_kinds_and_bad_arguments() {
    let _guard = no_leaks();
    let schema = Schema::new(vec![Field::new("a", DataType::Int64, true)]);
    let calc = create(
        &plan(&schema, &[("a", col("a"))], None),
        &schema,
        &expected(&schema, &[("a", col("a"))]),
    )
    .unwrap();
    let err = snapshot(&calc, 128).unwrap_err();
    assert_eq!(err.0, GATUN_ERR_INVALID_ARGUMENT);
    assert!(err.1.contains("GATUN_OPERATOR_CALC"), "{}", err.1);
    assert_eq!(
        restore(&calc, b"x").unwrap_err().0,
        GATUN_ERR_INVALID_ARGUMENT
    );
    assert_eq!(limit(&calc, 1).unwrap_err().0, GATUN_ERR_INVALID_ARGUMENT);
    let err = restore_progress(&calc, 1).unwrap_err();
    assert_eq!(err.0, GATUN_ERR_INVALID_ARGUMENT);
    assert!(
        err.1.contains("gatun_operator_restore_progress"),
        "{}",
        err.1
    );
    assert_eq!(stats_of(&calc), GatunStateStats::default());
    assert_eq!(stats_of(&calc).progress, i64::MIN);
    let h = global_handle(&Window::tumble(1_000), false);
    let mut err = [0 as c_char; 256];
    // SAFETY: NULL arguments are checked.
    unsafe {
        assert_eq!(
            gatun_operator_snapshot(h.raw(), 1, ptr::null_mut(), err.as_mut_ptr(), err.len()),
            GATUN_ERR_INVALID_ARGUMENT
        );
        assert!(message(&err).contains("output"));
        assert_eq!(
            gatun_operator_restore(h.raw(), ptr::null(), 0, err.as_mut_ptr(), err.len()),
            GATUN_ERR_INVALID_ARGUMENT
        );
        assert!(message(&err).contains("section"));
        assert_eq!(
            gatun_operator_state_stats(h.raw(), ptr::null_mut(), err.as_mut_ptr(), err.len()),
            GATUN_ERR_INVALID_ARGUMENT
        );
        assert_eq!(
            gatun_operator_state_stats(
                ptr::null_mut(),
                ptr::null_mut(),
                err.as_mut_ptr(),
                err.len()
            ),
            GATUN_ERR_INVALID_ARGUMENT
        );
        assert_eq!(
            gatun_operator_limit_state(ptr::null_mut(), 1, err.as_mut_ptr(), err.len()),
            GATUN_ERR_INVALID_ARGUMENT
        );
        assert_eq!(
            gatun_operator_restore_progress(ptr::null_mut(), 1, err.as_mut_ptr(), err.len()),
            GATUN_ERR_INVALID_ARGUMENT
        );
        assert!(message(&err).contains("op"));
        let mut out = FFI_ArrowArray::empty();
        assert_eq!(
            gatun_operator_snapshot(ptr::null_mut(), 1, &mut out, err.as_mut_ptr(), err.len()),
            GATUN_ERR_INVALID_ARGUMENT
        );
    }
}

#[test]
fn plans_that_do_not_fit_the_kind_fail_at_create() {
    let _guard = no_leaks();
    let schema = global_input(&[]).schema();
    let (plan_bytes, expected) = global_plan(&schema, &Window::tumble(1_000), false);
    // an output type that differs
    let mut fields: Vec<Field> = expected
        .fields()
        .iter()
        .map(|f| f.as_ref().clone())
        .collect();
    fields[2] = Field::new("s", DataType::Int32, true);
    let Err(err) = create_window(&plan_bytes, &schema, &Schema::new(fields)) else {
        panic!("created");
    };
    assert_eq!(err.0, GATUN_ERR_PLAN);
    assert!(
        err.1.contains("`s`") && err.1.contains("Int32"),
        "{}",
        err.1
    );
    // a plan without the window enhancement
    let projections = [("k", col("k")), ("c", col("c"))];
    let no_window = agg_plan(
        &schema,
        &projections,
        None,
        &[0],
        &[M {
            phase: AggregationPhase::IntermediateToResult,
            ..m("count", 1)
        }],
    );
    let Err(err) = create_window(&no_window, &schema, &expected) else {
        panic!("created");
    };
    assert!(err.1.contains("WindowSlicing"), "{}", err.1);
}

/// Rows `(k, rowtime, v)` for the one-phase aggregate.
fn raw_rows(rows: &[(&str, i64, Option<i64>)]) -> RecordBatch {
    batch(vec![
        (
            "k",
            Arc::new(StringArray::from_iter_values(rows.iter().map(|r| r.0))) as ArrayRef,
        ),
        (
            "ts",
            Arc::new(TimestampMillisecondArray::from_iter_values(
                rows.iter().map(|r| r.1),
            )),
        ),
        (
            "v",
            Arc::new(Int64Array::from(
                rows.iter().map(|r| r.2).collect::<Vec<_>>(),
            )),
        ),
    ])
}

#[test]
fn one_phase_tumble_slices_rows_and_accumulates_values() {
    let _guard = no_leaks();
    let input = raw_rows(&[
        ("a", 100, Some(1)),
        ("a", 900, None),
        ("a", 1_100, Some(3)),
        ("b", 10, Some(4)),
    ]);
    let schema = input.schema();
    let projections = [("k", col("k")), ("ts", col("ts")), ("v", col("v"))];
    let phase = AggregationPhase::InitialToResult;
    let measures = [
        M {
            phase,
            argument: None,
            ..m("count", 0)
        },
        M {
            phase,
            ..m("sum", 2)
        },
        M {
            phase,
            ..m("avg", 2)
        },
    ];
    let proto = agg_plan_proto(&schema, &projections, None, &[0], &measures, &[]);
    let window = Window::tumble(1_000);
    let bytes = with_enhancement(
        proto,
        WINDOW_TYPE_URL,
        window_bytes(&window, &[2], 1, false),
    )
    .encode_to_vec();
    let expected = Schema::new(vec![
        Field::new("k", DataType::Utf8, true),
        Field::new("cnt", DataType::Int64, true),
        Field::new("s", DataType::Int64, true),
        Field::new("a", DataType::Int64, true),
        Field::new("window_end", ts(), false),
    ]);
    let h = create_window(&bytes, &schema, &expected).unwrap();
    h.process(&input, None).unwrap();
    let out = h.advance(i64::MAX).unwrap().unwrap();
    let k = out.column(0).as_string::<i32>();
    let c = out.column(1).as_primitive::<Int64Type>();
    let s = out.column(2).as_primitive::<Int64Type>();
    let end = out.column(4).as_primitive::<TimestampMillisecondType>();
    let mut got: Vec<_> = (0..out.num_rows())
        .map(|i| (k.value(i).to_string(), c.value(i), s.value(i), end.value(i)))
        .collect();
    got.sort();
    assert_eq!(
        got,
        vec![
            ("a".into(), 1, 3, 2_000),
            ("a".into(), 2, 1, 1_000),
            ("b".into(), 1, 4, 1_000),
        ]
    );
    let err = h
        .process(
            &batch(vec![
                ("k", Arc::new(StringArray::from(vec!["x"])) as ArrayRef),
                ("ts", Arc::new(TimestampMillisecondArray::from(vec![None]))),
                ("v", Arc::new(Int64Array::from(vec![1]))),
            ]),
            None,
        )
        .unwrap_err();
    assert!(
        err.1.contains("RowTime field should not be null"),
        "{}",
        err.1
    );
}

#[test]
fn local_accumulators_are_combined_before_the_state_as_flinks_buffer_does() {
    let _guard = no_leaks();
    let input = |rows: &[(f64, i64)]| {
        batch(vec![
            (
                "k",
                Arc::new(StringArray::from_iter_values(rows.iter().map(|_| "a"))) as ArrayRef,
            ),
            (
                "s",
                Arc::new(Float64Array::from_iter_values(rows.iter().map(|r| r.0))),
            ),
            (
                "$slice_end",
                Arc::new(Int64Array::from_iter_values(rows.iter().map(|r| r.1))),
            ),
        ])
    };
    let schema = input(&[]).schema();
    let projections = [("k", col("k")), ("s", col("s")), ("se", col("$slice_end"))];
    let phase = AggregationPhase::IntermediateToResult;
    let proto = agg_plan_proto(
        &schema,
        &projections,
        None,
        &[0],
        &[M {
            phase,
            ..m("sum", 1)
        }],
        &[],
    );
    let window = Window {
        time_column: 2,
        ..Window::tumble(1_000)
    };
    let bytes = with_enhancement(
        proto,
        WINDOW_TYPE_URL,
        window_bytes(&window, &[2], 0, false),
    )
    .encode_to_vec();
    let expected = Schema::new(vec![
        Field::new("k", DataType::Utf8, true),
        Field::new("s", DataType::Float64, true),
        Field::new("window_end", ts(), false),
    ]);
    let h = create_window(&bytes, &schema, &expected).unwrap();
    // the buffer flushes when a watermark fires its earliest slice (1000), taking 1e16 of
    // slice 2000 into the state; the two 1.0 of slice 2000 are then combined first
    h.process(&input(&[(1e16, 2_000), (5.0, 1_000)]), None)
        .unwrap();
    assert_eq!(h.advance(999).unwrap().unwrap().num_rows(), 1);
    h.process(&input(&[(1.0, 2_000), (1.0, 2_000)]), None)
        .unwrap();
    let out = h.advance(1_999).unwrap().unwrap();
    // (1e16 + 1) + 1 would round back to 1e16
    assert_eq!(
        out.column(1).as_primitive::<Float64Type>().value(0),
        1e16 + 2.0
    );
}

#[test]
fn a_nested_group_key_is_refused_at_create() {
    let _guard = no_leaks();
    use arrow::array::ListArray;
    use arrow::datatypes::Int32Type;
    let list = ListArray::from_iter_primitive::<Int32Type, _, _>(vec![Some(vec![Some(1)])]);
    let input = batch(vec![
        ("k", Arc::new(list) as ArrayRef),
        ("c", Arc::new(Int64Array::from(vec![1]))),
        ("$slice_end", Arc::new(Int64Array::from(vec![1_000]))),
    ]);
    let schema = input.schema();
    let projections = [("k", col("k")), ("c", col("c")), ("se", col("$slice_end"))];
    let phase = AggregationPhase::IntermediateToResult;
    let proto = agg_plan_proto(
        &schema,
        &projections,
        None,
        &[0],
        &[M {
            phase,
            ..m("count", 1)
        }],
        &[],
    );
    let window = Window {
        time_column: 2,
        ..Window::tumble(1_000)
    };
    let bytes = with_enhancement(proto, WINDOW_TYPE_URL, window_bytes(&window, &[], 1, false))
        .encode_to_vec();
    let expected = Schema::new(vec![
        schema.field(0).clone(),
        Field::new("cnt", DataType::Int64, true),
    ]);
    let Err(err) = create_window(&bytes, &schema, &expected) else {
        panic!("created");
    };
    assert_eq!(err.0, GATUN_ERR_PLAN);
    assert!(err.1.contains("group key `k`"), "{}", err.1);
}

#[test]
fn sections_of_subtasks_at_different_progress_restore_every_window_once() {
    let _guard = no_leaks();
    let window = hop(2_000, 1_000);
    // subtask A saw watermark 999, subtask B 1999; each holds other keys
    let a = global_handle(&window, true);
    a.process(
        &global_input(&[("a", 1, Some(1), Some(1.0), 1, 1, 1_000)]),
        None,
    )
    .unwrap();
    a.process(
        &global_input(&[("a", 1, Some(2), Some(2.0), 2, 1, 2_000)]),
        None,
    )
    .unwrap();
    let mut before = fired(a.advance(999).unwrap());
    let b = global_handle(&window, true);
    b.process(
        &global_input(&[("b", 1, Some(3), Some(3.0), 3, 1, 1_000)]),
        None,
    )
    .unwrap();
    b.process(
        &global_input(&[("b", 1, Some(4), Some(4.0), 4, 1, 2_000)]),
        None,
    )
    .unwrap();
    before.extend(fired(b.advance(1_999).unwrap()));
    let mut sections = snapshot(&a, 128).unwrap();
    sections.extend(snapshot(&b, 128).unwrap());
    let mut after = fired(a.advance(i64::MAX).unwrap());
    after.extend(fired(b.advance(i64::MAX).unwrap()));
    drop((a, b));
    let restored = global_handle(&window, true);
    for (_, s) in &sections {
        restore(&restored, s).unwrap();
    }
    // the lowest progress (999) holds: B's fired windows have no timers left, so none repeats
    assert!(restored.advance(999).unwrap().is_none());
    let after = sorted(after);
    assert_eq!(sorted(fired(restored.advance(i64::MAX).unwrap())), after);
    // windows 1000, 2000 and 3000 of each key, each once
    assert_eq!((before.len(), after.len()), (3, 3));
}

/// A one-phase plan over [`raw_rows`] with a FILTER column `f` (v > 1): `k`, the `measures`,
/// the `properties`.
fn one_phase(
    window: &Window,
    measures: &[M],
    count_star: i64,
    inserted: bool,
    properties: &[u64],
    expected: Schema,
) -> Handle {
    let schema = raw_rows(&[]).schema();
    let projections = [
        ("k", col("k")),
        ("ts", col("ts")),
        ("v", col("v")),
        ("f", binary_expr(col("v"), Operator::Gt, lit(1i64))),
    ];
    let proto = agg_plan_proto(&schema, &projections, None, &[0], measures, &[]);
    let bytes = with_enhancement(
        proto,
        WINDOW_TYPE_URL,
        window_bytes(window, properties, count_star, inserted),
    )
    .encode_to_vec();
    create_window(&bytes, &schema, &expected).unwrap()
}

#[test]
fn one_phase_hop_with_a_filter_skips_empty_windows() {
    let _guard = no_leaks();
    let phase = AggregationPhase::InitialToResult;
    let measures = [
        M {
            phase,
            ..m("sum", 2)
        }
        .filtered(3),
        M {
            phase,
            argument: None,
            ..m("count", 0)
        },
    ];
    let expected = Schema::new(vec![
        Field::new("k", DataType::Utf8, true),
        Field::new("s", DataType::Int64, true),
        Field::new("window_start", ts(), false),
        Field::new("window_end", ts(), false),
    ]);
    let h = one_phase(&hop(2_000, 1_000), &measures, 2, true, &[1, 2], expected);
    h.process(
        &raw_rows(&[("a", 500, Some(1)), ("a", 1_500, Some(2))]),
        None,
    )
    .unwrap();
    let out = h.advance(i64::MAX).unwrap().unwrap();
    let s = out.column(1).as_primitive::<Int64Type>();
    let start = out.column(2).as_primitive::<TimestampMillisecondType>();
    let end = out.column(3).as_primitive::<TimestampMillisecondType>();
    let got: Vec<_> = (0..out.num_rows())
        .map(|i| {
            (
                s.is_valid(i).then(|| s.value(i)),
                start.value(i),
                end.value(i),
            )
        })
        .collect();
    // v = 1 is filtered out of the SUM, but its row keeps window 1000 non-empty
    assert_eq!(
        got,
        vec![
            (None, -1_000, 1_000),
            (Some(2), 0, 2_000),
            (Some(2), 1_000, 3_000)
        ]
    );
}

#[test]
fn one_phase_ltz_windows_are_aligned_in_the_session_zone() {
    let _guard = no_leaks();
    let mut window = Window::tumble(86_400_000);
    // Asia/Shanghai from 1992 on: +8h, no DST
    window.zone = Some((
        "Asia/Shanghai",
        vec![684_867_600_000],
        vec![32_400, 28_800],
        false,
    ));
    let phase = AggregationPhase::InitialToResult;
    let measures = [M {
        phase,
        argument: None,
        ..m("count", 0)
    }];
    let ltz = DataType::Timestamp(TimeUnit::Millisecond, Some("UTC".into()));
    let expected = Schema::new(vec![
        Field::new("k", DataType::Utf8, true),
        Field::new("cnt", DataType::Int64, false),
        Field::new("window_start", ts(), false),
        Field::new("window_end", ts(), false),
        Field::new("window_time", ltz.clone(), false),
    ]);
    let h = one_phase(&window, &measures, 1, false, &[1, 2, 3], expected);
    // 2024-03-10T20:00Z is 2024-03-11 04:00 in Shanghai
    h.process(&raw_rows(&[("a", 1_710_100_800_000, Some(1))]), None)
        .unwrap();
    let end = 1_710_201_600_000; // local 2024-03-12T00:00, as Flink's TIMESTAMP value
    let time = end - 1 - 8 * 3_600_000; // the instant of local 2024-03-11T23:59:59.999
    assert!(h.advance(time - 1).unwrap().is_none());
    let out = h.advance(time).unwrap().unwrap();
    assert_eq!(out.schema().field(4).data_type(), &ltz);
    let t = |c: usize| {
        out.column(c)
            .as_primitive::<TimestampMillisecondType>()
            .value(0)
    };
    assert_eq!((t(2), t(3), t(4)), (end - 86_400_000, end, time));
}

#[test]
fn one_phase_sum0_is_zero_over_no_values() {
    let _guard = no_leaks();
    let phase = AggregationPhase::InitialToResult;
    let measures = [
        M {
            phase,
            ..m("sum0", 2)
        },
        M {
            phase,
            ..m("sum", 2)
        },
    ];
    let expected = Schema::new(vec![
        Field::new("k", DataType::Utf8, true),
        Field::new("s0", DataType::Int64, false),
        Field::new("s", DataType::Int64, true),
        Field::new("window_end", ts(), false),
    ]);
    let h = one_phase(&Window::tumble(1_000), &measures, 0, false, &[2], expected);
    h.process(
        &raw_rows(&[("a", 100, None), ("b", 200, Some(4)), ("b", 300, None)]),
        None,
    )
    .unwrap();
    let out = h.advance(i64::MAX).unwrap().unwrap();
    let k = out.column(0).as_string::<i32>();
    let s0 = out.column(1).as_primitive::<Int64Type>();
    let s = out.column(2).as_primitive::<Int64Type>();
    let mut got: Vec<_> = (0..out.num_rows())
        .map(|i| {
            (
                k.value(i).to_string(),
                s0.is_valid(i).then(|| s0.value(i)),
                s.is_valid(i).then(|| s.value(i)),
            )
        })
        .collect();
    got.sort();
    // $SUM0 starts at 0 where SUM stays NULL until a value arrives
    assert_eq!(
        got,
        vec![("a".into(), Some(0), None), ("b".into(), Some(4), Some(4))]
    );
}

#[test]
fn a_one_phase_sum0_of_a_wide_decimal_is_refused() {
    let _guard = no_leaks();
    use arrow::array::Decimal128Array;
    let input = batch(vec![
        ("k", Arc::new(StringArray::from(vec!["a"])) as ArrayRef),
        (
            "ts",
            Arc::new(TimestampMillisecondArray::from_iter_values([100])),
        ),
        (
            "v",
            Arc::new(
                Decimal128Array::from(vec![1])
                    .with_precision_and_scale(19, 2)
                    .unwrap(),
            ),
        ),
    ]);
    let schema = input.schema();
    let projections = [("k", col("k")), ("ts", col("ts")), ("v", col("v"))];
    let proto = agg_plan_proto(
        &schema,
        &projections,
        None,
        &[0],
        &[M {
            phase: AggregationPhase::InitialToResult,
            ..m("sum0", 2)
        }],
        &[],
    );
    let bytes = with_enhancement(
        proto,
        WINDOW_TYPE_URL,
        window_bytes(&Window::tumble(1_000), &[], 0, false),
    )
    .encode_to_vec();
    let expected = Schema::new(vec![
        Field::new("k", DataType::Utf8, true),
        Field::new("s0", DataType::Decimal128(38, 2), false),
    ]);
    let Err(err) = create_window(&bytes, &schema, &expected) else {
        panic!("created");
    };
    assert_eq!(err.0, GATUN_ERR_PLAN);
    assert!(err.1.contains("measure 0 (sum0)"), "{}", err.1);
}

#[test]
fn mutated_sections_fail_cleanly_or_restore() {
    let _guard = no_leaks();
    let h = global_handle(&hop(2_000, 1_000), true);
    h.process(&many_keys(5, 1_000), None).unwrap();
    let sections = snapshot(&h, 1).unwrap();
    let section = &sections[0].1;
    // every byte flipped in turn (xorshift picks the flip)
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for i in 0..section.len() {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let mut mutated = section.clone();
        mutated[i] ^= (seed as u8) | 1;
        let fresh = global_handle(&hop(2_000, 1_000), true);
        if let Err((status, m)) = restore(&fresh, &mutated) {
            assert_eq!(status, GATUN_ERR_INVALID_ARGUMENT, "byte {i}: {m}");
        }
    }
}

/// `plan` with an `Emit` of `mapping` on its AggregateRel and, when given, the root `names`.
fn with_emit(plan: &[u8], mapping: &[i32], names: &[&str]) -> Vec<u8> {
    use datafusion_substrait::substrait::proto::rel_common::{Emit, EmitKind};
    use datafusion_substrait::substrait::proto::RelCommon;
    let mut plan = Plan::decode(plan).unwrap();
    let Some(PlanRelType::Root(root)) = &mut plan.relations[0].rel_type else {
        unreachable!()
    };
    if !names.is_empty() {
        root.names = names.iter().map(|n| n.to_string()).collect();
    }
    let Some(RelType::Aggregate(aggregate)) = &mut root.input.as_mut().unwrap().rel_type else {
        unreachable!()
    };
    aggregate.common = Some(RelCommon {
        emit_kind: Some(EmitKind::Emit(Emit {
            output_mapping: mapping.to_vec(),
        })),
        ..Default::default()
    });
    plan.encode_to_vec()
}

/// `plan` with the emit `mapping` and the root names of the unprojected output `expected`.
fn emitting(plan: &[u8], mapping: &[usize], expected: &Schema) -> Vec<u8> {
    let names: Vec<&str> = expected
        .fields()
        .iter()
        .map(|f| f.name().as_str())
        .collect();
    let mapping: Vec<i32> = mapping.iter().map(|&p| p as i32).collect();
    with_emit(plan, &mapping, &names)
}

/// Asserts that `projected` (fired by the operator with the emit `mapping`) is the columns
/// `mapping` of `whole` (fired by the operator without it); the rows compared.
fn assert_projected(
    whole: Option<RecordBatch>,
    projected: Option<RecordBatch>,
    mapping: &[usize],
) -> usize {
    let Some(a) = whole else {
        assert!(projected.is_none(), "fired only with the emit");
        return 0;
    };
    let b = projected.expect("fired only without the emit");
    assert_eq!(b.num_columns(), mapping.len());
    assert_eq!(b.num_rows(), a.num_rows());
    for (j, &p) in mapping.iter().enumerate() {
        assert_eq!(b.column(j).to_data(), a.column(p).to_data(), "column {j}");
    }
    a.num_rows()
}

/// Runs `input` and then each of `watermarks` through the operator of `plan` and through the
/// operator of `plan` with the emit `mapping` (and the root names of `expected`), both created
/// with the unprojected output `expected`, the latter in Arrow and in Flink rows: its output
/// fields are the former's fields `mapping` (names included), each batch it fires is the
/// columns `mapping` of the former's batch (Flink rows: their encoding). The rows compared.
fn assert_emit_projects(
    plan: &[u8],
    schema: &Schema,
    expected: &Schema,
    mapping: &[usize],
    input: &[RecordBatch],
    watermarks: &[i64],
) -> usize {
    use gatun_native::ffi::abi::GATUN_OUTPUT_FLINK_ROWS;
    use gatun_native::flink_row::{encode, ColumnKind, FLINK_ROW_COLUMN};
    let emitting_plan = emitting(plan, mapping, expected);
    let plain = create_window(plan, schema, expected).unwrap();
    let projected = create_window(&emitting_plan, schema, expected).unwrap();
    let rows = create_kind(
        GATUN_OPERATOR_WINDOW_AGGREGATE,
        &emitting_plan,
        schema,
        expected,
        GATUN_OUTPUT_FLINK_ROWS,
    )
    .unwrap();
    let fields: Vec<Field> = mapping
        .iter()
        .map(|&p| plain.output.field(p).clone())
        .collect();
    assert_eq!(projected.output.fields(), &Fields::from(fields));
    for (j, &p) in mapping.iter().enumerate() {
        assert_eq!(projected.output.field(j).name(), expected.field(p).name());
    }
    assert_eq!(rows.output.fields().len(), 1);
    assert_eq!(rows.output.field(0).name(), FLINK_ROW_COLUMN);
    for b in input {
        for h in [&plain, &projected, &rows] {
            assert!(h.process(b, None).unwrap().is_none());
        }
    }
    let mut compared = 0;
    for &w in watermarks {
        let (a, b, c) = (
            plain.advance(w).unwrap(),
            projected.advance(w).unwrap(),
            rows.advance(w).unwrap(),
        );
        let Some(a) = a else {
            assert!(b.is_none() && c.is_none(), "watermark {w}");
            continue;
        };
        assert_eq!(
            assert_projected(Some(a.clone()), b, mapping),
            a.num_rows(),
            "watermark {w}"
        );
        let columns: Vec<ArrayRef> = mapping.iter().map(|&p| a.column(p).clone()).collect();
        let kinds: Vec<ColumnKind> = columns
            .iter()
            .map(|c| ColumnKind::of(c.data_type()).unwrap())
            .collect();
        let encoded = encode(&columns, &kinds, None, a.num_rows()).unwrap();
        let c = c.unwrap();
        assert_eq!(c.num_columns(), 1);
        assert_eq!(c.column(0).to_data(), encoded.to_data(), "Flink rows");
        compared += a.num_rows();
    }
    compared
}

fn global_emit_input() -> [RecordBatch; 2] {
    [
        global_input(&[
            ("a", 2, Some(10), Some(1.5), 7, 2, 1_000),
            ("b", 1, None, None, 0, 0, 1_000),
            ("a", 3, Some(5), Some(2.5), 6, 3, 2_000),
        ]),
        global_input(&[
            ("c", 1, Some(1), Some(-1.0), 4, 1, 3_000),
            ("b", 4, Some(8), Some(0.5), 9, 4, 2_000),
        ]),
    ]
}

#[test]
fn an_emit_projects_the_global_phase_output_in_both_formats() {
    let _guard = no_leaks();
    let schema = global_input(&[]).schema();
    let input = global_emit_input();
    let watermarks = [500, 999, 1_999, 2_500, i64::MAX];
    // k, cnt, s, mx, a, window_start, window_end, window_time
    let (plan, expected) = global_plan(&schema, &Window::tumble(1_000), false);
    // drops the key, window_start and window_time, repeats cnt, reorders the rest
    let rows = assert_emit_projects(
        &plan,
        &schema,
        &expected,
        &[6, 3, 1, 4, 2, 1],
        &input,
        &watermarks,
    );
    assert_eq!(rows, 5);
    // drops the measures cnt, mx and a: their result types come from the expected schema
    let rows = assert_emit_projects(&plan, &schema, &expected, &[0, 7, 2], &input, &watermarks);
    assert_eq!(rows, 5);
    // HOP with the COUNT(*) Flink inserted (not emitted, no column): k, s, mx, a,
    // window_start, window_end, window_time; keeps only window_time of the properties,
    // repeats the key
    let (plan, expected) = global_plan(&schema, &hop(2_000, 1_000), true);
    let rows = assert_emit_projects(
        &plan,
        &schema,
        &expected,
        &[6, 0, 3, 2, 1, 0],
        &input,
        &watermarks,
    );
    assert!(rows >= 5, "{rows}");
    // every measure dropped
    let rows = assert_emit_projects(&plan, &schema, &expected, &[0, 4], &input, &watermarks);
    assert!(rows >= 5, "{rows}");
}

/// A one-phase TUMBLE aggregate keyed by k and v (COUNT(*), SUM(v) FILTER (v > 1), MAX(v)):
/// its plan, input schema, expected output and two input batches.
fn one_phase_emit_case() -> (Vec<u8>, Schema, Schema, [RecordBatch; 2]) {
    let input = [
        raw_rows(&[("a", 100, Some(1)), ("a", 900, None), ("b", 1_100, Some(3))]),
        raw_rows(&[
            ("b", 10, Some(4)),
            ("a", 2_500, Some(1)),
            ("c", 1_999, None),
        ]),
    ];
    let schema = input[0].schema().as_ref().clone();
    let projections = [
        ("k", col("k")),
        ("ts", col("ts")),
        ("v", col("v")),
        ("f", binary_expr(col("v"), Operator::Gt, lit(1i64))),
    ];
    let phase = AggregationPhase::InitialToResult;
    let measures = [
        M {
            phase,
            argument: None,
            ..m("count", 0)
        },
        M {
            phase,
            ..m("sum", 2)
        }
        .filtered(3),
        M {
            phase,
            ..m("max", 2)
        },
    ];
    // keys k and v
    let proto = agg_plan_proto(&schema, &projections, None, &[0, 2], &measures, &[]);
    let plan = with_enhancement(
        proto,
        WINDOW_TYPE_URL,
        window_bytes(&Window::tumble(1_000), &[1, 2, 3], 1, false),
    )
    .encode_to_vec();
    let expected = Schema::new(vec![
        Field::new("k", DataType::Utf8, true),
        Field::new("v", DataType::Int64, true),
        Field::new("cnt", DataType::Int64, false),
        Field::new("s", DataType::Int64, true),
        Field::new("mx", DataType::Int64, true),
        Field::new("window_start", ts(), false),
        Field::new("window_end", ts(), false),
        Field::new("window_time", ts(), false),
    ]);
    (plan, schema, expected, input)
}

#[test]
fn an_emit_projects_the_one_phase_output_in_both_formats() {
    let _guard = no_leaks();
    let (plan, schema, expected, input) = one_phase_emit_case();
    let watermarks = [999, 1_500, i64::MAX];
    // drops the key v and window_end, repeats mx, reorders
    let rows = assert_emit_projects(
        &plan,
        &schema,
        &expected,
        &[5, 4, 0, 3, 2, 7, 4],
        &input,
        &watermarks,
    );
    assert_eq!(rows, 6);
    // drops the key k and every measure
    let rows = assert_emit_projects(&plan, &schema, &expected, &[1, 6], &input, &watermarks);
    assert_eq!(rows, 6);
}

/// Asserts that the snapshot sections `a` and `b` are byte-identical, naming the first key
/// group and byte that differ (not the sections' bytes).
fn assert_same_sections(a: &[(i32, Vec<u8>)], b: &[(i32, Vec<u8>)], what: &str) {
    let groups = |s: &[(i32, Vec<u8>)]| s.iter().map(|(g, _)| *g).collect::<Vec<_>>();
    assert_eq!(groups(a), groups(b), "{what}: key groups");
    for ((g, x), (_, y)) in a.iter().zip(b) {
        if let Some(i) = (0..x.len().min(y.len())).find(|&i| x[i] != y[i]) {
            panic!("{what}: key group {g} differs at byte {i}");
        }
        assert_eq!(x.len(), y.len(), "{what}: key group {g}'s length");
    }
}

/// The operator of `plan` and the one of `plan` with the emit `mapping` fed `input` and
/// advanced to `watermark` fire the same (projected) rows and write byte-identical snapshot
/// sections; a snapshot of either restores into the other, which then fires what the
/// original would.
fn assert_same_state(
    plan: &[u8],
    schema: &Schema,
    expected: &Schema,
    mapping: &[usize],
    input: &[RecordBatch],
    watermark: i64,
) {
    let emitting_plan = emitting(plan, mapping, expected);
    let plain = create_window(plan, schema, expected).unwrap();
    let projected = create_window(&emitting_plan, schema, expected).unwrap();
    for b in input {
        plain.process(b, None).unwrap();
        projected.process(b, None).unwrap();
    }
    assert!(
        assert_projected(
            plain.advance(watermark).unwrap(),
            projected.advance(watermark).unwrap(),
            mapping
        ) > 0,
        "a window fired before the snapshot"
    );
    let sections = snapshot(&plain, 128).unwrap();
    assert!(!sections.is_empty());
    assert_same_sections(
        &snapshot(&projected, 128).unwrap(),
        &sections,
        "the emit changes the snapshot",
    );
    let stats = stats_of(&plain);
    assert_eq!(stats_of(&projected), stats);
    let rest = plain.advance(i64::MAX).unwrap();
    assert!(rest.as_ref().is_some_and(|b| b.num_rows() > 0));
    let rest_projected = projected.advance(i64::MAX).unwrap();
    assert_projected(rest.clone(), rest_projected, mapping);
    // the plain operator's snapshot into the emitting one and back
    let into_projected = create_window(&emitting_plan, schema, expected).unwrap();
    let into_plain = create_window(plan, schema, expected).unwrap();
    for (_, s) in &sections {
        restore(&into_projected, s).unwrap();
    }
    assert_eq!(stats_of(&into_projected), stats);
    assert_same_sections(
        &snapshot(&into_projected, 128).unwrap(),
        &sections,
        "restored into the emitting operator",
    );
    for (_, s) in &snapshot(&into_projected, 128).unwrap() {
        restore(&into_plain, s).unwrap();
    }
    assert_eq!(stats_of(&into_plain), stats);
    let from_plain = into_projected.advance(i64::MAX).unwrap();
    let back = into_plain.advance(i64::MAX).unwrap();
    // a restored state fires its keys in another order than the original
    assert_eq!(
        sorted(fired(back.clone())),
        sorted(fired(rest)),
        "restored from the emitting operator's snapshot"
    );
    assert_projected(back, from_plain, mapping);
}

#[test]
fn an_emit_leaves_the_state_and_its_snapshots_as_they_are() {
    let _guard = no_leaks();
    // global HOP with an inserted COUNT(*): drops the key and the measures s and mx
    let schema = global_input(&[]).schema();
    let (plan, expected) = global_plan(&schema, &hop(2_000, 1_000), true);
    let input = [many_keys(50, 1_000), many_keys(30, 2_000)];
    assert_same_state(&plan, &schema, &expected, &[3, 5], &input, 999);
    // one phase: drops the key k and every measure, repeats the key v
    let (plan, schema, expected, input) = one_phase_emit_case();
    assert_same_state(&plan, &schema, &expected, &[1, 6, 1], &input, 999);
}

#[test]
fn an_emit_that_does_not_fit_fails_at_create() {
    let _guard = no_leaks();
    let schema = global_input(&[]).schema();
    let (plan, expected) = global_plan(&schema, &Window::tumble(1_000), false);
    let fails = |plan: &[u8], expected: &Schema, needles: &[&str]| {
        let Err(err) = create_window(plan, &schema, expected) else {
            panic!("created");
        };
        assert_eq!(err.0, GATUN_ERR_PLAN, "{}", err.1);
        for n in needles {
            assert!(err.1.contains(n), "{n}: {}", err.1);
        }
    };
    // k, cnt, s, mx, a, window_start, window_end, window_time: 8 columns
    fails(
        &with_emit(&plan, &[0, 8], &[]),
        &expected,
        &["output column 1 to column 8", "outputs 8 columns"],
    );
    fails(
        &with_emit(&plan, &[], &[]),
        &expected,
        &["selects no column"],
    );
    fails(
        &with_emit(&plan, &[0, -1], &[]),
        &expected,
        &["output column 1 to field -1"],
    );
    // the inserted COUNT(*) is no column: k, s, mx, a and the properties are 7
    let (hop_plan, hop_expected) = global_plan(&schema, &hop(2_000, 1_000), true);
    fails(
        &with_emit(&hop_plan, &[7], &[]),
        &hop_expected,
        &["output column 0 to column 7", "outputs 7 columns"],
    );
    assert!(create_window(&with_emit(&hop_plan, &[6], &[]), &schema, &hop_expected).is_ok());
    // the expected schema and the root names describe the unprojected output
    let mapping = [7, 1, 2, 3, 4];
    let projected_names = ["window_time", "cnt", "s", "mx", "a"];
    let projected = Schema::new(
        mapping
            .iter()
            .map(|&p| expected.field(p).clone())
            .collect::<Vec<_>>(),
    );
    fails(
        &with_emit(&plan, &[7, 1, 2, 3, 4], &[]),
        &projected,
        &["expected output schema has 5 columns"],
    );
    fails(
        &with_emit(&plan, &[7, 1, 2, 3, 4], &projected_names),
        &expected,
        &["root names"],
    );
    let h = create_window(&emitting(&plan, &mapping, &expected), &schema, &expected).unwrap();
    let names: Vec<&str> = h
        .output
        .fields()
        .iter()
        .map(|f| f.name().as_str())
        .collect();
    assert_eq!(names, projected_names);
    // the local aggregate (with or without a window) projects nothing
    let input = raw_rows(&[]).schema();
    let projections = [("k", col("k")), ("v", col("v"))];
    let local = agg_plan(&input, &projections, None, &[0], &[m("sum", 1)]);
    let local_expected = agg_expected(&input, &projections, &[0], &[m("sum", 1)]);
    assert!(create_agg(&local, &input, &local_expected).is_ok());
    let Err(err) = create_agg(&with_emit(&local, &[1, 0], &[]), &input, &local_expected) else {
        panic!("created");
    };
    assert_eq!(err.0, GATUN_ERR_PLAN);
    assert!(
        err.1
            .contains("only a window aggregate projects its output"),
        "{}",
        err.1
    );
}
