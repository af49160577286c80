//! UPPAAL files as they are found in the wild: older file layouts and
//! leftovers that UPPAAL itself tolerates. Each model is written for these
//! tests; its verdicts are explained next to it.

use zeno::checker::Verdict;
use zeno::diagnostics::Severity;
use zeno::import::{ImportOptions, Imported, import};

fn import_xml(text: &str) -> Imported {
    match import("model.xml", text, &ImportOptions::default()) {
        Ok(i) => i,
        Err(d) => panic!("import failed: {d:?}"),
    }
}

use crate::support::imported_verdicts as verdicts;

/// Two processes of one template taking a lock in turn: `P` goes
/// `idle -> busy` when `lock == 0` (taking it) and back (releasing it).
fn lock_template() -> &'static str {
    r#"<template><name>P</name>
<location id="a"><name>idle</name></location>
<location id="b"><name>busy</name></location>
<init ref="a"/>
<transition><source ref="a"/><target ref="b"/>
  <label kind="guard">lock == 0</label><label kind="assignment">lock := 1</label></transition>
<transition><source ref="b"/><target ref="a"/>
  <label kind="assignment">lock := 0</label></transition>
</template>"#
}

#[test]
fn instantiation_element_declares_the_processes() {
    // UPPAAL 3.x/4.0 layout: the process assignments, written with `:=`,
    // sit in `<instantiation>` before `<system>`.
    let text = format!(
        r#"<nta><declaration>int[0,1] lock;</declaration>{}
<instantiation>Kim := P();
Gerd := P();</instantiation>
<system>system Gerd, Kim;</system>
<queries>
<query><formula>E&lt;&gt; Kim.busy</formula><comment>kim_enters</comment></query>
<query><formula>E&lt;&gt; Kim.busy and Gerd.busy</formula><comment>both</comment></query>
</queries></nta>"#,
        lock_template()
    );
    let imported = import_xml(&text);
    assert!(imported.warnings.is_empty(), "{:?}", imported.warnings);
    // Kim takes the free lock at once; the lock keeps the two apart.
    assert_eq!(
        verdicts(&imported),
        vec![
            ("kim_enters".to_string(), Verdict::Holds),
            ("both".to_string(), Verdict::Fails),
        ]
    );
}

#[test]
fn query_naming_an_unknown_process_is_left_out_with_a_warning() {
    // The first query names `Proc1`, which the model does not have (its
    // processes are `P1` and `P2`): that query alone is left out, located,
    // and the second is checked.
    let text = format!(
        r#"<nta><declaration>int[0,1] lock;</declaration>{}
<system>P1 = P();
P2 = P();
system P1, P2;</system>
<queries>
<query><formula>A[] not (Proc1.busy and Proc2.busy)</formula><comment/></query>
<query><formula>A[] not (P1.busy and P2.busy)</formula><comment>mutex</comment></query>
</queries></nta>"#,
        lock_template()
    );
    let imported = import_xml(&text);
    let line = text
        .lines()
        .position(|l| l.contains("Proc1"))
        .expect("the bad query") as u32
        + 1;
    assert_eq!(imported.warnings.len(), 1, "{:?}", imported.warnings);
    let w = &imported.warnings[0];
    assert_eq!(w.severity, Severity::Warning);
    assert_eq!(w.line, line);
    assert!(w.message.contains("`Proc1`"), "{}", w.message);
    assert!(
        imported.zeno.contains("// not translated"),
        "{}",
        imported.zeno
    );
    assert_eq!(
        verdicts(&imported),
        vec![("mutex".to_string(), Verdict::Holds)]
    );
}

#[test]
fn queries_may_name_records_and_template_instances() {
    // `s.v` is a global record's field and `T(1).done` an instance of a
    // parameterised template: both are known names, so nothing is left out.
    let text = r#"<nta><declaration>typedef struct { int[0,3] v; } rec_t;
rec_t s;</declaration>
<template><name>T</name><parameter>const int[0,1] i</parameter>
<location id="a"><name>start</name></location>
<location id="b"><name>done</name></location>
<init ref="a"/>
<transition><source ref="a"/><target ref="b"/>
  <label kind="assignment">s.v := s.v + 1</label></transition>
</template>
<system>system T;</system>
<queries>
<query><formula>E&lt;&gt; T(1).done and s.v == 2</formula><comment>both_done</comment></query>
</queries></nta>"#;
    let imported = import_xml(text);
    assert!(imported.warnings.is_empty(), "{:?}", imported.warnings);
    // Each of T(0) and T(1) adds 1 once: s.v reaches 2 with both done.
    assert_eq!(
        verdicts(&imported),
        vec![("both_done".to_string(), Verdict::Holds)]
    );
}

#[test]
fn quantifiers_in_guards_and_function_bodies() {
    // `P` sets the three flags one by one (any order, `select`), then may
    // finish once the function `all_set` (a `forall`) says every flag is
    // set; the guard of `set` is an `exists` over the flags.
    let text = r#"<nta><declaration>bool flags[3];
bool all_set() { return forall (i : int[0,2]) flags[i]; }</declaration>
<template><name>P</name>
<location id="a"><name>busy</name></location>
<location id="b"><name>done</name></location>
<init ref="a"/>
<transition><source ref="a"/><target ref="a"/>
  <label kind="select">k : int[0,2]</label>
  <label kind="guard">exists (i : int[0,2]) !flags[i] and !flags[k]</label>
  <label kind="assignment">flags[k] = true</label></transition>
<transition><source ref="a"/><target ref="b"/>
  <label kind="guard">all_set()</label></transition>
</template>
<system>system P;</system>
<queries>
<query><formula>E&lt;&gt; P.done</formula><comment>finishes</comment></query>
<query><formula>A[] P.done imply forall (i : int[0,2]) flags[i]</formula><comment>only_when_all_set</comment></query>
</queries></nta>"#;
    let imported = import_xml(text);
    assert!(imported.warnings.is_empty(), "{:?}", imported.warnings);
    // Three `set` moves make `all_set()` true; `done` is entered only then.
    assert_eq!(
        verdicts(&imported),
        vec![
            ("finishes".to_string(), Verdict::Holds),
            ("only_when_all_set".to_string(), Verdict::Holds),
        ]
    );
}

#[test]
fn test_code_on_locations_is_ignored_with_a_warning() {
    let text = r#"<nta><declaration>chan c;</declaration>
<template><name>P</name>
<location id="a"><name>off</name><label kind="testcodeEnter">expect_off();</label></location>
<location id="b"><name>on</name><label kind="testcodeExit">leave_on();</label></location>
<init ref="a"/>
<transition><source ref="a"/><target ref="b"/></transition>
</template>
<system>system P;</system>
<queries><query><formula>E&lt;&gt; P.on</formula><comment>reaches_on</comment></query></queries></nta>"#;
    let imported = import_xml(text);
    let lines: Vec<_> = imported.warnings.iter().map(|w| w.line).collect();
    // One warning per label, on its line (3 and 4).
    assert_eq!(lines, vec![3, 4], "{:?}", imported.warnings);
    assert!(
        imported
            .warnings
            .iter()
            .all(|w| w.message.contains("test code"))
    );
    assert_eq!(
        verdicts(&imported),
        vec![("reaches_on".to_string(), Verdict::Holds)]
    );
}

#[test]
fn array_initialised_from_a_constant_array() {
    // `a` starts as a copy of `K`; the edge copies a[1] into a[0].
    let text = r#"<nta><declaration>const int K[2] = {1, 2};
int[0,3] a[2] = K;</declaration>
<template><name>P</name>
<location id="a"><name>start</name></location>
<location id="b"><name>copied</name></location>
<init ref="a"/>
<transition><source ref="a"/><target ref="b"/><label kind="assignment">a[0] = a[1]</label></transition>
</template>
<system>system P;</system>
<queries>
<query><formula>A[] P.start imply a[0] == 1 and a[1] == 2</formula><comment>initial_copy</comment></query>
<query><formula>E&lt;&gt; a[0] == 2</formula><comment>copied_value</comment></query>
</queries></nta>"#;
    let imported = import_xml(text);
    assert_eq!(
        verdicts(&imported),
        vec![
            ("initial_copy".to_string(), Verdict::Holds),
            ("copied_value".to_string(), Verdict::Holds),
        ]
    );
}

