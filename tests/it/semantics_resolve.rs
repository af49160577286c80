//! Name resolution for tools (`semantics::resolve`) holds to lowering's:
//! both walk the HIR with the same scoping rules, and here, on every
//! bundled model, every test model and the ticktac suite's models
//! (imported), each name that lowering looks up in its scopes must resolve
//! to the same declaration in the resolver: a global of the same name, or
//! the definition at the same place. That covers the templates checked on
//! their own (variables, constants, typedefs, functions and their
//! parameters and locals, template parameters, `select` and quantifier
//! bindings; not the locations edges name, which lowering reads from the
//! resolver itself) and the whole network (global
//! declarations and functions, partial instantiations' parameters, the
//! checks and their quantifiers). Lowering records its answers itself
//! (`Ctx::names`), so the two are computed independently. Lowering's
//! type-directed answers are compared too: a record's field (lowering
//! finds it through the record's type: the resolver's field must be the
//! same one of a record type with the same fields) and a process's
//! location or variable in a check (`P1.x`, `Proc(1).cs`, `Q(2).b` of a
//! partial instance; lowering finds it through the process: the
//! resolver's must be the definition of that name and kind in the
//! process's template).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use zeno::semantics::resolve::agreement_with_lowering;

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files_under(&path, out);
        } else if let Some(ext) = path.extension().and_then(|e| e.to_str())
            && ["zeno", "xml", "xta", "ta", "tck"].contains(&ext)
        {
            out.push(path);
        }
    }
}

#[test]
fn the_resolver_answers_as_lowering_on_every_model() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["models", "tests/data", "../shared/models/ticktac"] {
        files_under(&root.join(dir), &mut files);
    }
    files.sort();
    let (mut agreed, mut texts) = (0, 0);
    let mut by_kind: BTreeMap<String, usize> = BTreeMap::new();
    let mut by_route: BTreeMap<&str, usize> = BTreeMap::new();
    let mut disagreements = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let name = path.to_string_lossy();
        // Foreign models as zeno check reads them; ones the importer
        // refuses (the importer's error tests) have no names to compare.
        let Ok(loaded) = zeno::load::load(&name, &text, &[]) else {
            continue;
        };
        let a = agreement_with_lowering(&loaded.zeno);
        texts += 1;
        agreed += a.agreed;
        for (kind, n) in a.by_kind {
            *by_kind.entry(format!("{kind:?}")).or_default() += n;
        }
        for (route, n) in a.by_route {
            *by_route.entry(route).or_default() += n;
        }
        disagreements.extend(a.disagreements.into_iter().map(|d| format!("{name}: {d}")));
    }
    assert!(
        disagreements.is_empty(),
        "{} disagreements:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
    // Enough to mean something: the bundled models alone name thousands.
    assert!(
        texts > 100 && agreed > 1000,
        "{texts} texts, {agreed} names"
    );
    // Every kind of definition lowering resolves through its scopes is
    // exercised, so a kind the comparison missed would show.
    for kind in [
        "Variable",
        "Constant",
        "Typedef",
        "Function",
        "Parameter",
        "Local",
        "Location",
        "Select",
        "Quantifier",
        "Field",
    ] {
        assert!(
            by_kind.get(kind).is_some_and(|&n| n > 0),
            "no {kind} compared: {by_kind:?}"
        );
    }
    // And every way lowering finds a name: in its scopes, a record's field
    // through the record's type, a process's member in a check through the
    // process.
    for route in ["scope", "field", "member"] {
        assert!(
            by_route.get(route).is_some_and(|&n| n > 0),
            "no {route} compared: {by_route:?}"
        );
    }
    eprintln!("{texts} texts, {agreed} names resolved alike: {by_kind:?}, {by_route:?}");
}

/// A process's members named in checks resolve to the template's
/// definitions, whichever way the process is named: an instance (`P1.x`),
/// a template's process (`T(1).a`) and a partial instance's (`Q(2).b`,
/// `Q` being `Q(const id_t i) = T(i);`, which the resolver once missed).
#[test]
fn process_members_in_checks_resolve_to_the_template() {
    use zeno::semantics::AnalysisHost;
    use zeno::semantics::resolve::DefKind;
    let text = "typedef int[0, 2] id_t;
template T(const id_t i) {
    int[0, 3] x;
    clock c;
    init location a;
    location b;
    a -> b do x = i;
}
P1 = T(0);
Q(const id_t i) = T(i);
system P1, Q;
check one: E<> P1.x == 1 && P1.b;
check two: E<> Q(2).b && Q(1).c > 3;
";
    let mut host = AnalysisHost::new();
    host.set_text(text);
    let errors: Vec<_> = host
        .diagnostics()
        .iter()
        .filter(|d| d.severity == zeno::diagnostics::Severity::Error)
        .cloned()
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    let res = host.resolutions();
    // The definition the name at the start of `pattern` + `offset` names:
    // its kind and the text from its start to the end of its line.
    let def = |pattern: &str, offset: usize| {
        let at = text.find(pattern).unwrap() + offset;
        let def = res.def(res.at(at as u32).expect("a resolved name").def);
        let rest = &text[def.span.start as usize..];
        (def.kind, rest[..rest.find('\n').unwrap()].to_string())
    };
    let line = |kind, s: &str| (kind, s.to_string());
    assert_eq!(def("P1.x", 0), line(DefKind::Instance, "P1 = T(0);"));
    assert_eq!(def("P1.x", 3), line(DefKind::Variable, "x;"));
    assert_eq!(def("P1.b", 3), line(DefKind::Location, "b;"));
    assert_eq!(
        def("Q(2).b", 0),
        line(DefKind::Instance, "Q(const id_t i) = T(i);")
    );
    assert_eq!(def("Q(2).b", 5), line(DefKind::Location, "b;"));
    assert_eq!(def("Q(1).c", 5), line(DefKind::Variable, "c;"));
}

