//! The analysis at the data level: byte ranges computed by hand from the
//! model texts.

use super::*;
use zeno_base::diagnostics::{Diagnostic, Severity};
use zeno_ir::Span;

fn span(start: u32, end: u32) -> Span {
    Span::new(start, end)
}

/// Offsets counted by hand:
/// `int x;` is 0..7 (`x` at 4), the template starts at 7 (`T` at 16, the
/// location `l` declared at 36, used at 39 and 44), the select binding `s`
/// at 53 and its use at 74, `x` used at 70, `T` in `system T;` at 86.
const SMALL: &str =
    "int x;\ntemplate T() { init location l; l -> l select s : int[0, 1] do x = s; }\nsystem T;\n";

#[test]
fn the_hand_counted_offsets_are_right() {
    for (start, name) in [(4, "x"), (16, "T"), (36, "l"), (39, "l"), (44, "l")] {
        assert_eq!(&SMALL[start..start + 1], name);
    }
    for (start, name) in [(53, "s"), (74, "s"), (70, "x"), (86, "T")] {
        assert_eq!(&SMALL[start..start + 1], name);
    }
}

#[test]
fn select_bindings_resolve() {
    // The old text scan found no declaration for a `select` binding.
    let a = Analysis::from_text(SMALL);
    let def = a.definition(74).unwrap();
    assert_eq!((def.range, def.kind), (span(53, 54), DefKind::Select));
    // Just after the name still means it.
    assert_eq!(a.definition(75).unwrap().range, span(53, 54));
    assert_eq!(a.references(53, true), [span(53, 54), span(74, 75)]);
    assert_eq!(a.references(74, false), [span(74, 75)]);
    assert_eq!(a.rename(74, "t"), Ok(vec![span(53, 54), span(74, 75)]));
    // `x` is a global seen at the use: renaming `s` to it would capture it.
    assert!(a.rename(74, "x").is_err());
}

#[test]
fn globals_templates_and_locations_resolve() {
    let a = Analysis::from_text(SMALL);
    assert_eq!(a.definition(70).unwrap().range, span(4, 5));
    assert_eq!(a.references(70, true), [span(4, 5), span(70, 71)]);
    let t = a.definition(86).unwrap();
    assert_eq!((t.range, t.kind), (span(16, 17), DefKind::Template));
    assert_eq!(
        a.references(39, true),
        [span(36, 37), span(39, 40), span(44, 45)]
    );
    // Keywords, numbers and punctuation are no names.
    for nowhere in [0, 8, 27, 41, 62] {
        assert_eq!(a.definition(nowhere), None, "at {nowhere}");
    }
}

const MODEL: &str = "\
const int N = 2;
typedef int[1, N] id_t;
int[0, N] v;
chan go;
template P(const id_t i) {
    int v;
    init location a;
    location b;
    a -> b select j : id_t when j == i sync go! do v = j;
    b -> a when forall (v : id_t) v <= N;
}
Q = P(1);
system Q, P;
check reach: E<> Q.b && P(2).a;
check all: A[] exists (k : id_t) P(k).a || v == N;
";

/// The absolute range of the `nth` (from 0) occurrence of `name` as a
/// whole word in `MODEL`.
fn nth(name: &str, n: usize) -> Span {
    let bytes = MODEL.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let found = MODEL
        .match_indices(name)
        .map(|(i, _)| i)
        .filter(|&i| {
            (i == 0 || !word(bytes[i - 1])) && bytes.get(i + name.len()).is_none_or(|&b| !word(b))
        })
        .nth(n)
        .unwrap_or_else(|| panic!("no {n}th `{name}`"));
    span(found as u32, (found + name.len()) as u32)
}

