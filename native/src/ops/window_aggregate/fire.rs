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

/// One fired window's output: the key's row bytes, the window end and the measures' values.
struct Fired {
    key: Box<[u8]>,
    end: i64,
    values: Vec<Value>,
}

/// Fires every timer at or before `watermark`; the output columns of the windows that were
/// not empty, or `None`.
pub(super) fn fire_due(
    op: &mut WindowAggregateOperator,
    watermark: i64,
) -> GatunResult<Option<Vec<ArrayRef>>> {
    let mut out = Vec::new();
    while let Some((_, key, end)) = op.state.pop_timer(watermark) {
        let assigner = op.window.assigner;
        let (target, slices) = assigner.merge_slices(end);
        let mut acc = match (assigner.kind(), target) {
            (WindowKind::Hop, _) | (_, None) => op.init(),
            (_, Some(t)) => op
                .state
                .slice(key, t)
                .map_or_else(|| op.init(), <[Value]>::to_vec),
        };
        for s in slices {
            if let Some(other) = op.state.slice(key, s) {
                let other = other.to_vec();
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
                op.state.put(key, t, acc.clone());
            }
        }
        let empty = op.window.count_star.is_some_and(|c| {
            let m = &op.measures[c];
            m.call.count(&acc[m.offset..]) == 0
        });
        if !empty {
            let values = op
                .emitted
                .iter()
                .map(|&i| {
                    let m = &op.measures[i];
                    let value = m.call.value(&acc[m.offset..m.offset + m.call.slots.len()]);
                    if m.zero_when_empty {
                        super::sum0_value(value, &m.call.result)
                    } else {
                        value
                    }
                })
                .collect();
            out.push(Fired {
                key: op.state.row(key).into(),
                end,
                values,
            });
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
    if out.is_empty() {
        return Ok(None);
    }
    columns(op, &out).map(Some)
}

fn columns(op: &WindowAggregateOperator, fired: &[Fired]) -> GatunResult<Vec<ArrayRef>> {
    let mut columns = op.decode_keys(fired.iter().map(|f| &*f.key))?;
    for (j, &i) in op.emitted.iter().enumerate() {
        let values: Vec<&Value> = fired.iter().map(|f| &f.values[j]).collect();
        let column = build_column(&op.measures[i].call.result, &values)
            .map_err(|e| GatunError::execution(e.strip_backtrace()))?;
        columns.push(column);
    }
    let assigner = op.window.assigner;
    for (property, data_type) in &op.property_types {
        let values = fired
            .iter()
            .map(|f| {
                Ok(Value::Int(match property {
                    WindowProperty::Start => assigner.window_start(f.end),
                    WindowProperty::End => f.end,
                    WindowProperty::Time => op
                        .window
                        .zone
                        .to_epoch(f.end.wrapping_sub(1))
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
