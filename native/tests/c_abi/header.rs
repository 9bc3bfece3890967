//! The header `jextract-config/include/gatun.h` (and `arrow_c_data.h`) is the
//! contract: these tests parse it and fail when it and the Rust code drift apart.

use std::collections::{BTreeMap, BTreeSet};
use std::mem::offset_of;
use std::path::{Path, PathBuf};

use gatun_native::ffi::abi::*;
use gatun_native::{GatunNativeStats, GatunStateStats, GatunWatermarkProgress};

fn include_dir() -> PathBuf {
    crate::common::crate_dir().join("../jextract-config/include")
}

/// The header text without comments.
fn header(name: &str) -> String {
    let path = include_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    strip_comments(&text)
}

fn strip_comments(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        let end = rest[start..].find("*/").expect("unterminated comment") + start + 2;
        rest = &rest[end..];
    }
    out.push_str(rest);
    out.lines()
        .map(|l| l.split("//").next().unwrap())
        .collect::<Vec<_>>()
        .join("\n")
}

fn squash(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace(" *", "*")
}

#[test]
fn constants_match() {
    let defines: BTreeMap<String, i64> = header("gatun.h")
        .lines()
        .filter_map(|line| {
            let mut words = line.split_whitespace();
            (words.next() == Some("#define")).then_some(())?;
            let name = words.next()?;
            let value = words.next()?.parse().ok()?;
            name.starts_with("GATUN_")
                .then(|| (name.to_string(), value))
        })
        .collect();
    let rust: BTreeMap<String, i64> = [
        ("GATUN_ABI_VERSION", GATUN_ABI_VERSION as i64),
        ("GATUN_OK", GATUN_OK as i64),
        (
            "GATUN_ERR_INVALID_ARGUMENT",
            GATUN_ERR_INVALID_ARGUMENT as i64,
        ),
        ("GATUN_ERR_ARROW", GATUN_ERR_ARROW as i64),
        ("GATUN_ERR_PLAN", GATUN_ERR_PLAN as i64),
        ("GATUN_ERR_EXECUTION", GATUN_ERR_EXECUTION as i64),
        ("GATUN_ERR_PANIC", GATUN_ERR_PANIC as i64),
        ("GATUN_OPERATOR_CALC", GATUN_OPERATOR_CALC as i64),
        (
            "GATUN_OPERATOR_WINDOW_AGGREGATE",
            GATUN_OPERATOR_WINDOW_AGGREGATE as i64,
        ),
        (
            "GATUN_OPERATOR_LOCAL_AGGREGATE",
            GATUN_OPERATOR_LOCAL_AGGREGATE as i64,
        ),
        ("GATUN_OUTPUT_ARROW", GATUN_OUTPUT_ARROW as i64),
        ("GATUN_OUTPUT_FLINK_ROWS", GATUN_OUTPUT_FLINK_ROWS as i64),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    assert_eq!(defines, rust, "gatun.h #defines vs src/abi.rs");
}

/// `(return type, [(param type, param name)])` of every `gatun_*` function.
type Signatures = BTreeMap<String, (String, Vec<(String, String)>)>;

fn header_functions() -> Signatures {
    let text = header("gatun.h");
    let code: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n");
    let mut functions = Signatures::new();
    for statement in code.split(';') {
        let statement = statement.rsplit(['{', '}']).next().unwrap();
        let Some(open) = statement.find('(') else {
            continue;
        };
        let head = squash(&statement[..open]);
        let Some((_, name)) = head.rsplit_once([' ', '*']) else {
            continue;
        };
        if !name.starts_with("gatun_") {
            continue;
        }
        let ret = squash(&head[..head.len() - name.len()]);
        let params = squash(&statement[open + 1..statement.rfind(')').unwrap()]);
        let params = if params == "void" {
            vec![]
        } else {
            params
                .split(',')
                .map(|p| {
                    let p = p.trim();
                    let split = p.rfind([' ', '*']).unwrap() + 1;
                    (squash(&p[..split]), p[split..].to_string())
                })
                .collect()
        };
        functions.insert(name.to_string(), (ret, params));
    }
    functions
}

fn rust_sources(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push((path.clone(), std::fs::read_to_string(&path).unwrap()));
        }
    }
}

