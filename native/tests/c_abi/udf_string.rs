//! String functions and LIKE with Flink semantics, through the C ABI.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, Int32Array, StringArray};
use arrow::datatypes::Int32Type;
use datafusion::common::ScalarValue;
use datafusion::logical_expr::Expr;
use gatun_native::abi::{GATUN_ERR_EXECUTION, GATUN_ERR_PLAN};

use crate::calc_util::*;

fn s(v: &[Option<&str>]) -> ArrayRef {
    Arc::new(StringArray::from(v.to_vec()))
}

fn strs(a: &ArrayRef) -> Vec<Option<String>> {
    a.as_string::<i32>()
        .iter()
        .map(|v| v.map(str::to_string))
        .collect()
}

fn owned(v: &[Option<&str>]) -> Vec<Option<String>> {
    v.iter().map(|v| v.map(str::to_string)).collect()
}

fn str_lit(v: &str) -> Expr {
    lit(ScalarValue::Utf8(Some(v.to_string())))
}

#[test]
fn substring_is_one_based_with_negative_starts() {
    let input = batch(vec![
        (
            "s",
            s(&[
                Some("hello"),
                Some("hello"),
                Some("hello"),
                Some("h😀llo"),
                Some(""),
                None,
                Some("abc"),
            ]),
        ),
        (
            "p",
            Arc::new(Int32Array::from(vec![
                Some(2),
                Some(-3),
                Some(0),
                Some(2),
                Some(1),
                Some(1),
                None,
            ])) as ArrayRef,
        ),
        (
            "l",
            Arc::new(Int32Array::from(vec![3, 2, 2, 2, 1, 1, 1])) as ArrayRef,
        ),
    ]);
    let out = eval(
        call("gatun_flink_substring", vec![col("s"), col("p"), col("l")]),
        &input,
    )
    .unwrap();
    assert_eq!(
        strs(&out),
        owned(&[
            Some("ell"),
            Some("ll"),
            Some("he"),
            Some("😀l"),
            Some(""),
            None,
            None
        ])
    );
    let out = eval(
        call("gatun_flink_substring", vec![col("s"), col("p")]),
        &input,
    )
    .unwrap();
    assert_eq!(strs(&out)[0].as_deref(), Some("ello"));
    // A negative length is NULL; a start beyond the end is empty.
    let out = eval_lit(call(
        "gatun_flink_substring",
        vec![str_lit("abc"), lit(1), lit(-1)],
    ))
    .unwrap();
    assert!(out.is_null(0));
    let out = eval_lit(call(
        "gatun_flink_substring",
        vec![str_lit("abc"), lit(9), lit(1)],
    ))
    .unwrap();
    assert_eq!(strs(&out), owned(&[Some("")]));
    let out = eval_lit(call(
        "gatun_flink_substring",
        vec![str_lit("abc"), lit(-9), lit(2)],
    ))
    .unwrap();
    assert_eq!(strs(&out), owned(&[Some("")]));
}

#[test]
fn trim_strips_character_sets() {
    let input = batch(vec![
        (
            "s",
            s(&[
                Some("  hi  "),
                Some("xyhiyx"),
                Some("😀a😀"),
                None,
                Some("   "),
            ]),
        ),
        (
            "c",
            s(&[Some(" "), Some("xy"), Some("😀"), Some(" "), Some(" ")]),
        ),
    ]);
    let both = eval(
        call("gatun_flink_trim_both", vec![col("s"), col("c")]),
        &input,
    )
    .unwrap();
    assert_eq!(
        strs(&both),
        owned(&[Some("hi"), Some("hi"), Some("a"), None, Some("")])
    );
    let lead = eval(
        call("gatun_flink_trim_leading", vec![col("s"), col("c")]),
        &input,
    )
    .unwrap();
    assert_eq!(
        strs(&lead),
        owned(&[Some("hi  "), Some("hiyx"), Some("a😀"), None, Some("")])
    );
    let trail = eval(
        call("gatun_flink_trim_trailing", vec![col("s"), col("c")]),
        &input,
    )
    .unwrap();
    assert_eq!(
        strs(&trail),
        owned(&[Some("  hi"), Some("xyhi"), Some("😀a"), None, Some("")])
    );
}

