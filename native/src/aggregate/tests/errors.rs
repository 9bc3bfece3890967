//! Bad specs and bad batches fail with messages naming the call or column, and a batch
//! that fails the check changes nothing.

use std::sync::Arc;

use arrow::array::{BooleanArray, Int32Array, Int64Array, StringArray};
use arrow::datatypes::DataType;

use super::{batch, key};
use crate::aggregate::{
    AggArgument, AggCall, AggFunction, AggregateSpec, GroupKey, LocalAggregate,
};

fn spec_error(spec: AggregateSpec) -> String {
    LocalAggregate::new(spec).unwrap_err().to_string()
}

#[test]
fn specs_outside_the_admitted_set_are_rejected() {
    let call = |f, t| AggregateSpec {
        calls: vec![AggCall::new(f, 0, t)],
        ..Default::default()
    };
    let e = spec_error(call(AggFunction::Sum, DataType::Utf8));
    assert!(
        e.contains("call 0 (SUM) does not support argument type Utf8"),
        "{e}"
    );
    let e = spec_error(call(AggFunction::Avg, DataType::Boolean));
    assert!(
        e.contains("call 0 (AVG) does not support argument type Boolean"),
        "{e}"
    );
    let e = spec_error(call(AggFunction::Min, DataType::LargeUtf8));
    assert!(
        e.contains("call 0 (MIN) does not support argument type LargeUtf8"),
        "{e}"
    );
    let e = spec_error(call(AggFunction::Sum, DataType::Decimal128(38, -2)));
    assert!(
        e.contains("Decimal128(38, -2) is not a Flink DECIMAL"),
        "{e}"
    );
    let e = spec_error(AggregateSpec {
        calls: vec![AggCall {
            function: AggFunction::CountStar,
            argument: Some(AggArgument {
                column: 0,
                data_type: DataType::Int64,
            }),
            filter: None,
        }],
        ..Default::default()
    });
    assert!(e.contains("COUNT(*)) must have no argument"), "{e}");
    let e = spec_error(AggregateSpec {
        calls: vec![AggCall {
            function: AggFunction::Max,
            argument: None,
            filter: None,
        }],
        ..Default::default()
    });
    assert!(e.contains("call 0 (MAX) needs an argument column"), "{e}");
    let e = spec_error(AggregateSpec::default());
    assert!(e.contains("no keys, no calls and no slice end"), "{e}");
}

#[test]
fn bad_batches_are_rejected_and_change_nothing() {
    let mut agg = LocalAggregate::new(AggregateSpec {
        keys: vec![
            key(0, DataType::Int64),
            GroupKey::new(
                3,
                arrow::datatypes::Field::new("id", DataType::Int64, false),
            ),
        ],
        calls: vec![AggCall::new(AggFunction::Sum, 1, DataType::Int64).with_filter(2)],
        slice_end: Some(4),
    })
    .unwrap();
    let ints = |v: Vec<Option<i64>>| Arc::new(Int64Array::from(v));
    let good = || {
        vec![
            ints(vec![Some(1)]) as _,
            ints(vec![Some(2)]) as _,
            Arc::new(BooleanArray::from(vec![true])) as _,
            ints(vec![Some(3)]) as _,
            ints(vec![Some(4)]) as _,
        ]
    };
    agg.update(&batch(good())).unwrap();
    let cases: Vec<(usize, arrow::array::ArrayRef, &str)> = vec![
        (
            1,
            Arc::new(Int32Array::from(vec![2])),
            "the argument of call 0 (SUM, column 1) has type Int32, the spec says Int64",
        ),
        (
            2,
            Arc::new(StringArray::from(vec!["x"])),
            "the FILTER of call 0 (SUM, column 2) has type Utf8, the spec says Boolean",
        ),
        (
            0,
            Arc::new(Int32Array::from(vec![1])),
            "group key `k0` (column 0) has type Int32",
        ),
        (
            3,
            ints(vec![None]),
            "group key `id` (column 3) is NOT NULL but has 1 NULLs",
        ),
        (4, ints(vec![None]), "the slice end (column 4) has 1 NULLs"),
        (
            4,
            Arc::new(Int32Array::from(vec![1])),
            "the slice end (column 4) has type Int32",
        ),
    ];
    for (column, array, message) in cases {
        let mut columns = good();
        columns[column] = array;
        let e = agg.update(&batch(columns)).unwrap_err().to_string();
        assert!(e.contains(message), "{e}");
    }
    let mut short = good();
    short.truncate(4);
    let e = agg.update(&batch(short)).unwrap_err().to_string();
    assert!(
        e.contains("the slice end (column 4) is column 4, but the batch has 4 columns"),
        "{e}"
    );
    assert_eq!(agg.num_groups(), 1);
    let out = agg.emit().unwrap().unwrap();
    assert_eq!(out.num_rows(), 1);
    assert_eq!(
        out.column(2).as_ref(),
        &Int64Array::from(vec![2]) as &dyn arrow::array::Array
    );
}
