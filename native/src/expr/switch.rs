//! A fast path for the `CASE` that picks a column (or a literal) by an integer code:
//! `CASE WHEN k = 0 THEN a WHEN k = 1 THEN b ELSE c END`, Nexmark's event-time column.
//!
//! DataFusion's `CaseExpr` filters the batch per WHEN and merges the partial results;
//! [`ColumnSwitch`] maps every row to its branch with compares over `k`'s values and
//! builds the output from the branches' arrays directly. [`specialize`] replaces a
//! searched `CaseExpr` by a `ColumnSwitch` only when every WHEN is `k = literal` on the
//! same integer column `k` (literals of exactly `k`'s type) and every THEN and the ELSE
//! is a column or a literal of the CASE's type; anything else stays a `CaseExpr`.

use std::any::Any;
use std::fmt;
use std::hash::Hash;
use std::sync::Arc;

use arrow::array::{
    downcast_integer, downcast_primitive, Array, ArrayRef, ArrowPrimitiveType, AsArray,
    PrimitiveArray,
};
use arrow::buffer::{BooleanBuffer, Buffer, NullBuffer};
use arrow::compute::interleave;
use arrow::datatypes::{DataType, Schema};
use arrow::record_batch::RecordBatch;
use datafusion::common::tree_node::{Transformed, TreeNode};
use datafusion::common::{internal_err, Result, ScalarValue};
use datafusion::logical_expr::{ColumnarValue, Operator};
use datafusion::physical_expr::expressions::{BinaryExpr, CaseExpr, Column, Literal};
use datafusion::physical_expr::PhysicalExpr;

/// Replaces every `CaseExpr` of the switch shape in `expr` (nested ones too) by a
/// [`ColumnSwitch`].
pub fn specialize(expr: Arc<dyn PhysicalExpr>, schema: &Schema) -> Result<Arc<dyn PhysicalExpr>> {
    expr.transform_up(|node| {
        let switch = node
            .as_any()
            .downcast_ref::<CaseExpr>()
            .and_then(|case| ColumnSwitch::from_case(case, schema));
        Ok(match switch {
            Some(switch) => Transformed::yes(Arc::new(switch) as Arc<dyn PhysicalExpr>),
            None => Transformed::no(node),
        })
    })
    .map(|t| t.data)
}

/// `CASE on WHEN keys[0] THEN arms[0] ... ELSE arms[n] END` with `on` an integer column,
/// the keys non-NULL literals of its type and every arm a column or a literal.
#[derive(Debug)]
pub struct ColumnSwitch {
    on: Arc<dyn PhysicalExpr>,
    keys: Vec<ScalarValue>,
    /// One per key, then the ELSE (a NULL literal when the CASE has none).
    arms: Vec<Arc<dyn PhysicalExpr>>,
    data_type: DataType,
    /// `keys` as one array of `on`'s type.
    key_array: ArrayRef,
    /// Per arm: the literal as a 1-row array, or None for a column.
    constants: Vec<Option<ArrayRef>>,
}

impl ColumnSwitch {
    /// The switch equivalent to `case`, if it has the shape (see the module's comment).
    fn from_case(case: &CaseExpr, schema: &Schema) -> Option<Self> {
        if case.expr().is_some() {
            return None;
        }
        let data_type = case.data_type(schema).ok()?;
        if data_type == DataType::Null {
            return None;
        }
        let mut on: Option<&Column> = None;
        let mut keys = Vec::new();
        let mut arms = Vec::new();
        for (when, then) in case.when_then_expr() {
            let (column, key) = column_equals_literal(when)?;
            if on.is_some_and(|on| on != column) {
                return None;
            }
            on = Some(column);
            keys.push(key.clone());
            arms.push(Arc::clone(then));
        }
        let on = on?;
        let else_arm: Arc<dyn PhysicalExpr> = match case.else_expr() {
            Some(e) => Arc::clone(e),
            None => Arc::new(Literal::new(ScalarValue::try_new_null(&data_type).ok()?)),
        };
        arms.push(else_arm);
        let key_type = on.data_type(schema).ok()?;
        let keys_fit = key_type.is_integer()
            && keys
                .iter()
                .all(|k| !k.is_null() && k.data_type() == key_type);
        let arms_fit = arms.iter().all(|arm| {
            is_column_or_literal(arm) && arm.data_type(schema).ok().as_ref() == Some(&data_type)
        });
        if !keys_fit || !arms_fit {
            return None;
        }
        Self::try_new(Arc::new(on.clone()), keys, arms, data_type).ok()
    }

