//! Name resolution for tools (`semantics::resolve`) holds to lowering's:
//! both walk the HIR with the same scoping rules, and here, on every
//! bundled model, every test model and the ticktac suite's models
//! (imported), each name that lowering looks up in its scopes must resolve
//! to the same declaration in the resolver: a global of the same name, or
//! the definition at the same place. That covers the templates checked on
//! their own (variables, constants, typedefs, functions and their
//! parameters and locals, template parameters, `select` and quantifier
//! bindings, the locations edges name) and the whole network (global
//! declarations and functions, partial instantiations' parameters, the
//! checks and their quantifiers). Lowering records its answers itself
//! (`Ctx::names`), so the two are computed independently. Not covered:
//! record fields and a process's members in checks (`P.x`), which
//! lowering reads through types and processes, not scopes.

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
    ] {
        assert!(
            by_kind.get(kind).is_some_and(|&n| n > 0),
            "no {kind} compared: {by_kind:?}"
        );
    }
    eprintln!("{texts} texts, {agreed} names resolved alike: {by_kind:?}");
}