#[test]
fn scopes_shadow_as_in_lowering() {
    let a = Analysis::from_text(MODEL);
    // Occurrences of `v`: 0 global decl, 1 local decl, 2 `v = j` (the
    // local), 3 the forall binding, 4 its use, 5 `v == N` in a check (the
    // global).
    let def = |s: Span| a.definition(s.start).unwrap().range;
    assert_eq!(def(nth("v", 2)), nth("v", 1));
    assert_eq!(def(nth("v", 4)), nth("v", 3));
    assert_eq!(
        a.definition(nth("v", 3).start).unwrap().kind,
        DefKind::Quantifier
    );
    assert_eq!(def(nth("v", 5)), nth("v", 0));
    assert_eq!(
        a.references(nth("v", 0).start, true),
        [nth("v", 0), nth("v", 5)]
    );
    // `j` (select), `i` (parameter), `go` (a global channel), `id_t` in
    // the parameter, the select and both quantifiers (the typedef).
    assert_eq!(def(nth("j", 2)), nth("j", 0));
    assert_eq!(
        a.definition(nth("j", 0).start).unwrap().kind,
        DefKind::Select
    );
    assert_eq!(def(nth("i", 1)), nth("i", 0));
    assert_eq!(def(nth("go", 1)), nth("go", 0));
    assert_eq!(
        a.references(nth("id_t", 0).start, true),
        (0..5).map(|k| nth("id_t", k)).collect::<Vec<_>>()
    );
    // The quantifier of a check: `k` in `P(k)`.
    assert_eq!(def(nth("k", 1)), nth("k", 0));
}

#[test]
fn processes_in_checks_and_the_system_line() {
    let a = Analysis::from_text(MODEL);
    let def = |s: Span| a.definition(s.start).unwrap();
    // `Q` in `system Q` and `Q.b`: the instance; `.b`: the location of P.
    assert_eq!(def(nth("Q", 1)).range, nth("Q", 0));
    assert_eq!(def(nth("Q", 2)).kind, DefKind::Instance);
    assert_eq!(def(nth("b", 3)).range, nth("b", 0));
    // `P(2).a` and `P(k).a`: the template and its location.
    assert_eq!(def(nth("P", 3)).range, nth("P", 0));
    // `a`: 0 its declaration, 1 and 2 in edges, 3 and 4 in the checks.
    assert_eq!(def(nth("a", 3)).range, nth("a", 0));
    assert_eq!(def(nth("a", 4)).range, nth("a", 0));
    // `P` in `Q = P(1)` and in `system Q, P`.
    assert_eq!(
        a.references(nth("P", 0).start, false),
        [nth("P", 1), nth("P", 2), nth("P", 3), nth("P", 4)]
    );
}

#[test]
fn hover_describes_the_declaration() {
    let a = Analysis::from_text(MODEL);
    let hover = |s: Span| a.hover(s.start).unwrap();
    let h = hover(nth("N", 2));
    // The hovered name's range; N folded to 2.
    assert_eq!(h.range, nth("N", 2));
    assert_eq!(h.markdown, "```zeno\nconst int N = 2\n```\n\n`N = 2`");
    // Each name (by occurrence) and its hover text. The global `v` shows
    // its range from the model; the local one has a range per process, so
    // it is shown as written.
    let cases = [
        (
            ("id_t", 1),
            "```zeno\ntypedef int[1, N] id_t\n```\n\n`id_t = int[1, 2]`",
        ),
        (
            ("i", 1),
            "parameter of P: const id_t i\n\n`id_t = int[1, 2]`",
        ),
        (("b", 3), "location `b` of P\n\nno invariant"),
        (("Q", 2), "```zeno\nQ = P(1);\n```"),
        (("j", 1), "`select` binding of an edge of P: `j : id_t`"),
        (("v", 5), "```zeno\nint[0, N] (= int[0, 2]) v\n```"),
        (("v", 2), "```zeno\nint v\n```"),
    ];
    for ((name, k), markdown) in cases {
        assert_eq!(hover(nth(name, k)).markdown, markdown, "{name} #{k}");
    }
    assert_eq!(a.hover(nth("check", 0).start), None);
}