    fn try_new(
        on: Arc<dyn PhysicalExpr>,
        keys: Vec<ScalarValue>,
        arms: Vec<Arc<dyn PhysicalExpr>>,
        data_type: DataType,
    ) -> Result<Self> {
        let shaped = on.as_any().is::<Column>()
            && !keys.is_empty()
            && u32::try_from(keys.len()).is_ok()
            && arms.len() == keys.len() + 1
            && arms.iter().all(is_column_or_literal);
        if !shaped {
            return internal_err!("ColumnSwitch: not a switch over a column");
        }
        let key_array = ScalarValue::iter_to_array(keys.iter().cloned())?;
        let constants = arms
            .iter()
            .map(|arm| match arm.as_any().downcast_ref::<Literal>() {
                Some(l) => l.value().to_array_of_size(1).map(Some),
                None => Ok(None),
            })
            .collect::<Result<_>>()?;
        Ok(Self {
            on,
            keys,
            arms,
            data_type,
            key_array,
            constants,
        })
    }

    /// Every arm's values: a column's array (one value per row) or a literal's 1-row array.
    fn sources(&self, batch: &RecordBatch) -> Result<Vec<Source>> {
        let rows = batch.num_rows();
        self.arms
            .iter()
            .zip(&self.constants)
            .map(|(arm, constant)| {
                let (array, constant) = match constant {
                    Some(c) => (Arc::clone(c), true),
                    None => (arm.evaluate(batch)?.into_array(rows)?, false),
                };
                let expected = if constant { 1 } else { rows };
                if array.len() != expected || array.data_type() != &self.data_type {
                    return internal_err!("{self}: the branch {arm} does not fit the batch");
                }
                Ok(Source { array, constant })
            })
            .collect()
    }
}

fn column_equals_literal(expr: &Arc<dyn PhysicalExpr>) -> Option<(&Column, &ScalarValue)> {
    let b = expr.as_any().downcast_ref::<BinaryExpr>()?;
    if *b.op() != Operator::Eq {
        return None;
    }
    match (as_a::<Column>(b.left()), as_a::<Literal>(b.right())) {
        (Some(c), Some(l)) => Some((c, l.value())),
        _ => Some((
            as_a::<Column>(b.right())?,
            as_a::<Literal>(b.left())?.value(),
        )),
    }
}

fn as_a<T: 'static>(expr: &Arc<dyn PhysicalExpr>) -> Option<&T> {
    expr.as_any().downcast_ref::<T>()
}

fn is_column_or_literal(expr: &Arc<dyn PhysicalExpr>) -> bool {
    expr.as_any().is::<Column>() || expr.as_any().is::<Literal>()
}

/// One arm's values; a constant's single value serves every row.
struct Source {
    array: ArrayRef,
    constant: bool,
}

impl Source {
    /// The index in `array` of row `row`'s value.
    fn index(&self, row: usize) -> usize {
        if self.constant {
            0
        } else {
            row
        }
    }
}

/// Each row's arm: the first key equal to `on`'s value, else the ELSE arm (`keys.len()`).
/// A NULL `on` takes the ELSE arm.
fn pick(on: &ArrayRef, keys: &ArrayRef) -> Result<Vec<u32>> {
    macro_rules! typed {
        ($t:ty, $on:expr, $keys:expr) => {
            pick_typed::<$t>($on, $keys)
        };
    }
    downcast_integer! {
        on.data_type() => (typed, on, keys),
        other => internal_err!("ColumnSwitch: a switch over {other}"),
    }
}

