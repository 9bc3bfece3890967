//! The oracle: a per-row fold with Java semantics, written independently of the kernel
//! (no DataFusion, no arrow compute), and the decoding of arrays into comparable cells.

use std::collections::HashMap;

use arrow::array::{Array, AsArray, RecordBatch};
use arrow::datatypes::DataType;

use super::random::TEN_POW_38;
use crate::aggregate::{AggCall, AggFunction, AggregateSpec};

/// One value as Flink's key bytes would see it: floats by their bits.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Cell {
    Null,
    Int(i128),
    F32(u32),
    F64(u64),
    Bool(bool),
    Bytes(Vec<u8>),
}

/// Every value of an array of an admitted type, read from its raw buffers.
pub(crate) fn cells(a: &dyn Array) -> Vec<Cell> {
    let data = a.to_data();
    let raw = |row: usize, width: usize| -> &[u8] {
        let at = (data.offset() + row) * width;
        &data.buffers()[0].as_slice()[at..at + width]
    };
    (0..a.len())
        .map(|row| {
            if a.is_null(row) {
                return Cell::Null;
            }
            match a.data_type() {
                DataType::Boolean => Cell::Bool(a.as_boolean().value(row)),
                DataType::Float32 => Cell::F32(u32::from_le_bytes(raw(row, 4).try_into().unwrap())),
                DataType::Float64 => Cell::F64(u64::from_le_bytes(raw(row, 8).try_into().unwrap())),
                DataType::Utf8 | DataType::Binary => {
                    let offsets = data.buffer::<i32>(0);
                    let (from, to) = (offsets[row] as usize, offsets[row + 1] as usize);
                    Cell::Bytes(data.buffers()[1].as_slice()[from..to].to_vec())
                }
                t => {
                    let width = t
                        .primitive_width()
                        .unwrap_or_else(|| panic!("no cells for {t}"));
                    let mut bytes = [0u8; 16];
                    bytes[..width].copy_from_slice(raw(row, width));
                    // Sign-extend the little-endian value.
                    let shift = 128 - 8 * width as u32;
                    Cell::Int((i128::from_le_bytes(bytes) << shift) >> shift)
                }
            }
        })
        .collect()
}

fn int(c: &Cell) -> i128 {
    match c {
        Cell::Int(v) => *v,
        other => panic!("not an integer: {other:?}"),
    }
}

fn as_f64(c: &Cell) -> f64 {
    match c {
        Cell::F32(b) => f32::from_bits(*b) as f64,
        Cell::F64(b) => f64::from_bits(*b),
        other => panic!("not a float: {other:?}"),
    }
}

/// Java's `a < b` for MIN/MAX: primitive `<` (IEEE for floats), false < true, unsigned bytes.
fn java_less(a: &Cell, b: &Cell) -> bool {
    match (a, b) {
        (Cell::Int(a), Cell::Int(b)) => a < b,
        (Cell::F32(a), Cell::F32(b)) => f32::from_bits(*a) < f32::from_bits(*b),
        (Cell::F64(a), Cell::F64(b)) => f64::from_bits(*a) < f64::from_bits(*b),
        (Cell::Bool(a), Cell::Bool(b)) => !a && *b,
        (Cell::Bytes(a), Cell::Bytes(b)) => a < b,
        other => panic!("incomparable: {other:?}"),
    }
}

fn add_38(a: i128, b: i128) -> Option<i128> {
    a.checked_add(b).filter(|r| r.abs() < TEN_POW_38)
}

enum Acc {
    Count { n: i64, star: bool },
    SumInt { bits: u32, sum: Option<i128> },
    SumF32(Option<f32>),
    SumF64(Option<f64>),
    SumDecimal(Option<i128>),
    AvgInt(i64, i64),
    AvgFloat(f64, i64),
    AvgDecimal(Option<i128>, i64),
    MinMax { min: bool, value: Option<Cell> },
}

