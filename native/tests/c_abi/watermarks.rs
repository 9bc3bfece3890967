//! The Calc kind with `gatun.rowtime`/`gatun.watermark`: Flink's
//! `WatermarkAssignerOperator` over all input rows before the filter, its emissions as
//! the `__gatun_watermark` column of the output rows and `progress->after`, in both
//! output formats, with and without row kinds; checked against a per-row reference.

use std::sync::Arc;

use arrow::array::*;
use arrow::datatypes::{DataType, Field, Int32Type, Int64Type, Int8Type, Schema, TimeUnit};
use datafusion::logical_expr::{binary_expr, Expr, Operator};
use gatun_native::ffi::abi::*;
use gatun_native::flink_row::FLINK_ROW_COLUMN;
use gatun_native::ops::watermark::{ROWTIME_NAME, WATERMARK_COLUMN, WATERMARK_NAME};
use gatun_native::GatunWatermarkProgress;

use crate::calc_util::*;

const NONE: i64 = i64::MIN;

fn millis(zone: Option<&str>) -> DataType {
    DataType::Timestamp(TimeUnit::Millisecond, zone.map(Into::into))
}

/// Input columns `a` (Int32), `ts` (rowtime), `wm` (watermark values).
fn input(a: Vec<i32>, ts: Vec<Option<i64>>, wm: Vec<Option<i64>>) -> RecordBatch {
    batch(vec![
        ("a", Arc::new(Int32Array::from(a)) as ArrayRef),
        ("ts", Arc::new(TimestampMillisecondArray::from(ts))),
        ("wm", Arc::new(TimestampMillisecondArray::from(wm))),
    ])
}

fn rows(n: usize) -> Vec<Option<i64>> {
    (0..n as i64).map(Some).collect()
}

/// `SELECT a ... WHERE a > 0` (with `filter`) assigning `wm` as the watermark of `ts`.
fn plan_over(schema: &Schema, filter: bool) -> Vec<u8> {
    let named = [
        ("a", col("a")),
        (ROWTIME_NAME, col("ts")),
        (WATERMARK_NAME, col("wm")),
    ];
    plan(schema, &named, filter.then(positive))
}

fn positive() -> Expr {
    binary_expr(col("a"), Operator::Gt, lit(0))
}

fn a_only() -> Schema {
    Schema::new(vec![Field::new("a", DataType::Int32, true)])
}

fn progress(current: i64, last: i64, interval: i64) -> GatunWatermarkProgress {
    GatunWatermarkProgress {
        current,
        last,
        interval,
        after: 7, // out only: always overwritten
        mini_batch_next: 0,
    }
}

fn watermarks(out: &RecordBatch) -> Vec<Option<i64>> {
    let column = out.column(out.num_columns() - 1);
    assert_eq!(
        out.schema().field(out.num_columns() - 1).name(),
        WATERMARK_COLUMN
    );
    column.as_primitive::<Int64Type>().iter().collect()
}

/// What Flink's operator emits, in order: `Ok(row)` for a forwarded row, `Err(w)` for a
/// watermark. The straightforward per-row re-implementation of `processElement`.
fn flink_events(
    wm: &[Option<i64>],
    keep: &[bool],
    p: &mut GatunWatermarkProgress,
) -> Vec<Result<usize, i64>> {
    let mut events = Vec::new();
    for (i, w) in wm.iter().enumerate() {
        if let Some(w) = w {
            p.current = p.current.max(*w);
        }
        if keep[i] {
            events.push(Ok(i));
        }
        if p.current.wrapping_sub(p.last) > p.interval && p.current > p.last {
            p.last = p.current;
            events.push(Err(p.current));
        }
    }
    events
}

/// The events as the output encodes them: the watermark before each row, and after.
fn encode(events: &[Result<usize, i64>]) -> (Vec<Option<i64>>, i64) {
    let (mut column, mut pending) = (Vec::new(), None);
    for e in events {
        match e {
            Ok(_) => column.push(pending.take()),
            Err(w) => pending = Some(*w),
        }
    }
    (column, pending.unwrap_or(NONE))
}

