//! String functions and LIKE with Flink semantics, through the C ABI.

use std::sync::Arc;

use arrow::array::{
    Array, ArrayRef, AsArray, Int16Array, Int32Array, Int64Array, Int8Array, StringArray,
};
use arrow::datatypes::Int32Type;
use datafusion::common::ScalarValue;
use datafusion::logical_expr::Expr;
use gatun_native::ffi::abi::{GATUN_ERR_EXECUTION, GATUN_ERR_PLAN};

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

/// A typed NULL string literal.
fn null_str() -> Expr {
    lit(ScalarValue::Utf8(None))
}

#[test]
fn regexp_extract_follows_java_find_and_group() {
    let url = "https://www.nexmark.com/abc_de/fgh_ij/klm/item.htm?query=1&channel_id=1234567";
    let hay = [
        Some(url),
        Some("channel_id=99&x=1"),
        Some("https://www.nexmark.com/a/b/c/item.htm?query=1"),
        Some(""),
        None,
        Some("a😀c&channel_id=é😀&"),
    ];
    let input = batch(vec![
        ("s", s(&hay)),
        (
            "i",
            Arc::new(Int64Array::from(vec![
                Some(2),
                Some(1),
                Some(0),
                Some(0),
                Some(2),
                Some(4_294_967_298), // (int) 4294967298 = 2, as Flink's long overload casts
            ])) as ArrayRef,
        ),
        (
            "t",
            Arc::new(Int8Array::from(vec![
                Some(3),
                Some(-1),
                None,
                Some(0),
                Some(1),
                Some(2),
            ])) as ArrayRef,
        ),
    ]);
    let p = "(&|^)channel_id=([^&]*)";
    let extract =
        |args: Vec<Expr>| strs(&eval(call("gatun_flink_regexp_extract", args), &input).unwrap());
    assert_eq!(
        extract(vec![col("s"), str_lit(p), lit(2i32)]),
        owned(&[Some("1234567"), Some("99"), None, None, None, Some("é😀")])
    );
    assert_eq!(
        extract(vec![col("s"), str_lit(p)]),
        owned(&[
            Some("&channel_id=1234567"),
            Some("channel_id=99"),
            None,
            None,
            None,
            Some("&channel_id=é😀"),
        ])
    );
    // the whole match without a `channel_id=` at a boundary: group 1 did not take part
    assert_eq!(
        extract(vec![col("s"), str_lit("(&|^)channel_id=|(.)😀"), lit(1i16)]),
        owned(&[Some("&"), Some(""), None, None, None, None])
    );
    assert_eq!(
        extract(vec![col("s"), str_lit(p), col("i")]),
        owned(&[Some("1234567"), Some(""), None, None, None, Some("é😀")])
    );
    // index out of range (3 > 2 groups, -1) and NULL index → NULL
    assert_eq!(
        extract(vec![col("s"), str_lit(p), col("t")]),
        owned(&[None, None, None, None, None, Some("é😀")])
    );
    // a NULL pattern gives NULL everywhere (the planner's translation of a pattern Java rejects)
    assert_eq!(
        extract(vec![col("s"), null_str(), lit(0i32)]),
        owned(&[None; 6])
    );
    // all literals: one row, a scalar
    let one = eval_lit(call(
        "gatun_flink_regexp_extract",
        vec![str_lit("k=v; k2=w"), str_lit(r"k2=(\w+)"), lit(1i32)],
    ))
    .unwrap();
    assert_eq!(strs(&one), owned(&[Some("w")]));
}

#[test]
fn regexp_extract_matches_java_dollar_dot_and_classes() {
    let input = batch(vec![(
        "s",
        s(&[
            Some("ab\n"),
            Some("ab\r\n"),
            Some("ab\u{2028}"),
            Some("ab\n\n"),
            Some("a\rb"),
            Some("x1 _Z\u{85}é"),
        ]),
    )]);
    let extract = |p: &str, g: i32| {
        strs(
            &eval(
                call(
                    "gatun_flink_regexp_extract",
                    vec![col("s"), str_lit(p), lit(g)],
                ),
                &input,
            )
            .unwrap(),
        )
    };
    // Java's `$` also matches before one final line terminator (not inside "\r\n")
    assert_eq!(
        extract("(b)$", 0),
        owned(&[Some("b"), Some("b"), Some("b"), None, Some("b"), None])
    );
    assert_eq!(
        extract(r"(\w+)\r?$", 1),
        owned(&[Some("ab"), Some("ab"), Some("ab"), None, Some("b"), None])
    );
    // `.` stops at \n \r U+0085 U+2028 U+2029; \d \w \s are ASCII
    assert_eq!(
        extract("a.*", 0),
        owned(&[
            Some("ab"),
            Some("ab"),
            Some("ab"),
            Some("ab"),
            Some("a"),
            None
        ])
    );
    assert_eq!(
        extract(r"\d\s\w+\W", 0),
        owned(&[None, None, None, None, None, Some("1 _Z\u{85}")])
    );
    assert_eq!(
        extract("[^\\n\\r]+?[é\\x{2028}]", 0),
        owned(&[
            None,
            None,
            Some("ab\u{2028}"),
            None,
            None,
            Some("x1 _Z\u{85}é")
        ])
    );
}