#[test]
fn position_and_char_length_count_code_points() {
    let input = batch(vec![
        ("n", s(&[Some("l"), Some(""), Some("z"), Some("😀"), None])),
        (
            "h",
            s(&[
                Some("😀llo"),
                Some("abc"),
                Some("abc"),
                Some("a😀"),
                Some("x"),
            ]),
        ),
    ]);
    let out = eval(
        call("gatun_flink_position", vec![col("n"), col("h")]),
        &input,
    )
    .unwrap();
    assert_eq!(
        out.as_primitive::<Int32Type>().iter().collect::<Vec<_>>(),
        [Some(2), Some(1), Some(0), Some(2), None]
    );
    let out = eval(call("gatun_flink_char_length", vec![col("h")]), &input).unwrap();
    assert_eq!(out.as_primitive::<Int32Type>().values(), &[4, 3, 3, 2, 1]);
}

#[test]
fn upper_and_lower_use_full_case_mapping() {
    let input = batch(vec![(
        "s",
        s(&[Some("straße"), Some("ΟΔΟΣ"), Some("İx"), Some("abc"), None]),
    )]);
    let up = eval(call("gatun_flink_upper", vec![col("s")]), &input).unwrap();
    assert_eq!(
        strs(&up),
        owned(&[Some("STRASSE"), Some("ΟΔΟΣ"), Some("İX"), Some("ABC"), None])
    );
    let low = eval(call("gatun_flink_lower", vec![col("s")]), &input).unwrap();
    assert_eq!(
        strs(&low),
        owned(&[
            Some("straße"),
            Some("\u{3bf}\u{3b4}\u{3bf}\u{3c2}"),
            Some("i\u{307}x"),
            Some("abc"),
            None
        ])
    );
}

/// Java picks the final sigma by its word boundaries (expected values from JDK 25's
/// `String.toLowerCase`), where Unicode's Final_Sigma rule gives `όσος007α` and `é9σ`.
#[test]
fn lower_picks_the_final_sigma_like_java() {
    let input = batch(vec![(
        "s",
        s(&[
            Some("ΌΣΟΣ007Α"),
            Some("é9Σ"),
            Some("AΣ B"),
            Some("ΑΣ-Β"),
            Some("a\u{1D400}Σ"),
            Some("\u{A7CE}Σ"),
            None,
        ]),
    )]);
    let low = eval(call("gatun_flink_lower", vec![col("s")]), &input).unwrap();
    assert_eq!(
        strs(&low),
        owned(&[
            Some("όσοσ007α"),
            Some("é9ς"),
            Some("aς b"),
            Some("ασ-β"),
            Some("a\u{1D400}σ"),
            Some("\u{A7CE}σ"),
            None
        ])
    );
}

/// Java 25 knows Unicode 16.0: a mapping from or to a later code point (U+A7CE and U+A7D2,
/// capital of the older U+A7D3, are new in 17.0) is not applied, whatever Rust's tables say.
#[test]
fn case_mapping_keeps_code_points_newer_than_unicode_16() {
    let input = batch(vec![("s", s(&[Some("\u{A7CE}\u{A7D3}\u{16EA0}Ꭰꭰ")]))]);
    let up = eval(call("gatun_flink_upper", vec![col("s")]), &input).unwrap();
    assert_eq!(strs(&up), owned(&[Some("\u{A7CE}\u{A7D3}\u{16EA0}ᎠᎠ")]));
    let low = eval(call("gatun_flink_lower", vec![col("s")]), &input).unwrap();
    assert_eq!(strs(&low), owned(&[Some("\u{A7CE}\u{A7D3}\u{16EA0}ꭰꭰ")]));
}

