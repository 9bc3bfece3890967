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
//! }
//! ```
//!
//! It is an enhancement, not an optimization: it changes what the aggregate computes (rows
//! are grouped per slice too, and `$slice_end` is emitted last).

use prost::encoding::{decode_key, decode_varint, WireType};

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
    Ok(WindowPlan {
        time_column,
        assigner,
        zone,
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