#[test]
fn labels_resolve_to_the_first_labelled_edge() {
    let text = "template P() { init location a; a -> a sync go; a -> a sync go; }\n\
                template Q() { init location a; a -> a sync go; }\n\
                system P, Q;\nsync P.go, Q.go;\n";
    let a = Analysis::from_text(text);
    let first_p = text.find("go").unwrap() as u32;
    let second_p = text[first_p as usize + 1..].find("go").unwrap() as u32 + first_p + 1;
    let in_q = text.find("Q() {").unwrap();
    let first_q = (text[in_q..].find("go").unwrap() + in_q) as u32;
    let vector = text.find("sync P.go").unwrap() as u32;
    let def = |at: u32| a.definition(at).map(|t| t.range.start);
    assert_eq!(def(second_p), Some(first_p));
    assert_eq!(def(vector + 7), Some(first_p)); // `P.go`
    assert_eq!(def(vector + 13), Some(first_q)); // `Q.go`
    assert_eq!(def(first_q), Some(first_q));
}

#[test]
fn classified_tokens() {
    let text = "/* é\n😀 */ const int K = 2;\ntemplate P(const int q) {\n  init location a;\n  a -> a when q < K;\n}\n";
    let a = Analysis::from_text(text);
    let got: Vec<(&str, TokenKind)> = a
        .semantic_tokens()
        .iter()
        .map(|t| (&text[t.range.start as usize..t.range.end as usize], t.kind))
        .collect();
    use TokenKind::*;
    let expected = [
        ("/* é\n😀 */", Comment),
        ("const", Keyword),
        ("int", Keyword),
        ("K", Variable),
        ("2", Number),
        ("template", Keyword),
        ("P", Template),
        ("const", Keyword),
        ("int", Keyword),
        ("q", Parameter),
        ("init", Keyword),
        ("location", Keyword),
        ("a", Location),
        ("a", Location),
        ("a", Location),
        ("when", Keyword),
        ("q", Parameter),
        ("K", Variable),
    ];
    assert_eq!(got, expected);
}

#[test]
fn completion_after_a_process() {
    let text = format!("{MODEL}check t: E<> P(1).");
    let a = Analysis::from_text(&text);
    let labels: Vec<String> = a
        .completion(text.len() as u32)
        .into_iter()
        .map(|c| c.label)
        .collect();
    assert_eq!(labels, ["a", "b"]);
}

#[test]
fn completion_in_a_guard_offers_values_not_declarations() {
    let head = "typedef int[0, 3] id_t;\nconst int K = 2;\nint n;\n\
                template P() { clock x; init location a; location b; a -> b when ";
    // The labels offered at the end of `before`, the template closed after.
    let labels = |before: &str| -> Vec<String> {
        let text = format!("{before} }}\nsystem P;\n");
        Analysis::from_text(&text)
            .completion(before.len() as u32)
            .into_iter()
            .map(|c| c.label)
            .collect()
    };
    let guard = labels(head);
    for name in ["x", "K", "n", "true", "not", "forall"] {
        assert!(guard.iter().any(|l| l == name), "{name} in {guard:?}");
    }
    for name in [
        "P", "id_t", "a", "b", "template", "typedef", "location", "when",
    ] {
        assert!(!guard.iter().any(|l| l == name), "{name} in {guard:?}");
    }
    // Inside a guard already begun, and in an update, the same.
    let begun = labels(&format!("{head}x > 1 && "));
    assert!(
        begun.iter().any(|l| l == "n") && !begun.iter().any(|l| l == "P"),
        "{begun:?}"
    );
    let update = labels(&format!("{head}x > 1 do n = "));
    assert!(
        update.iter().any(|l| l == "K") && !update.iter().any(|l| l == "id_t"),
        "{update:?}"
    );
    // Outside an expression, declarations are offered as before.
    let body = labels("typedef int[0, 3] id_t;\ntemplate P() { clock x; init location a; ");
    assert!(
        body.iter().any(|l| l == "id_t") && body.iter().any(|l| l == "location"),
        "{body:?}"
    );
}

#[test]
fn signature_of_the_resolved_template() {
    let text = "template Proc(const int a, const int b) { init location l; }\nP1 = Proc(1, ";
    let a = Analysis::from_text(text);
    let help = a.signature_help(text.len() as u32).unwrap();
    assert_eq!(help.label, "Proc(const int a, const int b)");
    assert_eq!(help.parameters, ["const int a", "const int b"]);
    assert_eq!(help.active, 1);
    // `min` is no template.
    let text = "int x = min(1, ";
    assert_eq!(
        Analysis::from_text(text).signature_help(text.len() as u32),
        None
    );
}

