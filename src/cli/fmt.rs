//! `zeno fmt`: format model files in place, or list the unformatted ones.

use std::path::{Path, PathBuf};

use zeno::diagnostics::Diagnostic;

use super::args::FmtArgs;
use super::exit::{self, Outcome};
use super::source::{ReadError, read_source};
use super::{diag, fmt_diff, out};

/// Text in, formatted text or syntax errors out.
pub type Formatter = fn(&str) -> Result<String, Vec<Diagnostic>>;

pub fn run(args: &FmtArgs, format: Formatter) -> u8 {
    let mut outcome = Outcome::default();
    let mut files = Vec::new();
    for path in &args.paths {
        if let Err(e) = collect(path, &mut files) {
            diag::error(&e);
            outcome.add(exit::ERROR);
        }
    }
    for path in &files {
        let source = match read_source(path) {
            Ok(s) => s,
            Err(e) => {
                diag::error(&e);
                outcome.add(exit::ERROR);
                continue;
            }
        };
        let formatted = match format(&source.text) {
            Ok(t) => t,
            Err(diagnostics) => {
                diag::emit(&source, &diagnostics);
                outcome.add(exit::ERROR);
                continue;
            }
        };
        if path == Path::new("-") {
            // Standard input: the formatted text goes to stdout (as rustfmt
            // does), or with `--check` only the verdict.
            if args.check {
                if formatted != source.text {
                    out::print(fmt_diff::unified(
                        &source.display_path(),
                        &source.text,
                        &formatted,
                    ));
                    outcome.add(exit::FAILS);
                }
            } else {
                out::print(formatted);
            }
            continue;
        }
        if formatted == source.text {
            continue;
        }
        if args.check {
            // What formatting would change, as a unified diff.
            out::print(fmt_diff::unified(
                &source.display_path(),
                &source.text,
                &formatted,
            ));
            outcome.add(exit::FAILS);
        } else if !out::write_file(path, &formatted) {
            outcome.add(exit::ERROR);
        }
    }
    outcome.code()
}

/// `path` itself if it is a file, every `.zeno` file under it (sorted) if it
/// is a directory.
fn collect(path: &Path, out: &mut Vec<PathBuf>) -> Result<(), ReadError> {
    if path == Path::new("-") {
        out.push(path.to_path_buf());
        return Ok(());
    }
    let unreadable = |error| ReadError::Io {
        path: path.display().to_string(),
        error,
    };
    let meta = std::fs::metadata(path).map_err(unreadable)?;
    if !meta.is_dir() {
        out.push(path.to_path_buf());
        return Ok(());
    }
    let entries = std::fs::read_dir(path).map_err(unreadable)?;
    let mut children: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    children.sort();
    for child in children {
        if child.is_dir() {
            collect(&child, out)?;
        } else if child.extension().is_some_and(|e| e == "zeno") {
            out.push(child);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directories_yield_zeno_files_recursively() {
        let dir = std::env::temp_dir().join(format!("zeno-fmt-collect-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        for f in ["b.zeno", "a.txt", "sub/c.zeno"] {
            std::fs::write(dir.join(f), "").unwrap();
        }
        let mut out = Vec::new();
        collect(&dir, &mut out).unwrap();
        let names: Vec<_> = out
            .iter()
            .map(|p| p.strip_prefix(&dir).unwrap().to_path_buf())
            .collect();
        assert_eq!(
            names,
            [PathBuf::from("b.zeno"), PathBuf::from("sub/c.zeno")]
        );
        assert!(collect(&dir.join("missing"), &mut out).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
