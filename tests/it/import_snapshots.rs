//! Small hand-written UPPAAL and TChecker inputs and the zeno text they
//! become; broken inputs and their located diagnostics.

use expect_test::{Expect, expect};
use zeno::import::{ImportOptions, import, import_tchecker};

fn show(name: &str, text: &str, labels: &[&str], want: Expect) {
    let opts = ImportOptions {
        labels: labels.iter().map(|s| s.to_string()).collect(),
    };
    let out = match import(name, text, &opts) {
        Ok(imp) => {
            // Whatever the importer writes must be valid zeno syntax.
            let errors = zeno::syntax::parse(&imp.zeno).errors().to_vec();
            assert!(errors.is_empty(), "{errors:?}\n{}", imp.zeno);
            let mut s = imp.zeno;
            for w in imp.warnings {
                s.push_str(&format!("{w}\n"));
            }
            s
        }
        Err(diags) => diags.iter().map(|d| format!("{d}\n")).collect(),
    };
    want.assert_eq(&out);
}

const XML: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<nta>
<declaration>const int N = 2;
typedef int[1,N] pid_t;
int[0,N] id := 0;
urgent chan go;
bool flag[pid_t];</declaration>
<template>
<name>P</name>
<parameter>pid_t pid, int &amp;r</parameter>
<declaration>clock x;</declaration>
<location id="id0"><name>idle</name></location>
<location id="id1"><name>req</name><label kind="invariant">x &lt;= 2</label></location>
<location id="id2"><committed/></location>
<init ref="id0"/>
<transition><source ref="id0"/><target ref="id1"/>
  <label kind="guard">id == 0 and not flag[pid]</label>
  <label kind="assignment">x := 0, id := pid, r++</label></transition>
<transition><source ref="id1"/><target ref="id2"/>
  <label kind="select">i : int[0,1]</label>
  <label kind="synchronisation">go!</label>
  <label kind="assignment">flag[pid] = (i == 1 ? true : false)</label></transition>
<transition><source ref="id2"/><target ref="id0"/></transition>
</template>
<system>int count;
P1 = P(1, count);
P2 = P(2, count);
system P1, P2;</system>
<queries>
<query><formula>E&lt;&gt; P1.req and P2.req</formula><comment>both_req</comment></query>
<query><formula>A[] forall (i : pid_t) id != i imply !flag[i]</formula><comment>Flags are clear
when id differs</comment></query>
<query><formula>P1.req --&gt; P1.idle</formula><comment></comment></query>
</queries>
</nta>
"#;

