//! Helpers for the Calc tests: Substrait plans built with datafusion-substrait's
//! producer from DataFusion expressions, and the `gatun_operator_*` calls of the Calc
//! kind made the way Java makes them (C Data structs exported by arrow-rs, counted).

use std::ffi::c_char;
use std::ptr;
use std::sync::{Arc, MutexGuard, OnceLock};

use arrow::array::{make_array, Array, ArrayRef, RecordBatch, StructArray};
use arrow::datatypes::{DataType, Field, Schema, SchemaRef};
use arrow::ffi::{from_ffi, FFI_ArrowArray, FFI_ArrowSchema};
use datafusion::common::{DFSchema, ScalarValue};
use datafusion::execution::session_state::{SessionState, SessionStateBuilder};
use datafusion::logical_expr::{Expr, ExprSchemable, ScalarUDF};
use datafusion_substrait::logical_plan::producer::to_substrait_extended_expr;
use gatun_native::ffi::abi::{GATUN_OK, GATUN_OPERATOR_CALC, GATUN_OUTPUT_ARROW};
use gatun_native::ffi::export::{export_array, export_field};
use gatun_native::ops::calc::FILTER_NAME;
use gatun_native::ops::rowkind::ROW_KIND_COLUMN;
use gatun_native::{
    gatun_operator_advance, gatun_operator_create, gatun_operator_flush, gatun_operator_free,
    gatun_operator_process, udf, GatunOperator, GatunWatermarkProgress,
};
use prost::Message;

use crate::common::{message, serial, stats};

/// A `(status, message)` failure of a C call.
pub type Failure = (i32, String);

/// The producer's session (its function registry is not consulted for UDF calls).
fn producer_session() -> &'static SessionState {
    static STATE: OnceLock<SessionState> = OnceLock::new();
    STATE.get_or_init(|| SessionStateBuilder::new().build())
}

/// A Gatun function by name.
pub fn gatun(name: &str) -> Arc<ScalarUDF> {
    udf::all()
        .into_iter()
        .find(|f| f.name() == name)
        .unwrap_or_else(|| panic!("no Gatun function {name}"))
}

/// `name(args...)` as a DataFusion expression.
pub fn call(name: &str, args: Vec<Expr>) -> Expr {
    gatun(name).call(args)
}

/// A literal.
pub fn lit(v: impl Into<ScalarValue>) -> Expr {
    Expr::Literal(v.into(), None)
}

/// A column reference.
pub fn col(name: &str) -> Expr {
    datafusion::logical_expr::col(name)
}

/// The type of `expr` over `schema` (Null when DataFusion cannot type it: such plans
/// are for tests of create-time failures).
pub fn type_of(expr: &Expr, schema: &Schema) -> DataType {
    let df = DFSchema::try_from(schema.clone()).unwrap();
    expr.get_type(&df).unwrap_or(DataType::Null)
}

/// Serialized `ExtendedExpression`: `projections` in order, then the filter.
pub fn plan(schema: &Schema, projections: &[(&str, Expr)], filter: Option<Expr>) -> Vec<u8> {
    let df = Arc::new(DFSchema::try_from(schema.clone()).unwrap());
    let mut named: Vec<(Expr, Field)> = projections
        .iter()
        .map(|(name, e)| (e.clone(), Field::new(*name, type_of(e, schema), true)))
        .collect();
    if let Some(f) = filter {
        named.push((f, Field::new(FILTER_NAME, DataType::Boolean, true)));
    }
    let refs: Vec<(&Expr, &Field)> = named.iter().map(|(e, f)| (e, f)).collect();
    to_substrait_extended_expr(&refs, &df, producer_session())
        .unwrap()
        .encode_to_vec()
}