fn pick_typed<K: ArrowPrimitiveType>(on: &ArrayRef, keys: &ArrayRef) -> Result<Vec<u32>> {
    let (Some(on), Some(keys)) = (on.as_primitive_opt::<K>(), keys.as_primitive_opt::<K>()) else {
        return internal_err!("ColumnSwitch: the keys' type differs from the column's");
    };
    let keys = keys.values();
    let Ok(otherwise) = u32::try_from(keys.len()) else {
        return internal_err!("ColumnSwitch: too many keys");
    };
    let values = on.values();
    let mut picks = vec![otherwise; values.len()];
    // The keys last to first, so that the first equal key is the one left.
    for (arm, &key) in keys.iter().enumerate().rev() {
        let arm = arm as u32;
        for (p, &v) in picks.iter_mut().zip(values.iter()) {
            *p = if v == key { arm } else { *p };
        }
    }
    if let Some(nulls) = on.nulls().filter(|n| n.null_count() > 0) {
        let valid = nulls.inner().bit_chunks().iter_padded();
        for (chunk, valid) in picks.chunks_mut(64).zip(valid) {
            for (bit, p) in chunk.iter_mut().enumerate() {
                *p = if (valid >> bit) & 1 == 1 {
                    *p
                } else {
                    otherwise
                };
            }
        }
    }
    Ok(picks)
}

/// The output: row `r` takes its value from `sources[picks[r]]`.
fn gather(data_type: &DataType, picks: &[u32], sources: &[Source]) -> Result<ArrayRef> {
    macro_rules! typed {
        ($t:ty, $data_type:expr, $picks:expr, $sources:expr) => {
            gather_primitive::<$t>($data_type, $picks, $sources)
        };
    }
    downcast_primitive! {
        data_type => (typed, data_type, picks, sources),
        _ => gather_any(picks, sources),
    }
}

fn gather_primitive<T: ArrowPrimitiveType>(
    data_type: &DataType,
    picks: &[u32],
    sources: &[Source],
) -> Result<ArrayRef> {
    if !PrimitiveArray::<T>::is_compatible(data_type) {
        return internal_err!("ColumnSwitch: {data_type} is not {}", T::DATA_TYPE);
    }
    let lanes = sources
        .iter()
        .map(|s| match s.array.as_primitive_opt::<T>() {
            Some(array) => Ok(Lane {
                array,
                constant: s.constant,
            }),
            None => internal_err!("ColumnSwitch: a branch is not {data_type}"),
        })
        .collect::<Result<Vec<_>>>()?;
    let Some((otherwise, whens)) = lanes.split_last() else {
        return internal_err!("ColumnSwitch: no branches");
    };
    let rows = picks.len();
    let words = rows.div_ceil(64);
    // The ELSE's values everywhere, then each WHEN's on its rows only (few, typically).
    let mut values = otherwise.fill(rows);
    let mut taken = vec![0u64; words];
    let mut valid = vec![0u64; words];
    for (arm, lane) in whens.iter().enumerate() {
        let picked = picked_words(picks, arm as u32);
        let lane_valid = lane.valid_words(words);
        for (((t, v), &p), &l) in taken
            .iter_mut()
            .zip(&mut valid)
            .zip(&picked)
            .zip(&lane_valid)
        {
            *t |= p;
            *v |= p & l;
        }
        lane.scatter(&mut values, &picked);
    }
    let else_valid = otherwise.valid_words(words);
    for ((v, &t), &l) in valid.iter_mut().zip(&taken).zip(&else_valid) {
        *v |= !t & l;
    }
    // Arrow bitmaps are little-endian.
    valid.iter_mut().for_each(|w| *w = w.to_le());
    let valid = NullBuffer::new(BooleanBuffer::new(Buffer::from_vec(valid), 0, rows));
    let nulls = (valid.null_count() > 0).then_some(valid);
    let array =
        PrimitiveArray::<T>::try_new(values.into(), nulls)?.with_data_type(data_type.clone());
    Ok(Arc::new(array))
}

