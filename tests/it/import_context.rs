//! Each import starts from nothing: what one file decided (the new names of
//! the keywords it uses as names, whether it defines its own `abs`) never
//! reaches the next file imported, whichever entry point reads it.

use zeno::import::{ImportOptions, import, import_query_file, import_uppaal_xml, import_xta};

/// An XTA model with one process whose variable is `name` and whose edge
/// assigns `update` to it.
fn xta(decls: &str, update: &str) -> String {
    format!(
        "{decls}\nprocess P() {{ state A, B; init A;\n  trans A -> B {{ assign {update}; }}; }}\nsystem P;\n"
    )
}

/// The zeno names the keyword `init` gets depend on the file alone: with
/// both `init` and `init_` in a file, `init` becomes `init__`; in a file
/// with `init` alone, `init_`, even right after the other file.
#[test]
fn keyword_renaming_is_the_files_own() {
    let both = xta("int init, init_;", "init = 1, init_ = 2");
    let first = import("both.xta", &both, &ImportOptions::default()).expect("imports");
    assert!(first.zeno.contains("init__ = 1"), "{}", first.zeno);
    assert!(first.zeno.contains("init_ = 2"), "{}", first.zeno);

    let alone = xta("int init;", "init = 1");
    for zeno in [
        import_xta(&alone).expect("imports").zeno,
        import_uppaal_xml(&xml("int init;", "init = 1"))
            .expect("imports")
            .zeno,
    ] {
        assert!(zeno.contains("int init_;"), "{zeno}");
        assert!(zeno.contains("init_ = 1"), "{zeno}");
        assert!(!zeno.contains("init__"), "{zeno}");
    }

    // And a file read directly gets its own renaming too: `init` and
    // `init_` stay apart.
    let direct = import_xta(&both).expect("imports").zeno;
    assert!(direct.contains("init__ = 1"), "{direct}");
    assert!(direct.contains("init_ = 2"), "{direct}");
}

/// A model defining its own `abs` keeps its calls; the next file, read
/// directly, has UPPAAL 5's built-in again (`abs(x)` written out as
/// `x < 0 ? -x : x`).
#[test]
fn a_models_own_abs_does_not_reach_the_next_file() {
    let own = xta("int x; int abs(int v) { return v + 100; }", "x = abs(2)");
    let first = import("own.xta", &own, &ImportOptions::default()).expect("imports");
    assert!(first.zeno.contains("x = abs(2)"), "{}", first.zeno);

    for zeno in [
        import_xta(&xta("int x = -5;", "x = abs(x)"))
            .expect("imports")
            .zeno,
        import_uppaal_xml(&xml("int x = -5;", "x = abs(x)"))
            .expect("imports")
            .zeno,
    ] {
        assert!(zeno.contains("x = x < 0 ? -x : x;"), "{zeno}");
    }

    // Read directly, a model defining `abs` keeps its own as well.
    let direct = import_xta(&own).expect("imports").zeno;
    assert!(direct.contains("x = abs(2)"), "{direct}");
}

/// A query file is read with the renaming of the model it belongs to,
/// handed over explicitly: `init` is the model's `init__` when the model
/// also has `init_`, and `init_` for a model (or no model) without it.
#[test]
fn a_query_file_is_read_with_its_models_renaming() {
    let both = xta("int init, init_;", "init = 1, init_ = 2");
    let model = import("both.xta", &both, &ImportOptions::default()).expect("imports");
    let (checks, errors) = import_query_file("E<> init == 1\n", &model.renaming);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(checks, vec![(1, "E<> init__ == 1".to_string())]);

    let (checks, errors) = import_query_file("E<> init == 1\n", &Default::default());
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(checks, vec![(1, "E<> init_ == 1".to_string())]);
}

/// The same model as UPPAAL XML.
fn xml(decls: &str, update: &str) -> String {
    format!(
        r#"<nta><declaration>{decls}</declaration>
<template><name>P</name>
<location id="a"><name>A</name></location><location id="b"><name>B</name></location>
<init ref="a"/>
<transition><source ref="a"/><target ref="b"/><label kind="assignment">{update}</label></transition>
</template><system>system P;</system></nta>"#
    )
}