/// A plan produced over `written` but declaring `actual` as its base schema: how the
/// tests get plans whose argument types the producer itself would refuse.
pub fn plan_retyped(written: &Schema, projections: &[(&str, Expr)], actual: &Schema) -> Vec<u8> {
    use datafusion_substrait::substrait::proto::ExtendedExpression;
    let mut ee = ExtendedExpression::decode(plan(written, projections, None).as_slice()).unwrap();
    let base = ExtendedExpression::decode(plan(actual, &[], None).as_slice()).unwrap();
    ee.base_schema = base.base_schema;
    ee.encode_to_vec()
}

/// Evaluates `expr`, written over `written`, on `input` whose types differ.
pub fn eval_retyped(
    expr: Expr,
    written: &Schema,
    input: &RecordBatch,
) -> Result<ArrayRef, Failure> {
    let _guard = no_leaks();
    let schema = input.schema();
    let bytes = plan_retyped(written, &[("out", expr)], &schema);
    let expected = Schema::new(vec![Field::new("out", DataType::Null, true)]);
    let handle = create(&bytes, &schema, &expected)?;
    let out = handle.evaluate(input)?;
    Ok(deep_copy(out.column(0)))
}

/// The expected output schema of `projections` over `schema`.
pub fn expected(schema: &Schema, projections: &[(&str, Expr)]) -> Schema {
    Schema::new(
        projections
            .iter()
            .map(|(n, e)| Field::new(*n, type_of(e, schema), true))
            .collect::<Vec<_>>(),
    )
}

/// `schema` as the C `+s` struct schema.
pub fn struct_schema(schema: &Schema) -> FFI_ArrowSchema {
    let field = Field::new("", DataType::Struct(schema.fields().clone()), false);
    export_field(&field).unwrap()
}

/// A live `GatunOperator` of the Calc kind (freed on drop) and the output schema it
/// reported.
pub struct Handle {
    ptr: *mut GatunOperator,
    pub output: SchemaRef,
    out_schema: FFI_ArrowSchema,
}

/// `gatun_operator_create` of a Calc with `GATUN_OUTPUT_ARROW`. On failure checks that
/// nothing was written.
pub fn create(plan: &[u8], input: &Schema, expected: &Schema) -> Result<Handle, Failure> {
    create_with(plan, input, expected, GATUN_OUTPUT_ARROW)
}

/// `gatun_operator_create` of a Calc with the output format `format`.
pub fn create_with(
    plan: &[u8],
    input: &Schema,
    expected: &Schema,
    format: i32,
) -> Result<Handle, Failure> {
    create_kind(GATUN_OPERATOR_CALC, plan, input, expected, format)
}

/// `gatun_operator_create` of any `kind`.
pub fn create_kind(
    kind: u32,
    plan: &[u8],
    input: &Schema,
    expected: &Schema,
    format: i32,
) -> Result<Handle, Failure> {
    let (input, expected) = (struct_schema(input), struct_schema(expected));
    let mut out_schema = FFI_ArrowSchema::empty();
    let mut out_operator: *mut GatunOperator = ptr::null_mut();
    let mut err = [0 as c_char; 2048];
    // SAFETY: valid pointers; `plan` is valid for its length.
    let status = unsafe {
        gatun_operator_create(
            kind,
            plan.as_ptr(),
            plan.len(),
            &input,
            &expected,
            format,
            &mut out_schema,
            &mut out_operator,
            err.as_mut_ptr(),
            err.len(),
        )
    };
    if status != GATUN_OK {
        assert!(
            out_operator.is_null() && out_schema.release.is_none(),
            "wrote outputs on failure"
        );
        return Err((status, message(&err)));
    }
    assert!(!out_operator.is_null());
    let output = Arc::new(Schema::try_from(&out_schema).unwrap());
    Ok(Handle {
        ptr: out_operator,
        output,
        out_schema,
    })
}

impl Handle {
    pub fn raw(&self) -> *mut GatunOperator {
        self.ptr
    }