#[test]
fn signature_of_a_called_function() {
    // A global function called in a template's update, the cursor on the
    // second argument; and a template's own function, on the first.
    let text = "int[0, 3] n;\nvoid put(int[0, 3] v, int &w) { w = v; }\n\
                template T() {\n    int[0, 9] m;\n    int[0, 9] twice(int[0, 4] k) { return 2 * k; }\n\
                    init location l;\n    l -> l do put(1, n), m = twice(2);\n}\n";
    let a = Analysis::from_text(text);
    let at = |needle: &str| (text.find(needle).unwrap() + needle.len()) as u32;
    let help = a.signature_help(at("do put(1, ")).unwrap();
    assert_eq!(help.label, "void put(int[0, 3] v, int &w)");
    assert_eq!(help.parameters, ["int[0, 3] v", "int &w"]);
    assert_eq!(help.active, 1);
    let help = a.signature_help(at("do put(")).unwrap();
    assert_eq!(help.active, 0);
    let help = a.signature_help(at("= twice(")).unwrap();
    assert_eq!(help.label, "int[0, 9] twice(int[0, 4] k)");
    assert_eq!(help.parameters, ["int[0, 4] k"]);
    assert_eq!(help.active, 0);
    // In the declaration's parameter list and after the call's `)`: none.
    assert_eq!(a.signature_help(at("void put(")), None);
    assert_eq!(a.signature_help(at("put(1, n)")), None);
}

#[test]
fn outline_and_folding() {
    let a = Analysis::from_text(SMALL);
    let symbols = a.symbols();
    let names: Vec<(&str, DefKind)> = symbols.iter().map(|s| (s.name.as_str(), s.kind)).collect();
    assert_eq!(names, [("x", DefKind::Variable), ("T", DefKind::Template)]);
    assert_eq!(symbols[1].selection, span(16, 17));
    // The template runs from `template` (7) to after `}` (78).
    assert_eq!(symbols[1].full, span(7, 78));
    assert_eq!(symbols[1].children[0].selection, span(36, 37));
    assert_eq!(a.folding(), [span(7, 78)]);
}

#[test]
fn format_only_when_it_changes_something() {
    assert_eq!(
        Analysis::from_text("int  x;\n").format().as_deref(),
        Some("int x;\n")
    );
    assert_eq!(Analysis::from_text("int x;\n").format(), None);
    assert_eq!(Analysis::from_text("int x = ;\n").format(), None);
}

#[test]
fn a_snapshot_can_go_to_another_thread() {
    fn send<T: Send + 'static>(_: T) {}
    send(Analysis::from_text(SMALL));
}

#[test]
fn diagnostics_are_capped_errors_first() {
    // 1,500 warnings then 600 errors, by position.
    let mut all: Vec<Diagnostic> = (0..1500)
        .map(|i| Diagnostic::warning(span(i, i + 1), "w"))
        .collect();
    all.extend((1500..2100).map(|i| Diagnostic::error(span(i, i + 1), "e")));
    let capped = cap_diagnostics(all, 1000);
    assert_eq!(capped.len(), 1001);
    assert_eq!(
        capped[0].message,
        "1100 more diagnostics not shown (1000 of 2100 shown, errors first)"
    );
    assert_eq!(capped[0].range, span(0, 0));
    // Every error kept, then the first 400 warnings; in position order.
    let errors = capped
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    assert_eq!(errors, 600);
    assert_eq!(capped[1].range, span(0, 1));
    assert_eq!(capped[400].range, span(399, 400));
    assert_eq!(capped[401].range, span(1500, 1501));
    // Under the limit: unchanged.
    let few = vec![Diagnostic::error(span(3, 4), "e")];
    assert_eq!(cap_diagnostics(few.clone(), 1000), few);
}

