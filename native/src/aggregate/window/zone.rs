//! The time zone shift of windows on `TIMESTAMP_LTZ` rowtimes (Flink's `TimeWindowUtil`).
//!
//! Such windows are aligned in the session zone (`table.local-time-zone`): a rowtime is
//! shifted to the wall-clock time it shows there, read as if it were UTC, before it is
//! sliced, and a slice end is shifted back to an instant to decide when a watermark fires
//! it. Java decides the zone's rules when it plans (its own tz database, the one Flink uses
//! there too) and sends them as a transition table; windows on `TIMESTAMP` use [`ShiftZone::utc`].

use datafusion::common::{exec_err, plan_err, Result};

const HOUR_MS: i64 = 3_600_000;

/// A zone's UTC offsets as a transition table: `offsets[0]` applies before the first
/// transition, `offsets[i + 1]` from `transitions[i]` (an instant, ms) on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShiftZone {
    name: String,
    transitions: Vec<i64>,
    /// Offsets in ms.
    offsets: Vec<i64>,
    /// Where transition i's wall-clock window starts: `transitions[i] + min(before, after)`.
    local_starts: Vec<i64>,
    /// Java's `TimeZone.useDaylightTime()`: the zone observes daylight saving time now or
    /// in the future; Flink then fires windows through the DST-aware conversion.
    daylight: bool,
}

/// The offsets valid at a wall-clock time (Java's `ZoneRules.getValidOffsets`).
enum Local {
    /// One valid offset.
    Normal(i64),
    /// A gap (clocks jumped forward at the transition): offset before, offset after.
    Gap(i64, i64),
    /// An overlap (clocks went back): the offset before, which gives the earlier instant.
    Overlap(i64),
}

impl ShiftZone {
    /// No shift: windows on `TIMESTAMP`, or on `TIMESTAMP_LTZ` in a zone that is UTC.
    pub fn utc() -> Self {
        ShiftZone {
            name: "UTC".into(),
            transitions: Vec::new(),
            offsets: vec![0],
            local_starts: Vec::new(),
            daylight: false,
        }
    }

    /// `offsets_seconds` has one more entry than `transitions` (ascending instants in ms).
    pub fn new(
        name: impl Into<String>,
        transitions: Vec<i64>,
        offsets_seconds: Vec<i64>,
        daylight: bool,
    ) -> Result<Self> {
        let name = name.into();
        if offsets_seconds.len() != transitions.len() + 1 {
            return plan_err!(
                "time zone {name}: {} transitions need {} offsets, got {}",
                transitions.len(),
                transitions.len() + 1,
                offsets_seconds.len()
            );
        }
        if let Some(o) = offsets_seconds.iter().find(|o| o.abs() > 18 * 3600) {
            return plan_err!("time zone {name}: offset {o} s is beyond +-18 hours");
        }
        // Transitions lie months apart; closer than a day they would make the wall-clock
        // lookup below ambiguous, and no real zone has that.
        if transitions.windows(2).any(|w| w[1] - w[0] < 24 * HOUR_MS) {
            return plan_err!("time zone {name}: transitions must ascend at least a day apart");
        }
        let offsets: Vec<i64> = offsets_seconds.iter().map(|s| s * 1000).collect();
        let local_starts = (transitions.iter().enumerate())
            .map(|(i, t)| t.saturating_add(offsets[i].min(offsets[i + 1])))
            .collect();
        Ok(ShiftZone {
            name,
            transitions,
            offsets,
            local_starts,
            daylight,
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn is_utc(&self) -> bool {
        self.transitions.is_empty() && self.offsets[0] == 0
    }

    /// The offset at an instant.
    fn offset_at(&self, instant: i64) -> i64 {
        let i = self.transitions.partition_point(|&t| t <= instant);
        self.offsets[i]
    }

    /// The valid offsets at wall-clock time `local` (ms, read as UTC).
    fn local(&self, local: i64) -> Local {
        // transition i's wall-clock window is [t + min(before, after), t + max(before, after))
        let i = self.local_starts.partition_point(|&s| s <= local);
        if i == 0 {
            return Local::Normal(self.offsets[0]);
        }
        let i = i - 1;
        let (before, after) = (self.offsets[i], self.offsets[i + 1]);
        let end = self.transitions[i].saturating_add(before.max(after));
        if local >= end || before == after {
            Local::Normal(after)
        } else if after > before {
            Local::Gap(before, after)
        } else {
            Local::Overlap(before)
        }
    }

    /// Flink's `toUtcTimestampMills`: the wall-clock time of `instant` in this zone, as
    /// epoch ms of that time in UTC. `i64::MAX` (the final watermark) stays.
    pub fn to_utc(&self, instant: i64) -> Result<i64> {
        if instant == i64::MAX || self.is_utc() {
            return Ok(instant);
        }
        match instant.checked_add(self.offset_at(instant)) {
            Some(v) => Ok(v),
            None => exec_err!(
                "the timestamp {instant} ms shifted into time zone {} overflows a long",
                self.name
            ),
        }
    }

    /// Flink's `toEpochMills`: the instant of wall-clock time `local` in this zone (a gap's
    /// times move forward by its length, an overlap takes the earlier instant, as
    /// `LocalDateTime.atZone` does).
    pub fn to_epoch(&self, local: i64) -> Result<i64> {
        if local == i64::MAX || self.is_utc() {
            return Ok(local);
        }
        let instant = match self.local(local) {
            Local::Normal(o) | Local::Overlap(o) => local.checked_sub(o),
            Local::Gap(before, after) => local
                .checked_add(after - before)
                .and_then(|l| l.checked_sub(after)),
        };
        match instant {
            Some(v) => Ok(v),
            None => exec_err!(
                "the wall-clock time {local} ms in time zone {} overflows a long as an instant",
                self.name
            ),
        }
    }

    /// Flink's `toEpochMillsForTimer`: when a timer for wall-clock time `local` fires. In a
    /// zone with daylight saving time, a time in the skipped hour fires at the start of
    /// the hour after the gap, and one in the repeated hour at its second occurrence.
    pub fn to_epoch_for_timer(&self, local: i64) -> Result<i64> {
        if local == i64::MAX || self.is_utc() {
            return Ok(local);
        }
        if !self.daylight {
            return self.to_epoch(local);
        }
        let t1 = self.to_epoch(local)?;
        let t2 = self.to_epoch(local.wrapping_add(HOUR_MS))?;
        Ok(if t1 == t2 {
            t1 - t1 % HOUR_MS
        } else if t2 - t1 > HOUR_MS {
            t1 + HOUR_MS
        } else {
            t1
        })
    }

    /// Java's `TimeZone.useDaylightTime()` for this zone.
    pub fn daylight(&self) -> bool {
        self.daylight
    }
}
