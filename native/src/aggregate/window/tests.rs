//! Expected values were computed by Flink 2.2.1's own `TimeWindow`, `TimeWindowUtil` and
//! `SliceAssigners` (run on the JDK's tz database), not derived from this code.

use super::slices::window_start;
use super::{FlushTrigger, ShiftZone, SliceAssigner, WindowKind};

/// America/Los_Angeles around the instants below: LMT, PST, and 2024's DST (its 1990s
/// transitions are left out; no value below falls there).
fn los_angeles() -> ShiftZone {
    ShiftZone::new(
        "America/Los_Angeles",
        vec![-2_717_640_000_000, 1_710_064_800_000, 1_730_624_400_000],
        vec![-28_378, -28_800, -25_200, -28_800],
        true,
    )
    .unwrap()
}

/// Asia/Shanghai: LMT, CST, and the summer time of 1991.
fn shanghai() -> ShiftZone {
    ShiftZone::new(
        "Asia/Shanghai",
        vec![-2_177_481_943_000, 671_565_600_000, 684_867_600_000],
        vec![29_143, 28_800, 32_400, 28_800],
        false,
    )
    .unwrap()
}

#[test]
fn window_start_rounds_towards_negative_infinity_like_flink() {
    let cases: &[(i64, [i64; 3])] = &[
        (0, [0, -700, -300]),
        (1, [0, -700, -300]),
        (999, [0, 300, 700]),
        (1000, [1000, 300, 700]),
        (-1, [-1000, -700, -300]),
        (-999, [-1000, -1700, -1300]),
        (-1000, [-1000, -1700, -1300]),
        (-1001, [-2000, -1700, -1300]),
        (
            1_700_000_000_123,
            [1_700_000_000_000, 1_699_999_999_300, 1_699_999_999_700],
        ),
        (-86_400_001, [-86_401_000, -86_400_700, -86_400_300]),
    ];
    for &(t, [plain, plus, minus]) in cases {
        assert_eq!(window_start(t, 0, 1000), plain, "{t}");
        assert_eq!(window_start(t, 300, 1000), plus, "{t} offset 300");
        assert_eq!(window_start(t, -300, 1000), minus, "{t} offset -300");
    }
}

#[test]
fn tumble_slices_are_windows() {
    let a = SliceAssigner::new(WindowKind::Tumble, 5000, 0, 0).unwrap();
    assert_eq!(a.slice_size(), 5000);
    assert_eq!(a.slice_end(0), 5000);
    assert_eq!(a.slice_end(4999), 5000);
    assert_eq!(a.slice_end(5000), 10000);
    assert_eq!(a.slice_end(-1), 0);
    assert_eq!(a.slice_end(-5000), 0);
    assert_eq!(a.slice_end(-5001), -5000);
    let shifted = SliceAssigner::new(WindowKind::Tumble, 1000, 0, -300).unwrap();
    assert_eq!(shifted.slice_end(999), 1700);
    assert_eq!(shifted.slice_end(-1001), -300);
}

#[test]
fn hop_slices_by_the_slide_and_cumulate_by_the_step() {
    let hop = SliceAssigner::new(WindowKind::Hop, 10_000, 2_000, 0).unwrap();
    assert_eq!(hop.slice_size(), 2000);
    assert_eq!(hop.slice_end(0), 2000);
    assert_eq!(hop.slice_end(3999), 4000);
    assert_eq!(hop.slice_end(-1), 0);
    let cumulate = SliceAssigner::new(WindowKind::Cumulate, 3_600_000, 600_000, 0).unwrap();
    assert_eq!(cumulate.slice_size(), 600_000);
    assert_eq!(cumulate.slice_end(1_700_000_000_123), 1_700_000_400_000);
    let offset_hop = SliceAssigner::new(WindowKind::Hop, 3000, 1000, 300).unwrap();
    assert_eq!(offset_hop.slice_end(1000), 1300);
}