#[test]
fn emissions_are_placed_before_the_next_output_row_and_filtered_rows_advance() {
    let _guard = no_leaks();
    let batch = input(
        vec![1, -1, -1, 2, -1, 3],
        rows(6),
        vec![Some(10), Some(20), Some(30), Some(30), Some(40), Some(35)],
    );
    let handle = create(
        &plan_over(&batch.schema(), true),
        &batch.schema(),
        &a_only(),
    )
    .unwrap();
    let mut p = progress(0, 0, 0);
    let out = handle.process(&batch, Some(&mut p)).unwrap().unwrap();
    assert_eq!(
        out.column(0).as_primitive::<Int32Type>().values(),
        &[1, 2, 3]
    );
    // 10 after row 0; 20 and 30 after the dropped rows 1 and 2 collapse into 30 before
    // row 3; 40 after the dropped row 4 comes before row 5.
    assert_eq!(watermarks(&out), [None, Some(30), Some(40)]);
    assert_eq!((p.current, p.last, p.after, p.interval), (40, 40, NONE, 0));
}

#[test]
fn a_watermark_after_the_last_output_row_goes_to_after() {
    let _guard = no_leaks();
    let batch = input(vec![1, 2, -1], rows(3), vec![Some(5), Some(5), Some(9)]);
    let handle = create(
        &plan_over(&batch.schema(), true),
        &batch.schema(),
        &a_only(),
    )
    .unwrap();
    let mut p = progress(0, 0, 0);
    let out = handle.process(&batch, Some(&mut p)).unwrap().unwrap();
    assert_eq!(watermarks(&out), [None, Some(5)]);
    assert_eq!((p.current, p.last, p.after), (9, 9, 9));
    // A filter that drops every row: an empty batch, the watermark in `after`.
    let batch = input(vec![-1, -1], rows(2), vec![Some(12), Some(11)]);
    let out = handle.process(&batch, Some(&mut p)).unwrap().unwrap();
    assert_eq!(out.num_rows(), 0);
    assert_eq!((p.current, p.last, p.after), (12, 12, 12));
    // An empty input: nothing moves, nothing to emit.
    let out = handle
        .process(&batch.slice(0, 0), Some(&mut p))
        .unwrap()
        .unwrap();
    assert_eq!(out.num_rows(), 0);
    assert_eq!((p.current, p.last, p.after), (12, 12, NONE));
}

#[test]
fn the_interval_holds_emissions_back_and_progress_carries_over() {
    let _guard = no_leaks();
    let batch = input(
        vec![1, 1, 1, 1],
        rows(4),
        vec![Some(10), Some(20), Some(30), Some(50)],
    );
    let handle = create(
        &plan_over(&batch.schema(), false),
        &batch.schema(),
        &a_only(),
    )
    .unwrap();
    let mut p = progress(0, 0, 15);
    let out = handle.process(&batch, Some(&mut p)).unwrap().unwrap();
    // 20 - 0 > 15 after row 1; 30 - 20 is not; 50 - 20 > 15 after row 3.
    assert_eq!(watermarks(&out), [None, None, Some(20), None]);
    assert_eq!((p.current, p.last, p.after), (50, 50, 50));
    // The next batch starts from (50, 50): 60 - 50 is not > 15, 66 - 50 is.
    let batch = input(vec![1, 1, 1], rows(3), vec![Some(60), Some(66), None]);
    let out = handle.process(&batch, Some(&mut p)).unwrap().unwrap();
    assert_eq!(watermarks(&out), [None, None, Some(66)]);
    assert_eq!((p.current, p.last, p.after), (66, 66, NONE));
}

#[test]
fn null_watermarks_are_skipped_and_negative_ones_never_emitted() {
    let _guard = no_leaks();
    let batch = input(
        vec![1, 1, 1, 1],
        rows(4),
        vec![None, Some(-10), Some(-1), None],
    );
    let handle = create(
        &plan_over(&batch.schema(), false),
        &batch.schema(),
        &a_only(),
    )
    .unwrap();
    let mut p = progress(0, 0, 0);
    let out = handle.process(&batch, Some(&mut p)).unwrap().unwrap();
    assert_eq!(watermarks(&out), [None; 4]);
    assert_eq!((p.current, p.last, p.after), (0, 0, NONE));
    let batch = input(vec![1, 1, 1], rows(3), vec![None, Some(3), None]);
    let out = handle.process(&batch, Some(&mut p)).unwrap().unwrap();
    assert_eq!(watermarks(&out), [None, None, Some(3)]);
    assert_eq!((p.current, p.last, p.after), (3, 3, NONE));
}