/// Bit `r` of word `r / 64` is set where row `r` picks `arm`.
fn picked_words(picks: &[u32], arm: u32) -> Vec<u64> {
    let word = |chunk: &[u32]| {
        let bits = chunk.iter().enumerate();
        bits.fold(0u64, |word, (bit, &p)| word | u64::from(p == arm) << bit)
    };
    picks.chunks(64).map(word).collect()
}

/// A primitive arm's values and validity; a constant's (index 0) serves every row.
struct Lane<'a, T: ArrowPrimitiveType> {
    array: &'a PrimitiveArray<T>,
    constant: bool,
}

impl<T: ArrowPrimitiveType> Lane<'_, T> {
    /// The arm's value for every row (NULL rows hold whatever their slot holds).
    fn fill(&self, rows: usize) -> Vec<T::Native> {
        let values = self.array.values();
        match (self.constant, values.first()) {
            (true, Some(&v)) => vec![v; rows],
            _ => values.to_vec(),
        }
    }

    /// The validity bitmap as words aligned with the rows (bits past the end unset
    /// or set, they are never read).
    fn valid_words(&self, words: usize) -> Vec<u64> {
        if self.constant {
            let all = if self.array.is_valid(0) { u64::MAX } else { 0 };
            return vec![all; words];
        }
        match self.array.nulls() {
            Some(nulls) => nulls.inner().bit_chunks().iter_padded().collect(),
            None => vec![u64::MAX; words],
        }
    }

    /// Writes the arm's values into the rows set in `picked`.
    fn scatter(&self, out: &mut [T::Native], picked: &[u64]) {
        let values = self.array.values();
        for (chunk, &word) in picked.iter().enumerate() {
            let mut rest = word;
            while rest != 0 {
                let row = chunk * 64 + rest.trailing_zeros() as usize;
                let from = if self.constant { 0 } else { row };
                if let (Some(o), Some(&v)) = (out.get_mut(row), values.get(from)) {
                    *o = v;
                }
                rest &= rest - 1;
            }
        }
    }
}

fn gather_any(picks: &[u32], sources: &[Source]) -> Result<ArrayRef> {
    let arrays: Vec<&dyn Array> = sources.iter().map(|s| s.array.as_ref()).collect();
    let indices: Vec<(usize, usize)> = picks
        .iter()
        .enumerate()
        .map(|(row, &arm)| (arm as usize, sources[arm as usize].index(row)))
        .collect();
    Ok(interleave(&arrays, &indices)?)
}

/// The column every row takes, when they all take the same column arm.
fn single_column(picks: &[u32], sources: &[Source]) -> Option<ArrayRef> {
    let first = *picks.first()?;
    let source = &sources[first as usize];
    (!source.constant && picks.iter().all(|&p| p == first)).then(|| Arc::clone(&source.array))
}

impl PartialEq for ColumnSwitch {
    fn eq(&self, other: &Self) -> bool {
        self.on.eq(&other.on)
            && self.keys == other.keys
            && self.arms == other.arms
            && self.data_type == other.data_type
    }
}

impl Eq for ColumnSwitch {}

impl Hash for ColumnSwitch {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.on.hash(state);
        self.keys.hash(state);
        self.arms.hash(state);
        self.data_type.hash(state);
    }
}

impl ColumnSwitch {
    /// `CASE on WHEN k THEN arm ... ELSE arm END`, each child written by `child`.
    fn write(
        &self,
        f: &mut fmt::Formatter<'_>,
        child: fn(&dyn PhysicalExpr, &mut fmt::Formatter<'_>) -> fmt::Result,
    ) -> fmt::Result {
        write!(f, "CASE ")?;
        child(self.on.as_ref(), f)?;
        for (key, arm) in self.keys.iter().zip(&self.arms) {
            write!(f, " WHEN {key} THEN ")?;
            child(arm.as_ref(), f)?;
        }
        if let Some(otherwise) = self.arms.last() {
            write!(f, " ELSE ")?;
            child(otherwise.as_ref(), f)?;
        }
        write!(f, " END")
    }
}

impl fmt::Display for ColumnSwitch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, |e, f| write!(f, "{e}"))
    }
}

impl PhysicalExpr for ColumnSwitch {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn data_type(&self, _input_schema: &Schema) -> Result<DataType> {
        Ok(self.data_type.clone())
    }