#[test]
fn assigners_refuse_what_flink_refuses() {
    assert!(SliceAssigner::new(WindowKind::Tumble, 0, 0, 0).is_err());
    assert!(SliceAssigner::new(WindowKind::Tumble, 1000, 0, 1000).is_err());
    assert!(SliceAssigner::new(WindowKind::Tumble, 1000, 0, i64::MIN).is_err());
    assert!(SliceAssigner::new(WindowKind::Hop, 10_000, 3_000, 0).is_err());
    assert!(SliceAssigner::new(WindowKind::Hop, 10_000, 0, 0).is_err());
    assert!(SliceAssigner::new(WindowKind::Cumulate, 10_000, 4_000, 0).is_err());
}

#[test]
fn extreme_timestamps_wrap_as_java_longs() {
    let a = SliceAssigner::new(WindowKind::Tumble, 1000, 0, 0).unwrap();
    // Java: MAX % 1000 = 807, start MAX - 807, end overflows
    assert_eq!(a.slice_end(i64::MAX), i64::MIN + 192);
    // Java: MIN % 1000 = -808, start MIN - 192 overflows to MAX - 191, end overflows back
    assert_eq!(a.slice_end(i64::MIN), i64::MIN + 808);
}

#[test]
fn shift_into_the_session_zone_like_flink() {
    let utc = ShiftZone::utc();
    for t in [0, 1_710_064_800_000, -5_000_000_000_000] {
        assert_eq!(utc.to_utc(t).unwrap(), t);
    }
    let sh = shanghai();
    assert_eq!(sh.to_utc(0).unwrap(), 28_800_000);
    assert_eq!(sh.to_utc(1_710_064_800_000).unwrap(), 1_710_093_600_000);
    assert_eq!(sh.to_utc(673_041_600_000).unwrap(), 673_074_000_000); // summer time 1991
    assert_eq!(sh.to_utc(-5_000_000_000_000).unwrap(), -4_999_970_857_000); // LMT
    let la = los_angeles();
    assert_eq!(la.to_utc(0).unwrap(), -28_800_000);
    assert_eq!(la.to_utc(1_710_064_800_000).unwrap(), 1_710_039_600_000);
    assert_eq!(la.to_utc(1_730_620_800_000).unwrap(), 1_730_595_600_000);
    assert_eq!(la.to_utc(1_730_624_400_000).unwrap(), 1_730_595_600_000);
    assert_eq!(la.to_utc(-5_000_000_000_000).unwrap(), -5_000_028_378_000);
    assert_eq!(la.to_utc(i64::MAX).unwrap(), i64::MAX);
    assert!(
        sh.to_utc(i64::MAX - 1).is_err(),
        "overflow is an error, as in java.time"
    );
}

#[test]
fn wall_clock_to_instant_and_timer_like_flink() {
    // (local, toEpochMills, toEpochMillsForTimer)
    let la: &[(i64, i64, i64)] = &[
        (1_710_037_800_000, 1_710_066_600_000, 1_710_064_800_000), // 02:30 in the gap
        (1_710_034_200_000, 1_710_063_000_000, 1_710_063_000_000),
        (1_710_039_600_000, 1_710_064_800_000, 1_710_064_800_000),
        (1_730_597_400_000, 1_730_622_600_000, 1_730_626_200_000), // 01:30, repeated hour
        (1_730_593_800_000, 1_730_619_000_000, 1_730_619_000_000),
        (1_730_601_000_000, 1_730_629_800_000, 1_730_629_800_000),
        (1_730_599_199_999, 1_730_624_399_999, 1_730_627_999_999),
    ];
    let zone = los_angeles();
    for &(local, epoch, timer) in la {
        assert_eq!(
            zone.to_epoch(local).unwrap(),
            epoch,
            "toEpochMills({local})"
        );
        assert_eq!(
            zone.to_epoch_for_timer(local).unwrap(),
            timer,
            "forTimer({local})"
        );
    }
    let sh = shanghai();
    for (local, epoch) in [
        (1_710_037_800_000, 1_710_009_000_000),
        (1_730_599_199_999, 1_730_570_399_999),
    ] {
        assert_eq!(sh.to_epoch(local).unwrap(), epoch);
        assert_eq!(sh.to_epoch_for_timer(local).unwrap(), epoch);
    }
}