#[test]
fn constant_array_initialiser_out_of_range_is_located() {
    // K[1] = 2 does not fit in int[0,1]: the error points at the initialiser.
    let text = "const int K[2] = { 1, 2 };\nint[0, 1] b[2] = K;\n\
                template P() { init location l; }\nsystem P;\n";
    let analysis = zeno::semantics::analyze(text);
    let errors: Vec<_> = analysis
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    let at = text.find("= K").unwrap() + 2;
    assert_eq!(errors[0].range.start as usize, at, "{errors:?}");
    assert!(errors[0].message.contains('2'), "{}", errors[0].message);
}

#[test]
fn comparison_written_as_an_update_is_left_out_with_a_warning() {
    // `v == 1` in the update (an `=` mistyped) has no effect in UPPAAL; the
    // other update of the edge still runs.
    let text = r#"<nta><declaration>int[0,3] v; int[0,3] w;</declaration>
<template><name>P</name>
<location id="a"><name>start</name></location>
<location id="b"><name>next</name></location>
<init ref="a"/>
<transition><source ref="a"/><target ref="b"/>
  <label kind="assignment">v == 1, w = 2</label></transition>
</template>
<system>system P;</system>
<queries>
<query><formula>A[] P.next imply v == 0 and w == 2</formula><comment>only_w_changes</comment></query>
</queries></nta>"#;
    let imported = import_xml(text);
    assert_eq!(imported.warnings.len(), 1, "{:?}", imported.warnings);
    assert_eq!(imported.warnings[0].line, 7);
    assert!(
        imported.warnings[0].message.contains("`v == 1`"),
        "{}",
        imported.warnings[0].message
    );
    assert_eq!(
        verdicts(&imported),
        vec![("only_w_changes".to_string(), Verdict::Holds)]
    );
}

#[test]
fn an_update_that_could_fail_is_not_left_out() {
    // `a[v] == 0` reads an array at an index that may be out of range: the
    // importer keeps it, and zeno rejects it as an update (located).
    let text = r#"<nta><declaration>int a[2]; int[0,3] v;</declaration>
<template><name>P</name>
<location id="a"><name>start</name></location>
<init ref="a"/>
<transition><source ref="a"/><target ref="a"/>
  <label kind="assignment">a[v] == 0</label></transition>
</template>
<system>system P;</system></nta>"#;
    let imported = import_xml(text);
    assert!(imported.warnings.is_empty(), "{:?}", imported.warnings);
    let analysis = zeno::semantics::analyze(&imported.zeno);
    assert!(
        analysis
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error && d.message.contains("expected an assignment")),
        "{:?}",
        analysis.diagnostics
    );
}

#[test]
fn constant_reference_parameter_bound_to_a_constant() {
    // `limit` is a constant reference bound to K[1] = 3: `c` counts up to 3
    // and no further.
    let text = r#"<nta><declaration>const int K[2] = {1, 3};
int[0,5] c;</declaration>
<template><name>P</name><parameter>const int &amp;limit</parameter>
<location id="a"><name>count</name></location>
<init ref="a"/>
<transition><source ref="a"/><target ref="a"/>
  <label kind="guard">c &lt; limit</label><label kind="assignment">c++</label></transition>
</template>
<system>P1 = P(K[1]);
system P1;</system>
<queries>
<query><formula>E&lt;&gt; c == 3</formula><comment>reaches_three</comment></query>
<query><formula>E&lt;&gt; c == 4</formula><comment>passes_three</comment></query>
</queries></nta>"#;
    let imported = import_xml(text);
    assert_eq!(
        verdicts(&imported),
        vec![
            ("reaches_three".to_string(), Verdict::Holds),
            ("passes_three".to_string(), Verdict::Fails),
        ]
    );
}

#[test]
fn template_without_a_name_is_left_out_with_a_warning() {
    // The first template has an empty `<name>` (a draft nothing uses).
    let text = r#"<nta><declaration>int[0,1] done;</declaration>
<template><name></name><location id="z"></location><init ref="z"/></template>
<template><name>P</name>
<location id="a"><name>start</name></location>
<location id="b"><name>end</name></location>
<init ref="a"/>
<transition><source ref="a"/><target ref="b"/><label kind="assignment">done = 1</label></transition>
</template>
<system>system P;</system>
<queries><query><formula>E&lt;&gt; P.end and done == 1</formula><comment>ends</comment></query></queries></nta>"#;
    let imported = import_xml(text);
    assert_eq!(imported.warnings.len(), 1, "{:?}", imported.warnings);
    assert_eq!(imported.warnings[0].line, 2);
    assert!(imported.warnings[0].message.contains("without a name"));
    assert_eq!(
        verdicts(&imported),
        vec![("ends".to_string(), Verdict::Holds)]
    );
}

#[test]
fn reference_parameters_bound_to_array_elements_and_clocks() {
    // `P(const id_t i) = T(v[i], c[i])`: each `P(i)` writes `v[i]` and
    // resets and bounds the clock `c[i]` through its references.
    // In `wait` (invariant y <= 3) a process resets its clock after 1 time
    // unit at the earliest and goes on to `done` 2 units later, setting x.
    let text = r#"<nta><declaration>typedef int[0,1] id_t;
int[0,1] v[id_t];
clock c[id_t];</declaration>
<template><name>T</name><parameter>int[0,1] &amp;x, clock &amp;y</parameter>
<location id="a"><name>wait</name><label kind="invariant">y &lt;= 3</label></location>
<location id="b"><name>mid</name></location>
<location id="d"><name>done</name></location>
<init ref="a"/>
<transition><source ref="a"/><target ref="b"/>
  <label kind="guard">y &gt;= 1</label><label kind="assignment">y = 0</label></transition>
<transition><source ref="b"/><target ref="d"/>
  <label kind="guard">y &gt;= 2</label><label kind="assignment">x = 1</label></transition>
</template>
<system>P(const id_t i) = T(v[i], c[i]);
system P;</system>
<queries>
<query><formula>E&lt;&gt; P(0).mid and c[0] &lt; 1 and c[1] &gt;= 1</formula><comment>own_clock_reset</comment></query>
<query><formula>A[] P(1).wait imply c[1] &lt;= 3</formula><comment>own_clock_bounded</comment></query>
<query><formula>E&lt;&gt; v[1] == 1 and v[0] == 0</formula><comment>own_variable_set</comment></query>
<query><formula>E&lt;&gt; P(0).done and v[0] == 0</formula><comment>done_without_v0</comment></query>
</queries></nta>"#;
    let imported = import_xml(text);
    assert!(imported.warnings.is_empty(), "{:?}", imported.warnings);
    // P(0) resets c[0] at time 1 while P(1) waits (c[1] = 1); P(1)'s
    // invariant bounds c[1], not c[0]; P(1) can finish while P(0) idles in
    // `mid`; reaching `done` sets v[0] on the way.
    assert_eq!(
        verdicts(&imported),
        vec![
            ("own_clock_reset".to_string(), Verdict::Holds),
            ("own_clock_bounded".to_string(), Verdict::Holds),
            ("own_variable_set".to_string(), Verdict::Holds),
            ("done_without_v0".to_string(), Verdict::Fails),
        ]
    );
}