/// A record: its fields are offered after `r.` (for a global, a local of a
/// record type and a nested field), and hovering a field shows its
/// declaration.
#[test]
fn record_fields_complete_and_hover() {
    let model = "typedef struct { int[0, 3] a; bool b; } rec_t;\n\
                 typedef struct { rec_t inner; int n; } outer_t;\n\
                 outer_t o;\n\
                 template T() { rec_t l; init location s; s -> s do l.a = o.inner.b; }\n\
                 system T;\n";
    let labels = |text: &str| -> Vec<String> {
        Analysis::from_text(text)
            .completion(text.len() as u32)
            .into_iter()
            .map(|c| c.label)
            .collect()
    };
    assert_eq!(labels(&format!("{model}check q: E<> o.")), ["inner", "n"]);
    assert_eq!(labels(&format!("{model}check q: E<> o.inner.")), ["a", "b"]);
    // Typing `l.` inside the template: the text ends there.
    let local = &model[..model.find("l.a").unwrap() + 2];
    assert_eq!(labels(local), ["a", "b"]);
    let a = Analysis::from_text(model);
    let at = model.find("l.a").unwrap() as u32 + 2;
    assert_eq!(
        a.hover(at).unwrap().markdown,
        "record field\n\n```zeno\nint[0, 3] a\n```"
    );
}

/// Records whose types are the template's own (a `struct` written on the
/// variable, and a template typedef with a nested record): each field read
/// goes to its declaration inside the template, and renames with it.
#[test]
fn template_local_record_fields_resolve() {
    let model = "template T() {\n\
                 typedef struct { int[0, 3] a; struct { bool b; } in; } rec_t;\n\
                 rec_t r;\n\
                 struct { int[0, 9] n; } s;\n\
                 init location l;\n\
                 l -> l when r.in.b do r.a = s.n % 4, s.n = r.a;\n\
                 }\nsystem T;\n";
    let a = Analysis::from_text(model);
    let at = |pat: &str| model.find(pat).unwrap() as u32;
    let decl = |pat: &str, len: u32| span(at(pat), at(pat) + len);
    let def = |pos: u32| a.definition(pos).map(|d| (d.range, d.kind));
    let field_a = decl("a; struct", 1);
    let field_in = decl("in; }", 2);
    let field_b = decl("b; } in", 1);
    let field_n = decl("n; } s", 1);
    assert_eq!(def(at("r.in.b") + 2), Some((field_in, DefKind::Field)));
    assert_eq!(def(at("r.in.b") + 5), Some((field_b, DefKind::Field)));
    assert_eq!(def(at("r.a =") + 2), Some((field_a, DefKind::Field)));
    assert_eq!(def(at("s.n %") + 2), Some((field_n, DefKind::Field)));
    // Every read of `a`, with the declaration, and a rename of them all.
    let uses_a = [field_a, decl("a = s", 1), decl("a;\n}", 1)];
    assert_eq!(a.references(field_a.start, true), uses_a);
    assert_eq!(a.rename(at("r.a =") + 2, "x"), Ok(uses_a.to_vec()));
}

#[test]
fn partial_instantiation_parameters_and_value_query_terms_resolve() {
    let text = "\
typedef int[0, 1] id_t;
int n;
template T(const id_t a) { init location l; }
P(const id_t i) = T(i);
system P;
check most: sup{P(0).l}: n;
";
    let a = Analysis::from_text(text);
    let at = |pattern: &str, skip: usize| (text.find(pattern).unwrap() + skip) as u32;
    // `i` in `T(i)`: the instance's parameter, declared in `P(const id_t i)`.
    let i = a.definition(at("T(i)", 2)).unwrap();
    assert_eq!(i.range, span(at("id_t i)", 5), at("id_t i)", 6)));
    assert_eq!(i.kind, DefKind::Parameter);
    // `id_t` in the instance's parameter list: the typedef.
    assert_eq!(
        a.definition(at("id_t i)", 0)).unwrap().range,
        span(at("id_t;", 0), at("id_t;", 4))
    );
    // `n` as a term of the value query: the global.
    assert_eq!(
        a.definition(at(": n;", 2)).unwrap().range,
        span(at("n;", 0), at("n;", 1))
    );
}