    /// As `CaseExpr` decides it: a THEN that is the switch column itself is never NULL
    /// when taken (the column equals a non-NULL key there).
    fn nullable(&self, input_schema: &Schema) -> Result<bool> {
        let (thens, otherwise) = match self.arms.split_last() {
            Some((otherwise, thens)) => (thens, otherwise),
            None => return Ok(true),
        };
        for then in thens {
            if !then.eq(&self.on) && then.nullable(input_schema)? {
                return Ok(true);
            }
        }
        otherwise.nullable(input_schema)
    }

    fn evaluate(&self, batch: &RecordBatch) -> Result<ColumnarValue> {
        let rows = batch.num_rows();
        let on = self.on.evaluate(batch)?.into_array(rows)?;
        let picks = pick(&on, &self.key_array)?;
        let sources = self.sources(batch)?;
        if picks.len() != rows || sources.len() != self.keys.len() + 1 {
            return internal_err!("{self}: the switch column does not fit the batch");
        }
        let out = match single_column(&picks, &sources) {
            Some(column) => column,
            None => gather(&self.data_type, &picks, &sources)?,
        };
        Ok(ColumnarValue::Array(out))
    }

    fn children(&self) -> Vec<&Arc<dyn PhysicalExpr>> {
        std::iter::once(&self.on).chain(&self.arms).collect()
    }

    fn with_new_children(
        self: Arc<Self>,
        children: Vec<Arc<dyn PhysicalExpr>>,
    ) -> Result<Arc<dyn PhysicalExpr>> {
        let mut children = children.into_iter();
        let Some(on) = children.next() else {
            return internal_err!("ColumnSwitch takes the switch column first");
        };
        let switch = Self::try_new(
            on,
            self.keys.clone(),
            children.collect(),
            self.data_type.clone(),
        )?;
        Ok(Arc::new(switch))
    }

    fn fmt_sql(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, |e, f| e.fmt_sql(f))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;
    use arrow::array::{Int32Array, Int64Array, StringArray, TimestampMillisecondArray};
    use arrow::compute::cast;
    use arrow::datatypes::{Field, SchemaRef, TimeUnit};
    use datafusion::common::DFSchema;
    use datafusion::execution::session_state::SessionStateBuilder;
    use datafusion::physical_expr::expressions::case;
    use datafusion_substrait::logical_plan::producer::to_substrait_extended_expr;
    use prost::Message;

    type Expr = Arc<dyn PhysicalExpr>;

    const MILLIS: DataType = DataType::Timestamp(TimeUnit::Millisecond, None);

    /// `values` as an array of `data_type` (Utf8: the numbers as text).
    fn array_of(data_type: &DataType, values: &[Option<i64>]) -> ArrayRef {
        if *data_type == DataType::Utf8 {
            let text: StringArray = values.iter().map(|v| v.map(|v| format!("s{v}"))).collect();
            return Arc::new(text);
        }
        let ints: ArrayRef = Arc::new(Int64Array::from(values.to_vec()));
        cast(&ints, data_type).unwrap()
    }

    fn scalar_of(data_type: &DataType, v: Option<i64>) -> ScalarValue {
        ScalarValue::try_from_array(&array_of(data_type, &[v]), 0).unwrap()
    }

    fn column(schema: &Schema, name: &str) -> Expr {
        Arc::new(Column::new_with_schema(name, schema).unwrap())
    }

    fn lit(v: impl Into<ScalarValue>) -> Expr {
        Arc::new(Literal::new(v.into()))
    }

    fn op(left: Expr, op: Operator, right: Expr) -> Expr {
        Arc::new(BinaryExpr::new(left, op, right))
    }

    fn eq(left: Expr, right: Expr) -> Expr {
        op(left, Operator::Eq, right)
    }

    fn eval(expr: &Expr, batch: &RecordBatch) -> ArrayRef {
        let rows = batch.num_rows();
        expr.evaluate(batch).unwrap().into_array(rows).unwrap()
    }

