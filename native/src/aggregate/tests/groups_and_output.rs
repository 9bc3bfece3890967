//! Grouping (NULL and float keys, no keys, slice end), emit and reset, the output row type,
//! memory accounting.

use std::sync::Arc;

use arrow::array::{AsArray, Float64Array, Int64Array, StringArray};
use arrow::datatypes::{DataType, Float64Type, TimeUnit};

use super::{batch, global, i64s, key, run};
use crate::aggregate::{AggCall, AggFunction, AggregateSpec, LocalAggregate};

#[test]
fn output_layout_types_and_names_follow_flink() {
    let agg = LocalAggregate::new(AggregateSpec {
        keys: vec![key(0, DataType::Int32)],
        calls: vec![
            AggCall::count_star(),
            AggCall::new(AggFunction::Sum, 1, DataType::Int32),
            AggCall::new(AggFunction::Avg, 1, DataType::Int32),
            AggCall::new(AggFunction::Min, 2, DataType::Utf8),
            AggCall::new(
                AggFunction::Max,
                3,
                DataType::Timestamp(TimeUnit::Millisecond, None),
            ),
            AggCall::new(AggFunction::Count, 4, DataType::Int64).with_filter(5),
            AggCall::new(AggFunction::Sum, 6, DataType::Float32),
            AggCall::new(AggFunction::Avg, 6, DataType::Float32),
        ],
        slice_end: Some(7),
    })
    .unwrap();
    let fields: Vec<(String, DataType, bool)> = (agg.output_schema().fields().iter())
        .map(|f| (f.name().clone(), f.data_type().clone(), f.is_nullable()))
        .collect();
    let expected = [
        ("k0", DataType::Int32),
        ("count1$0", DataType::Int64),
        ("sum$1", DataType::Int32),
        ("sum$2", DataType::Int64),
        ("count$3", DataType::Int64),
        ("min$4", DataType::Utf8),
        ("max$5", DataType::Timestamp(TimeUnit::Millisecond, None)),
        ("count$6", DataType::Int64),
        ("sum$7", DataType::Float32),
        ("sum$8", DataType::Float64),
        ("count$9", DataType::Int64),
        ("$slice_end", DataType::Int64),
    ];
    let expected: Vec<(String, DataType, bool)> = expected
        .into_iter()
        .map(|(n, t)| (n.to_string(), t, true))
        .collect();
    assert_eq!(fields, expected);
}

#[test]
fn decimal_sum_and_avg_have_precision_38_and_keep_the_scale() {
    let t = DataType::Decimal128(10, 2);
    let agg = global(vec![
        AggCall::new(AggFunction::Sum, 0, t.clone()),
        AggCall::new(AggFunction::Avg, 0, t.clone()),
        AggCall::new(AggFunction::Min, 0, t.clone()),
    ]);
    let types: Vec<DataType> = agg
        .output_schema()
        .fields()
        .iter()
        .map(|f| f.data_type().clone())
        .collect();
    assert_eq!(
        types,
        vec![
            DataType::Decimal128(38, 2),
            DataType::Decimal128(38, 2),
            DataType::Int64,
            t
        ]
    );
}

#[test]
fn null_keys_are_one_group_and_float_keys_compare_by_bits() {
    let mut agg = LocalAggregate::new(AggregateSpec {
        keys: vec![key(0, DataType::Float64)],
        calls: vec![AggCall::count_star()],
        slice_end: None,
    })
    .unwrap();
    let nan2 = f64::from_bits(0x7ff8_0000_0000_0001);
    let keys = Float64Array::from(vec![
        Some(0.0),
        Some(-0.0),
        None,
        Some(f64::NAN),
        Some(nan2),
        Some(0.0),
        None,
        Some(f64::NAN),
    ]);
    let out = run(&mut agg, &[batch(vec![Arc::new(keys)])]);
    let keys: Vec<Option<u64>> = out
        .column(0)
        .as_primitive::<Float64Type>()
        .iter()
        .map(|k| k.map(f64::to_bits))
        .collect();
    assert_eq!(
        keys,
        vec![
            Some(0.0f64.to_bits()),
            Some((-0.0f64).to_bits()),
            None,
            Some(f64::NAN.to_bits()),
            Some(nan2.to_bits())
        ]
    );
    assert_eq!(
        i64s(out.column(1)),
        vec![Some(2), Some(1), Some(2), Some(2), Some(1)]
    );
}

