//! The window part of a local *window* aggregate plan: the `AggregateRel`'s
//! `advanced_extension.enhancement`, an `Any` of type [`WINDOW_TYPE_URL`] whose value is the
//! protobuf message
//!
//! ```text
//! message WindowSlicing {
//!   uint32 kind = 1;                  // 1 TUMBLE, 2 HOP, 3 CUMULATE
//!   uint32 time_column = 2;           // the aggregate input column holding the rowtime
//!   int64 size = 3;                   // ms (CUMULATE: the max size)
//!   int64 step = 4;                   // ms: HOP's slide, CUMULATE's step, 0 for TUMBLE
//!   int64 offset = 5;                 // ms
//!   string zone = 6;                  // the shift zone's name (UTC for TIMESTAMP rowtimes)
//!   repeated int64 transitions = 7;   // the zone's offset transitions, instants in ms
//!   repeated int64 offsets = 8;       // seconds, one more than transitions
//!   bool daylight = 9;                // java.util.TimeZone.useDaylightTime()
//!   repeated uint32 properties = 10;  // window aggregate: the window properties emitted after
//!                                     // the measures: 1 window_start, 2 window_end, 3 window_time
//!   int32 count_star = 11;            // window aggregate: index + 1 of the COUNT(*) measure that
//!                                     // tells empty windows (Flink's indexOfCountStar), 0: none
//!   bool count_star_inserted = 12;    // window aggregate: Flink inserted that measure (not emitted)
//!   int64 mini_batch_interval = 13;   // local window aggregate: the row-time mini-batch assigner's
//!                                     // interval (ms) when the island absorbed it and the
//!                                     // WatermarkAssigner below it; 0: none
//!   bytes watermark = 14;             // with 13: the assigner's watermark expression, a Substrait
//!                                     // Expression over the plan's base schema
//! }
//! ```
//!
//! It is an enhancement, not an optimization: it changes what the aggregate computes (rows
//! are grouped per slice too, and `$slice_end` is emitted last).

use datafusion_substrait::substrait::proto::Expression;
use prost::encoding::{decode_key, decode_varint, WireType};
use prost::Message;

use crate::aggregate::window::{ShiftZone, SliceAssigner, WindowKind};
use crate::{GatunError, GatunResult};

/// The type URL of the window enhancement.
pub const WINDOW_TYPE_URL: &str = "type.gatun.dev/gatun.WindowSlicing";

/// A decoded window enhancement.
#[derive(Debug, Clone)]
pub struct WindowPlan {
    pub time_column: usize,
    pub assigner: SliceAssigner,
    pub zone: ShiftZone,
    /// The window properties a window aggregate emits, in order.
    pub properties: Vec<WindowProperty>,
    /// The COUNT(*) measure that tells empty windows, if any.
    pub count_star: Option<usize>,
    /// That measure was inserted by Flink and is not emitted.
    pub count_star_inserted: bool,
    /// The absorbed row-time mini-batch assigner and the WatermarkAssigner under it, if any.
    pub mini_batch: Option<MiniBatchAssigner>,
}

/// A row-time mini-batch assigner absorbed into a local window aggregate, with the
/// WatermarkAssigner below it.
#[derive(Debug, Clone)]
pub struct MiniBatchAssigner {
    /// `table.exec.mini-batch.allow-latency` in ms (positive).
    pub interval: i64,
    /// The WatermarkAssigner's watermark expression over the plan's base schema.
    pub watermark: Expression,
}

/// A window property a window aggregate emits after its measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WindowProperty {
    Start,
    End,
    Time,
}

impl WindowProperty {
    pub fn name(self) -> &'static str {
        match self {
            WindowProperty::Start => "window_start",
            WindowProperty::End => "window_end",
            WindowProperty::Time => "window_time",
        }
    }
}

fn bad(what: impl std::fmt::Display) -> GatunError {
    GatunError::plan(format!("malformed local window aggregate plan: {what}"))
}