/// The errors of `text`, each with its byte range.
fn errors_of(text: &str) -> Vec<String> {
    let mut host = zeno::semantics::AnalysisHost::new();
    host.set_text(text);
    host.diagnostics()
        .iter()
        .filter(|d| d.severity == zeno::diagnostics::Severity::Error)
        .map(|d| format!("{}..{}: {}", d.range.start, d.range.end, d.message))
        .collect()
}

/// The definition the name at the start of `pattern` + `offset` in `text`
/// denotes: its kind and its line from its start.
fn denotes(
    text: &str,
    pattern: &str,
    offset: usize,
) -> Option<(zeno::semantics::resolve::DefKind, String)> {
    let mut host = zeno::semantics::AnalysisHost::new();
    host.set_text(text);
    let res = host.resolutions();
    let at = text.find(pattern).unwrap() + offset;
    let def = res.def(res.at(at as u32)?.def);
    let rest = &text[def.span.start as usize..];
    Some((def.kind, rest[..rest.find('\n').unwrap()].to_string()))
}

/// Checks name processes through the resolver, so scoping decides which
/// definition a name denotes, not a search of the processes by name. A
/// quantifier binding of a check, or a global variable, named like a
/// process hides it: `P1.b` then reads a field of the integer, which has
/// none (an error at `b`), and the resolver says the same (it once took
/// `P1` for the process under the quantifier).
#[test]
fn data_named_like_a_process_hides_it_in_a_check() {
    use zeno::semantics::resolve::DefKind;
    let quantified = "template T() { init location a; location b; a -> b; }
P1 = T();
system P1;
check one: E<> exists (P1 : int[0, 1]) P1.b;
";
    let errors = errors_of(quantified);
    let def = |p, o| denotes(quantified, p, o);
    let at_b = quantified.find("P1.b").unwrap() + 3;
    assert_eq!(
        errors,
        [format!(
            "{at_b}..{}: int[-32768, 32767] has no fields: it is not a record",
            at_b + 1
        )]
    );
    assert_eq!(
        def("P1.b", 0),
        Some((DefKind::Quantifier, "P1 : int[0, 1]) P1.b;".into()))
    );
    assert_eq!(def("P1.b", 3), None, "an integer has no field `b`");
    let a = agreement_with_lowering(quantified);
    assert!(a.disagreements.is_empty(), "{:?}", a.disagreements);

    let global = "int P1;
template T() { init location a; location b; a -> b; }
P1 = T();
system P1;
check one: E<> P1.b;
";
    let errors = errors_of(global);
    let def = |p, o| denotes(global, p, o);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].ends_with("has no fields: it is not a record"));
    assert_eq!(def("P1.b", 0), Some((DefKind::Variable, "P1;".into())));
    let a = agreement_with_lowering(global);
    assert!(a.disagreements.is_empty(), "{:?}", a.disagreements);
}

/// A partial instance named like a template: the `system` line takes the
/// instance, so only its processes exist, and `T(1)` in a check names the
/// instance's (a process of `U`), as in the `system` line. The resolver
/// once took the template there, so the IDE went to the wrong `T`.
#[test]
fn a_partial_instance_named_like_a_template_is_what_a_check_names() {
    use zeno::semantics::resolve::DefKind;
    let text = "typedef int[0, 1] id_t;
template T(const id_t i) { init location a; location b; a -> b; }
template U(const id_t i) { init location u; location w; u -> w; }
T(const id_t i) = U(i);
system T;
check one: E<> T(1).w;
check two: E<> T(0).b;
";
    let errors = errors_of(text);
    let def = |p, o| denotes(text, p, o);
    // `T(0).b`: the instance's processes have no location `b` (the
    // template `T`'s, which is not in the system, has).
    let at_b = text.find("T(0).b").unwrap() + 5;
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with(&format!(
            "{at_b}..{}: process `T(0)` has no location or variable `b`",
            at_b + 1
        )),
        "{errors:?}"
    );
    assert_eq!(
        def("T(1).w", 0),
        Some((DefKind::Instance, "T(const id_t i) = U(i);".into()))
    );
    assert_eq!(
        def("T(1).w", 5),
        Some((DefKind::Location, "w; u -> w; }".into()))
    );
    let a = agreement_with_lowering(text);
    assert!(a.disagreements.is_empty(), "{:?}", a.disagreements);
    assert_eq!(a.by_route.get("member"), Some(&1), "{:?}", a.by_route);
}