#[test]
fn reference_parameter_bound_to_a_variable_index_is_located() {
    // A reference names one place for the whole run: `v[k]` with a variable
    // `k` is rejected on the argument, and so is a clock bound to `int &x`.
    let text = "int[0,1] k;\nint v[2];\nclock c;\n\
                template T(int &x) { init location l; }\n\
                P1 = T(v[k]);\nP2 = T(c);\nsystem P1, P2;\n";
    let analysis = zeno::semantics::analyze(text);
    let errors: Vec<_> = analysis
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert_eq!(errors.len(), 2, "{errors:?}");
    let first = text.find("v[k]").unwrap();
    assert_eq!(errors[0].range.start as usize, first, "{errors:?}");
    assert!(
        errors[0].message.contains("constant indices"),
        "{}",
        errors[0].message
    );
    let second = text.find("T(c)").unwrap() + 2;
    assert_eq!(errors[1].range.start as usize, second, "{errors:?}");
    assert!(errors[1].message.contains("clock"), "{}", errors[1].message);
}

#[test]
fn clock_comparisons_under_or_and_not_in_guards() {
    // `x` is never reset and `mid`, `eq` are committed dead ends, so `x`
    // there is the time the edge was taken. `start` (x <= 5) is left for
    // `mid` when x < 2 or x > 4, and for `eq` when not (x < 3 or x > 3),
    // that is at x == 3 exactly.
    let text = r#"<nta><declaration>clock x;</declaration>
<template><name>P</name>
<location id="s"><name>start</name><label kind="invariant">x &lt;= 5</label></location>
<location id="m"><name>mid</name><committed/></location>
<location id="e"><name>eq</name><committed/></location>
<init ref="s"/>
<transition><source ref="s"/><target ref="m"/>
  <label kind="guard">x &lt; 2 || x &gt; 4</label></transition>
<transition><source ref="s"/><target ref="e"/>
  <label kind="guard">not (x &lt; 3 or x &gt; 3)</label></transition>
</template>
<system>system P;</system>
<queries>
<query><formula>E&lt;&gt; P.mid and x &lt; 2</formula><comment>mid_early</comment></query>
<query><formula>E&lt;&gt; P.mid and x &gt; 4</formula><comment>mid_late</comment></query>
<query><formula>E&lt;&gt; P.mid and x &gt;= 2 and x &lt;= 4</formula><comment>mid_between</comment></query>
<query><formula>E&lt;&gt; P.eq</formula><comment>eq_reached</comment></query>
<query><formula>E&lt;&gt; P.eq and x &lt; 3</formula><comment>eq_before_3</comment></query>
<query><formula>E&lt;&gt; P.eq and x &gt; 3</formula><comment>eq_after_3</comment></query>
</queries></nta>"#;
    let imported = import_xml(text);
    assert!(imported.warnings.is_empty(), "{:?}", imported.warnings);
    assert_eq!(
        verdicts(&imported),
        vec![
            ("mid_early".to_string(), Verdict::Holds),
            ("mid_late".to_string(), Verdict::Holds),
            ("mid_between".to_string(), Verdict::Fails),
            ("eq_reached".to_string(), Verdict::Holds),
            ("eq_before_3".to_string(), Verdict::Fails),
            ("eq_after_3".to_string(), Verdict::Fails),
        ]
    );
}

#[test]
fn negated_data_and_clock_guard_as_uppaal_reads_not() {
    // UPPAAL 5's `not` is `!`: `not open && x == 8` is `(not open) && x == 8`,
    // so with `open` false the edge is enabled at 8 only, never before
    // (UPPAAL 4.0 read `not (open && x == 8)`, enabled at any time).
    let text = r#"<nta><declaration>bool open = false; clock x;</declaration>
<template><name>W</name>
<location id="a"><name>work</name><label kind="invariant">x &lt;= 8</label></location>
<location id="b"><name>left</name><committed/></location>
<init ref="a"/>
<transition><source ref="a"/><target ref="b"/>
  <label kind="guard">not open &amp;&amp; x == 8</label></transition>
</template>
<system>system W;</system>
<queries>
<query><formula>E&lt;&gt; W.left and x &lt; 8</formula><comment>leaves_early</comment></query>
<query><formula>E&lt;&gt; W.left and x == 8</formula><comment>leaves_at_8</comment></query>
</queries></nta>"#;
    assert_eq!(
        verdicts(&import_xml(text)),
        vec![
            ("leaves_early".to_string(), Verdict::Fails),
            ("leaves_at_8".to_string(), Verdict::Holds),
        ]
    );
}

#[test]
fn word_operators_bind_as_uppaal_5_reads_them() {
    // UPPAAL 5: `not` binds as `!`, `and` as `&&`, `or` and `imply` as `||`
    // (all tighter than `?:`). Each guard is worked out both ways with
    // a = 0, b = 2, t = true, f = false; the edge is taken iff it holds.
    let cases = [
        // (!a) == b: 1 == 2, false (4.0: !(a == b), true)
        ("not a == b", Verdict::Fails),
        // (!t) && f: false (4.0: !(t && f), true)
        ("not t && f", Verdict::Fails),
        // (f && t) || t: true (4.0: f and (t || t), false)
        ("f and t || t", Verdict::Holds),
        // t ? f : (f || t): f, false (4.0: (t ? f : f) or t, true)
        ("t ? f : f or t", Verdict::Fails),
        // (f imply t) ? f : t: f, false (4.0: f imply (t ? f : t), true)
        ("f imply t ? f : t", Verdict::Fails),
    ];
    for (guard, expected) in cases {
        let text = one_edge(
            "int a = 0, b = 2; bool t = true, f = false;",
            &[("guard", guard)],
            &[("E<> P.B", "taken")],
        );
        assert_eq!(
            verdicts(&import_xml(&text)),
            vec![("taken".to_string(), expected)],
            "{guard}"
        );
    }
}

#[test]
fn clock_disjunction_in_an_invariant_is_located() {
    // A zone cannot hold `x <= 2 || x >= 5` as an invariant (it is not
    // convex): still an error, on the comparison under `||`.
    let text =
        "clock x;\ntemplate P() { init location l invariant x <= 2 || x >= 5; }\nsystem P;\n";
    let analysis = zeno::semantics::analyze(text);
    let errors: Vec<_> = analysis
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert!(!errors.is_empty(), "{:?}", analysis.diagnostics);
    let inv = text.find("x <= 2").unwrap();
    let end = text.find("; }").unwrap();
    assert!(
        errors
            .iter()
            .all(|e| (inv..end).contains(&(e.range.start as usize))),
        "{errors:?}"
    );
}

#[test]
fn lsc_template_is_left_out_with_a_warning() {
    // UPPAAL 4.1's editor saves an empty live sequence chart in many demos;
    // the system does not list it, so the checks are those of `P` alone.
    let text = r#"<nta><declaration>int[0,1] done;</declaration>
<template><name>P</name>
<location id="a"><name>start</name></location>
<location id="b"><name>end</name></location>
<init ref="a"/>
<transition><source ref="a"/><target ref="b"/><label kind="assignment">done = 1</label></transition>
</template>
<lsc><name>LscTemplate</name><type>Universal</type><mode>Invariant</mode>
<instance id="i0"><name>Instance</name></instance></lsc>
<system>system P;</system>
<queries><query><formula>E&lt;&gt; P.end and done == 1</formula><comment>ends</comment></query></queries></nta>"#;
    let imported = import_xml(text);
    assert_eq!(imported.warnings.len(), 1, "{:?}", imported.warnings);
    assert_eq!(imported.warnings[0].line, 8);
    assert!(imported.warnings[0].message.contains("LSC"));
    assert_eq!(
        verdicts(&imported),
        vec![("ends".to_string(), Verdict::Holds)]
    );
}