#[test]
fn next_trigger_points_like_flink() {
    // getNextTriggerWatermark via the trigger: a watermark at or past the previous trigger
    // point re-arms it; the values are Flink's for (watermark, interval)
    let cases: &[(ShiftZone, i64, i64, i64)] = &[
        (ShiftZone::utc(), 1, 3_600_000, 3_599_999),
        (ShiftZone::utc(), 1, 86_400_000, 86_399_999),
        (
            ShiftZone::utc(),
            1_710_034_200_000,
            86_400_000,
            1_710_115_199_999,
        ),
        (shanghai(), 1_710_034_200_000, 86_400_000, 1_710_115_199_999),
        (los_angeles(), 1, 86_400_000, 28_799_999),
        (los_angeles(), 5_000, 3_600_000, 3_599_999),
        (
            los_angeles(),
            1_710_034_200_000,
            86_400_000,
            1_710_057_599_999,
        ),
        (
            los_angeles(),
            1_710_037_800_000,
            3_600_000,
            1_710_039_599_999,
        ),
        (
            los_angeles(),
            1_730_597_400_000,
            86_400_000,
            1_730_617_199_999,
        ),
    ];
    for (zone, watermark, interval, next) in cases {
        let mut t = FlushTrigger::new(zone.clone(), *interval);
        t.on_watermark(*watermark).unwrap();
        // one below the next trigger point is ignored, the point itself is looked at
        t.buffered(-10 * 86_400_000);
        assert!(
            !t.on_watermark(next - 1).unwrap(),
            "{} {watermark} {interval}",
            zone.name()
        );
        assert!(
            t.on_watermark(*next).unwrap(),
            "{} {watermark} {interval}",
            zone.name()
        );
    }
}

#[test]
fn the_buffer_leaves_when_its_earliest_slice_fired() {
    let mut t = FlushTrigger::new(ShiftZone::utc(), 1000);
    assert!(!t.on_watermark(0).unwrap(), "watermarks start above 0");
    t.buffered(2000);
    t.buffered(3000);
    assert!(
        !t.on_watermark(500).unwrap(),
        "slice 2000 has not fired at 500"
    );
    // next trigger point 999: 1998 looks, slice 2000 fires at its last ms, 1999
    assert!(!t.on_watermark(1998).unwrap());
    assert!(
        !t.on_watermark(1998).unwrap(),
        "not above the current watermark"
    );
    // the next trigger point is now 1999
    assert!(t.on_watermark(1999).unwrap());
    t.emitted();
    t.buffered(500); // a late row
    assert!(
        !t.on_watermark(2500).unwrap(),
        "below the trigger point 2999: not looked at"
    );
    assert!(t.on_watermark(3000).unwrap());
    t.emitted();
    assert!(!t.on_watermark(i64::MAX).unwrap(), "nothing buffered");
    t.buffered(7000);
    assert!(
        !t.on_watermark(i64::MAX).unwrap(),
        "not above the current watermark"
    );
}

#[test]
fn negative_watermarks_never_look_at_the_buffer() {
    let mut t = FlushTrigger::new(ShiftZone::utc(), 1000);
    t.buffered(-5000);
    assert!(!t.on_watermark(-10).unwrap());
    assert!(t.on_watermark(1).unwrap());
}

#[test]
fn zones_refuse_bad_tables() {
    assert!(ShiftZone::new("x", vec![0], vec![0], false).is_err());
    assert!(ShiftZone::new("x", vec![], vec![19 * 3600], false).is_err());
    assert!(ShiftZone::new("x", vec![0, 1000], vec![0, 3600, 0], true).is_err());
}

/// (slice end, last window end, window start, expired slices, merge target and slices, next
/// window when not empty, next window when empty), from Flink's `SliceAssigners`.
type WindowRules = (
    i64,
    i64,
    i64,
    Vec<i64>,
    (Option<i64>, Vec<i64>),
    Option<i64>,
    Option<i64>,
);

