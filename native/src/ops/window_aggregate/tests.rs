//! Unit tests of the window aggregate's key groups: the expected values were computed by Flink
//! 2.2.1's own classes (a `BinaryRowData` written by `BinaryRowWriter`, its `hashCode()`, and
//! `KeyGroupRangeAssignment.assignToKeyGroup` for max parallelism 128, 32768 and 7); and of the
//! value a `sum0` measure emits; and of the state's key lookup, slices, timers and buffer.

use std::sync::Arc;

use arrow::array::{ArrayRef, Int32Array, Int64Array, StringArray};

use super::key_group::{binary_row_hash, key_group, murmur_hash};
use crate::flink_row::{encode, ColumnKind};

/// (hashCode, key group of 128, of 32768, of 7) of the one-row key `columns`.
fn flink_values(columns: Vec<ArrayRef>) -> (i32, i32, i32, i32) {
    let kinds: Vec<ColumnKind> = columns
        .iter()
        .map(|c| ColumnKind::of(c.data_type()).unwrap())
        .collect();
    let rows = encode(&columns, &kinds, None, 1).unwrap();
    let row = rows.value(0);
    (
        binary_row_hash(row),
        key_group(row, 128),
        key_group(row, 32768),
        key_group(row, 7),
    )
}

fn int(v: Option<i32>) -> ArrayRef {
    Arc::new(Int32Array::from(vec![v]))
}

fn string(v: Option<&str>) -> ArrayRef {
    Arc::new(StringArray::from(vec![v]))
}

fn bigint(v: i64) -> ArrayRef {
    Arc::new(Int64Array::from(vec![v]))
}

#[test]
fn key_groups_equal_flinks() {
    let cases: Vec<(&str, Vec<ArrayRef>, (i32, i32, i32, i32))> = vec![
        ("empty", vec![], (-1_670_924_195, 11, 24843, 4)),
        ("int 0", vec![int(Some(0))], (-300_363_099, 102, 23270, 5)),
        ("int 1", vec![int(Some(1))], (1_465_514_398, 94, 11102, 6)),
        (
            "int -1",
            vec![int(Some(-1))],
            (1_133_687_267, 106, 18666, 1),
        ),
        ("int 42", vec![int(Some(42))], (907_821_237, 69, 24261, 1)),
        (
            "int 123456789",
            vec![int(Some(123_456_789))],
            (-1_751_827_701, 126, 9598, 0),
        ),
        (
            "int MIN",
            vec![int(Some(i32::MIN))],
            (916_225_219, 62, 21054, 1),
        ),
        ("int NULL", vec![int(None)], (-1_748_325_344, 99, 3555, 3)),
        (
            "string ''",
            vec![string(Some(""))],
            (302_122_119, 102, 19814, 0),
        ),
        (
            "string a",
            vec![string(Some("a"))],
            (943_281_246, 4, 24068, 0),
        ),
        (
            "string key-7",
            vec![string(Some("key-7"))],
            (-827_862_858, 69, 709, 4),
        ),
        (
            "long string",
            vec![string(Some("a longer string than seven bytes"))],
            (-1_334_662_392, 4, 5892, 1),
        ),
        (
            "bigint 7, string x",
            vec![bigint(7), string(Some("x"))],
            (-1_252_423_430, 104, 19816, 3),
        ),
        (
            "bigint 1000, NULL string",
            vec![bigint(1000), string(None)],
            (-410_534_780, 84, 18388, 4),
        ),
    ];
    for (name, columns, expected) in cases {
        // the empty key (no group keys) is a row of arity 0: its 8-byte header
        let got = flink_values(columns);
        assert_eq!(got, expected, "{name}");
    }
}

#[test]
fn murmur_hash_is_never_negative() {
    for code in [0, 1, -1, i32::MAX, i32::MIN, 42, 123_456_789] {
        assert!(murmur_hash(code) >= 0, "{code}");
    }
}