    /// `gatun_operator_process` on `batch` (exported as a `+s` struct array) without
    /// watermarks; a Calc always writes its output.
    pub fn evaluate(&self, batch: &RecordBatch) -> Result<RecordBatch, Failure> {
        let out = self.process(batch, None)?;
        Ok(out.expect("a Calc always writes its output"))
    }

    /// `gatun_operator_process` on an already exported struct array, without watermarks.
    pub fn evaluate_raw(&self, input: FFI_ArrowArray) -> Result<RecordBatch, Failure> {
        let out = self.process_raw(input, None)?;
        Ok(out.expect("a Calc always writes its output"))
    }

    /// `gatun_operator_process` on `batch` with `progress` (NULL when `None`).
    pub fn process(
        &self,
        batch: &RecordBatch,
        progress: Option<&mut GatunWatermarkProgress>,
    ) -> Result<Option<RecordBatch>, Failure> {
        let array = StructArray::from(batch.clone());
        self.process_raw(export_array(&array.into_data()), progress)
    }

    /// `gatun_operator_process` on an exported struct array; checks that the input was
    /// consumed and, on failure, that neither the output nor the progress was written.
    pub fn process_raw(
        &self,
        mut input: FFI_ArrowArray,
        progress: Option<&mut GatunWatermarkProgress>,
    ) -> Result<Option<RecordBatch>, Failure> {
        let mut output = FFI_ArrowArray::empty();
        let mut err = [0 as c_char; 2048];
        let before = progress.as_deref().copied();
        let progress_ptr = progress.map_or(ptr::null_mut(), |p| p as *mut _);
        // SAFETY: valid pointers; `self.ptr` is live.
        let status = unsafe {
            gatun_operator_process(
                self.ptr,
                &mut input,
                progress_ptr,
                &mut output,
                err.as_mut_ptr(),
                err.len(),
            )
        };
        assert!(input.is_released(), "the input must be consumed");
        if status != GATUN_OK {
            assert!(output.is_released(), "wrote the output on failure");
            if let Some(before) = before {
                // SAFETY: `progress_ptr` is the caller's live progress.
                assert_eq!(
                    unsafe { *progress_ptr },
                    before,
                    "progress written on failure"
                );
            }
            return Err((status, message(&err)));
        }
        Ok(self.import(output))
    }

    /// `gatun_operator_flush`.
    pub fn flush(&self) -> Result<Option<RecordBatch>, Failure> {
        let mut output = FFI_ArrowArray::empty();
        let mut err = [0 as c_char; 2048];
        // SAFETY: valid pointers; `self.ptr` is live.
        let status =
            unsafe { gatun_operator_flush(self.ptr, &mut output, err.as_mut_ptr(), err.len()) };
        if status != GATUN_OK {
            assert!(output.is_released(), "wrote the output on failure");
            return Err((status, message(&err)));
        }
        Ok(self.import(output))
    }

    /// `gatun_operator_advance`.
    pub fn advance(&self, watermark: i64) -> Result<Option<RecordBatch>, Failure> {
        let mut output = FFI_ArrowArray::empty();
        let mut err = [0 as c_char; 2048];
        // SAFETY: valid pointers; `self.ptr` is live.
        let status = unsafe {
            gatun_operator_advance(
                self.ptr,
                watermark,
                &mut output,
                err.as_mut_ptr(),
                err.len(),
            )
        };
        if status != GATUN_OK {
            assert!(output.is_released(), "wrote the output on failure");
            return Err((status, message(&err)));
        }
        Ok(self.import(output))
    }