#[test]
fn a_null_rowtime_fails_with_flinks_message_and_changes_nothing() {
    let _guard = no_leaks();
    let batch = input(vec![1, 1], vec![Some(1), None], vec![Some(5), Some(6)]);
    let handle = create(
        &plan_over(&batch.schema(), true),
        &batch.schema(),
        &a_only(),
    )
    .unwrap();
    let mut p = progress(2, 1, 0);
    let (status, message) = handle.process(&batch, Some(&mut p)).unwrap_err();
    assert_eq!(status, GATUN_ERR_EXECUTION);
    assert_eq!(
        message,
        "gatun_operator_process: RowTime field should not be null, please convert it to a \
         non-null long value."
    );
    assert_eq!(p, progress(2, 1, 0), "progress written on failure");
    // A NULL rowtime in a row the filter drops fails too: the assigner sees every row.
    let batch = input(vec![1, -1], vec![Some(1), None], vec![Some(5), Some(6)]);
    assert_fails(
        handle.process(&batch, Some(&mut p)),
        GATUN_ERR_EXECUTION,
        &["RowTime field"],
    );
}

#[test]
fn the_arrow_format_puts_the_watermarks_after_the_row_kinds() {
    let _guard = no_leaks();
    let mut columns = input(vec![1, -1, 3], rows(3), vec![Some(4), Some(8), None])
        .columns()
        .to_vec();
    columns[1] = Arc::new(TimestampMillisecondArray::from(vec![1, 2, 3]).with_timezone("UTC"));
    columns.insert(1, Arc::new(Int8Array::from(vec![0, 3, 2])));
    let schema = Schema::new(vec![
        Field::new("a", DataType::Int32, true),
        Field::new(ROW_KIND, DataType::Int8, false),
        Field::new("ts", millis(Some("UTC")), false),
        Field::new("wm", millis(None), true),
    ]);
    let batch = RecordBatch::try_new(Arc::new(schema.clone()), columns).unwrap();
    let columns_only = Schema::new([0, 2, 3].map(|i| schema.field(i).clone()).to_vec());
    let bytes = plan_over(&columns_only, true);
    let handle = create(&bytes, &schema, &a_only()).unwrap();
    let names: Vec<_> = handle
        .output
        .fields()
        .iter()
        .map(|f| f.name().as_str())
        .collect();
    assert_eq!(names, ["a", ROW_KIND, WATERMARK_COLUMN]);
    let field = handle.output.field(2);
    assert_eq!(
        (field.data_type(), field.is_nullable()),
        (&DataType::Int64, true)
    );
    let mut p = progress(0, 0, 0);
    let out = handle.process(&batch, Some(&mut p)).unwrap().unwrap();
    assert_eq!(out.column(0).as_primitive::<Int32Type>().values(), &[1, 3]);
    assert_eq!(out.column(1).as_primitive::<Int8Type>().values(), &[0, 2]);
    assert_eq!(watermarks(&out), [None, Some(8)]);
    assert_eq!((p.current, p.last, p.after), (8, 8, NONE));
}

#[test]
fn the_flink_rows_format_has_the_watermarks_next_to_the_rows() {
    let _guard = no_leaks();
    for with_kinds in [false, true] {
        let mut batch = input(vec![1, 2, -3], rows(3), vec![Some(4), None, Some(9)]);
        if with_kinds {
            let mut columns = batch.columns().to_vec();
            columns.push(Arc::new(Int8Array::from(vec![1, 2, 0])));
            let mut fields = batch.schema().fields().to_vec();
            fields.push(Arc::new(Field::new(ROW_KIND, DataType::Int8, false)));
            batch = RecordBatch::try_new(Arc::new(Schema::new(fields)), columns).unwrap();
        }
        let plain = input(vec![], vec![], vec![]).schema();
        let bytes = plan_over(&plain, true);
        let rows_handle =
            create_with(&bytes, &batch.schema(), &a_only(), GATUN_OUTPUT_FLINK_ROWS).unwrap();
        let names: Vec<_> = rows_handle
            .output
            .fields()
            .iter()
            .map(|f| f.name().as_str())
            .collect();
        assert_eq!(names, [FLINK_ROW_COLUMN, WATERMARK_COLUMN]);
        let mut p = progress(0, 0, 0);
        let out = rows_handle.process(&batch, Some(&mut p)).unwrap().unwrap();
        assert_eq!(out.num_rows(), 2);
        let kinds: Vec<u8> = (0..2)
            .map(|r| out.column(0).as_binary::<i32>().value(r)[0])
            .collect();
        assert_eq!(kinds, if with_kinds { [1, 2] } else { [0, 0] });
        assert_eq!(watermarks(&out), [None, Some(4)]);
        assert_eq!((p.current, p.last, p.after), (9, 9, 9));
    }
}