#[test]
fn no_keys_fold_everything_into_one_row() {
    let mut agg = global(vec![
        AggCall::count_star(),
        AggCall::new(AggFunction::Max, 0, DataType::Int64),
    ]);
    let out = run(
        &mut agg,
        &[
            batch(vec![Arc::new(Int64Array::from(vec![Some(3), None]))]),
            batch(vec![Arc::new(Int64Array::from(Vec::<i64>::new()))]),
            batch(vec![Arc::new(Int64Array::from(vec![7, -1]))]),
        ],
    );
    assert_eq!(out.num_columns(), 2);
    assert_eq!(i64s(out.column(0)), vec![Some(4)]);
    assert_eq!(i64s(out.column(1)), vec![Some(7)]);
    let out = run(
        &mut agg,
        &[batch(vec![Arc::new(Int64Array::from(vec![5]))])],
    );
    assert_eq!(
        (i64s(out.column(0)), i64s(out.column(1))),
        (vec![Some(1)], vec![Some(5)])
    );
}

#[test]
fn slice_end_is_a_last_key_emitted_last() {
    let mut agg = LocalAggregate::new(AggregateSpec {
        keys: vec![key(1, DataType::Utf8)],
        calls: vec![
            AggCall::count_star(),
            AggCall::new(AggFunction::Sum, 2, DataType::Int64),
        ],
        slice_end: Some(0),
    })
    .unwrap();
    let out = run(
        &mut agg,
        &[batch(vec![
            Arc::new(Int64Array::from(vec![10_000, 10_000, 20_000, 10_000])),
            Arc::new(StringArray::from(vec!["a", "a", "a", "b"])),
            Arc::new(Int64Array::from(vec![1, 2, 4, 8])),
        ])],
    );
    assert_eq!(out.schema().field(3).name(), "$slice_end");
    assert_eq!(
        out.column(0).as_string::<i32>().iter().collect::<Vec<_>>(),
        vec![Some("a"), Some("a"), Some("b")]
    );
    assert_eq!(i64s(out.column(1)), vec![Some(2), Some(1), Some(1)]);
    assert_eq!(i64s(out.column(2)), vec![Some(3), Some(4), Some(8)]);
    assert_eq!(
        i64s(out.column(3)),
        vec![Some(10_000), Some(20_000), Some(10_000)]
    );
}