#[test]
fn unknown_elements_are_left_out_with_a_warning_each() {
    // A newer version's or another tool's elements: each said where it
    // stands; drawing elements (`<nail>`) and `<imports>` are known. The
    // model itself is `P` alone, which reaches `end`.
    let text = r#"<nta><declaration>int[0,1] done;</declaration>
<template><name>P</name><gadget/>
<location id="a"><name>start</name><colour/></location>
<location id="b"><name>end</name></location>
<init ref="a"/>
<transition><source ref="a"/><target ref="b"/><nail x="1" y="2"/><label kind="assignment">done = 1</label><widget/></transition>
</template>
<imports></imports>
<extension>anything</extension>
<system>system P;</system>
<queries><query><formula>E&lt;&gt; P.end and done == 1</formula><comment>ends</comment></query></queries></nta>"#;
    let imported = import_xml(text);
    let found: Vec<(u32, &str)> = imported
        .warnings
        .iter()
        .map(|w| (w.line, w.message.as_str()))
        .collect();
    assert_eq!(
        found,
        vec![
            (
                2,
                "element `<gadget>` in a template is not one zeno knows; left out"
            ),
            (
                3,
                "element `<colour>` in a location is not one zeno knows; left out"
            ),
            (
                6,
                "element `<widget>` in a transition is not one zeno knows; left out"
            ),
            (
                9,
                "element `<extension>` in <nta> is not one zeno knows; left out"
            ),
        ]
    );
    assert_eq!(
        verdicts(&imported),
        vec![("ends".to_string(), Verdict::Holds)]
    );
}

#[test]
fn locals_of_a_declared_type_are_read_in_functions() {
    // `push` declares a local of the record type `msg_t` (and one of the
    // range type `id_t`), fills it and stores it: after the one edge,
    // box.id == 1 and box.urgent holds.
    let text = r#"<nta><declaration>typedef int[0,2] id_t;
typedef struct { id_t id; bool urgent; } msg_t;
msg_t box;
void push(id_t i) { msg_t m; id_t j = i; m.id = j; m.urgent = true; box = m; }
</declaration>
<template><name>P</name><location id="a"><name>idle</name></location>
<location id="b"><name>sent</name></location><init ref="a"/>
<transition><source ref="a"/><target ref="b"/><label kind="assignment">push(1)</label></transition>
</template>
<system>system P;</system>
<queries><query><formula>E&lt;&gt; P.sent and box.id == 1 and box.urgent</formula></query>
<query><formula>E&lt;&gt; box.id == 2</formula></query></queries></nta>"#;
    assert_eq!(
        verdicts(&import_xml(text)),
        vec![
            ("q1".to_string(), Verdict::Holds),
            ("q2".to_string(), Verdict::Fails),
        ]
    );
}

#[test]
fn value_parameters_written_by_the_template_are_process_variables() {
    // UPPAAL's `int v` parameter (not `const`, not `&`) is a variable of
    // each process, starting at the argument. `T` counts `v` up while
    // `v < 5`, once on an update and once in a local function. `P1 = T(0, 3)`
    // goes 3 -> 4 -> 5 and stops: `v == 5` is reached, 6 is not, and `v`
    // never leaves [3, 5]. `P2 = T(1, 10)` never passes the guard, so its
    // `v` stays 10. `id` is only read (a channel index) and stays a
    // constant; `P1` and `P2` only share `done[0]`/`done[1]`, no one
    // receives, so `done` never fires.
    let text = r#"<nta><declaration>chan done[2];</declaration>
<template><name>T</name><parameter>int[0,1] id, int v</parameter>
<declaration>void inc() { v++; }</declaration>
<location id="a"><name>count</name></location>
<location id="b"><name>over</name></location>
<init ref="a"/>
<transition><source ref="a"/><target ref="a"/>
  <label kind="guard">v &lt; 5</label><label kind="assignment">v = v + 1</label></transition>
<transition><source ref="a"/><target ref="a"/>
  <label kind="guard">v &lt; 5</label><label kind="assignment">inc()</label></transition>
<transition><source ref="a"/><target ref="b"/>
  <label kind="synchronisation">done[id]!</label></transition>
</template>
<system>P1 = T(0, 3);
P2 = T(1, 10);
system P1, P2;</system>
<queries>
<query><formula>E&lt;&gt; P1.v == 5</formula><comment>reaches_five</comment></query>
<query><formula>E&lt;&gt; P1.v == 6</formula><comment>passes_five</comment></query>
<query><formula>A[] P1.v &gt;= 3 &amp;&amp; P1.v &lt;= 5 &amp;&amp; P2.v == 10</formula><comment>bounds</comment></query>
<query><formula>E&lt;&gt; P1.over</formula><comment>sent</comment></query>
</queries></nta>"#;
    let imported = import_xml(text);
    assert!(
        imported
            .zeno
            .contains("template T(const int[0, 1] id, const int v_arg)"),
        "{}",
        imported.zeno
    );
    assert_eq!(
        verdicts(&imported),
        vec![
            ("reaches_five".to_string(), Verdict::Holds),
            ("passes_five".to_string(), Verdict::Fails),
            ("bounds".to_string(), Verdict::Holds),
            ("sent".to_string(), Verdict::Fails),
        ]
    );
}

#[test]
fn formulas_that_are_only_comments_are_no_queries() {
    // Files made from `.q` files keep the `.q` comments as formulas of
    // their own; UPPAAL verifies nothing for them, and they are not
    // unsupported queries. The one real query: `P` goes `start -> end`
    // unguarded, so `end` is reachable.
    let text = r#"<nta><declaration>int[0,1] done;</declaration>
<template><name>P</name>
<location id="a"><name>start</name></location>
<location id="b"><name>end</name></location>
<init ref="a"/>
<transition><source ref="a"/><target ref="b"/><label kind="assignment">done = 1</label></transition>
</template>
<system>system P;</system>
<queries>
<query><formula>//This is a comment</formula><comment/></query>
<query><formula>/* a block
   comment */ </formula></query>
<query><formula>E&lt;&gt; P.end and done == 1</formula><comment>ends</comment></query>
</queries></nta>"#;
    let imported = import_xml(text);
    assert!(imported.warnings.is_empty(), "{:?}", imported.warnings);
    assert_eq!(
        verdicts(&imported),
        vec![("ends".to_string(), Verdict::Holds)]
    );
}

#[test]
fn two_clocks_compared_without_a_difference() {
    // UPPAAL reads `y <= g` as `y - g <= 0`. `g` and `P`'s `x` are never
    // reset, so they are always equal; `y` is reset on `s -> t`, taken at
    // `x >= 2` (so `g >= 2` then), after which `y < g` for ever. At `s`,
    // `y == g`, so the guard `y <= g` holds: `t` is reachable, `g < P.y`
    // never holds, and `P.y < g` holds at `t`. Under `||` and `!` too:
    // `t -> u` needs `!(y >= g)`, true at `t`, so `u` is reachable;
    // `s -> never` needs `y < g || y > 5`, false at `s` (`y == g`, and
    // `y <= 3` by the invariant), so `never` is not.
    let text = r#"<nta><declaration>clock g;</declaration>
<template><name>P</name><declaration>clock x, y;</declaration>
<location id="a"><name>s</name><label kind="invariant">x &lt;= 3</label></location>
<location id="b"><name>t</name></location>
<location id="c"><name>u</name></location>
<location id="d"><name>never</name></location>
<init ref="a"/>
<transition><source ref="a"/><target ref="b"/>
  <label kind="guard">x &gt;= 2 &amp;&amp; y &lt;= g</label><label kind="assignment">y = 0</label></transition>
<transition><source ref="b"/><target ref="c"/><label kind="guard">!(y &gt;= g)</label></transition>
<transition><source ref="a"/><target ref="d"/><label kind="guard">y &lt; g || y &gt; 5</label></transition>
</template>
<system>system P;</system>
<queries>
<query><formula>A[] P.x == g</formula><comment>equal</comment></query>
<query><formula>E&lt;&gt; P.t</formula><comment>reaches_t</comment></query>
<query><formula>E&lt;&gt; P.t and g &lt; P.y</formula><comment>y_above</comment></query>
<query><formula>A[] P.t imply P.y &lt; g</formula><comment>y_below</comment></query>
<query><formula>E&lt;&gt; P.u</formula><comment>reaches_u</comment></query>
<query><formula>E&lt;&gt; P.never</formula><comment>reaches_never</comment></query>
</queries></nta>"#;
    let imported = import_xml(text);
    assert!(imported.warnings.is_empty(), "{:?}", imported.warnings);
    assert_eq!(
        verdicts(&imported),
        vec![
            ("equal".to_string(), Verdict::Holds),
            ("reaches_t".to_string(), Verdict::Holds),
            ("y_above".to_string(), Verdict::Fails),
            ("y_below".to_string(), Verdict::Holds),
            ("reaches_u".to_string(), Verdict::Holds),
            ("reaches_never".to_string(), Verdict::Fails),
        ]
    );
}