fn rust_functions() -> Signatures {
    let mut sources = Vec::new();
    rust_sources(&crate::common::crate_dir().join("src"), &mut sources);
    let mut functions = Signatures::new();
    for (path, text) in sources {
        for (at, _) in text.match_indices("extern \"C\" fn ") {
            let rest = &text[at + "extern \"C\" fn ".len()..];
            let open = rest.find('(').unwrap();
            let name = rest[..open].trim().to_string();
            if !name.starts_with("gatun_") {
                continue; // e.g. release callbacks handed out through C Data structs
            }
            let before = &text[..at];
            let attribute = before.rfind("#[no_mangle]").map(|i| &before[i..]);
            assert!(
                attribute.is_some_and(|a| a.lines().count() <= 2),
                "{name} in {} is not #[no_mangle]",
                path.display()
            );
            let close = rest.find(')').unwrap();
            let params = squash(&rest[open + 1..close])
                .split(',')
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .map(|p| {
                    let (name, ty) = p.split_once(':').unwrap();
                    (squash(ty), name.trim().to_string())
                })
                .collect();
            let after = rest[close + 1..rest.find('{').unwrap()].trim();
            let ret = after.strip_prefix("->").map_or("()".to_string(), squash);
            assert!(
                functions.insert(name.clone(), (ret, params)).is_none(),
                "{name} twice"
            );
        }
    }
    functions
}

/// The Rust spelling of a C type of the header. Extend it when the header gains types.
fn rust_type(c_type: &str) -> &'static str {
    match c_type {
        "void" => "()",
        "uint32_t" => "u32",
        "int32_t" => "i32",
        "int64_t" => "i64",
        "int64_t*" => "*mut i64",
        "size_t" => "usize",
        "char*" => "*mut c_char",
        "const char*" => "*const c_char",
        "GatunNativeStats*" => "*mut GatunNativeStats",
        "const struct ArrowSchema*" => "*const FFI_ArrowSchema",
        "struct ArrowSchema*" => "*mut FFI_ArrowSchema",
        "const struct ArrowArray*" => "*const FFI_ArrowArray",
        "const uint8_t*" => "*const u8",
        "GatunOperator*" => "*mut GatunOperator",
        "GatunOperator**" => "*mut*mut GatunOperator",
        "GatunWatermarkProgress*" => "*mut GatunWatermarkProgress",
        "GatunStateStats*" => "*mut GatunStateStats",
        "GatunPassthrough*" => "*mut GatunPassthrough",
        "GatunPassthrough**" => "*mut*mut GatunPassthrough",
        "struct ArrowArray*" => "*mut FFI_ArrowArray",
        other => panic!("no Rust mapping for the C type `{other}`: extend rust_type()"),
    }
}

#[test]
fn every_header_function_is_implemented_with_its_signature() {
    let header = header_functions();
    let rust = rust_functions();
    let expected = [
        "gatun_abi_version",
        "gatun_native_stats",
        "gatun_operator_advance",
        "gatun_operator_create",
        "gatun_operator_flush",
        "gatun_operator_free",
        "gatun_operator_held_bytes",
        "gatun_operator_limit_state",
        "gatun_operator_process",
        "gatun_operator_restore",
        "gatun_operator_restore_progress",
        "gatun_operator_snapshot",
        "gatun_operator_state_stats",
        "gatun_passthrough",
        "gatun_passthrough_create",
        "gatun_passthrough_free",
        "gatun_roundtrip",
    ];
    assert!(
        expected.iter().all(|f| header.contains_key(*f)),
        "header parse failed: {header:?}"
    );
    assert_eq!(
        header.keys().collect::<BTreeSet<_>>(),
        rust.keys().collect::<BTreeSet<_>>(),
        "gatun.h functions vs `extern \"C\" fn` in src/"
    );
    for (name, (c_ret, c_params)) in &header {
        let (ret, params) = &rust[name];
        assert_eq!(rust_type(c_ret), ret, "return type of {name}");
        let c_params: Vec<_> = c_params
            .iter()
            .map(|(t, n)| (rust_type(t).to_string(), n.clone()))
            .collect();
        assert_eq!(&c_params, params, "parameters of {name}");
    }
}