#[test]
fn emit_resets_every_grouping_variant() {
    // Single primitive, single string, multi-column (whose hash map emit(All) keeps), row
    // format (Duration is not a GroupValuesColumn type) and slice-end-only keys.
    let multi = vec![key(0, DataType::Int64), key(1, DataType::Utf8)];
    let specs = [
        AggregateSpec {
            keys: vec![key(0, DataType::Int64)],
            ..Default::default()
        },
        AggregateSpec {
            keys: vec![key(1, DataType::Utf8)],
            ..Default::default()
        },
        AggregateSpec {
            keys: multi.clone(),
            ..Default::default()
        },
        AggregateSpec {
            keys: multi,
            slice_end: Some(2),
            ..Default::default()
        },
        AggregateSpec {
            keys: vec![
                key(3, DataType::Duration(TimeUnit::Millisecond)),
                key(1, DataType::Utf8),
            ],
            ..Default::default()
        },
        AggregateSpec {
            slice_end: Some(2),
            ..Default::default()
        },
    ];
    let make = |ids: Vec<i64>| {
        let names: Vec<String> = ids.iter().map(|i| format!("n{i}")).collect();
        batch(vec![
            Arc::new(Int64Array::from(ids.clone())),
            Arc::new(StringArray::from(names)),
            Arc::new(Int64Array::from(
                ids.iter().map(|i| i * 1000).collect::<Vec<_>>(),
            )),
            Arc::new(arrow::array::DurationMillisecondArray::from(ids)),
        ])
    };
    for (s, mut spec) in specs.into_iter().enumerate() {
        spec.calls = vec![
            AggCall::count_star(),
            AggCall::new(AggFunction::Sum, 0, DataType::Int64),
        ];
        let mut agg = LocalAggregate::new(spec).unwrap();
        let first = run(&mut agg, &[make(vec![1, 2, 2])]);
        assert_eq!(first.num_rows(), 2, "spec {s}");
        assert!(
            agg.emit().unwrap().is_none(),
            "spec {s}: second emit without updates"
        );
        let second = run(&mut agg, &[make(vec![2, 3, 3, 3])]);
        let counts = second.column(
            second.num_columns()
                - 2
                - agg
                    .output_schema()
                    .fields()
                    .iter()
                    .filter(|f| f.name() == "$slice_end")
                    .count(),
        );
        let sums = second.column(
            second.num_columns()
                - 1
                - agg
                    .output_schema()
                    .fields()
                    .iter()
                    .filter(|f| f.name() == "$slice_end")
                    .count(),
        );
        assert_eq!(
            i64s(counts),
            vec![Some(1), Some(3)],
            "spec {s}: counts start from scratch"
        );
        assert_eq!(i64s(sums), vec![Some(2), Some(9)], "spec {s}");
    }
}

#[test]
fn zero_groups_emit_none() {
    let mut agg = LocalAggregate::new(AggregateSpec {
        keys: vec![key(0, DataType::Int64)],
        calls: vec![AggCall::count_star()],
        slice_end: None,
    })
    .unwrap();
    assert!(agg.emit().unwrap().is_none());
    agg.update(&batch(vec![Arc::new(Int64Array::from(Vec::<i64>::new()))]))
        .unwrap();
    assert!(agg.emit().unwrap().is_none());
    let mut global = global(vec![AggCall::count_star()]);
    global
        .update(&batch(vec![Arc::new(Int64Array::from(Vec::<i64>::new()))]))
        .unwrap();
    assert!(global.emit().unwrap().is_none(), "no rows, no global group");
}

#[test]
fn memory_size_grows_with_groups_and_shrinks_after_emit() {
    let mut agg = LocalAggregate::new(AggregateSpec {
        keys: vec![key(0, DataType::Int64), key(1, DataType::Utf8)],
        calls: vec![
            AggCall::count_star(),
            AggCall::new(AggFunction::Avg, 0, DataType::Int64),
            AggCall::new(AggFunction::Max, 1, DataType::Utf8),
        ],
        slice_end: None,
    })
    .unwrap();
    let make = |from: i64, n: i64| {
        let ids: Vec<i64> = (from..from + n).collect();
        let names: Vec<String> = ids.iter().map(|i| format!("name-{i:08}")).collect();
        batch(vec![
            Arc::new(Int64Array::from(ids)),
            Arc::new(StringArray::from(names)),
        ])
    };
    agg.update(&make(0, 100)).unwrap();
    let small = agg.memory_size();
    for i in 1..50 {
        agg.update(&make(i * 1000, 1000)).unwrap();
    }
    let large = agg.memory_size();
    assert!(
        large > small + 49_000 * 8,
        "{small} → {large} bytes for 49,100 groups"
    );
    agg.emit().unwrap().unwrap();
    let after_large = agg.memory_size();
    assert!(
        after_large < large / 2,
        "after emit {after_large} bytes, before {large}"
    );
    // The next emit sizes what is kept by the bundle it emits.
    agg.update(&make(0, 100)).unwrap();
    agg.emit().unwrap().unwrap();
    let after_small = agg.memory_size();
    assert!(
        after_small < after_large / 10,
        "after a small bundle {after_small} bytes"
    );
    println!("memory: {small} → {large} → emit {after_large} → small bundle, emit {after_small}");
}
