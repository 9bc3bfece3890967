//! The local-aggregate kind with a window (Flink's local window aggregate) end to end:
//! slice ends from the rowtime (TIMESTAMP and TIMESTAMP_LTZ shifted into a zone), the
//! `$slice_end` column, the watermark rule of `gatun_operator_advance`, flush, errors.

use std::sync::Arc;

use arrow::array::{
    Array, ArrayRef, AsArray, Int64Array, RecordBatch, StringArray, TimestampMillisecondArray,
};
use arrow::datatypes::{DataType, Field, Int64Type, Schema};
use datafusion::logical_expr::{binary_expr, Expr, Operator};
use datafusion_substrait::substrait::proto::extensions::AdvancedExtension;
use datafusion_substrait::substrait::proto::plan_rel::RelType as PlanRelType;
use datafusion_substrait::substrait::proto::rel::RelType;
use datafusion_substrait::substrait::proto::{Expression, Plan};
use gatun_native::ffi::abi::{GATUN_ERR_EXECUTION, GATUN_ERR_INVALID_ARGUMENT, GATUN_ERR_PLAN};
use gatun_native::ops::local_aggregate::window_plan::WINDOW_TYPE_URL;
use gatun_native::ops::watermark::WATERMARK_COLUMN;
use gatun_native::GatunWatermarkProgress;
use prost::encoding::{encode_key, encode_varint, WireType};
use prost::Message;

use crate::agg_util::*;
use crate::calc_util::*;

/// The window message (see `window_plan.rs`), written field by field.
pub(crate) struct Window {
    pub kind: u64,
    pub time_column: u64,
    pub size: i64,
    pub step: i64,
    pub offset: i64,
    pub zone: Option<(&'static str, Vec<i64>, Vec<i64>, bool)>,
    /// An absorbed row-time mini-batch assigner: its interval and the watermark expression.
    pub mini_batch: Option<(i64, Expression)>,
}

impl Window {
    pub(crate) fn tumble(size: i64) -> Self {
        Window {
            kind: 1,
            time_column: 1,
            size,
            step: 0,
            offset: 0,
            zone: None,
            mini_batch: None,
        }
    }

