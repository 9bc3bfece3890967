//! Flink's per-row short-circuiting, kept when DataFusion evaluates whole batches.
//!
//! Flink evaluates `a AND b` / `a OR b` per row and skips `b` when `a` decides the row;
//! `CASE` evaluates a branch only for the rows that reach it. DataFusion's `BinaryExpr`
//! short-circuits only when the whole batch agrees (or, by a selectivity heuristic,
//! sometimes), so an error Flink never raises (`x <> 0 AND 10 / x > 1` with `x = 0`)
//! could be raised natively. After planning, every `AND`/`OR` whose right side may
//! raise becomes a [`ShortCircuit`]: it evaluates the right side only on the rows the
//! left side does not decide (`AND`: left TRUE or NULL; `OR`: left FALSE or NULL), as
//! Flink's generated code does.
//!
//! `CASE` needs no rewrite: DataFusion 53's `CaseExpr` evaluates each THEN/ELSE on the
//! rows selected for it (and later WHENs on the remaining rows only); the tests in
//! `tests/c_abi/guard.rs` pin that. Gatun functions evaluate nothing on a 0-row batch
//! (see `udf`), so a literal-only raising expression in an untaken branch stays silent.

use std::any::Any;
use std::fmt;
use std::hash::Hash;
use std::sync::Arc;

use arrow::array::{ArrayRef, AsArray, BooleanArray, UInt32Array};
use arrow::compute::kernels::boolean::{and_kleene, or_kleene};
use arrow::compute::{filter_record_batch, take};
use arrow::datatypes::{DataType, Schema};
use arrow::record_batch::RecordBatch;
use datafusion::common::tree_node::{Transformed, TreeNode};
use datafusion::common::{internal_err, Result};
use datafusion::logical_expr::{ColumnarValue, Operator};
use datafusion::physical_expr::expressions::{
    BinaryExpr, CaseExpr, Column, IsNotNullExpr, IsNullExpr, Literal, NotExpr,
};
use datafusion::physical_expr::{PhysicalExpr, ScalarFunctionExpr};

use super::switch::ColumnSwitch;
use crate::udf;

/// Rewrites every `AND`/`OR` whose right side may raise into a [`ShortCircuit`].
pub fn guard(expr: Arc<dyn PhysicalExpr>) -> Result<Arc<dyn PhysicalExpr>> {
    expr.transform_up(|node| {
        if let Some(b) = node.as_any().downcast_ref::<BinaryExpr>() {
            let and = match b.op() {
                Operator::And => Some(true),
                Operator::Or => Some(false),
                _ => None,
            };
            if let Some(and) = and {
                if may_raise(b.right()) {
                    let guarded = ShortCircuit {
                        and,
                        left: Arc::clone(b.left()),
                        right: Arc::clone(b.right()),
                    };
                    return Ok(Transformed::yes(Arc::new(guarded) as Arc<dyn PhysicalExpr>));
                }
            }
        }
        Ok(Transformed::no(node))
    })
    .map(|t| t.data)
}

/// Whether evaluating `expr` can raise an error for some input row. Conservative:
/// only node types known not to raise are trusted.
pub fn may_raise(expr: &Arc<dyn PhysicalExpr>) -> bool {
    let any = expr.as_any();
    let trusted = any.is::<Column>()
        || any.is::<Literal>()
        || any.is::<NotExpr>()
        || any.is::<IsNullExpr>()
        || any.is::<IsNotNullExpr>()
        || any.is::<CaseExpr>()
        || any.is::<ShortCircuit>()
        || any.is::<ColumnSwitch>()
        || any
            .downcast_ref::<BinaryExpr>()
            .is_some_and(|b| non_raising_operator(b.op()))
        || any
            .downcast_ref::<ScalarFunctionExpr>()
            .is_some_and(|f| udf::is_infallible(f.name()));
    !trusted || expr.children().into_iter().any(may_raise)
}

/// Operators whose kernels cannot fail on operands of admitted types (comparisons,
/// logic, and the wrapping integer/float `+ - *`; see `plan::validate`).
fn non_raising_operator(op: &Operator) -> bool {
    use Operator::*;
    matches!(
        op,
        Eq | NotEq
            | Lt
            | LtEq
            | Gt
            | GtEq
            | And
            | Or
            | IsDistinctFrom
            | IsNotDistinctFrom
            | Plus
            | Minus
            | Multiply
    )
}

/// `left AND right` / `left OR right` with Flink's row-wise short-circuit.
#[derive(Debug, Eq)]
pub struct ShortCircuit {
    and: bool,
    left: Arc<dyn PhysicalExpr>,
    right: Arc<dyn PhysicalExpr>,
}

// Written out like DataFusion's own expressions (rust-lang/rust#78808).
impl PartialEq for ShortCircuit {
    fn eq(&self, other: &Self) -> bool {
        self.and == other.and && self.left.eq(&other.left) && self.right.eq(&other.right)
    }
}

impl Hash for ShortCircuit {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.and.hash(state);
        self.left.hash(state);
        self.right.hash(state);
    }
}

impl fmt::Display for ShortCircuit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let op = if self.and { "AND" } else { "OR" };
        write!(f, "{} {op} {} (row-wise)", self.left, self.right)
    }
}