#[test]
fn a_sum0_emits_zero_for_no_values_and_positive_zero_for_a_negative_zero_sum() {
    use super::sum0_value;
    use crate::aggregate::scalar::Value;
    use arrow::datatypes::DataType;
    assert_eq!(sum0_value(Value::Null, &DataType::Int32), Value::Int(0));
    assert_eq!(sum0_value(Value::Null, &DataType::Float64), Value::F64(0.0));
    assert_eq!(sum0_value(Value::Null, &DataType::Float32), Value::F32(0.0));
    assert_eq!(
        sum0_value(Value::Null, &DataType::Decimal128(38, 2)),
        Value::Dec(0)
    );
    let Value::F64(z) = sum0_value(Value::F64(-0.0), &DataType::Float64) else {
        panic!("not a double");
    };
    assert!(z == 0.0 && z.is_sign_positive());
    let Value::F32(z) = sum0_value(Value::F32(-0.0), &DataType::Float32) else {
        panic!("not a float");
    };
    assert!(z == 0.0 && z.is_sign_positive());
    assert_eq!(sum0_value(Value::Int(-7), &DataType::Int64), Value::Int(-7));
    assert_eq!(
        sum0_value(Value::F64(-1.5), &DataType::Float64),
        Value::F64(-1.5)
    );
}

/// A state whose keys all share two hash values, so lookups and releases walk the chains.
#[test]
fn the_state_finds_and_releases_keys_of_equal_hashes() {
    use super::state::State;
    use crate::aggregate::scalar::Value;
    let mut state = State::with_hash_mask(1, 1);
    let rows: Vec<Vec<u8>> = (0..6u8).map(|i| vec![i; 1 + usize::from(i)]).collect();
    let ids: Vec<_> = rows.iter().map(|r| state.key(r)).collect();
    assert_eq!(ids, (0..6).collect::<Vec<_>>());
    for (r, &id) in rows.iter().zip(&ids) {
        assert_eq!(state.key(r), id);
        assert_eq!(state.row(id), &r[..]);
    }
    assert_eq!(state.keys(), 6);
    // release a chain's middle, its head and its tail
    for &k in &[2, 5, 0] {
        state.release_if_empty(k);
    }
    assert_eq!(state.keys(), 3);
    for &k in &[1, 3, 4] {
        assert_eq!(state.key(&rows[k]), k);
    }
    // freed ids are reused last-freed first
    assert_eq!(state.key(b"new"), 0);
    assert_eq!(state.key(&rows[0]), 5);
    state.put(1, 20, &[Value::Int(2)]);
    state.put(1, 10, &[Value::Int(1)]);
    state.add_timer(1, 30, 29);
    state.release_if_empty(1);
    assert_eq!(state.key(&rows[1]), 1, "a key holding state stays");
    for k in [0, 3, 4, 5] {
        state.release_if_empty(k);
    }
    assert_eq!(state.keys(), 1);
}

