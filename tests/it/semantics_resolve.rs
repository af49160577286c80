//! Name resolution for tools (`semantics::resolve`) holds to lowering's:
//! both walk a template's HIR with the same scoping rules, and here, on
//! every bundled model, every test model and the ticktac suite's models
//! (imported), each name that lowering looks up in its scopes (variables,
//! constants, typedefs, functions, parameters, `select` and quantifier
//! bindings, inside templates) must resolve to the same definition in the
//! resolver: a global of the same name, or the template's definition at
//! the same place. Lowering records its answers itself
//! (`Ctx::names`), so the two are computed independently.

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
    eprintln!("{texts} texts, {agreed} names resolved alike");
}
