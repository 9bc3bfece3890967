//! Firing windows as Flink's window operator does when a watermark arrives: every timer at or
//! before it, in timer order (timers a firing registers fire in the same pass when due), each
//! one `fireWindow` (merge the window's slices, emit unless empty, register the next window's
//! timer) then `clearWindow` (free the expired slices).

use arrow::array::ArrayRef;
use arrow::datatypes::DataType;

use super::WindowAggregateOperator;
use crate::aggregate::scalar::{build_column, Value};
use crate::aggregate::window::WindowKind;
use crate::ops::local_aggregate::window_plan::WindowProperty;
use crate::{GatunError, GatunResult};

/// The windows one watermark fired (those not empty), in firing order.
#[derive(Default)]
struct Fired {
    /// The keys' row bytes, one after another.
    rows: Vec<u8>,
    /// Where each key's bytes end in `rows`.
    row_ends: Vec<usize>,
    ends: Vec<i64>,
    /// The emitted measures' values, `emitted.len()` per window.
    values: Vec<Value>,
}

/// Fires every timer at or before `watermark`; the output columns of the windows that were
/// not empty, or `None`.
pub(super) fn fire_due(
    op: &mut WindowAggregateOperator,
    watermark: i64,
) -> GatunResult<Option<Vec<ArrayRef>>> {
    let mut out = Fired::default();
    let mut acc = Vec::with_capacity(op.width);
    while let Some((_, key, end)) = op.state.pop_timer(watermark) {
        let assigner = op.window.assigner;
        let (target, slices) = assigner.merge_slices(end);
        let start = match (assigner.kind(), target) {
            (WindowKind::Hop, _) | (_, None) => None,
            (_, Some(t)) => op.state.slice(key, t),
        };
        acc.clear();
        match start {
            Some(values) => acc.extend_from_slice(values),
            None => super::init_into(&op.measures, &mut acc),
        }
        for s in slices {
            if let Some(other) = op.state.slice(key, s) {
                for m in &op.measures {
                    let n = m.call.slots.len();
                    m.call.merge(
                        &mut acc[m.offset..m.offset + n],
                        &other[m.offset..m.offset + n],
                    );
                }
            }
        }
        if assigner.kind() == WindowKind::Cumulate {
            if let Some(t) = target {
                op.state.put(key, t, &acc);
            }
        }
        let empty = op.window.count_star.is_some_and(|c| {
            let m = &op.measures[c];
            m.call.count(&acc[m.offset..]) == 0
        });
        if !empty {
            for &i in &op.emitted {
                let m = &op.measures[i];
                let value = m.call.value(&acc[m.offset..m.offset + m.call.slots.len()]);
                out.values.push(if m.zero_when_empty {
                    super::sum0_value(value, &m.call.result)
                } else {
                    value
                });
            }
            out.rows.extend_from_slice(op.state.row(key));
            out.row_ends.push(out.rows.len());
            out.ends.push(end);
        }
        if let Some(next) = assigner.next_trigger_window(end, empty) {
            let at = op.timer_instant(next)?;
            op.state.add_timer(key, next, at);
        }
        for s in assigner.expired_slices(end) {
            op.state.remove_slice(key, s);
        }
        op.state.release_if_empty(key);
    }
    if out.ends.is_empty() {
        return Ok(None);
    }
    columns(op, &out).map(Some)
}

fn columns(op: &WindowAggregateOperator, fired: &Fired) -> GatunResult<Vec<ArrayRef>> {
    let mut start = 0;
    let keys = fired.row_ends.iter().map(|&end| {
        let row = &fired.rows[start..end];
        start = end;
        row
    });
    let mut columns = op.decode_keys(keys)?;
    let (n, width) = (fired.ends.len(), op.emitted.len());
    for (j, &i) in op.emitted.iter().enumerate() {
        let values: Vec<&Value> = (0..n).map(|r| &fired.values[r * width + j]).collect();
        let column = build_column(&op.measures[i].call.result, &values)
            .map_err(|e| GatunError::execution(e.strip_backtrace()))?;
        columns.push(column);
    }
    let assigner = op.window.assigner;
    for (property, data_type) in &op.property_types {
        let values = fired
            .ends
            .iter()
            .map(|&end| {
                Ok(Value::Int(match property {
                    WindowProperty::Start => assigner.window_start(end),
                    WindowProperty::End => end,
                    WindowProperty::Time => op
                        .window
                        .zone
                        .to_epoch(end.wrapping_sub(1))
                        .map_err(|e| GatunError::execution(e.strip_backtrace()))?,
                }))
            })
            .collect::<GatunResult<Vec<_>>>()?;
        let refs: Vec<&Value> = values.iter().collect();
        let column = build_column(data_type, &refs)
            .map_err(|e| GatunError::execution(e.strip_backtrace()))?;
        debug_assert!(matches!(column.data_type(), DataType::Timestamp(_, _)));
        columns.push(column);
    }
    Ok(columns)
}