#[test]
fn regexp_extract_refuses_unsupported_and_computed_patterns() {
    let input = batch(vec![("s", s(&[Some("aa")])), ("p", s(&[Some("a")]))]);
    let plan_error = |p: Expr, needles: &[&str]| {
        assert_fails(
            eval(
                call("gatun_flink_regexp_extract", vec![col("s"), p]),
                &input,
            ),
            GATUN_ERR_PLAN,
            needles,
        )
    };
    plan_error(
        str_lit(r"(a)\1"),
        &[
            "projection `out`",
            "gatun_flink_regexp_extract: REGEXP_EXTRACT pattern uses a backreference, which Gatun does not run natively",
        ],
    );
    plan_error(str_lit("(?<=a)a"), &["uses lookbehind"]);
    plan_error(str_lit(r"\p{L}"), &["uses a Unicode property"]);
    plan_error(str_lit("a$b"), &["followed by more of the pattern"]);
    plan_error(
        str_lit("("),
        &["not a valid Java regular expression (Unclosed group"],
    );
    plan_error(col("p"), &["the pattern must be a literal"]);
    assert_fails(
        eval(
            call(
                "gatun_flink_regexp_extract",
                vec![col("s"), str_lit("a"), str_lit("1")],
            ),
            &input,
        ),
        GATUN_ERR_PLAN,
        &["gatun_flink_regexp_extract(Utf8, Utf8, Utf8)"],
    );
}

#[test]
fn split_index_splits_like_commons_lang() {
    let url = "https://www.nexmark.com/abc_de/fgh_ij/klm/item.htm?query=1";
    let input = batch(vec![
        (
            "s",
            s(&[
                Some(url),
                Some("/a//b/"),
                Some(""),
                None,
                Some("ab  c\u{3000}d\u{A0}e"),
                Some("x-!-y"),
            ]),
        ),
        (
            "sep",
            s(&[
                Some("/"),
                Some("/"),
                Some("/"),
                Some("/"),
                Some(""),
                Some("-!-"),
            ]),
        ),
        (
            "i",
            Arc::new(Int32Array::from(vec![
                Some(3),
                Some(2),
                Some(0),
                Some(0),
                Some(2),
                Some(1),
            ])) as ArrayRef,
        ),
        (
            "c",
            Arc::new(Int16Array::from(vec![
                Some(47),
                Some(47),
                Some(0),
                Some(300),
                Some(32),
                None,
            ])) as ArrayRef,
        ),
    ]);
    let split =
        |args: Vec<Expr>| strs(&eval(call("gatun_flink_split_index", args), &input).unwrap());
    assert_eq!(
        split(vec![col("s"), col("sep"), col("i")]),
        owned(&[Some("abc_de"), Some(""), None, None, Some("c"), Some("y")])
    );
    let slash = |i: i32| split(vec![col("s"), str_lit("/"), lit(i)]);
    assert_eq!(
        slash(4),
        owned(&[Some("fgh_ij"), Some(""), None, None, None, None])
    );
    assert_eq!(
        slash(5),
        owned(&[Some("klm"), None, None, None, None, None])
    );
    assert_eq!(
        slash(3),
        owned(&[Some("abc_de"), Some("b"), None, None, None, None])
    );
    assert_eq!(slash(7), owned(&[None, None, None, None, None, None]));
    assert_eq!(slash(-1), owned(&[None; 6]));
    assert_eq!(
        slash(0),
        owned(&[
            Some("https:"),
            Some(""),
            None,
            None,
            Some("ab  c\u{3000}d\u{A0}e"),
            Some("x-!-y")
        ])
    );
    // an empty separator splits at each Java whitespace character (U+00A0 is not one)
    assert_eq!(
        split(vec![col("s"), str_lit(""), lit(3i8)]),
        owned(&[None, None, None, None, Some("d\u{A0}e"), None])
    );
    // a character code separator: 1..255, else NULL
    assert_eq!(
        split(vec![col("s"), col("c"), lit(1i32)]),
        owned(&[Some(""), Some("a"), None, None, Some(""), None])
    );
    assert_eq!(
        split(vec![col("s"), null_str(), lit(0i32)]),
        owned(&[None; 6])
    );
    assert_fails(
        eval(
            call(
                "gatun_flink_split_index",
                vec![col("s"), str_lit("/"), lit(1i64)],
            ),
            &input,
        ),
        GATUN_ERR_PLAN,
        &["gatun_flink_split_index(Utf8, Utf8, Int64)"],
    );
}