    /// The result batch in `output`, if one was written.
    fn import(&self, output: FFI_ArrowArray) -> Option<RecordBatch> {
        if output.is_released() {
            return None;
        }
        // SAFETY: just exported by gatun_operator_* with the create-time schema.
        let data = unsafe { from_ffi(output, &self.out_schema) }.unwrap();
        data.validate_full().unwrap();
        let rows = data.len();
        let array = StructArray::from(make_array(data).into_data());
        assert_eq!(array.len(), rows);
        let (_, columns, nulls) = array.into_parts();
        assert!(nulls.is_none());
        let options = arrow::array::RecordBatchOptions::new().with_row_count(Some(rows));
        Some(
            RecordBatch::try_new_with_options(Arc::clone(&self.output), columns, &options).unwrap(),
        )
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        let mut err = [0 as c_char; 256];
        // SAFETY: `ptr` is a live handle, freed once here.
        let status = unsafe { gatun_operator_free(self.ptr, err.as_mut_ptr(), err.len()) };
        assert_eq!(status, GATUN_OK, "{}", message(&err));
    }
}

/// Holds the serial lock and checks, when dropped, that nothing leaked.
pub struct NoLeaks(Option<MutexGuard<'static, ()>>);

/// Serializes the test and asserts no live handles or exports before and after.
pub fn no_leaks() -> NoLeaks {
    let guard = serial();
    let s = stats();
    assert_eq!(
        (
            s.live_handles,
            s.live_exported_arrays,
            s.live_exported_schemas
        ),
        (0, 0, 0),
        "a previous test leaked"
    );
    NoLeaks(Some(guard))
}

impl Drop for NoLeaks {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let s = stats();
            assert_eq!(
                (
                    s.live_handles,
                    s.live_exported_arrays,
                    s.live_exported_schemas
                ),
                (0, 0, 0),
                "leaked handles or exports"
            );
        }
        self.0.take();
    }
}

/// A batch of named columns.
pub fn batch(columns: Vec<(&str, ArrayRef)>) -> RecordBatch {
    let fields: Vec<Field> = columns
        .iter()
        .map(|(n, a)| Field::new(*n, a.data_type().clone(), true))
        .collect();
    let arrays = columns.into_iter().map(|(_, a)| a).collect();
    RecordBatch::try_new(Arc::new(Schema::new(fields)), arrays).unwrap()
}

/// Evaluates the single projection `expr` over `input` through the C ABI.
pub fn eval(expr: Expr, input: &RecordBatch) -> Result<ArrayRef, Failure> {
    let _guard = no_leaks();
    let schema = input.schema();
    let projections = [("out", expr)];
    let bytes = plan(&schema, &projections, None);
    let handle = create(&bytes, &schema, &expected(&schema, &projections))?;
    let out = handle.evaluate(input)?;
    // A deep copy, so that the exported output is released before the leak check.
    Ok(deep_copy(out.column(0)))
}

/// A copy of `array` in fresh buffers.
pub fn deep_copy(array: &ArrayRef) -> ArrayRef {
    let data = array.to_data();
    let mut copy = arrow::array::MutableArrayData::new(vec![&data], false, data.len());
    copy.extend(0, 0, data.len());
    make_array(copy.freeze())
}

/// Evaluates `expr` over a one-row batch with no columns used (literal arguments).
pub fn eval_lit(expr: Expr) -> Result<ArrayRef, Failure> {
    let input = batch(vec![(
        "unused",
        Arc::new(arrow::array::Int32Array::from(vec![0])),
    )]);
    eval(expr, &input)
}

/// The row-kind column's name, re-exported for tests.
pub const ROW_KIND: &str = ROW_KIND_COLUMN;

/// Asserts that `f` fails with `status` and a message containing every needle.
pub fn assert_fails<T: std::fmt::Debug>(result: Result<T, Failure>, status: i32, needles: &[&str]) {
    match result {
        Ok(v) => panic!("expected status {status}, got Ok({v:?})"),
        Err((s, m)) => {
            if std::env::var_os("GATUN_PRINT_ERRORS").is_some() {
                println!("status {s}: {m}");
            }
            assert_eq!(s, status, "{m}");
            for n in needles {
                assert!(m.contains(n), "{m:?} lacks {n:?}");
            }
        }
    }
}