    /// A random switch-shaped CASE over `k` (the key) and `a`, `b`, `c` (the values),
    /// with a batch for it.
    fn random_case(rng: &mut Rng) -> (Expr, RecordBatch) {
        let key_type = rng.pick(&[
            DataType::Int8,
            DataType::Int32,
            DataType::Int64,
            DataType::UInt16,
        ]);
        let out_type = rng.pick(&[
            DataType::Int64,
            MILLIS,
            DataType::Timestamp(TimeUnit::Millisecond, Some("+01:00".into())),
            DataType::Utf8,
        ]);
        let rows = if rng.percent(10) {
            200 + rng.below(100) as usize
        } else {
            rng.below(40) as usize
        };
        let mut fields = Vec::new();
        let mut columns = Vec::new();
        for (name, data_type, range) in [
            ("k", &key_type, 6),
            ("a", &out_type, 1000),
            ("b", &out_type, 1000),
            ("c", &out_type, 1000),
        ] {
            let nullable = rng.percent(75);
            let nulls = if nullable {
                rng.pick(&[0u64, 10, 50, 100])
            } else {
                0
            };
            let values: Vec<Option<i64>> = (0..rows)
                .map(|_| (!rng.percent(nulls)).then(|| rng.below(range) as i64))
                .collect();
            fields.push(Field::new(name, data_type.clone(), nullable));
            columns.push(array_of(data_type, &values));
        }
        let schema = Arc::new(Schema::new(fields));
        let batch = RecordBatch::try_new(Arc::clone(&schema), columns).unwrap();
        let k = column(&schema, "k");
        let mut value_columns: Vec<Expr> =
            ["a", "b", "c"].iter().map(|n| column(&schema, n)).collect();
        if key_type == out_type {
            value_columns.push(Arc::clone(&k));
        }
        let arm = |rng: &mut Rng| match rng.below(4) {
            0 | 1 => rng.pick(&value_columns),
            2 => lit(scalar_of(&out_type, Some(rng.below(1000) as i64))),
            _ => lit(scalar_of(&out_type, None)),
        };
        // keys 6 and 7 never match
        let when_thens = (0..1 + rng.below(5))
            .map(|_| {
                let key = lit(scalar_of(&key_type, Some(rng.below(8) as i64)));
                let when = if rng.percent(50) {
                    eq(Arc::clone(&k), key)
                } else {
                    eq(key, Arc::clone(&k))
                };
                (when, arm(rng))
            })
            .collect();
        let otherwise = (!rng.percent(25)).then(|| arm(rng));
        (case(None, when_thens, otherwise).unwrap(), batch)
    }

    #[test]
    fn agrees_with_case_expr_on_random_batches() {
        let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
        for trial in 0..3000 {
            let (case, batch) = random_case(&mut rng);
            let schema = batch.schema();
            let switch = specialize(Arc::clone(&case), &schema).unwrap();
            assert!(
                switch.as_any().is::<ColumnSwitch>(),
                "not rewritten: {case}"
            );
            let what = format!("trial {trial}: {case}");
            assert_eq!(
                switch.data_type(&schema).unwrap(),
                case.data_type(&schema).unwrap()
            );
            assert_eq!(
                switch.nullable(&schema).unwrap(),
                case.nullable(&schema).unwrap(),
                "{what}"
            );
            let rows = batch.num_rows();
            let offset = rng.below(rows as u64 + 1) as usize;
            let sliced = batch.slice(offset, rng.below((rows - offset) as u64 + 1) as usize);
            for batch in [batch, sliced] {
                let (want, got) = (eval(&case, &batch), eval(&switch, &batch));
                assert_eq!(got.data_type(), want.data_type(), "{what}");
                assert_eq!(&got, &want, "{what}");
            }
        }
    }