fn new_acc(call: &AggCall) -> Acc {
    let t = call.argument.as_ref().map(|a| a.data_type.clone());
    let t = t.as_ref();
    match call.function {
        AggFunction::CountStar => Acc::Count { n: 0, star: true },
        AggFunction::Count => Acc::Count { n: 0, star: false },
        AggFunction::Sum => match t.unwrap() {
            DataType::Float32 => Acc::SumF32(None),
            DataType::Float64 => Acc::SumF64(None),
            DataType::Decimal128(..) => Acc::SumDecimal(None),
            t => Acc::SumInt {
                bits: 8 * t.primitive_width().unwrap() as u32,
                sum: None,
            },
        },
        AggFunction::Avg => match t.unwrap() {
            DataType::Float32 | DataType::Float64 => Acc::AvgFloat(0.0, 0),
            DataType::Decimal128(..) => Acc::AvgDecimal(Some(0), 0),
            _ => Acc::AvgInt(0, 0),
        },
        AggFunction::Min => Acc::MinMax {
            min: true,
            value: None,
        },
        AggFunction::Max => Acc::MinMax {
            min: false,
            value: None,
        },
    }
}

/// Flink's accumulate for one row that passed the call's filter (`x` may be NULL).
fn fold(acc: &mut Acc, x: &Cell) {
    if let Acc::Count { n, star } = acc {
        if *star || *x != Cell::Null {
            *n = n.wrapping_add(1);
        }
        return;
    }
    if *x == Cell::Null {
        return;
    }
    match acc {
        Acc::Count { .. } => unreachable!(),
        Acc::SumInt { bits, sum } => {
            let shift = 128 - *bits;
            // `(type) (a + b)`: wrap into the argument's width.
            *sum = Some(sum.map_or(int(x), |s| ((s + int(x)) << shift) >> shift));
        }
        Acc::SumF32(sum) => {
            let x = as_f64(x) as f32;
            *sum = Some(sum.map_or(x, |s| s + x));
        }
        Acc::SumF64(sum) => *sum = Some(sum.map_or(as_f64(x), |s| s + as_f64(x))),
        // NULL after an overflow; the next value restarts the sum.
        Acc::SumDecimal(sum) => {
            *sum = match *sum {
                None => Some(int(x)),
                Some(s) => add_38(s, int(x)),
            }
        }
        Acc::AvgInt(sum, n) => {
            *sum = sum.wrapping_add(int(x) as i64);
            *n = n.wrapping_add(1);
        }
        Acc::AvgFloat(sum, n) => {
            *sum += as_f64(x);
            *n = n.wrapping_add(1);
        }
        Acc::AvgDecimal(sum, n) => {
            *sum = sum.and_then(|s| add_38(s, int(x)));
            *n = n.wrapping_add(1);
        }
        Acc::MinMax { min, value } => match value {
            None => *value = Some(x.clone()),
            Some(m) => {
                let replace = if *min {
                    java_less(x, m)
                } else {
                    java_less(m, x)
                };
                if replace {
                    *value = Some(x.clone());
                }
            }
        },
    }
}

fn result(acc: Acc, out: &mut Vec<Cell>) {
    let opt_int = |v: Option<i128>| v.map_or(Cell::Null, Cell::Int);
    match acc {
        Acc::Count { n, .. } => out.push(Cell::Int(n as i128)),
        Acc::SumInt { sum, .. } => out.push(opt_int(sum)),
        Acc::SumF32(s) => out.push(s.map_or(Cell::Null, |s| Cell::F32(s.to_bits()))),
        Acc::SumF64(s) => out.push(s.map_or(Cell::Null, |s| Cell::F64(s.to_bits()))),
        Acc::SumDecimal(s) => out.push(opt_int(s)),
        Acc::AvgInt(s, n) => out.extend([Cell::Int(s as i128), Cell::Int(n as i128)]),
        Acc::AvgFloat(s, n) => out.extend([Cell::F64(s.to_bits()), Cell::Int(n as i128)]),
        Acc::AvgDecimal(s, n) => out.extend([opt_int(s), Cell::Int(n as i128)]),
        Acc::MinMax { value, .. } => out.push(value.unwrap_or(Cell::Null)),
    }
}

/// Group key cells (keys, then slice end) → accumulator cells.
pub(crate) type Groups = HashMap<Vec<Cell>, Vec<Cell>>;

