//! Java (`io.substrait:core`) and Rust (`substrait` inside `datafusion-substrait`) must
//! speak one Substrait spec version. `admission/substrait-spec-version` holds it; this
//! test compares it with the Rust crate, `SubstraitSpecPinTest` in planner-hooks with
//! the Java library.

use datafusion_substrait::substrait::version;

#[test]
fn rust_substrait_speaks_the_pinned_spec_version() {
    let path = crate::common::crate_dir().join("admission/substrait-spec-version");
    let pinned = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let pinned = pinned.trim();
    let v = version::version();
    let rust = format!("{}.{}.{}", v.major_number, v.minor_number, v.patch_number);
    assert_eq!(
        rust, pinned,
        "the Rust `substrait` crate (through datafusion-substrait) speaks Substrait spec {rust}, \
         but {} pins {pinned}. Java (io.substrait:core, SubstraitVersion.VERSION) and Rust must \
         move together: bump both dependencies to the same spec version, then update the file \
         and regenerate the goldens (-Dgatun.golden.update=true).",
        path.display()
    );
}