#[test]
fn the_state_keeps_slices_and_timers_ordered_and_counts_what_it_holds() {
    use super::state::State;
    use crate::aggregate::scalar::Value;
    let mut state = State::new(2);
    let key = state.key(b"k");
    let empty = state.bytes();
    let init = |out: &mut Vec<Value>| out.extend([Value::Int(0), Value::Null]);
    let add = |n: i64| {
        move |slots: &mut [Value]| {
            let Value::Int(c) = &mut slots[0] else {
                unreachable!()
            };
            *c += n;
            slots[1] = Value::Bytes(vec![b'x'; n as usize].into());
        }
    };
    for end in [30, 10, 20] {
        state.update(key, end, init, add(end / 10));
    }
    state.update(key, 20, init, add(1));
    for (end, at) in [(30, 29), (10, 9), (20, 19), (10, 9)] {
        state.add_timer(key, end, at);
    }
    state.update_buffered(key, 20, init, add(5));
    state.update_buffered(key, 40, init, add(1));
    state.update_buffered(key, 20, init, add(5));
    assert_eq!(state.slices(), 5);
    let (slices, timers) = state.contents(key);
    let slices: Vec<_> = slices.map(|(e, v)| (e, v.to_vec())).collect();
    let bytes = |n: usize| Value::Bytes(vec![b'x'; n].into());
    assert_eq!(
        slices,
        vec![
            (10, vec![Value::Int(1), bytes(1)]),
            (20, vec![Value::Int(3), bytes(1)]),
            (30, vec![Value::Int(3), bytes(3)]),
        ]
    );
    assert_eq!(timers, &[10, 20, 30]);
    state.flush_buffer(init, |slots, acc| {
        let (Value::Int(a), Value::Int(b)) = (&mut slots[0], &acc[0]) else {
            unreachable!()
        };
        *a += b;
    });
    assert_eq!(state.slices(), 4);
    assert_eq!(state.slice(key, 20).unwrap()[0], Value::Int(13));
    assert_eq!(state.slice(key, 40).unwrap()[0], Value::Int(1));
    let mut fired = Vec::new();
    while let Some((at, k, end)) = state.pop_timer(25) {
        fired.push((at, k, end));
        state.remove_slice(k, end);
    }
    assert_eq!(fired, vec![(9, key, 10), (19, key, 20)]);
    state.release_if_empty(key);
    assert_eq!(state.keys(), 1);
    state.remove_slice(key, 30);
    state.remove_slice(key, 40);
    assert_eq!(state.pop_timer(i64::MAX), Some((29, key, 30)));
    assert_eq!(state.bytes(), empty);
    state.release_if_empty(key);
    assert_eq!((state.keys(), state.slices(), state.bytes()), (0, 0, 0));
}

/// A projection selects the aggregate's own fields and columns by position (names included,
/// repeats and drops allowed, columns not copied); no emit keeps them as they are; an index
/// outside the output or an empty mapping is refused, naming what is wrong.
#[test]
fn a_projection_selects_fields_and_columns_by_position() {
    use super::projection::Projection;
    use arrow::datatypes::{DataType, Field, Fields, TimeUnit};
    let ts = DataType::Timestamp(TimeUnit::Millisecond, None);
    // keys k0 k1, measure c, window_start, window_end
    let all: Fields = vec![
        Field::new("k0", DataType::Utf8, true),
        Field::new("k1", DataType::Int32, true),
        Field::new("c", DataType::Int64, false),
        Field::new("ws", ts.clone(), false),
        Field::new("we", ts, false),
    ]
    .into();
    let columns: Vec<ArrayRef> = (0..5).map(bigint).collect();
    // k0, the measure c and window_start dropped, k1 twice
    let mapping = [4, 1, 1];
    let projection = Projection::new(Some(&mapping), 5).unwrap();
    let fields = projection.fields(all.clone());
    let expected: Fields = mapping.iter().map(|&p| all[p].clone()).collect();
    assert_eq!(fields, expected);
    let names: Vec<&str> = fields.iter().map(|f| f.name().as_str()).collect();
    assert_eq!(names, ["we", "k1", "k1"]);
    let projected = projection.columns(columns.clone());
    assert_eq!(projected.len(), 3);
    for (j, p) in mapping.into_iter().enumerate() {
        assert!(Arc::ptr_eq(&projected[j], &columns[p]), "column {j}");
    }
    // no emit: the fields and the columns as they are
    let identity = Projection::new(None, 5).unwrap();
    assert_eq!(identity.fields(all.clone()), all);
    let same = identity.columns(columns.clone());
    assert_eq!(same.len(), 5);
    assert!(same.iter().zip(&columns).all(|(a, b)| Arc::ptr_eq(a, b)));
    // errors name what is wrong
    let message = |emit: &[usize]| Projection::new(Some(emit), 5).unwrap_err().to_string();
    let m = message(&[4, 5, 1]);
    assert!(
        m.contains("output column 1 to column 5") && m.contains("outputs 5 columns"),
        "{m}"
    );
    assert!(message(&[]).contains("selects no column"));
    assert!(Projection::new(Some(&[4]), 5).is_ok());
}
