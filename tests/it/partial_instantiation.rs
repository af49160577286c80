//! Partial instantiation (`P(const id_t i) = T(i, 1);`): the free
//! parameters expand into one process per value, named after the instance;
//! bad ones are located errors; UPPAAL's form is imported. The bundled
//! model `tests/data/models/partial-instantiation.zeno` has hand-computed
//! verdicts and runs under every search order in `models.rs`.

use crate::support::errors;

const T: &str = "int[0, 9] g;
template T(const int[0, 3] i, const int[1, 5] step) {
    init location a;
    a -> a when g == i do g = step;
}
";

#[test]
fn free_parameters_make_one_process_per_value() {
    let text = format!("{T}P(const int[1, 2] i) = T(i + 1, 2 * i);\nR = T(0, 1);\nsystem P, R;");
    let net = zeno::semantics::analyze(&text).network.expect("a network");
    let names: Vec<&str> = net.processes.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["P(1)", "P(2)", "R"]);
    // P(2) is T(3, 4): its update writes 4 where g == 3.
    let edge = &net.processes[1].edges[0];
    assert_eq!(
        format!("{:?}", edge.guard).matches("Const(3)").count(),
        1,
        "{edge:?}"
    );
}

#[test]
fn bad_partial_instantiations_are_located_errors() {
    let cases: &[(&str, &str, &str)] = &[
        // An argument out of the template parameter's range: 4 for i = 3.
        (
            "P(const int[2, 3] i) = T(i + 1, 1);",
            "argument 4 is outside the range [0, 3]",
            "i + 1",
        ),
        ("P(int &r) = T(0, 1);", "bounded integer type", "int &r"),
        (
            "P(const int[0, 1] i) = T(i);",
            "takes 2 argument(s)",
            "P(const int[0, 1] i) = T(i);",
        ),
        ("P(const int[0, 1] i) = T(j, 1);", "unknown name", "j"),
    ];
    for (inst, message, at) in cases {
        let text = format!("{T}{inst}\nsystem P;");
        let errs = errors(&text);
        assert!(
            errs.iter().any(|(m, a)| m.contains(message) && a == at),
            "{inst}: {errs:?}"
        );
    }
    // A check naming a value the parameter does not take.
    let text = format!("{T}P(const int[0, 1] i) = T(i, 1);\nsystem P;\ncheck c: E<> P(2).a;");
    let errs = errors(&text);
    assert!(
        errs.iter()
            .any(|(m, a)| m.contains("no process `P(2)`") && a == "P(2)"),
        "{errs:?}"
    );
}

#[test]
fn uppaal_partial_instantiation_is_imported() {
    let xml = r#"<nta><declaration>int[0,10] total;</declaration>
<template><name>T</name><parameter>const int[0,2] i, int step</parameter>
<location id="a"><name>a</name></location><location id="b"><name>b</name></location><init ref="a"/>
<transition><source ref="a"/><target ref="b"/><label kind="guard">total == i</label><label kind="assignment">total += step</label></transition>
</template>
<system>P(int[0,2] i) = T(i, 2);
system P;</system>
<queries><query><formula>E&lt;&gt; P(2).b</formula><comment>p2</comment></query></queries></nta>"#;
    let imported = zeno::import::import("p.xml", xml, &Default::default()).expect("imports");
    assert!(
        imported.zeno.contains("P(const int[0, 2] i) = T(i, 2);"),
        "{}",
        imported.zeno
    );
    let net = zeno::semantics::analyze(&imported.zeno)
        .network
        .expect("a network");
    assert_eq!(net.processes.len(), 3);
    // P(0) adds 2, then P(2) moves: a witness of two steps.
    let k = net.checks.iter().position(|c| c.name == "p2").unwrap();
    let r = zeno::checker::check(
        &net,
        net.check_at(k).expect("a check"),
        &Default::default(),
        &zeno::checker::Cancel::new(),
        &mut zeno::checker::no_progress,
    );
    assert_eq!(r.verdict, zeno::checker::Verdict::Holds);
    assert_eq!(r.trace.map(|t| t.len()), Some(2));
}