#[test]
fn uppaal_xml_small() {
    show(
        "small.xml",
        XML,
        &[],
        expect![[r#"
            const int N = 2;
            typedef int[1, N] pid_t;
            int[0, N] id = 0;
            urgent chan go;
            bool flag[pid_t];
            int count;

            template P(const pid_t pid, int &r) {
                clock x;

                init location idle;
                location req invariant x <= 2;
                committed location _id2;

                idle -> req when id == 0 && !flag[pid] do x = 0, id = pid, r++;
                req -> _id2 select i : int[0, 1] sync go! do flag[pid] = i == 1 ? true : false;
                _id2 -> idle;
            }

            P1 = P(1, count);
            P2 = P(2, count);
            system P1, P2;

            check both_req: E<> P1.req && P2.req;
            // Flags are clear
            // when id differs
            check q2: A[] forall (i : pid_t) id != i imply !flag[i];
            check q3: P1.req --> P1.idle;
        "#]],
    );
}

const TCK: &str = "# two processes
system:demo
event:tau
event:a
event:b
int:1:0:2:1:k
int:3:0:5:0:arr
clock:1:x
process:P
location:P:init{initial: : invariant:x<=3}
location:P:done{labels:goal}
edge:P:init:done:a{provided:x>=1&&k==1 : do:x=0;arr[2]=k+1}
edge:P:done:init:tau
process:Q
location:Q:q0{initial: : committed:}
location:Q:q1{urgent: : labels:goal,other}
edge:Q:q0:q1:b{provided:k!=0}
sync:P@a:Q@b
";

#[test]
fn tchecker_small() {
    show(
        "small.tck",
        TCK,
        &["goal"],
        expect![[r#"
        // imported from the TChecker system `demo`

        int[0, 2] k = 1;
        int[0, 5] arr[3];
        clock x;
        chan a_b;

        template P() {
            init location init_ invariant x <= 3;
            location done;

            init_ -> done when x >= 1 && k == 1 sync a_b! do x = 0, arr[2] = k + 1;
            done -> init_;
        }

        template Q() {
            init committed location q0;
            urgent location q1;

            q0 -> q1 when k != 0 sync a_b?;
        }

        system P, Q;

        // reachability of the labels goal
        check labels: E<> (P.done || Q.q1);
    "#]],
    );
}

#[test]
fn tchecker_nary_sync_becomes_a_vector() {
    let text = "system:s\nevent:e\nprocess:A\nlocation:A:l{initial:}\nedge:A:l:l:e\nprocess:B\nlocation:B:l{initial:}\nedge:B:l:l:e\nprocess:C\nlocation:C:l{initial:}\nedge:C:l:l:e\nsync:A@e:B@e:C@e?\n";
    show(
        "nary.tck",
        text,
        &[],
        expect![[r#"
            // imported from the TChecker system `s`

            template A() {
                init location l;

                l -> l sync e;
            }

            template B() {
                init location l;

                l -> l sync e;
            }

            template C() {
                init location l;

                l -> l sync e;
            }

            system A, B, C;
            sync A.e, B.e, C.e?;
        "#]],
    );
}

#[test]
fn tchecker_missing_label() {
    let r = import_tchecker(TCK, &["nowhere".to_string()]);
    let diags = r.expect_err("an unknown label is an error");
    assert!(diags.iter().any(|d| d.message.contains("`nowhere`")));
}

// Broken inputs: each diagnostic must name the problem and its line:col.

#[test]
fn broken_truncated_xml() {
    let text =
        "<nta>\n<declaration>int x;</declaration>\n<template><name>P</name>\n<location id=\"a\">";
    show(
        "t.xml",
        text,
        &[],
        expect![[r#"
        4:18: error: unexpected end of the file: `<location>` (opened at byte 65) is not closed
    "#]],
    );
}

#[test]
fn broken_mismatched_xml() {
    show(
        "m.xml",
        "<nta>\n<system>system P;</sys>\n</nta>\n",
        &[],
        expect![[r#"
        2:18: error: malformed XML: ill-formed document: expected `</system>`, but `</sys>` was found
    "#]],
    );
}

#[test]
fn broken_unknown_label_kind() {
    let text = "<nta><template><name>P</name>\n<location id=\"a\"><label kind=\"colour\">red</label></location>\n<init ref=\"a\"/></template>\n<system>system P;</system></nta>";
    show(
        "k.xml",
        text,
        &[],
        expect![[r#"
        2:18: error: unknown location label kind `colour`
    "#]],
    );
}

#[test]
fn broken_bad_expression() {
    let text = "<nta><declaration>int x;</declaration><template><name>P</name>\n<location id=\"a\"/><init ref=\"a\"/>\n<transition><source ref=\"a\"/><target ref=\"a\"/><label kind=\"guard\">x + 1.5 &amp; 3 == 1</label></transition>\n<transition><source ref=\"a\"/><target ref=\"a\"/><label kind=\"guard\">x == </label></transition>\n<transition><source ref=\"a\"/><target ref=\"a\"/><label kind=\"assignment\">x := f(1)</label></transition>\n</template><system>system P;</system></nta>";
    show(
        "e.xml",
        text,
        &[],
        expect![[r#"
            3:71: error: unsupported number `1.5`: only integers are supported
            4:72: error: expected an expression, found the end of the text
        "#]],
    );
}

#[test]
fn function_and_process_priority() {
    let text = "<nta><declaration>int x;\nint f(int a) { return a + 1; }\nbool b;</declaration><template><name>P</name><location id=\"a\"/><init ref=\"a\"/></template>\n<system>Q = P();\nsystem P &lt; Q;</system></nta>";
    show(
        "f.xml",
        text,
        &[],
        expect![[r#"
            int x;
            int f(int a) {
                return a + 1;
            }
            bool b;

            template P() {
                init location _a;
            }

            Q = P();
            system P < Q;
        "#]],
    );
}

#[test]
fn broken_tchecker_lines() {
    let text = "system:s\nevent:e\nprocess:P\nint:1:0:x:0:v\nlocation:P:l{initial: : colour:red}\nedge:P:l:m:e{do:v:=1}\nlocation:Q:l\nfrobnicate:1\n";
    show(
        "b.tck",
        text,
        &[],
        expect![[r#"
        3:1: error: process `P` has 0 initial locations (needs exactly one)
        4:9: error: expected an integer, found `x`
        5:25: error: unknown location attribute `colour`
        6:14: error: malformed attributes: expected `key:value` pairs separated by ` : `
        7:10: error: undeclared process `Q`
        8:1: error: unknown declaration `frobnicate`
    "#]],
    );
}

#[test]
fn unknown_format() {
    show(
        "model.txt",
        "hello",
        &[],
        expect![[r#"
        1:1: error: cannot tell the format of `model.txt`: expected UPPAAL XML (.xml), UPPAAL XTA (.xta) or TChecker (.tck)
    "#]],
    );
}

const XTA: &str = "// Fischer, XTA 4.x
const int K = 2;
int id;
chan go;

process P(const int pid, int &shared) {
    clock x;
    state idle, req { x <= K }, wait, cs;
    commit cs;
    init idle;
    trans
        idle -> req { guard id == 0; assign x = 0; },
        req -> wait { guard x <= K; assign x := 0, id := pid; },
             -> idle { select i : int[0, 1]; sync go?; assign shared = i; },
        wait -> cs { guard x > K && id == pid; sync go!; };
}

P1 = P(1, id);
P2 = P(2, id);
system P1, P2;
";

#[test]
fn uppaal_xta_small() {
    show(
        "fischer.xta",
        XTA,
        &[],
        expect![[r#"
        const int K = 2;
        int id;
        chan go;

        template P(const int pid, int &shared) {
            clock x;

            init location idle;
            location req invariant x <= K;
            location wait;
            committed location cs;

            idle -> req when id == 0 do x = 0;
            req -> wait when x <= K do x = 0, id = pid;
            req -> idle select i : int[0, 1] sync go? do shared = i;
            wait -> cs when x > K && id == pid sync go!;
        }

        P1 = P(1, id);
        P2 = P(2, id);
        system P1, P2;
    "#]],
    );
}

#[test]
fn broken_xta() {
    let text = "int x;\nprocess P() {\n  state a, b;\n  init c;\n  trans a -> b { guard x > 1; };\n}\nprocess Q() {\n  state a;\n  init a;\n  trans a -> a { guard x + 1.5 >> 1; };\n}\nsystem P, Q;\n";
    show(
        "bad.xta",
        text,
        &[],
        expect![[r#"
            4:8: error: `c` is not a state of `P`
            10:28: error: unsupported number `1.5`: only integers are supported
        "#]],
    );
}

#[test]
fn the_syntax_check_above_has_teeth() {
    assert!(!zeno::syntax::parse("template P( {").errors().is_empty());
}

#[test]
fn tchecker_names_must_be_identifiers() {
    show(
        "n.tck",
        "system:s\nprocess:P\nlocation:P:a.b{initial:}\n",
        &[],
        expect![[r#"
            2:1: error: process `P` has 0 initial locations (needs exactly one)
            3:12: error: `a.b` is not a name zeno can use
        "#]],
    );
}

/// No input may make the importers panic: every prefix of small models in
/// each format, and a few byte-level corruptions, must give Ok or Err; and
/// an Ok result must still be valid zeno syntax.
#[test]
fn truncated_and_corrupted_inputs_do_not_panic() {
    for (name, text) in [("a.xml", XML), ("a.tck", TCK), ("a.xta", XTA)] {
        let mut cuts: Vec<usize> = (0..=text.len())
            .filter(|i| text.is_char_boundary(*i))
            .collect();
        cuts.dedup();
        for cut in cuts {
            assert_ok_parses(name, &text[..cut]);
        }
        for (i, _) in text.char_indices().step_by(7) {
            for junk in ["<", "&", "{", "}", ":", "\"", "é", "\n", "@", "?"] {
                let mut t = text.to_string();
                t.insert_str(i, junk);
                assert_ok_parses(name, &t);
            }
        }
    }
}

fn assert_ok_parses(name: &str, text: &str) {
    if let Ok(imp) = import(name, text, &ImportOptions::default()) {
        let errors = zeno::syntax::parse(&imp.zeno).errors().to_vec();
        assert!(
            errors.is_empty(),
            "input:\n{text}\noutput:\n{}\n{errors:?}",
            imp.zeno
        );
    }
}

#[test]
fn functions_are_translated() {
    let text = "<nta><declaration>const int N = 2;
typedef int[1,N] pid_t;
bool a[pid_t];
int k;
void reset() {
  for (i : pid_t) { a[i] := true; }
  k = 0;
}
</declaration>
<template><name>P</name><location id=\"l\"/><init ref=\"l\"/>
<transition><source ref=\"l\"/><target ref=\"l\"/><label kind=\"assignment\">k++, reset()</label></transition>
</template><system>system P;</system></nta>";
    show(
        "fn.xml",
        text,
        &[],
        expect![[r#"
            const int N = 2;
            typedef int[1, N] pid_t;
            bool a[pid_t];
            int k;
            void reset() {
                for (i : pid_t) {
                    a[i] = true;
                }
                k = 0;
            }

            template P() {
                init location _l;

                _l -> _l do k++, reset();
            }

            system P;
        "#]],
    );
}

#[test]
fn functions_with_statements_and_results_are_translated() {
    let text = "<nta><declaration>int k;
int f(int x) { return x; }
void g() { if (k) { k = 1; } }
void h() { for (int i = 0; i &lt; 2; i++) k++; }
void m() { int i; for (i = 0, k = 1; i &lt; 2; i++, k++) { } }
bool b;
</declaration>
<template><name>P</name><location id=\"l\"/><init ref=\"l\"/>
<transition><source ref=\"l\"/><target ref=\"l\"/><label kind=\"assignment\">g()</label></transition>
</template><system>system P;</system></nta>";
    show(
        "fn.xml",
        text,
        &[],
        expect![[r#"
            int k;
            int f(int x) {
                return x;
            }
            void g() {
                if (k) {
                    k = 1;
                }
            }
            void h() {
                { int i = 0; for (; i < 2; i++) k++; }
            }
            void m() {
                int i;
                for (i = 0, k = 1; i < 2; i++, k++) {
                }
            }
            bool b;

            template P() {
                init location _l;

                _l -> _l do g();
            }

            system P;
        "#]],
    );
}

#[test]
fn labels_on_uppaal_models_are_reported() {
    let opts = ImportOptions {
        labels: vec!["cs".into()],
    };
    let imp = import("small.xml", XML, &opts).expect("imports");
    assert!(
        imp.warnings[0]
            .message
            .contains("labels only apply to TChecker")
    );
}

/// UPPAAL's arrays as the documentation writes them: initialisers (nested
/// for two dimensions), arrays indexed by a type, typedefs of arrays and of
/// `bool`, constant arrays. They pass through as written, and the result
/// lowers without errors.
#[test]
fn uppaal_arrays_pass_through() {
    let text = "const int N = 2;
typedef int[1, N] id_t;
typedef int[0, 7] pair_t[2];
typedef bool flags_t[N];
typedef pair_t pairs_t[N];
const int delay[3] = { 1, 2, 3 };
int a[2][3] = { { 1, 2, 3 }, { 4, 5, 6 } };
int byid[id_t] = {7, 8};
pair_t p = {0, 7};
pairs_t ps;
flags_t f;
chan c[N][2];
process P() {
  clock x;
  state s { x <= delay[2] };
  init s;
  trans s -> s { guard a[1][2] == 6 && byid[2] == 8; sync c[1][0]!; assign ps[1][0] = p[1], f[0] = true, x = 0; };
}
system P;
";
    show(
        "arrays.xta",
        text,
        &[],
        expect![[r#"
            const int N = 2;
            typedef int[1, N] id_t;
            typedef int[0, 7] pair_t[2];
            typedef bool flags_t[N];
            typedef pair_t pairs_t[N];
            const int delay[3] = { 1, 2, 3 };
            int a[2][3] = { { 1, 2, 3 }, { 4, 5, 6 } };
            int byid[id_t] = { 7, 8 };
            pair_t p = { 0, 7 };
            pairs_t ps;
            flags_t f;
            chan c[N][2];

            template P() {
                clock x;

                init location s invariant x <= delay[2];

                s -> s when a[1][2] == 6 && byid[2] == 8 sync c[1][0]! do ps[1][0] = p[1], f[0] = true, x = 0;
            }

            system P;
        "#]],
    );
    let imported = import("arrays.xta", text, &ImportOptions::default()).unwrap();
    let analysis = zeno::semantics::analyze(&imported.zeno);
    let errors: Vec<_> = analysis
        .diagnostics
        .iter()
        .filter(|d| d.severity == zeno::diagnostics::Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:#?}\n{}", imported.zeno);
}

/// A TChecker array whose elements start at a value other than the
/// default gets an initialiser with that value for every element.
#[test]
fn tchecker_array_initial_value() {
    let text = "system:s\nint:3:0:5:2:a\nprocess:P\nlocation:P:l{initial:}\n";
    show(
        "init.tck",
        text,
        &[],
        expect![[r#"
            // imported from the TChecker system `s`

            int[0, 5] a[3] = { 2, 2, 2 };

            template P() {
                init location l;
            }

            system P;
        "#]],
    );
}

/// UPPAAL's records: `typedef struct`, a record variable declared with
/// `struct` directly (the documentation's example), nested records, arrays
/// of records and their initialisers pass through as written.
#[test]
fn uppaal_records_pass_through() {
    let text = "typedef struct { int[0,3] a; bool b; int c[2]; } rec_t;
typedef struct { rec_t inner; int n, m; } outer_t;
struct { int a; bool b; } s1 = { 2, true };
rec_t rs[2] = { { 1, false, { 2, 3 } }, { 0, true, { 4, 5 } } };
outer_t o;
process P() {
  state s;
  init s;
  trans s -> s { guard rs[1].c[0] == 4 && rs[0] != rs[1]; assign o.inner = rs[0], o.n = s1.a; };
}
system P;
";
    show(
        "records.xta",
        text,
        &[],
        expect![[r#"
        typedef struct { int[0, 3] a; bool b; int c[2]; } rec_t;
        typedef struct { rec_t inner; int n; int m; } outer_t;
        struct { int a; bool b; } s1 = { 2, true };
        rec_t rs[2] = { { 1, false, { 2, 3 } }, { 0, true, { 4, 5 } } };
        outer_t o;

        template P() {
            init location s;

            s -> s when rs[1].c[0] == 4 && rs[0] != rs[1] do o.inner = rs[0], o.n = s1.a;
        }

        system P;
    "#]],
    );
    let imported = import("records.xta", text, &ImportOptions::default()).unwrap();
    let analysis = zeno::semantics::analyze(&imported.zeno);
    let errors: Vec<_> = analysis
        .diagnostics
        .iter()
        .filter(|d| d.severity == zeno::diagnostics::Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:#?}\n{}", imported.zeno);
}

/// UPPAAL's `meta` variables and scalar sets pass through (zeno reads them
/// as ordinary variables and the integers 0 to N - 1).
#[test]
fn uppaal_meta_and_scalars_pass_through() {
    let text = "typedef scalar[3] s_t;
meta int swap;
int a, b = 2;
s_t s;
int arr[s_t];
process P() {
  state l;
  init l;
  trans l -> l { assign swap = a, a = b, b = swap, arr[s] = 1; };
}
system P;
";
    show(
        "meta.xta",
        text,
        &[],
        expect![[r#"
        typedef scalar[3] s_t;
        meta int swap;
        int a;
        int b = 2;
        s_t s;
        int arr[s_t];

        template P() {
            init location l;

            l -> l do swap = a, a = b, b = swap, arr[s] = 1;
        }

        system P;
    "#]],
    );
}

/// A `double` declaration or literal is an error where it stands, and the
/// declarations around it are still read: the one after it is reported too.
#[test]
fn double_declarations_do_not_hide_their_neighbours() {
    let text = "<nta><declaration>int a = 1;\nconst double rate = 1.5;\ndouble d = 0.25;\nint b = 2;\nint c = 2.5e1;\nint e = 3x;</declaration><template><name>P</name><location id=\"a\"/><init ref=\"a\"/></template>\n<system>system P;</system></nta>";
    show(
        "d.xml",
        text,
        &[],
        expect![[r#"
            2:1: error: `double` types are not supported
            3:1: error: `double` types are not supported
            5:9: error: unsupported number `2.5e1`: only integers are supported
            6:9: error: unsupported number `3x`: only integers are supported
        "#]],
    );
}