#[test]
fn concat_is_null_if_any_argument_is_null() {
    let input = batch(vec![
        ("a", s(&[Some("a"), Some("a"), None])),
        ("b", s(&[Some("b"), None, Some("b")])),
    ]);
    let out = eval(
        call("gatun_flink_concat", vec![col("a"), col("b"), str_lit("!")]),
        &input,
    )
    .unwrap();
    assert_eq!(strs(&out), owned(&[Some("ab!"), None, None]));
}

#[test]
fn replace_follows_java_string_replace() {
    let input = batch(vec![
        (
            "s",
            s(&[Some("aXbX"), Some("ab"), Some("😀"), Some("aaa"), None]),
        ),
        (
            "t",
            s(&[Some("X"), Some(""), Some(""), Some("aa"), Some("x")]),
        ),
    ]);
    let out = eval(
        call(
            "gatun_flink_replace",
            vec![col("s"), col("t"), str_lit("-")],
        ),
        &input,
    )
    .unwrap();
    assert_eq!(
        strs(&out),
        owned(&[Some("a-b-"), Some("-a-b-"), Some("-?-?-"), Some("-a"), None])
    );
}

#[test]
fn like_wildcards_and_escapes() {
    let input = batch(vec![(
        "s",
        s(&[
            Some("abc"),
            Some("a\nc"),
            Some("10%"),
            Some("a_c"),
            Some("😀c"),
            None,
        ]),
    )]);
    let like = |p: &str| call("gatun_flink_like", vec![col("s"), str_lit(p)]);
    let bools = |a: ArrayRef| a.as_boolean().iter().collect::<Vec<_>>();
    assert_eq!(
        bools(eval(like("a_c"), &input).unwrap()),
        [
            Some(true),
            Some(false),
            Some(false),
            Some(true),
            Some(false),
            None
        ]
    );
    assert_eq!(
        bools(eval(like("%c"), &input).unwrap()),
        [
            Some(true),
            Some(true),
            Some(false),
            Some(true),
            Some(true),
            None
        ]
    );
    assert_eq!(
        bools(eval(like("_c"), &input).unwrap()),
        [
            Some(false),
            Some(false),
            Some(false),
            Some(false),
            Some(true),
            None
        ]
    );
    let esc = |p: &str, e: &str| call("gatun_flink_like", vec![col("s"), str_lit(p), str_lit(e)]);
    assert_eq!(
        bools(eval(esc("%!%", "!"), &input).unwrap()),
        [
            Some(false),
            Some(false),
            Some(true),
            Some(false),
            Some(false),
            None
        ]
    );
    assert_eq!(
        bools(eval(esc("a!_c", "!"), &input).unwrap()),
        [
            Some(false),
            Some(false),
            Some(false),
            Some(true),
            Some(false),
            None
        ]
    );
    assert_fails(
        eval(esc("a!b", "!"), &input),
        GATUN_ERR_EXECUTION,
        &["Invalid escape sequence"],
    );
    assert_fails(
        eval(esc("ab", "!!"), &input),
        GATUN_ERR_EXECUTION,
        &["Invalid escape character"],
    );
    // Flink's literal fast path accepts an empty escape when the pattern has no `_`.
    assert_eq!(bools(eval(esc("a%", ""), &input).unwrap())[0], Some(true));
    assert_fails(
        eval(esc("a_c", ""), &input),
        GATUN_ERR_EXECUTION,
        &["Invalid escape character"],
    );
}

#[test]
fn string_functions_reject_other_types() {
    let written = batch(vec![("i", s(&[Some("x")]))]).schema();
    let input = batch(vec![("i", Arc::new(Int32Array::from(vec![1])) as ArrayRef)]);
    assert_fails(
        eval_retyped(call("gatun_flink_upper", vec![col("i")]), &written, &input),
        GATUN_ERR_PLAN,
        &["gatun_flink_upper(Int32)"],
    );
}