#[test]
fn uppaal_partial_instantiation_is_imported_from_xta() {
    // The same in an XTA file, where instances stand among the top-level
    // declarations: `P(const id_t i) = T(i, flags[i]);` was read as a
    // declaration of type `P`. Each `P(i)` sets its own `flags[i]` and
    // stops, so both flags get set, and no process sets a flag twice.
    let xta = "typedef int[0,1] id_t;
bool flags[2];
int[0,4] sets;
process T(const id_t id, bool &f) {
  state a, b;
  init a;
  trans a -> b { guard !f; assign f = true, sets++; };
}
P(const id_t i) = T(i, flags[i]);
system P;
";
    let imported = zeno::import::import("p.xta", xta, &Default::default()).expect("imports");
    assert!(
        imported.zeno.contains("P(const id_t i) = T(i, flags[i]);"),
        "{}",
        imported.zeno
    );
    let text = format!(
        "{}check both: E<> flags[0] && flags[1];\ncheck at_most_two: A[] sets <= 2;\ncheck three: E<> sets == 3;\n",
        imported.zeno
    );
    let net = zeno::semantics::analyze(&text).network.expect("a network");
    let names: Vec<&str> = net.processes.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["P(0)", "P(1)"]);
    let verdicts: Vec<_> = (0..3)
        .map(|k| {
            zeno::checker::check(
                &net,
                net.check_at(k).expect("a check"),
                &Default::default(),
                &zeno::checker::Cancel::new(),
                &mut zeno::checker::no_progress,
            )
            .verdict
        })
        .collect();
    use zeno::checker::Verdict::{Fails, Holds};
    assert_eq!(verdicts, [Holds, Holds, Fails]);
}

#[test]
fn formatting_keeps_the_parameters() {
    let text = "P(const int[0,1] i)=T(i,2);\n";
    let out = zeno::fmt::format(text).expect("formats");
    assert_eq!(out, "P(const int[0, 1] i) = T(i, 2);\n");
}

/// A template parameter taken by value with an array or record type
/// (`const int d[3]`), bound to a constant array or to a row of one, as
/// UPPAAL allows (zeno once said "`D` is an array: index it"). `P(D[1])`
/// gets d = {4, 5, 6}: its edge sets `got` to d[2] = 6, then to the sum
/// 4 + 5 + 6 = 15. A variable, another shape, or a value outside the
/// elements' range is a located error.
#[test]
fn a_constant_array_is_bound_to_a_parameter_by_value() {
    let model = |args: &str, goal: &str| {
        format!(
            "const int D[2][3] = {{ {{1, 2, 3}}, {{4, 5, 6}} }};\nint got;\nint v[3];\n\
             template P(const int[0, 9] d[3]) {{ init location a; location b; location c;\n\
             a -> b do got = d[2];\n\
             b -> c do got = sum (i : int[0, 2]) d[i]; }}\n\
             P1 = P({args});\nsystem P1;\ncheck q: {goal};\n"
        )
    };
    let net = zeno::semantics::analyze(&model("D[1]", "E<> P1.c && got == 15"))
        .network
        .expect("a network");
    for (goal, holds) in [
        ("E<> P1.b && got == 6", true),
        ("E<> P1.c && got == 15", true),
        ("E<> got == 3", false),
    ] {
        let text = model("D[1]", goal);
        let net2 = zeno::semantics::analyze(&text).network.expect("a network");
        let r = zeno::checker::check(
            &net2,
            net2.check_at(0).unwrap(),
            &zeno::checker::Options::default(),
            &zeno::checker::Cancel::default(),
            &mut zeno::checker::no_progress,
        );
        let want = if holds {
            zeno::checker::Verdict::Holds
        } else {
            zeno::checker::Verdict::Fails
        };
        assert_eq!(r.verdict, want, "{goal}");
    }
    assert_eq!(net.processes.len(), 1);
    for (args, message, at) in [
        ("v", "takes a constant array or record", "v"),
        ("D", "expects", "D"),
        ("D[0][1]", "expects", "D[0][1]"),
    ] {
        let errs = errors(&model(args, "A[] true"));
        assert!(
            errs.iter().any(|(m, a)| m.contains(message) && a == at),
            "{args}: {errs:?}"
        );
    }
    let wide = model("D[1]", "A[] true").replace("int[0, 9] d", "int[0, 5] d");
    let errs = errors(&wide);
    assert!(
        errs.iter().any(
            |(m, a)| m.contains("the value 6 of `d[2]` is outside the range [0, 5]") && a == "D[1]"
        ),
        "{errs:?}"
    );
}