/// What Flink's local phase emits for `batches` folded into one bundle.
pub(crate) fn reference(spec: &AggregateSpec, batches: &[RecordBatch]) -> Groups {
    let mut groups: HashMap<Vec<Cell>, Vec<Acc>> = HashMap::new();
    for batch in batches {
        let mut key_columns: Vec<usize> = spec.keys.iter().map(|k| k.column).collect();
        key_columns.extend(spec.slice_end);
        let keys: Vec<Vec<Cell>> = key_columns
            .iter()
            .map(|&c| cells(batch.column(c)))
            .collect();
        let arguments: Vec<Option<Vec<Cell>>> = (spec.calls.iter())
            .map(|call| {
                call.argument
                    .as_ref()
                    .map(|a| cells(batch.column(a.column)))
            })
            .collect();
        let filters: Vec<Option<Vec<Cell>>> = (spec.calls.iter())
            .map(|call| call.filter.map(|f| cells(batch.column(f))))
            .collect();
        for row in 0..batch.num_rows() {
            let key: Vec<Cell> = keys.iter().map(|k| k[row].clone()).collect();
            let accs = groups
                .entry(key)
                .or_insert_with(|| spec.calls.iter().map(new_acc).collect());
            for (i, acc) in accs.iter_mut().enumerate() {
                if filters[i]
                    .as_ref()
                    .is_some_and(|f| f[row] != Cell::Bool(true))
                {
                    continue;
                }
                let x = arguments[i].as_ref().map_or(Cell::Null, |a| a[row].clone());
                fold(acc, &x);
            }
        }
    }
    let mut out = HashMap::new();
    for (key, accs) in groups {
        let mut cells = Vec::new();
        accs.into_iter().for_each(|acc| result(acc, &mut cells));
        out.insert(key, cells);
    }
    normalize_computed_nans(spec, out)
}

/// The emitted rows as groups; fails on a key emitted twice.
pub(crate) fn actual(spec: &AggregateSpec, batch: &RecordBatch) -> Groups {
    let columns: Vec<Vec<Cell>> = batch.columns().iter().map(|c| cells(c.as_ref())).collect();
    let k = spec.keys.len();
    let accs_end = columns.len() - spec.slice_end.is_some() as usize;
    let mut out = HashMap::new();
    for row in 0..batch.num_rows() {
        let mut key: Vec<Cell> = columns[..k].iter().map(|c| c[row].clone()).collect();
        key.extend(columns[accs_end..].iter().map(|c| c[row].clone()));
        let accs = columns[k..accs_end]
            .iter()
            .map(|c| c[row].clone())
            .collect();
        assert!(
            out.insert(key.clone(), accs).is_none(),
            "key {key:?} emitted twice"
        );
    }
    normalize_computed_nans(spec, out)
}

/// A NaN produced by float addition has an unspecified payload (LLVM may commute `fadd`),
/// so sums compare any NaN as equal; MIN/MAX and keys keep their exact bits.
fn normalize_computed_nans(spec: &AggregateSpec, groups: Groups) -> Groups {
    let mut computed = Vec::new();
    for call in &spec.calls {
        let float = call
            .argument
            .as_ref()
            .is_some_and(|a| matches!(a.data_type, DataType::Float32 | DataType::Float64));
        match call.function {
            AggFunction::Sum => computed.push(float),
            AggFunction::Avg => computed.extend([float, false]),
            _ => computed.push(false),
        }
    }
    groups
        .into_iter()
        .map(|(key, mut accs)| {
            for (cell, &is_computed) in accs.iter_mut().zip(&computed) {
                match cell {
                    Cell::F32(b) if is_computed && f32::from_bits(*b).is_nan() => *b = 0x7fc0_0000,
                    Cell::F64(b) if is_computed && f64::from_bits(*b).is_nan() => {
                        *b = 0x7ff8_0000_0000_0000
                    }
                    _ => {}
                }
            }
            (key, accs)
        })
        .collect()
}

/// Asserts equal groups, printing the first difference rather than both maps.
pub(crate) fn assert_same(expected: &Groups, actual: &Groups, context: &str) {
    for (key, want) in expected {
        match actual.get(key) {
            None => panic!("{context}: group {key:?} missing (expected {want:?})"),
            Some(got) => assert_eq!(got, want, "{context}: group {key:?}"),
        }
    }
    for key in actual.keys() {
        assert!(
            expected.contains_key(key),
            "{context}: unexpected group {key:?}"
        );
    }
}