    /// Nexmark's event columns: the event type and each event kind's time, plus
    /// columns for the shapes that must not be rewritten.
    fn nexmark() -> (SchemaRef, RecordBatch) {
        let schema = Arc::new(Schema::new(vec![
            Field::new("event_type", DataType::Int32, true),
            Field::new("person_time", MILLIS, true),
            Field::new("auction_time", MILLIS, true),
            Field::new("bid_time", MILLIS, true),
            Field::new("other_type", DataType::Int32, true),
            Field::new("name", DataType::Utf8, true),
        ]));
        let types = [Some(2), Some(0), Some(2), None, Some(1), Some(2)];
        let time = |kind: i32| -> ArrayRef {
            let t = types.iter().enumerate();
            let t = t.map(|(i, e)| (*e == Some(kind)).then_some(100 * kind as i64 + i as i64));
            Arc::new(t.collect::<TimestampMillisecondArray>())
        };
        let columns = vec![
            Arc::new(Int32Array::from(types.to_vec())) as ArrayRef,
            time(0),
            time(1),
            time(2),
            Arc::new(Int32Array::from(vec![1; 6])),
            Arc::new(StringArray::from(vec!["x"; 6])),
        ];
        let batch = RecordBatch::try_new(Arc::clone(&schema), columns).unwrap();
        (schema, batch)
    }

    /// `CASE WHEN event_type = 0 THEN person_time WHEN 1 = event_type THEN auction_time
    /// ELSE bid_time END`
    fn event_time(schema: &Schema) -> Expr {
        let event_type = || column(schema, "event_type");
        let when_thens = vec![
            (eq(event_type(), lit(0i32)), column(schema, "person_time")),
            (eq(lit(1i32), event_type()), column(schema, "auction_time")),
        ];
        case(None, when_thens, Some(column(schema, "bid_time"))).unwrap()
    }

    #[test]
    fn the_nexmark_event_time_is_a_switch() {
        let (schema, batch) = nexmark();
        let switch = specialize(event_time(&schema), &schema).unwrap();
        assert!(switch.as_any().is::<ColumnSwitch>());
        assert_eq!(
            switch.to_string(),
            "CASE event_type@0 WHEN 0 THEN person_time@1 WHEN 1 THEN auction_time@2 \
             ELSE bid_time@3 END"
        );
        let out = eval(&switch, &batch);
        let out: Vec<_> = out
            .as_primitive::<arrow::datatypes::TimestampMillisecondType>()
            .iter()
            .collect();
        assert_eq!(
            out,
            [Some(200), Some(1), Some(202), None, Some(104), Some(205)]
        );
        // Only bids: the bid column itself, not a copy.
        let bids = batch.slice(5, 1);
        let out = eval(&switch, &bids);
        assert_eq!(
            out.to_data().buffers()[0].as_ptr(),
            bids.column(3).to_data().buffers()[0].as_ptr()
        );
    }

    #[test]
    fn nested_cases_become_switches() {
        let (schema, _) = nexmark();
        // CASE WHEN other_type > 0 THEN <event_time> ELSE person_time END
        let inner = event_time(&schema);
        let when = op(column(&schema, "other_type"), Operator::Gt, lit(0i32));
        let outer = case(
            None,
            vec![(when, inner)],
            Some(column(&schema, "person_time")),
        );
        let outer = specialize(outer.unwrap(), &schema).unwrap();
        assert!(outer.as_any().is::<CaseExpr>());
        let children = outer.children();
        assert!(children[1].as_any().is::<ColumnSwitch>(), "{outer}");
    }