fn check_rules(assigner: SliceAssigner, cases: &[WindowRules]) {
    for (end, last, start, expired, merge, next, next_empty) in cases {
        let what = format!("{:?} end {end}", assigner.kind());
        assert_eq!(
            assigner.last_window_end(*end),
            *last,
            "{what}: last window end"
        );
        assert_eq!(assigner.window_start(*end), *start, "{what}: window start");
        assert_eq!(
            &assigner.expired_slices(*end).collect::<Vec<_>>(),
            expired,
            "{what}: expired slices"
        );
        if assigner.kind() != WindowKind::Tumble {
            let (target, slices) = assigner.merge_slices(*end);
            assert_eq!(
                &(target, slices.collect::<Vec<_>>()),
                merge,
                "{what}: merged slices"
            );
            assert_eq!(
                assigner.next_trigger_window(*end, false),
                *next,
                "{what}: next"
            );
            assert_eq!(
                assigner.next_trigger_window(*end, true),
                *next_empty,
                "{what}: next"
            );
        }
    }
}

#[test]
fn window_rules_of_tumble_hop_and_cumulate_are_flinks() {
    let tumble = SliceAssigner::new(WindowKind::Tumble, 1000, 0, 200).unwrap();
    check_rules(
        tumble,
        &[
            (1200, 1200, 200, vec![1200], (None, vec![]), None, None),
            (-800, -800, -1800, vec![-800], (None, vec![]), None, None),
        ],
    );
    let hop = SliceAssigner::new(WindowKind::Hop, 3000, 1000, 0).unwrap();
    check_rules(
        hop,
        &[
            (
                -1000,
                1000,
                -4000,
                vec![-3000],
                (None, vec![-1000, -2000, -3000]),
                Some(0),
                None,
            ),
            (
                1000,
                3000,
                -2000,
                vec![-1000],
                (None, vec![1000, 0, -1000]),
                Some(2000),
                None,
            ),
            (
                3000,
                5000,
                0,
                vec![1000],
                (None, vec![3000, 2000, 1000]),
                Some(4000),
                None,
            ),
            (
                4200,
                6200,
                1200,
                vec![2200],
                (None, vec![4200, 3200, 2200]),
                Some(5200),
                None,
            ),
        ],
    );
    let cumulate = SliceAssigner::new(WindowKind::Cumulate, 3000, 1000, 0).unwrap();
    check_rules(
        cumulate,
        &[
            (
                -1000,
                0,
                -3000,
                vec![-1000],
                (Some(-2000), vec![-1000]),
                Some(0),
                Some(0),
            ),
            (
                1000,
                3000,
                0,
                vec![],
                (Some(1000), vec![]),
                Some(2000),
                Some(2000),
            ),
            (
                2000,
                3000,
                0,
                vec![2000],
                (Some(1000), vec![2000]),
                Some(3000),
                Some(3000),
            ),
            (
                3000,
                3000,
                0,
                vec![3000, 1000],
                (Some(1000), vec![3000]),
                None,
                None,
            ),
            (
                4200,
                6000,
                3000,
                vec![4200],
                (Some(4000), vec![4200]),
                Some(5200),
                Some(5200),
            ),
            (
                6000,
                6000,
                3000,
                vec![6000, 4000],
                (Some(4000), vec![6000]),
                None,
                None,
            ),
        ],
    );
    let offset = SliceAssigner::new(WindowKind::Cumulate, 3000, 1000, 500).unwrap();
    check_rules(
        offset,
        &[
            (
                500,
                500,
                -2500,
                vec![500, -1500],
                (Some(-1500), vec![500]),
                None,
                None,
            ),
            (
                1500,
                3500,
                500,
                vec![],
                (Some(1500), vec![]),
                Some(2500),
                Some(2500),
            ),
            (
                3500,
                3500,
                500,
                vec![3500, 1500],
                (Some(1500), vec![3500]),
                None,
                None,
            ),
            (
                -500,
                500,
                -2500,
                vec![-500],
                (Some(-1500), vec![-500]),
                Some(500),
                Some(500),
            ),
        ],
    );
}