#[test]
fn clock_resets_under_if_in_loops_and_to_variable_values() {
    // The idiom of tests/it/clock_resets.rs as UPPAAL writes it. From `S`
    // the start picks `active[1]`, `cur` and `d`; `A -> B` at x[0] >= 1
    // resets x[0] (always active), maybe x[1], then x[cur], then sets x[1]
    // to d (the last reset wins): at B, x[0] == 0, x[1] == d, y >= 1.
    // `B -> C` at y >= 1 resets y only when d > 1, and x[1] always.
    let text = r#"<nta><declaration>const int N = 2;
typedef int[0, N - 1] id_t;
clock x[N], y;
bool active[N] = { true, false };
int[0, 1] cur;
int[0, 3] d;
void reset_active() { for (i : id_t) if (active[i]) x[i] = 0; }
void start(id_t j) { if (d &gt; 1) y = 0; x[j] = 0; }</declaration>
<template><name>P</name>
<location id="s"><name>S</name></location>
<location id="a"><name>A</name></location>
<location id="b"><name>B</name></location>
<location id="c"><name>C</name></location>
<init ref="s"/>
<transition><source ref="s"/><target ref="a"/>
  <label kind="select">p : int[0,1], q : int[0,1], v : int[0,3]</label>
  <label kind="assignment">active[1] = (p == 1), cur = q, d = v</label></transition>
<transition><source ref="a"/><target ref="b"/>
  <label kind="guard">x[0] &gt;= 1</label>
  <label kind="assignment">reset_active(), x[cur] = 0, x[1] = d</label></transition>
<transition><source ref="b"/><target ref="c"/>
  <label kind="guard">y &gt;= 1</label>
  <label kind="assignment">start(1)</label></transition>
</template>
<system>system P;</system>
<queries>
<query><formula>E&lt;&gt; P.B &amp;&amp; x[1] == 2 &amp;&amp; x[0] == 0</formula><comment>d_wins</comment></query>
<query><formula>E&lt;&gt; P.B &amp;&amp; y &lt; 1</formula><comment>y_kept</comment></query>
<query><formula>E&lt;&gt; P.C &amp;&amp; d == 3 &amp;&amp; y - x[1] &gt; 0</formula><comment>fast</comment></query>
<query><formula>E&lt;&gt; P.C &amp;&amp; d == 1 &amp;&amp; y - x[1] &gt;= 1</formula><comment>slow</comment></query>
</queries></nta>"#;
    let imported = import_xml(text);
    assert!(imported.warnings.is_empty(), "{:?}", imported.warnings);
    // fast: y and x[1] reset together, y - x[1] == 0. slow: y >= 1 when
    // x[1] alone is reset.
    assert_eq!(
        verdicts(&imported),
        vec![
            ("d_wins".to_string(), Verdict::Holds),
            ("y_kept".to_string(), Verdict::Fails),
            ("fast".to_string(), Verdict::Fails),
            ("slow".to_string(), Verdict::Holds),
        ]
    );
}

#[test]
fn functions_returning_records_and_arrays_and_powers() {
    // `make` returns a record, `pair` an array initialised from a list of
    // expressions; `**` appears in a constant and in an update. By hand:
    // the guard holds (make(2).ok, pair(1) = {1, 2}); the update stores
    // make(2 ** 3 - 1) = {7, true} at q[0], sets len = 1 and
    // sq = pair(2)[1] ** 2 = 3 ** 2 = 9. q[1] is never written.
    let text = r#"<nta><declaration>const int K = 2 ** 3;
typedef struct { int[0,9] id; bool ok; } msg_t;
typedef int[0,3] row_t[2];
msg_t q[2];
int[0,2] len;
msg_t make(int id) { msg_t m; m.id = id; m.ok = true; return m; }
row_t pair(int a) { row_t r = {a, a + 1}; return r; }
int[0,99] sq;
</declaration>
<template><name>T</name>
<location id="a"><name>s</name></location>
<location id="b"><name>t</name></location>
<init ref="a"/>
<transition><source ref="a"/><target ref="b"/>
  <label kind="guard">make(2).ok &amp;&amp; pair(1)[1] == 2</label>
  <label kind="assignment">q[len] = make(K - 1), len++, sq = pair(2)[1] ** 2</label></transition>
</template>
<system>system T;</system>
<queries>
<query><formula>E&lt;&gt; T.t and q[0].id == 7 and q[0].ok and len == 1 and sq == 9</formula><comment>pushed</comment></query>
<query><formula>E&lt;&gt; q[1].ok</formula><comment>second</comment></query>
</queries></nta>"#;
    assert_eq!(
        verdicts(&import_xml(text)),
        vec![
            ("pushed".to_string(), Verdict::Holds),
            ("second".to_string(), Verdict::Fails),
        ]
    );
}