    #[test]
    fn other_shapes_stay_case_expressions() {
        let (schema, _) = nexmark();
        let s = schema.as_ref();
        let et = || column(s, "event_type");
        let time = |n: &str| column(s, n);
        let two = |w0: Expr, t0: Expr, w1: Expr, t1: Expr, otherwise: Option<Expr>| {
            case(None, vec![(w0, t0), (w1, t1)], otherwise).unwrap()
        };
        let cases = [
            (
                "different columns",
                two(
                    eq(et(), lit(0i32)),
                    time("person_time"),
                    eq(column(s, "other_type"), lit(1i32)),
                    time("auction_time"),
                    Some(time("bid_time")),
                ),
            ),
            (
                "a comparison other than =",
                two(
                    eq(et(), lit(0i32)),
                    time("person_time"),
                    op(et(), Operator::NotEq, lit(1i32)),
                    time("auction_time"),
                    None,
                ),
            ),
            (
                "a computed THEN",
                two(
                    eq(et(), lit(0i32)),
                    op(et(), Operator::Plus, lit(1i32)),
                    eq(et(), lit(1i32)),
                    et(),
                    None,
                ),
            ),
            (
                "a computed ELSE",
                two(
                    eq(et(), lit(0i32)),
                    et(),
                    eq(et(), lit(1i32)),
                    et(),
                    Some(op(et(), Operator::Plus, lit(1i32))),
                ),
            ),
            (
                "a text switch column",
                two(
                    eq(column(s, "name"), lit("x")),
                    time("person_time"),
                    eq(column(s, "name"), lit("y")),
                    time("auction_time"),
                    None,
                ),
            ),
            (
                "a key of another type",
                two(
                    eq(et(), lit(0i64)),
                    time("person_time"),
                    eq(et(), lit(1i64)),
                    time("auction_time"),
                    None,
                ),
            ),
            (
                "a NULL key",
                two(
                    eq(et(), lit(0i32)),
                    time("person_time"),
                    eq(et(), lit(ScalarValue::Int32(None))),
                    time("auction_time"),
                    None,
                ),
            ),
            (
                "a column compared with a column",
                two(
                    eq(et(), lit(0i32)),
                    time("person_time"),
                    eq(et(), column(s, "other_type")),
                    time("auction_time"),
                    None,
                ),
            ),
            (
                "a THEN of another type",
                two(
                    eq(et(), lit(0i32)),
                    time("person_time"),
                    eq(et(), lit(1i32)),
                    column(s, "name"),
                    None,
                ),
            ),
            (
                "a base expression",
                case(
                    Some(et()),
                    vec![(lit(0i32), time("person_time"))],
                    Some(time("bid_time")),
                )
                .unwrap(),
            ),
        ];
        for (what, case) in cases {
            let out = specialize(case, &schema).unwrap();
            assert!(out.as_any().is::<CaseExpr>(), "{what}: {out}");
        }
    }

    #[test]
    fn with_new_children_keeps_the_switch() {
        let (schema, batch) = nexmark();
        let switch = specialize(event_time(&schema), &schema).unwrap();
        let children = switch.children().into_iter().cloned().collect();
        let rebuilt = Arc::clone(&switch).with_new_children(children).unwrap();
        assert_eq!(&rebuilt, &switch);
        assert_eq!(&eval(&rebuilt, &batch), &eval(&switch, &batch));
        let computed = op(column(&schema, "event_type"), Operator::Plus, lit(1i32));
        let mut children: Vec<Expr> = switch.children().into_iter().cloned().collect();
        children[1] = computed;
        assert!(Arc::clone(&switch).with_new_children(children).is_err());
    }

    #[test]
    fn the_compile_path_makes_the_switch() {
        use datafusion::logical_expr::{col, lit, when};
        let (schema, batch) = nexmark();
        let df = Arc::new(DFSchema::try_from(Arc::clone(&schema)).unwrap());
        let shaped = when(col("event_type").eq(lit(0i32)), col("person_time"))
            .when(col("event_type").eq(lit(1i32)), col("auction_time"))
            .otherwise(col("bid_time"))
            .unwrap();
        let computed = when(col("event_type").gt(lit(0i32)), col("person_time"))
            .otherwise(col("bid_time"))
            .unwrap();
        let field = |n: &str| Field::new(n, MILLIS, true);
        let (f, g) = (field("event_time"), field("computed"));
        let state = SessionStateBuilder::new().build();
        let plan = to_substrait_extended_expr(&[(&shaped, &f), (&computed, &g)], &df, &state)
            .unwrap()
            .encode_to_vec();
        let compiled = crate::expr::compile(&plan, &schema).unwrap();
        let physical = &compiled[0].physical;
        assert!(physical.as_any().is::<ColumnSwitch>(), "{physical}");
        assert!(compiled[1].physical.as_any().is::<CaseExpr>());
        let out = compiled[0].evaluate(&batch).unwrap();
        let case = event_time(&schema);
        assert_eq!(&out, &eval(&case, &batch));
    }
}