#[test]
fn create_refuses_malformed_watermark_plans() {
    let _guard = no_leaks();
    let schema = Schema::new(vec![
        Field::new("a", DataType::Int32, true),
        Field::new("ts", millis(None), true),
        Field::new("us", DataType::Timestamp(TimeUnit::Microsecond, None), true),
        Field::new("n", DataType::Int64, true),
    ]);
    let fails = |named: &[(&str, Expr)], status: i32, needles: &[&str]| {
        let bytes = plan(&schema, named, None);
        assert_fails(
            create(&bytes, &schema, &Schema::empty()).map(|_| ()),
            status,
            needles,
        );
    };
    fails(
        &[(ROWTIME_NAME, col("ts"))],
        GATUN_ERR_PLAN,
        &["names `gatun.rowtime` but not `gatun.watermark`"],
    );
    fails(
        &[(WATERMARK_NAME, col("ts"))],
        GATUN_ERR_PLAN,
        &["names `gatun.watermark` but not `gatun.rowtime`"],
    );
    fails(
        &[(ROWTIME_NAME, col("ts")), (WATERMARK_NAME, col("n"))],
        GATUN_ERR_PLAN,
        &["watermark (", "is Int64, expected Timestamp(ms)"],
    );
    fails(
        &[(ROWTIME_NAME, col("us")), (WATERMARK_NAME, col("ts"))],
        GATUN_ERR_PLAN,
        &["rowtime (", "expected Timestamp(ms)"],
    );
    fails(
        &[
            (ROWTIME_NAME, col("ts")),
            (WATERMARK_NAME, col("ts")),
            (ROWTIME_NAME, col("ts")),
        ],
        GATUN_ERR_PLAN,
        &["more than one expression is named `gatun.rowtime`"],
    );
    fails(
        &[("gatun.proctime", col("ts"))],
        GATUN_ERR_PLAN,
        &["unknown expression `gatun.proctime`"],
    );
    // The watermark column is appended, never expected.
    let expected = Schema::new(vec![Field::new(WATERMARK_COLUMN, DataType::Int64, true)]);
    let bytes = plan(&schema, &[(WATERMARK_COLUMN, col("n"))], None);
    assert_fails(
        create(&bytes, &schema, &expected).map(|_| ()),
        GATUN_ERR_INVALID_ARGUMENT,
        &["`expected_output_schema` must not contain `__gatun_watermark`"],
    );
}

/// A small deterministic generator (no dependency for tests).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

#[test]
fn random_batches_match_the_per_row_reference() {
    let _guard = no_leaks();
    let schema = input(vec![], vec![], vec![]).schema();
    let with_filter = create(&plan_over(&schema, true), &schema, &a_only()).unwrap();
    let without = create(&plan_over(&schema, false), &schema, &a_only()).unwrap();
    let mut random = Lcg(0x5eed);
    let (mut emitted, mut collapsed, mut after) = (0, 0, 0);
    for stream in 0..60 {
        let interval = [0, 1, 5, 100, 1_000_000][random.below(5) as usize];
        let mut p = progress(0, 0, interval);
        let mut reference = p;
        let selectivity = random.below(101);
        let mut base = random.below(1000) as i64 - 200;
        for _ in 0..8 {
            let n = random.below(40) as usize;
            let mut a = Vec::with_capacity(n);
            let mut wm = Vec::with_capacity(n);
            for _ in 0..n {
                a.push(if random.below(100) < selectivity {
                    1
                } else {
                    -1
                });
                base += random.below(30) as i64 - 8; // mostly rising, sometimes falling
                wm.push((random.below(6) != 0).then_some(base));
            }
            let handle = if stream % 3 == 0 {
                &without
            } else {
                &with_filter
            };
            let keep: Vec<bool> = a.iter().map(|&v| stream % 3 == 0 || v > 0).collect();
            let events = flink_events(&wm, &keep, &mut reference);
            let (column, reference_after) = encode(&events);
            let out = handle
                .process(&input(a, rows(n), wm), Some(&mut p))
                .unwrap()
                .unwrap();
            assert_eq!(watermarks(&out), column, "stream {stream}");
            assert_eq!(
                (p.current, p.last, p.after),
                (reference.current, reference.last, reference_after),
                "stream {stream}"
            );
            let marks = events.iter().filter(|e| e.is_err()).count();
            emitted += marks;
            collapsed +=
                marks - column.iter().flatten().count() - usize::from(reference_after != NONE);
            after += usize::from(reference_after != NONE);
        }
    }
    assert!(
        emitted > 300 && collapsed > 20 && after > 50,
        "{emitted} {collapsed} {after}"
    );
}