impl PhysicalExpr for ShortCircuit {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn data_type(&self, _input_schema: &Schema) -> Result<DataType> {
        Ok(DataType::Boolean)
    }

    fn nullable(&self, input_schema: &Schema) -> Result<bool> {
        Ok(self.left.nullable(input_schema)? || self.right.nullable(input_schema)?)
    }

    fn evaluate(&self, batch: &RecordBatch) -> Result<ColumnarValue> {
        let rows = batch.num_rows();
        let left = self.left.evaluate(batch)?.into_array(rows)?;
        let Some(left) = left.as_boolean_opt() else {
            return internal_err!("{self}: the left side is not BOOLEAN");
        };
        // Rows the left side does not decide: AND → not FALSE; OR → not TRUE.
        let undecided: BooleanArray = left.iter().map(|v| Some(v != Some(!self.and))).collect();
        let needed = undecided.true_count();
        if needed == 0 {
            return Ok(ColumnarValue::Array(Arc::new(left.clone())));
        }
        let right = if needed == rows {
            self.right.evaluate(batch)?.into_array(rows)?
        } else {
            let selected = filter_record_batch(batch, &undecided)?;
            let right = self.right.evaluate(&selected)?.into_array(needed)?;
            scatter(&undecided, &right)?
        };
        let Some(right) = right.as_boolean_opt() else {
            return internal_err!("{self}: the right side is not BOOLEAN");
        };
        let out = if self.and {
            and_kleene(left, right)?
        } else {
            or_kleene(left, right)?
        };
        Ok(ColumnarValue::Array(Arc::new(out)))
    }

    fn children(&self) -> Vec<&Arc<dyn PhysicalExpr>> {
        vec![&self.left, &self.right]
    }

    fn with_new_children(
        self: Arc<Self>,
        children: Vec<Arc<dyn PhysicalExpr>>,
    ) -> Result<Arc<dyn PhysicalExpr>> {
        let [left, right]: [Arc<dyn PhysicalExpr>; 2] = match children.try_into() {
            Ok(c) => c,
            Err(_) => return internal_err!("ShortCircuit takes two children"),
        };
        Ok(Arc::new(ShortCircuit {
            and: self.and,
            left,
            right,
        }))
    }

    fn fmt_sql(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Spreads `values` (one per selected row) back over `mask`'s rows; the others are NULL.
fn scatter(mask: &BooleanArray, values: &ArrayRef) -> Result<ArrayRef> {
    let mut next = 0u32;
    let indices: UInt32Array = mask
        .values()
        .iter()
        .map(|selected| {
            selected.then(|| {
                next += 1;
                next - 1
            })
        })
        .collect();
    Ok(take(values.as_ref(), &indices, None)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow::array::Int32Array;
    use arrow::datatypes::Field;
    use datafusion::common::DFSchema;
    use datafusion::logical_expr::execution_props::ExecutionProps;
    use datafusion::logical_expr::{binary_expr, col, lit, Expr};
    use datafusion::physical_expr::create_physical_expr;

    fn divide(args: Vec<Expr>) -> Expr {
        let f = udf::all()
            .into_iter()
            .find(|f| f.name() == "gatun_flink_divide");
        f.expect("registered").call(args)
    }

    /// `x <> 0 AND 10 / x > 1` raises in DataFusion's own AND when most rows are
    /// TRUE on the left (it then evaluates the right side on the whole batch); the
    /// guarded form does not.
    #[test]
    fn the_guard_is_needed_and_works() {
        let schema = Arc::new(Schema::new(vec![Field::new("x", DataType::Int32, true)]));
        let df = DFSchema::try_from(Arc::clone(&schema)).unwrap();
        let expr = binary_expr(col("x"), Operator::NotEq, lit(0)).and(binary_expr(
            divide(vec![lit(10), col("x")]),
            Operator::Gt,
            lit(1),
        ));
        let plain = create_physical_expr(&expr, &df, &ExecutionProps::new()).unwrap();
        let x: ArrayRef = Arc::new(Int32Array::from(vec![1, 2, 3, 4, 0]));
        let batch = RecordBatch::try_new(schema, vec![x]).unwrap();
        let err = plain.evaluate(&batch).unwrap_err().strip_backtrace();
        assert!(err.contains("/ by zero"), "{err}");
        let guarded = guard(Arc::clone(&plain)).unwrap();
        assert!(guarded.as_any().is::<ShortCircuit>());
        let out = guarded.evaluate(&batch).unwrap().into_array(5).unwrap();
        let out: Vec<_> = out.as_boolean().iter().collect();
        assert_eq!(
            out,
            [Some(true), Some(true), Some(true), Some(true), Some(false)]
        );
        // Nothing to guard when the right side cannot raise.
        let safe = binary_expr(col("x"), Operator::NotEq, lit(0)).and(binary_expr(
            col("x"),
            Operator::Gt,
            lit(1),
        ));
        let safe = create_physical_expr(&safe, &df, &ExecutionProps::new()).unwrap();
        assert!(guard(safe).unwrap().as_any().is::<BinaryExpr>());
    }
}