/// Decodes the message (fields may come in any order; unknown fields are an error).
pub fn decode(mut buf: &[u8]) -> GatunResult<WindowPlan> {
    let (mut kind, mut time_column, mut size, mut step, mut offset) = (0, None, 0i64, 0i64, 0i64);
    let mut zone = String::new();
    let (mut transitions, mut offsets) = (Vec::new(), Vec::new());
    let mut daylight = false;
    let (mut properties, mut count_star, mut count_star_inserted) = (Vec::new(), 0i64, false);
    let (mut mini_batch_interval, mut watermark) = (0i64, None);
    let varint = |buf: &mut &[u8], what: &str| {
        decode_varint(buf).map_err(|e| bad(format!("the window's {what}: {e}")))
    };
    while !buf.is_empty() {
        let (tag, wire) = decode_key(&mut buf).map_err(|e| bad(format!("the window: {e}")))?;
        match (tag, wire) {
            (1, WireType::Varint) => kind = varint(&mut buf, "kind")?,
            (2, WireType::Varint) => time_column = Some(varint(&mut buf, "time column")?),
            (3, WireType::Varint) => size = varint(&mut buf, "size")? as i64,
            (4, WireType::Varint) => step = varint(&mut buf, "step")? as i64,
            (5, WireType::Varint) => offset = varint(&mut buf, "offset")? as i64,
            (6, WireType::LengthDelimited) => {
                let bytes = length_delimited(&mut buf, "zone")?;
                zone = String::from_utf8(bytes.to_vec())
                    .map_err(|_| bad("the window's zone is not UTF-8"))?;
            }
            (7 | 8, WireType::Varint) => {
                let v = varint(&mut buf, "zone table")? as i64;
                if tag == 7 {
                    &mut transitions
                } else {
                    &mut offsets
                }
                .push(v);
            }
            (7 | 8, WireType::LengthDelimited) => {
                let mut packed = length_delimited(&mut buf, "zone table")?;
                let out = if tag == 7 {
                    &mut transitions
                } else {
                    &mut offsets
                };
                while !packed.is_empty() {
                    out.push(varint(&mut packed, "zone table")? as i64);
                }
            }
            (9, WireType::Varint) => daylight = varint(&mut buf, "daylight flag")? != 0,
            (10, WireType::Varint) => properties.push(varint(&mut buf, "properties")?),
            (10, WireType::LengthDelimited) => {
                let mut packed = length_delimited(&mut buf, "properties")?;
                while !packed.is_empty() {
                    properties.push(varint(&mut packed, "properties")?);
                }
            }
            (11, WireType::Varint) => {
                count_star = varint(&mut buf, "COUNT(*) index")? as i32 as i64
            }
            (12, WireType::Varint) => count_star_inserted = varint(&mut buf, "COUNT(*) flag")? != 0,
            (13, WireType::Varint) => {
                mini_batch_interval = varint(&mut buf, "mini-batch interval")? as i64
            }
            (14, WireType::LengthDelimited) => {
                let bytes = length_delimited(&mut buf, "watermark expression")?;
                watermark = Some(Expression::decode(bytes).map_err(|e| {
                    bad(format!("the watermark is not a Substrait Expression ({e})"))
                })?);
            }
            (t, w) => return Err(bad(format!("unknown field {t} (wire type {w:?})"))),
        }
    }
    let kind = match kind {
        1 => WindowKind::Tumble,
        2 => WindowKind::Hop,
        3 => WindowKind::Cumulate,
        k => {
            return Err(bad(format!(
                "window kind {k}; expected 1 (TUMBLE), 2 (HOP) or 3 (CUMULATE)"
            )))
        }
    };
    let time_column = time_column
        .and_then(|c| usize::try_from(c).ok())
        .ok_or_else(|| bad("the window has no time column"))?;
    let assigner = SliceAssigner::new(kind, size, step, offset)
        .map_err(|e| GatunError::plan(e.strip_backtrace()))?;
    let zone = if zone.is_empty() && transitions.is_empty() && offsets.is_empty() {
        ShiftZone::utc()
    } else {
        ShiftZone::new(zone, transitions, offsets, daylight)
            .map_err(|e| GatunError::plan(e.strip_backtrace()))?
    };
    let properties = properties
        .into_iter()
        .map(|p| match p {
            1 => Ok(WindowProperty::Start),
            2 => Ok(WindowProperty::End),
            3 => Ok(WindowProperty::Time),
            p => Err(bad(format!(
                "window property {p}; expected 1 (window_start), 2 (window_end) or 3 (window_time)"
            ))),
        })
        .collect::<GatunResult<Vec<_>>>()?;
    if count_star < 0 {
        return Err(bad(format!("the COUNT(*) index + 1 is {count_star}")));
    }
    let mini_batch = match (mini_batch_interval, watermark) {
        (0, None) => None,
        (interval, Some(watermark)) if interval > 0 => Some(MiniBatchAssigner {
            interval,
            watermark,
        }),
        (interval, watermark) => {
            return Err(bad(format!(
                "mini-batch interval {interval} with {} watermark expression; an absorbed \
                 mini-batch assigner has a positive interval and the expression",
                if watermark.is_some() { "a" } else { "no" }
            )))
        }
    };
    Ok(WindowPlan {
        time_column,
        assigner,
        zone,
        properties,
        count_star: (count_star > 0).then(|| count_star as usize - 1),
        count_star_inserted,
        mini_batch,
    })
}

fn length_delimited<'a>(buf: &mut &'a [u8], what: &str) -> GatunResult<&'a [u8]> {
    let len = decode_varint(buf).map_err(|e| bad(format!("the window's {what}: {e}")))?;
    let len = usize::try_from(len)
        .ok()
        .filter(|&l| l <= buf.len())
        .ok_or_else(|| bad(format!("the window's {what} is truncated")))?;
    let (head, tail) = buf.split_at(len);
    *buf = tail;
    Ok(head)
}