    pub(crate) fn encode(&self) -> Vec<u8> {
        let mut b = Vec::new();
        let varint = |tag: u32, v: u64, b: &mut Vec<u8>| {
            encode_key(tag, WireType::Varint, b);
            encode_varint(v, b);
        };
        varint(1, self.kind, &mut b);
        varint(2, self.time_column, &mut b);
        varint(3, self.size as u64, &mut b);
        varint(4, self.step as u64, &mut b);
        varint(5, self.offset as u64, &mut b);
        if let Some((name, transitions, offsets, daylight)) = &self.zone {
            encode_key(6, WireType::LengthDelimited, &mut b);
            encode_varint(name.len() as u64, &mut b);
            b.extend_from_slice(name.as_bytes());
            for (tag, values) in [(7, transitions), (8, offsets)] {
                let mut packed = Vec::new();
                for v in values.iter() {
                    encode_varint(*v as u64, &mut packed);
                }
                encode_key(tag, WireType::LengthDelimited, &mut b);
                encode_varint(packed.len() as u64, &mut b);
                b.extend_from_slice(&packed);
            }
            varint(9, *daylight as u64, &mut b);
        }
        if let Some((interval, watermark)) = &self.mini_batch {
            varint(13, *interval as u64, &mut b);
            let bytes = watermark.encode_to_vec();
            encode_key(14, WireType::LengthDelimited, &mut b);
            encode_varint(bytes.len() as u64, &mut b);
            b.extend_from_slice(&bytes);
        }
        b
    }
}

pub(crate) fn with_enhancement(mut plan: Plan, type_url: &str, value: Vec<u8>) -> Plan {
    let Some(PlanRelType::Root(root)) = &mut plan.relations[0].rel_type else {
        unreachable!()
    };
    let Some(RelType::Aggregate(aggregate)) = &mut root.input.as_mut().unwrap().rel_type else {
        unreachable!()
    };
    let mut any = AdvancedExtension::default().enhancement.unwrap_or_default();
    any.type_url = type_url.to_string();
    any.value = value.into();
    aggregate.advanced_extension = Some(AdvancedExtension {
        optimization: Vec::new(),
        enhancement: Some(any),
    });
    plan
}

/// Rows `(k, ts, v)`; `zone` tags the rowtime as TIMESTAMP_LTZ.
fn rows(zone: Option<&str>, rows: &[(Option<&str>, Option<i64>, Option<i64>)]) -> RecordBatch {
    let ts = TimestampMillisecondArray::from(rows.iter().map(|r| r.1).collect::<Vec<_>>())
        .with_timezone_opt(zone.map(str::to_string));
    batch(vec![
        (
            "k",
            Arc::new(StringArray::from(
                rows.iter().map(|r| r.0).collect::<Vec<_>>(),
            )) as ArrayRef,
        ),
        ("ts", Arc::new(ts)),
        (
            "v",
            Arc::new(Int64Array::from(
                rows.iter().map(|r| r.2).collect::<Vec<_>>(),
            )),
        ),
    ])
}

/// `SELECT k, COUNT(*), SUM(v) ... GROUP BY k, window` over `(k, ts, v)`, optional filter.
fn window_handle(
    schema: &Schema,
    window: &Window,
    filter: Option<Expr>,
) -> Result<Handle, (i32, String)> {
    let projections = [("k", col("k")), ("ts", col("ts")), ("v", col("v"))];
    let measures = [count_star(), m("sum", 2)];
    let proto = agg_plan_proto(schema, &projections, filter, &[0], &measures, &[]);
    let bytes = with_enhancement(proto, WINDOW_TYPE_URL, window.encode()).encode_to_vec();
    let mut fields: Vec<Field> = agg_expected(schema, &projections, &[0], &measures)
        .fields()
        .iter()
        .map(|f| f.as_ref().clone())
        .collect();
    fields.push(Field::new("$slice_end", DataType::Int64, false));
    create_agg(&bytes, schema, &Schema::new(fields))
}

/// The emitted rows as `(k, count, sum, slice_end)`, sorted.
fn result(batch: Option<RecordBatch>) -> Vec<(Option<String>, i64, Option<i64>, i64)> {
    let Some(b) = batch else { return Vec::new() };
    assert_eq!(b.schema().field(3).name(), "$slice_end");
    let k = b.column(0).as_string::<i32>();
    let c = b.column(1).as_primitive::<Int64Type>();
    let s = b.column(2).as_primitive::<Int64Type>();
    let e = b.column(3).as_primitive::<Int64Type>();
    let mut out: Vec<_> = (0..b.num_rows())
        .map(|i| {
            (
                k.is_valid(i).then(|| k.value(i).to_string()),
                c.value(i),
                s.is_valid(i).then(|| s.value(i)),
                e.value(i),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn rows_are_grouped_per_key_and_slice_and_the_slice_end_comes_last() {
    let _guard = no_leaks();
    let input = rows(
        None,
        &[
            (Some("a"), Some(1_000), Some(1)),
            (Some("a"), Some(4_999), Some(2)),
            (Some("a"), Some(5_000), Some(3)),
            (None, Some(-1), None),
            (Some("b"), Some(7_000), Some(4)),
        ],
    );
    let handle = window_handle(&input.schema(), &Window::tumble(5_000), None).unwrap();
    assert!(handle.process(&input, None).unwrap().is_none());
    assert_eq!(
        result(handle.flush().unwrap()),
        vec![
            (None, 1, None, 0),
            (Some("a".into()), 1, Some(3), 10_000),
            (Some("a".into()), 2, Some(3), 5_000),
            (Some("b".into()), 1, Some(4), 10_000),
        ]
    );
    assert!(handle.flush().unwrap().is_none(), "flush starts over");
}

#[test]
fn groups_leave_on_the_watermark_that_fires_the_earliest_slice() {
    let _guard = no_leaks();
    let first = rows(
        None,
        &[
            (Some("a"), Some(1_500), Some(1)),
            (Some("a"), Some(2_500), Some(2)),
        ],
    );
    let handle = window_handle(&first.schema(), &Window::tumble(1_000), None).unwrap();
    handle.process(&first, None).unwrap();
    // slice 2000 fires at 1999; the trigger point after watermark 500 is 999
    assert!(
        handle.advance(0).unwrap().is_none(),
        "watermarks start above 0"
    );
    assert!(handle.advance(500).unwrap().is_none());
    assert!(handle.advance(1_998).unwrap().is_none());
    let out = result(handle.advance(1_999).unwrap());
    assert_eq!(
        out,
        vec![
            (Some("a".into()), 1, Some(1), 2_000),
            (Some("a".into()), 1, Some(2), 3_000)
        ]
    );
    // a late row (slice 1000) waits for the next trigger point, 2999
    handle
        .process(&rows(None, &[(Some("z"), Some(100), Some(9))]), None)
        .unwrap();
    assert!(handle.advance(2_500).unwrap().is_none());
    assert_eq!(
        result(handle.advance(2_999).unwrap()),
        vec![(Some("z".into()), 1, Some(9), 1_000)]
    );
}

#[test]
fn ltz_rowtimes_are_sliced_in_the_session_zone() {
    let _guard = no_leaks();
    // Asia/Shanghai from 1992 on: +8h, no DST
    let mut window = Window::tumble(86_400_000);
    window.zone = Some((
        "Asia/Shanghai",
        vec![684_867_600_000],
        vec![32_400, 28_800],
        false,
    ));
    // 2024-03-10T20:00Z is 2024-03-11 04:00 in Shanghai: the day ending 2024-03-12T00:00 local
    let input = rows(
        Some("UTC"),
        &[(Some("a"), Some(1_710_100_800_000), Some(1))],
    );
    let handle = window_handle(&input.schema(), &window, None).unwrap();
    handle.process(&input, None).unwrap();
    let end = 1_710_201_600_000; // 2024-03-12T00:00 as UTC epoch
                                 // the slice fires at the instant of local 2024-03-11T23:59:59.999, 15:59:59.999Z ...
    let fired = end - 8 * 3_600_000 - 1;
    assert!(handle.advance(fired - 1).unwrap().is_none());
    // ... but Flink's next trigger point in a zone without DST is the end of the UTC day
    // holding the previous watermark (getNextTriggerWatermark), so it leaves only then
    assert!(handle.advance(fired).unwrap().is_none());
    assert!(handle.advance(end - 2).unwrap().is_none());
    assert_eq!(
        result(handle.advance(end - 1).unwrap()),
        vec![(Some("a".into()), 1, Some(1), end)]
    );
}

#[test]
fn a_filter_that_drops_everything_buffers_nothing() {
    let _guard = no_leaks();
    let input = rows(
        None,
        &[(Some("a"), Some(1), Some(1)), (Some("b"), None, Some(2))],
    );
    let never = binary_expr(col("v"), Operator::Gt, lit(100i64));
    let handle = window_handle(&input.schema(), &Window::tumble(1_000), Some(never)).unwrap();
    // the NULL rowtime is filtered out before it is sliced, as in Flink
    assert!(handle.process(&input, None).unwrap().is_none());
    assert!(handle.advance(i64::MAX).unwrap().is_none());
    assert!(handle.flush().unwrap().is_none());
}

#[test]
fn a_null_rowtime_fails_with_flinks_message() {
    let _guard = no_leaks();
    let input = rows(None, &[(Some("a"), None, Some(1))]);
    let handle = window_handle(&input.schema(), &Window::tumble(1_000), None).unwrap();
    assert_fails(
        handle.process(&input, None),
        GATUN_ERR_EXECUTION,
        &["RowTime field should not be null, please convert it to a non-null long value."],
    );
}

#[test]
fn without_a_window_advance_ends_the_bundle() {
    let _guard = no_leaks();
    let input = rows(None, &[(Some("a"), Some(1), Some(1))]);
    let projections = [("k", col("k")), ("v", col("v"))];
    let handle = agg_handle(&input.schema(), &projections, None, &[0], &[count_star()]);
    handle.process(&input, None).unwrap();
    assert_eq!(handle.advance(-5).unwrap().map(|b| b.num_rows()), Some(1));
}

#[test]
fn bad_windows_are_plan_errors() {
    let _guard = no_leaks();
    let input = rows(None, &[]);
    let schema = input.schema();
    let cases: Vec<(Window, &str)> = vec![
        (
            Window {
                kind: 2,
                step: 3_000,
                ..Window::tumble(10_000)
            },
            "integral multiple",
        ),
        (
            Window {
                kind: 7,
                ..Window::tumble(1_000)
            },
            "window kind 7",
        ),
        (
            Window {
                offset: 1_000,
                ..Window::tumble(1_000)
            },
            "offset",
        ),
        (
            Window {
                time_column: 9,
                ..Window::tumble(1_000)
            },
            "time column is 9",
        ),
        (
            Window {
                time_column: 2,
                ..Window::tumble(1_000)
            },
            "a rowtime is a millisecond timestamp",
        ),
        (
            Window {
                zone: Some(("X", vec![0], vec![0], false)),
                ..Window::tumble(1_000)
            },
            "need 2 offsets",
        ),
    ];
    for (window, needle) in cases {
        assert_fails(
            window_handle(&schema, &window, None).map(|_| ()),
            GATUN_ERR_PLAN,
            &[needle],
        );
    }
    let projections = [("k", col("k")), ("ts", col("ts")), ("v", col("v"))];
    let proto = agg_plan_proto(&schema, &projections, None, &[0], &[count_star()], &[]);
    let bytes = with_enhancement(proto, "type.example/Other", vec![]).encode_to_vec();
    let expected = agg_expected(&schema, &projections, &[0], &[count_star()]);
    assert_fails(
        create_agg(&bytes, &schema, &expected).map(|_| ()),
        GATUN_ERR_PLAN,
        &["type.example/Other"],
    );
    // a window plan whose expected output lacks the slice end
    let proto = agg_plan_proto(&schema, &projections, None, &[0], &[count_star()], &[]);
    let bytes =
        with_enhancement(proto, WINDOW_TYPE_URL, Window::tumble(1_000).encode()).encode_to_vec();
    assert_fails(
        create_agg(&bytes, &schema, &expected).map(|_| ()),
        GATUN_ERR_PLAN,
        &["$slice_end"],
    );
}

/// `e` as a Substrait expression over `schema` (through a Calc plan).
fn expression(schema: &Schema, e: Expr) -> Expression {
    use datafusion_substrait::substrait::proto::expression_reference::ExprType;
    use datafusion_substrait::substrait::proto::ExtendedExpression;
    let ee = ExtendedExpression::decode(plan(schema, &[("e", e)], None).as_slice()).unwrap();
    match ee.referred_expr[0].expr_type.clone() {
        Some(ExprType::Expression(e)) => e,
        _ => unreachable!(),
    }
}

/// Each flush's rows (sorted within it, as Flink's buffer order is its own) and the
/// watermark column.
fn flushes(
    out: &RecordBatch,
    sizes: &[usize],
) -> (Vec<Vec<(String, i64, i64, i64)>>, Vec<Option<i64>>) {
    let k = out.column(0).as_string::<i32>();
    let c = out.column(1).as_primitive::<Int64Type>();
    let s = out.column(2).as_primitive::<Int64Type>();
    let e = out.column(3).as_primitive::<Int64Type>();
    let mut at = 0;
    let groups = sizes
        .iter()
        .map(|&n| {
            let mut rows: Vec<_> = (at..at + n)
                .map(|i| (k.value(i).to_string(), c.value(i), s.value(i), e.value(i)))
                .collect();
            rows.sort();
            at += n;
            rows
        })
        .collect();
    assert_eq!(at, out.num_rows());
    let last = out.num_columns() - 1;
    assert_eq!(out.schema().field(last).name(), WATERMARK_COLUMN);
    (
        groups,
        out.column(last)
            .as_primitive::<Int64Type>()
            .iter()
            .collect(),
    )
}

#[test]
fn absorbed_assigners_fold_a_batch_in_segments_at_the_forwarded_watermarks() {
    let _guard = no_leaks();
    // the watermark is the rowtime (no delay), emitted when it advanced more than 200 ms;
    // the mini-batch assigner forwards it once it reaches the end of the second
    let input = rows(
        None,
        &[
            (Some("x"), Some(1_500), Some(5)), // forwarded (>= 999); the next end is 1999
            (Some("y"), Some(1_900), Some(6)), // emitted, not forwarded
            (Some("x"), Some(2_600), Some(7)), // forwarded: slice 2000 fired, all three leave
            (Some("z"), Some(2_700), Some(1)), // 100 ms on: not emitted
            (Some("x"), Some(3_100), Some(8)), // forwarded: z's slice 3000 fired, both leave
        ],
    );
    let mut window = Window::tumble(1_000);
    window.mini_batch = Some((1_000, expression(&input.schema(), col("ts"))));
    let handle = window_handle(&input.schema(), &window, None).unwrap();
    let mut progress = GatunWatermarkProgress {
        current: 0,
        last: 0,
        interval: 200,
        after: 7,
        mini_batch_next: 999, // the mini-batch assigner's open()
    };
    let out = handle
        .process(&input, Some(&mut progress))
        .unwrap()
        .unwrap();
    let (groups, marks) = flushes(&out, &[3, 2]);
    let row = |k: &str, c, s, e| (k.to_string(), c, s, e);
    assert_eq!(
        groups,
        vec![
            vec![
                row("x", 1, 5, 2_000),
                row("x", 1, 7, 3_000),
                row("y", 1, 6, 2_000)
            ],
            vec![row("x", 1, 8, 4_000), row("z", 1, 1, 3_000)],
        ]
    );
    assert_eq!(marks, vec![Some(1_500), None, None, Some(2_600), None]);
    assert_eq!(
        (
            progress.current,
            progress.last,
            progress.after,
            progress.mini_batch_next
        ),
        (3_100, 3_100, 3_100, 3_999)
    );
    // the next batch continues from the progress: 3500 is emitted but not forwarded
    let next = rows(None, &[(Some("x"), Some(3_500), Some(2))]);
    assert!(handle
        .process(&next, Some(&mut progress))
        .unwrap()
        .is_none());
    assert_eq!(
        (
            progress.current,
            progress.last,
            progress.after,
            progress.mini_batch_next
        ),
        (3_500, 3_500, i64::MIN, 3_999)
    );
    assert_fails(
        handle.process(&next, None),
        GATUN_ERR_INVALID_ARGUMENT,
        &["progress"],
    );
}