/// One template `P` going `A -> B` once, with `labels` on the edge, under
/// the global `decl`, with the queries `queries` (formula, name).
fn one_edge(decl: &str, labels: &[(&str, &str)], queries: &[(&str, &str)]) -> String {
    let esc = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    let labels: String = labels
        .iter()
        .map(|(k, v)| format!(r#"<label kind="{k}">{}</label>"#, esc(v)))
        .collect();
    let queries: String = queries
        .iter()
        .map(|(f, n)| {
            format!(
                "<query><formula>{}</formula><comment>{n}</comment></query>",
                esc(f)
            )
        })
        .collect();
    format!(
        r#"<nta><declaration>{}</declaration><template><name>P</name>
<location id="a"><name>A</name></location><location id="b"><name>B</name></location>
<init ref="a"/><transition><source ref="a"/><target ref="b"/>{labels}</transition></template>
<system>system P;</system><queries>{queries}</queries></nta>"#,
        esc(decl)
    )
}

#[test]
fn uppaal5_abs_and_xor() {
    // UPPAAL 5's built-in `abs` and logical `xor` (same level as `or`).
    // x = -3: abs(x) == 3 and `a xor b` (true, false) hold, so P takes the
    // edge and sets x to abs(x - 4) = 7; `x > 0 xor x < 10` is false when
    // both hold (x == 7), `a xor a` is always false.
    let text = one_edge(
        "int x = -3; bool a = true, b = false;",
        &[
            ("guard", "abs(x) == 3 && (a xor b)"),
            ("assignment", "x = abs(x - 4)"),
        ],
        &[
            ("E<> P.B && x == 7", "reach"),
            ("E<> P.B && (x > 0 xor x < 10)", "both"),
            ("E<> a xor a", "self"),
        ],
    );
    let imported = import_xml(&text);
    assert_eq!(
        verdicts(&imported),
        vec![
            ("reach".to_string(), Verdict::Holds),
            ("both".to_string(), Verdict::Fails),
            ("self".to_string(), Verdict::Fails),
        ]
    );
    // The operand is written twice: one with effects is refused, located.
    let text = one_edge("int x;", &[("assignment", "x = abs(x++)")], &[]);
    let err = import("model.xml", &text, &ImportOptions::default()).expect_err("effects");
    assert!(err[0].message.contains("`abs`"), "{err:?}");
    assert_eq!(err[0].line, 3, "{err:?}");
}

#[test]
fn a_model_defining_abs_keeps_its_own() {
    // UPPAAL 4 had no built-in `abs`: a model's own function of that name
    // is the one called (here a deliberately different one, +100).
    let text = one_edge(
        "int x; int abs(int v) { return v + 100; }",
        &[("guard", "abs(2) == 102"), ("assignment", "x = abs(-1)")],
        &[("E<> P.B && x == 99", "own")],
    );
    let imported = import_xml(&text);
    assert_eq!(
        verdicts(&imported),
        vec![("own".to_string(), Verdict::Holds)]
    );
    // Another import on the same thread has the built-in again.
    let text = one_edge(
        "int x = -5;",
        &[("guard", "abs(x) == 5")],
        &[("E<> P.B", "b")],
    );
    assert_eq!(
        verdicts(&import_xml(&text)),
        vec![("b".to_string(), Verdict::Holds)]
    );
}

#[test]
fn value_parameters_passed_to_reference_parameters_are_process_variables() {
    // `v` is passed to `bump(int &x)`, which writes it: like `v++`, it makes
    // `v` a variable of the process, starting at the argument 6. `w` only
    // goes to a `const` reference and stays a constant. By hand: `bump`
    // runs while v < 2 ** 3 = 8, so v goes 6 -> 7 -> 8 (two steps) and
    // stops: 8 is reached, 9 is not, v stays in [6, 8].
    let text = r#"<nta><declaration>const int K = 2 ** 3;
void bump(int &amp;x) { x++; }
int peek(const int &amp;x) { return x; }
</declaration>
<template><name>T</name><parameter>int v, int w</parameter>
<location id="a"><name>count</name></location>
<init ref="a"/>
<transition><source ref="a"/><target ref="a"/>
  <label kind="guard">v &lt; K &amp;&amp; peek(w) == 1</label><label kind="assignment">bump(v)</label></transition>
</template>
<system>P1 = T(6, 1);
system P1;</system>
<queries>
<query><formula>E&lt;&gt; P1.v == 8</formula><comment>reaches_eight</comment></query>
<query><formula>E&lt;&gt; P1.v == 9</formula><comment>passes</comment></query>
<query><formula>A[] P1.v &gt;= 6 &amp;&amp; P1.v &lt;= 8</formula><comment>bounds</comment></query>
</queries></nta>"#;
    let imported = import_xml(text);
    assert!(
        imported
            .zeno
            .contains("template T(const int v_arg, const int w)"),
        "{}",
        imported.zeno
    );
    assert_eq!(
        verdicts(&imported),
        vec![
            ("reaches_eight".to_string(), Verdict::Holds),
            ("passes".to_string(), Verdict::Fails),
            ("bounds".to_string(), Verdict::Holds),
        ]
    );
}

#[test]
fn statements_zeno_lacks_are_named() {
    for (body, what) in [
        ("for (i = 0; i < 3; i++) { if (i == 1) break; }", "`break`"),
        ("while (i < 3) { i++; continue; }", "`continue`"),
        ("switch (i) { case 0: i = 1; }", "`switch`"),
        ("assert(i == 0);", "`assert`"),
    ] {
        let text = one_edge(
            &format!("int i;\nvoid f() {{ {body} }}"),
            &[("assignment", "f()")],
            &[],
        );
        let err = import("model.xml", &text, &ImportOptions::default()).expect_err(body);
        assert!(
            err[0].message.contains(what) && err[0].message.contains("not supported"),
            "{body}: {err:?}"
        );
        assert_eq!(err[0].line, 2, "{body}: {err:?}");
    }
}

#[test]
fn constant_overflow_in_an_array_size_is_an_error_not_a_panic() {
    for size in [
        "-(-9223372036854775807 - 1)",
        "(-9223372036854775807 - 1) / -1",
        "(-9223372036854775807 - 1) % -1",
    ] {
        let text = one_edge(&format!("const int K = {size}; int a[K];"), &[], &[]);
        // Imported or not, the model is refused: by zeno's analysis, as a
        // constant outside the 32-bit integers.
        match import("model.xml", &text, &ImportOptions::default()) {
            Err(err) => assert!(!err.is_empty()),
            Ok(imported) => {
                let analysis = zeno::semantics::analyze(&imported.zeno);
                assert!(
                    analysis
                        .diagnostics
                        .iter()
                        .any(|d| d.severity == Severity::Error),
                    "{size}"
                );
            }
        }
    }
}

#[test]
fn a_byte_order_mark_starts_any_format() {
    let bom = '\u{feff}';
    let xta = format!(
        "{bom}int x;\nprocess P() {{ state A, B; init A; trans A -> B {{ assign x = 1; }}; }}\nsystem P;\n"
    );
    let tck = format!("{bom}system:s\nprocess:P\nlocation:P:A{{initial:}}\n");
    let xml = format!("{bom}{}", one_edge("int x;", &[], &[("E<> P.B", "b")]));
    for (name, text) in [("m.xta", &xta), ("m.tck", &tck), ("m.xml", &xml)] {
        let imported = import(name, text, &ImportOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert!(imported.zeno.contains("template P"), "{name}");
    }
    assert_eq!(
        verdicts(&import_xml(&xml)),
        vec![("b".to_string(), Verdict::Holds)]
    );
}

#[test]
fn a_long_chain_of_operators_is_an_error_not_a_stack_overflow() {
    // 100,000 terms build a tree as deep as the chain: refused, located,
    // like 10,000 parentheses. 150 terms are read (and add up to 150).
    let sum = |n: usize| vec!["1"; n].join(" + ");
    let xta = |n: usize| {
        format!(
            "int x = {};\nprocess P() {{ state A; init A; }}\nsystem P;\n",
            sum(n)
        )
    };
    let err = import("m.xta", &xta(100_000), &ImportOptions::default()).expect_err("too deep");
    assert!(err[0].message.contains("nested more than 200"), "{err:?}");
    assert_eq!(err[0].line, 1);
    let imported = import("m.xta", &xta(150), &ImportOptions::default()).expect("150 terms");
    let text = format!("{}\ncheck total: A[] x == 150;\n", imported.zeno);
    crate::support::every_order(&text, &[Verdict::Holds]);
}

#[test]
fn a_field_initialised_by_name_is_a_located_error() {
    // UPPAAL's grammar has `{ a: 5, b: true }`; zeno's lists are positional.
    let text = one_edge(
        "typedef struct { int a; bool b; } r_t;\nr_t r = { a: 5, b: true };",
        &[],
        &[],
    );
    let err = import("model.xml", &text, &ImportOptions::default()).expect_err("named");
    assert!(err[0].message.contains("by name"), "{err:?}");
    assert_eq!((err[0].line, err[0].col), (2, 11), "{err:?}");
}

#[test]
fn a_second_init_or_a_repeated_location_id_is_an_error() {
    // Either would leave zeno to pick one location silently.
    let locations =
        r#"<location id="a"><name>A</name></location><location id="b"><name>B</name></location>"#;
    for (body, message) in [
        (
            format!(r#"{locations}<init ref="a"/><init ref="b"/>"#),
            "second `<init>`",
        ),
        (
            r#"<location id="a"><name>A</name></location><location id="a"><name>B</name></location><init ref="a"/>"#
                .to_string(),
            "second location with the id `a`",
        ),
    ] {
        let text = format!(
            "<nta><declaration>int x;</declaration><template><name>P</name>{body}</template><system>system P;</system></nta>"
        );
        let err = import("model.xml", &text, &ImportOptions::default()).expect_err(message);
        assert!(err[0].message.contains(message), "{err:?}");
    }
}

#[test]
fn an_array_of_unstated_size_takes_its_lists_length() {
    // UPPAAL 5: `int a[] = { … }`. a has 3 elements and b 2 rows of 2, so
    // a[2] + b[1][1] == 3 + 4 holds at B; a[3] would be out of range.
    let text = one_edge(
        "int a[] = {1, 2, 3};\nconst int b[][2] = {{1, 2}, {3, 4}};",
        &[("guard", "a[2] + b[1][1] == 7")],
        &[("E<> P.B", "reach")],
    );
    let imported = import_xml(&text);
    assert!(
        imported.zeno.contains("int a[3] = { 1, 2, 3 };"),
        "{}",
        imported.zeno
    );
    assert!(imported.zeno.contains("b[2][2]"), "{}", imported.zeno);
    assert_eq!(
        verdicts(&imported),
        vec![("reach".to_string(), Verdict::Holds)]
    );
    let text = one_edge("int a[];", &[], &[]);
    let err = import("model.xml", &text, &ImportOptions::default()).expect_err("no list");
    assert!(err[0].message.contains("unstated size"), "{err:?}");
}

#[test]
fn instantiations_may_stand_among_the_global_declarations() {
    // UPPAAL's grammar allows `Q = P(2);` in `<declaration>`; Q sets x to 2.
    let text = r#"<nta><declaration>int x;
Q = P(2);</declaration><template><name>P</name><parameter>const int k</parameter>
<location id="a"><name>A</name></location><location id="b"><name>B</name></location><init ref="a"/>
<transition><source ref="a"/><target ref="b"/><label kind="assignment">x = k</label></transition></template>
<system>system Q;</system><queries><query><formula>E&lt;&gt; Q.B &amp;&amp; x == 2</formula><comment>two</comment></query></queries></nta>"#;
    assert_eq!(
        verdicts(&import_xml(text)),
        vec![("two".to_string(), Verdict::Holds)]
    );
}

#[test]
fn uncontrollable_edges_are_edges() {
    // UPPAAL TIGA writes the environment's edges `A -u-> B` in XTA (and
    // `controllable="false"` in XML); reachability does not tell them apart.
    let xta = "int x;\nprocess P() { state A, B, C; init A;\n\
               trans A -u-> B { assign x = 1; }, -u-> C { assign x = 2; }, B -> C {}; }\nsystem P;\n";
    let imported = import("m.xta", xta, &ImportOptions::default()).expect("imported");
    assert!(imported.warnings.is_empty(), "{:?}", imported.warnings);
    // x is 2 only by A -> C; by A -> B -> C it stays 1.
    let text = format!(
        "{}\ncheck direct: E<> P.C && x == 2;\ncheck via_b: E<> P.C && x == 1;\ncheck three: E<> x == 3;\n",
        imported.zeno
    );
    crate::support::every_order(&text, &[Verdict::Holds, Verdict::Holds, Verdict::Fails]);
}

#[test]
fn a_hexadecimal_literal_is_named_as_such() {
    // UPPAAL's lexer reads decimal integers only; say what to write.
    let text = one_edge("const int K = 0x1F;", &[], &[]);
    let err = import("model.xml", &text, &ImportOptions::default()).expect_err("hex");
    assert!(err[0].message.contains("hexadecimal"), "{err:?}");
    assert_eq!((err[0].line, err[0].col), (1, 33), "{err:?}");
}

#[test]
fn renamed_keywords_never_meet_other_names() {
    // `when` becomes `when_`, which the file also declares: that one
    // becomes `when__`. Both locations `init` and `init_` stay apart too.
    let text = r#"<nta><declaration>int when = 1; int when_ = 2;</declaration><template><name>P</name>
<location id="a"><name>init</name></location><location id="b"><name>init_</name></location><init ref="a"/>
<transition><source ref="a"/><target ref="b"/><label kind="guard">when == 1 &amp;&amp; when_ == 2</label></transition></template>
<system>system P;</system><queries>
<query><formula>E&lt;&gt; P.init_</formula><comment>reach</comment></query>
<query><formula>A[] P.init</formula><comment>stays</comment></query></queries></nta>"#;
    assert_eq!(
        verdicts(&import_xml(text)),
        vec![
            ("reach".to_string(), Verdict::Holds),
            ("stays".to_string(), Verdict::Fails),
        ]
    );
}

#[test]
fn declarations_zeno_lacks_are_named() {
    for (decl, what) in [
        ("before_update { x = 0 }", "`before_update`"),
        ("after_update { x = 1 }", "`after_update`"),
        ("dynamic Child(int a);", "dynamic template"),
    ] {
        let text = one_edge(&format!("int x;\n{decl}\nint y;"), &[], &[]);
        let err = import("model.xml", &text, &ImportOptions::default()).expect_err(decl);
        assert_eq!(err.len(), 1, "{decl}: {err:?}");
        assert!(
            err[0].message.contains(what) && err[0].message.contains("not supported"),
            "{decl}: {err:?}"
        );
        assert_eq!((err[0].line, err[0].col), (2, 1), "{decl}: {err:?}");
    }
}

#[test]
fn queries_with_the_same_comment_are_all_checked() {
    // Real files often give several queries the same one-word comment
    // (`holds`), or a comment that is another query's default name (`q3`
    // on the first one). Each query stays a check of its own: the first
    // `holds` keeps the name, the later ones fall back to `qN` with the
    // comment above them, and a default name a comment took gets a suffix.
    let text = format!(
        r#"<nta><declaration>int[0,1] lock;</declaration>{}
<system>P1 = P();
P2 = P();
system P1, P2;</system>
<queries>
<query><formula>E&lt;&gt; P1.busy</formula><comment>q3</comment></query>
<query><formula>A[] not (P1.busy and P2.busy)</formula><comment>holds</comment></query>
<query><formula>E&lt;&gt; P1.busy and P2.busy</formula><comment>holds</comment></query>
<query><formula>A[] not P2.busy</formula><comment>holds</comment></query>
</queries></nta>"#,
        lock_template()
    );
    let imported = import_xml(&text);
    assert!(imported.warnings.is_empty(), "{:?}", imported.warnings);
    assert!(
        imported.zeno.contains("// holds\ncheck q3_2:"),
        "{}",
        imported.zeno
    );
    // P1 takes the free lock at once; the lock keeps the two apart; P2 can
    // take it as well as P1.
    assert_eq!(
        verdicts(&imported),
        vec![
            ("q3".to_string(), Verdict::Holds),
            ("holds".to_string(), Verdict::Holds),
            ("q3_2".to_string(), Verdict::Fails),
            ("q4".to_string(), Verdict::Fails),
        ]
    );
}

#[test]
fn labels_holding_only_comments_are_no_labels() {
    // An author who comments a label out (`// lock == 1`) leaves a label
    // with no expression, which UPPAAL reads as no label at all: the
    // invariant does not bound `a`, the guard does not block, the update,
    // the select and the synchronisation do nothing.
    let text = r#"<nta><declaration>int[0,1] lock; clock x; chan c;</declaration>
<template><name>P</name>
<location id="a"><name>a</name><label kind="invariant">/* x &lt;= 2 */</label></location>
<location id="b"><name>b</name><label kind="invariant">
  // x &lt;= 1
</label></location>
<init ref="a"/>
<transition><source ref="a"/><target ref="b"/>
  <label kind="select">// i : int[0,1]</label>
  <label kind="guard">// lock == 1</label>
  <label kind="synchronisation">/* c! */</label>
  <label kind="assignment">// lock := 1</label></transition>
</template>
<system>system P;</system>
<queries>
<query><formula>E&lt;&gt; P.a and x &gt; 5</formula><comment>a_unbounded</comment></query>
<query><formula>E&lt;&gt; P.b and x &gt; 5</formula><comment>b_unguarded</comment></query>
<query><formula>A[] lock == 0</formula><comment>no_update</comment></query>
</queries></nta>"#;
    let imported = import_xml(text);
    assert!(
        imported
            .warnings
            .iter()
            .all(|w| w.message.contains("never used")),
        "{:?}",
        imported.warnings
    );
    assert_eq!(
        verdicts(&imported),
        vec![
            ("a_unbounded".to_string(), Verdict::Holds),
            ("b_unguarded".to_string(), Verdict::Holds),
            ("no_update".to_string(), Verdict::Holds),
        ]
    );
}

#[test]
fn a_second_declaration_element_continues_the_first() {
    // A file edited by hand with two global `<declaration>` elements, the
    // template's children in another order than UPPAAL writes them (name
    // last, `<target>` before `<source>`, `<init>` before the location it
    // names) and a second template `<declaration>`: nothing is lost, and
    // each repeated element is warned about. `a + b + P.c` is 1 + 2 + 3.
    let text = r#"<nta><declaration>int[0,3] a;</declaration><declaration>int[0,3] b;</declaration>
<template>
<location id="b"><name>b</name></location>
<init ref="a"/>
<transition><target ref="b"/><source ref="a"/><label kind="assignment">a = 1, b = 2, c = 3, d = 1</label></transition>
<declaration>int[0,3] c;</declaration>
<location id="a"><name>a</name></location>
<declaration>int[0,3] d;</declaration>
<name>P</name>
</template>
<system>system P;</system>
<queries><query><comment>sum6</comment><formula>E&lt;&gt; P.b &amp;&amp; a + b + P.c + P.d == 7</formula></query></queries></nta>"#;
    let imported = import_xml(text);
    let lines: Vec<u32> = imported.warnings.iter().map(|w| w.line).collect();
    assert_eq!(lines, vec![1, 8], "{:?}", imported.warnings);
    assert!(
        imported
            .warnings
            .iter()
            .all(|w| w.message.contains("continuation of the first")),
        "{:?}",
        imported.warnings
    );
    assert_eq!(
        verdicts(&imported),
        vec![("sum6".to_string(), Verdict::Holds)]
    );
}

#[test]
fn a_file_as_the_uppaal_5_gui_saves_it() {
    // `tests/data/import/gui5.xml`: prolog and DOCTYPE, tab indentation,
    // coordinates, a comment label, nails, `&#13;` inside an update, a
    // CDATA label, attributes in another order, `controllable="false"`, and
    // UPPAAL 5's queries with options, results, plots and empty or
    // comment-only formulas. Two processes step `Idle -> Busy -> _id2 ->
    // Idle` (every 2 to 5 time units), each counting its steps in `cnt` and
    // both in `x`, all modulo 3, so `x == (Process.cnt + Other.cnt) % 3`
    // always; `done` is set once `x` reaches 2. The same file with Windows
    // line ends and a byte-order mark reads the same.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/import/gui5.xml");
    let text = std::fs::read_to_string(path).expect("fixture");
    let windows = format!("\u{feff}{}", text.replace('\n', "\r\n"));
    let mut translations = Vec::new();
    for text in [text, windows] {
        let imported = import_xml(&text);
        let skipped: Vec<&str> = imported
            .warnings
            .iter()
            .map(|w| {
                if w.message.contains("`simulate`") {
                    "simulate"
                } else if w.message.contains("`Pr`") {
                    "Pr"
                } else {
                    panic!("unexpected warning {w:?}")
                }
            })
            .collect();
        // `sup: Process.c` is a value query now, checked as `sup`.
        assert_eq!(skipped, ["simulate", "Pr"]);
        // Every declaration, global and local, is there.
        for decl in [
            "const int N = 2;",
            "typedef int[0, N - 1] id_t;",
            "chan go[N];",
            "int[0, 3] x = 0;",
            "bool done;",
            "clock c;",
            "int[0, 3] cnt;",
        ] {
            assert!(imported.zeno.contains(decl), "{decl}\n{}", imported.zeno);
        }
        assert_eq!(
            verdicts(&imported),
            vec![
                ("reach".to_string(), Verdict::Holds),
                ("q2".to_string(), Verdict::Holds),
                // Queries 3 to 5 are empty or only a comment: no checks.
                ("q6".to_string(), Verdict::Holds),
                ("busy".to_string(), Verdict::Holds),
                // `Process.cnt == 2 && Other.cnt == 0` means `x == 2`.
                ("q10".to_string(), Verdict::Fails),
                // `Busy` is urgent and `_id2` committed: back to `Idle`.
                ("q11".to_string(), Verdict::Holds),
                ("q12".to_string(), Verdict::Fails),
                ("sup".to_string(), Verdict::Holds),
            ]
        );
        translations.push(imported.zeno);
    }
    assert_eq!(translations[0], translations[1]);
}

#[test]
fn an_empty_location_name_is_no_name() {
    // `<name></name>` or a name of blanks, left where the author deleted
    // it: the location is unnamed, as in UPPAAL, and named after its id.
    let text = r#"<nta><declaration>int[0,2] n;</declaration>
<template><name>P</name>
<location id="id0"><name x="0" y="0"></name></location>
<location id="id1"><name> </name></location>
<location id="id2"><name>done</name></location>
<init ref="id0"/>
<transition><source ref="id0"/><target ref="id1"/><label kind="assignment">n = 1</label></transition>
<transition><source ref="id1"/><target ref="id2"/><label kind="guard">n == 1</label></transition>
</template>
<system>system P;</system>
<queries><query><formula>E&lt;&gt; P.done</formula><comment>reaches</comment></query></queries></nta>"#;
    let imported = import_xml(text);
    assert!(imported.warnings.is_empty(), "{:?}", imported.warnings);
    assert!(
        imported.zeno.contains("init location _id0;") && imported.zeno.contains("location _id1;"),
        "{}",
        imported.zeno
    );
    assert_eq!(
        verdicts(&imported),
        vec![("reaches".to_string(), Verdict::Holds)]
    );
}

#[test]
fn location_named_as_a_local_variable_is_an_error() {
    // UPPAAL refuses a location with the name of a local variable of its
    // template (`P.busy` in a query would be ambiguous); so does zeno.
    let text = r#"<nta><declaration></declaration>
<template><name>P</name><declaration>bool busy;</declaration>
<location id="a"><name>idle</name></location>
<location id="b"><name>busy</name></location>
<init ref="a"/>
<transition><source ref="a"/><target ref="b"/>
  <label kind="assignment">busy = true</label></transition>
</template>
<system>system P;</system>
<queries><query><formula>E&lt;&gt; P.busy</formula></query></queries></nta>"#;
    let imported = import_xml(text);
    let errors: Vec<String> = zeno::semantics::analyze(&imported.zeno)
        .diagnostics
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.message)
        .collect();
    assert_eq!(
        errors,
        ["location `busy` has the name of a parameter or variable of `P`"],
        "{}",
        imported.zeno
    );
}

#[test]
fn assignments_under_conditional_operators_are_imported() {
    // `b` is chosen on the first edge. The second runs `x = 1` or `x = 2`
    // by `b`, and `err++` only when `ok` is false (it never is, so err
    // stays 0); `f` copies row[0] or row[1] by `b` into a local array
    // whose size is the template's parameter (N = 2) and sums it: 1 + 2
    // with `b`, 3 + 4 without.
    let text = r#"<nta><declaration>int[0,3] x; int[0,3] err; int[0,9] s; bool b; bool ok = true;
typedef int[0,4] row_t[2];
row_t row[2] = {{1, 2}, {3, 4}};</declaration>
<template><name>P</name><parameter>const int N</parameter>
<declaration>void f() { int[0,4] tmp[N]; tmp = b ? row[0] : row[1]; s = tmp[0] + tmp[N - 1]; }</declaration>
<location id="a"><name>start</name></location>
<location id="m"><name>chosen</name></location>
<location id="b"><name>done</name></location>
<init ref="a"/>
<transition><source ref="a"/><target ref="m"/>
  <label kind="select">v : int[0,1]</label><label kind="assignment">b := v == 1</label></transition>
<transition><source ref="m"/><target ref="b"/>
  <label kind="assignment">b ? (x := 1) : (x := 2), ok || (err++ &gt; 0), f()</label></transition>
</template>
<system>Q = P(2);
system Q;</system>
<queries>
<query><formula>E&lt;&gt; Q.done and b and x == 1 and s == 3</formula><comment>with_b</comment></query>
<query><formula>E&lt;&gt; Q.done and not b and x == 2 and s == 7</formula><comment>without_b</comment></query>
<query><formula>E&lt;&gt; err &gt; 0 or (Q.done and x == 2 and b)</formula><comment>never</comment></query>
</queries></nta>"#;
    let imported = import_xml(text);
    assert!(imported.warnings.is_empty(), "{:?}", imported.warnings);
    assert_eq!(
        verdicts(&imported),
        vec![
            ("with_b".to_string(), Verdict::Holds),
            ("without_b".to_string(), Verdict::Holds),
            ("never".to_string(), Verdict::Fails),
        ]
    );
}