/// Field names, in order, of `struct <name> { ... }` in `file`.
fn c_struct_fields(file: &str, name: &str) -> Vec<(String, String)> {
    let text = header(file);
    let start = text
        .find(&format!("struct {name} {{"))
        .unwrap_or_else(|| panic!("no struct {name}"));
    let body = &text[start + name.len() + 9..];
    let body = &body[..body.find('}').unwrap()];
    body.split(';')
        .map(str::trim)
        .filter(|f| !f.is_empty())
        .map(|f| match f.find("(*") {
            Some(i) => (
                "fn".to_string(),
                f[i + 2..f[i..].find(')').unwrap() + i].to_string(),
            ),
            None => {
                let f = squash(f);
                let split = f.rfind([' ', '*']).unwrap() + 1;
                (squash(&f[..split]), f[split..].to_string())
            }
        })
        .collect()
}

#[test]
fn native_stats_fields_match_the_header() {
    let rust = [
        ("live_handles", offset_of!(GatunNativeStats, live_handles)),
        (
            "live_exported_arrays",
            offset_of!(GatunNativeStats, live_exported_arrays),
        ),
        (
            "live_exported_schemas",
            offset_of!(GatunNativeStats, live_exported_schemas),
        ),
        (
            "allocated_bytes",
            offset_of!(GatunNativeStats, allocated_bytes),
        ),
        (
            "peak_allocated_bytes",
            offset_of!(GatunNativeStats, peak_allocated_bytes),
        ),
    ];
    let expected: Vec<_> = rust
        .iter()
        .enumerate()
        .map(|(i, (n, off))| {
            assert_eq!(*off, i * 8, "{n}");
            ("int64_t".to_string(), n.to_string())
        })
        .collect();
    assert_eq!(c_struct_fields("gatun.h", "GatunNativeStats"), expected);
}

#[test]
fn watermark_progress_fields_match_the_header() {
    let rust = [
        ("current", offset_of!(GatunWatermarkProgress, current)),
        ("last", offset_of!(GatunWatermarkProgress, last)),
        ("interval", offset_of!(GatunWatermarkProgress, interval)),
        ("after", offset_of!(GatunWatermarkProgress, after)),
        (
            "mini_batch_next",
            offset_of!(GatunWatermarkProgress, mini_batch_next),
        ),
    ];
    let expected: Vec<_> = rust
        .iter()
        .enumerate()
        .map(|(i, (n, off))| {
            assert_eq!(*off, i * 8, "{n}");
            ("int64_t".to_string(), n.to_string())
        })
        .collect();
    assert_eq!(
        c_struct_fields("gatun.h", "GatunWatermarkProgress"),
        expected
    );
}

#[test]
fn state_stats_fields_match_the_header() {
    let rust = [
        ("keys", offset_of!(GatunStateStats, keys)),
        ("slices", offset_of!(GatunStateStats, slices)),
        ("bytes", offset_of!(GatunStateStats, bytes)),
        ("late_rows", offset_of!(GatunStateStats, late_rows)),
        ("progress", offset_of!(GatunStateStats, progress)),
    ];
    assert_eq!(std::mem::size_of::<GatunStateStats>(), rust.len() * 8);
    let expected: Vec<_> = rust
        .iter()
        .enumerate()
        .map(|(i, (n, off))| {
            assert_eq!(*off, i * 8, "{n}");
            ("int64_t".to_string(), n.to_string())
        })
        .collect();
    assert_eq!(c_struct_fields("gatun.h", "GatunStateStats"), expected);
}

#[test]
fn arrow_c_data_field_order_is_the_one_tested_in_layout() {
    let names = |s: &str| {
        c_struct_fields("arrow_c_data.h", s)
            .into_iter()
            .map(|(_, n)| n)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        names("ArrowSchema"),
        [
            "format",
            "name",
            "metadata",
            "flags",
            "n_children",
            "children",
            "dictionary",
            "release",
            "private_data"
        ]
    );
    assert_eq!(
        names("ArrowArray"),
        [
            "length",
            "null_count",
            "offset",
            "n_buffers",
            "n_children",
            "buffers",
            "children",
            "dictionary",
            "release",
            "private_data"
        ]
    );
}
