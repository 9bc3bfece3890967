//! `native/admission/functions.json` lists exactly the registered Gatun functions, and
//! every listed test exists.

use std::collections::BTreeSet;

use gatun_native::udf;

fn admission() -> String {
    let path = crate::common::crate_dir().join("admission/functions.json");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Values of `"key": "value"` pairs in `text`.
fn string_values<'a>(text: &'a str, key: &str) -> Vec<&'a str> {
    let needle = format!("\"{key}\": \"");
    text.match_indices(&needle)
        .map(|(at, _)| {
            let rest = &text[at + needle.len()..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect()
}

#[test]
fn every_gatun_function_is_listed_once() {
    let text = admission();
    let listed: Vec<&str> = string_values(&text, "name")
        .into_iter()
        .filter(|n| n.starts_with("gatun_"))
        .collect();
    let unique: BTreeSet<&str> = listed.iter().copied().collect();
    assert_eq!(unique.len(), listed.len(), "duplicates in functions.json");
    let registered: BTreeSet<&str> = udf::names().into_iter().collect();
    assert_eq!(unique, registered, "functions.json vs udf::names()");
}

#[test]
fn every_listed_test_exists_and_every_entry_has_one() {
    let text = admission();
    let tests_dir = crate::common::crate_dir().join("tests/c_abi");
    let mut entries = 0;
    for line in text.lines().filter(|l| l.contains("\"name\": ")) {
        entries += 1;
        let tests = line
            .split("\"tests\": [")
            .nth(1)
            .unwrap_or_else(|| panic!("no tests: {line}"));
        let tests = &tests[..tests.find(']').unwrap()];
        assert!(tests.contains('"'), "an entry without tests: {line}");
        for test in tests.split(',').map(|t| t.trim().trim_matches('"')) {
            let (module, name) = test.split_once("::").unwrap();
            let source = std::fs::read_to_string(tests_dir.join(format!("{module}.rs")))
                .unwrap_or_else(|e| panic!("{test}: {e}"));
            if name != "*" {
                assert!(
                    source.contains(&format!("fn {name}(")),
                    "missing test {test}"
                );
            }
        }
    }
    assert!(entries > 40, "parsed only {entries} entries");
}
