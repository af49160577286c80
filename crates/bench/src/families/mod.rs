//! Generators of the papers' scalable model families as zeno text, so that
//! every instance can also be written to a file, opened in the editor and
//! bundled in `models/`.
//!
//! A family is asked for as `NAME:SIZES`, sizes a comma-separated list of
//! numbers and inclusive ranges: `fischer:5,10,15`, `hanoi:3..6`,
//! `arbiter:2..4`, `fischer-atg:5,10,15`, `gossip:5..8`, `chain:5000`,
//! `fischer-scalar:6,8`.

mod arbiter;
mod chain;
mod fischer;
mod gossip;
mod hanoi;

pub use arbiter::arbiter;
pub use chain::chain;
pub use fischer::{fischer, fischer_atg, fischer_scalar};
pub use gossip::gossip;
pub use hanoi::hanoi;

/// One generated model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instance {
    /// The papers' short name: `F5`, `H3`, `A2`, `F5ok` for correct Fischer,
    /// `F5B` for the hL paper's variant B (its `F_5^B`).
    pub name: String,
    /// The model's zeno text.
    pub text: String,
}

/// The families, their smallest and largest size (larger instances would
/// be far beyond any time limit, and the text grows with them), and what a
/// size means.
const FAMILIES: &[(&str, usize, usize, &str)] = &[
    ("fischer", 2, 64, "faulty Fischer (x >= K), N processes"),
    (
        "fischer-correct",
        2,
        64,
        "correct Fischer (x > K), N processes",
    ),
    (
        "fischer-atg",
        2,
        64,
        "faulty Fischer, N processes, goal: processes 1 and 2 in cs (the hL paper's variant B)",
    ),
    (
        "fischer-scalar",
        2,
        64,
        "faulty Fischer over a scalar set of N process ids (symmetry reduction)",
    ),
    (
        "fischer-scalar-correct",
        2,
        64,
        "correct Fischer over a scalar set of N process ids (symmetry reduction)",
    ),
    ("hanoi", 1, 20, "Towers of Hanoi, N disks"),
    ("arbiter", 2, 12, "faulty arbiter tree of depth N"),
    (
        "gossip",
        2,
        16,
        "gossiping girls, N girls, goals: girl 0 knows all secrets, everyone knows all",
    ),
    (
        "chain",
        2,
        100_000,
        "a chain of N locations whose last is never reached late (holds)",
    ),
];

/// The instances of one `NAME:SIZES` request.
pub fn parse(spec: &str) -> Result<Vec<Instance>, String> {
    let bad = |why: String| format!("invalid family `{spec}`: {why}");
    let names = || FAMILIES.iter().map(|f| f.0).collect::<Vec<_>>().join(", ");
    let (name, sizes) = spec.trim().split_once(':').ok_or_else(|| {
        bad(format!(
            "expected NAME:SIZES, e.g. `hanoi:3..6` (families: {})",
            names()
        ))
    })?;
    let name = name.to_ascii_lowercase();
    let &(_, min, max, _) = FAMILIES.iter().find(|f| f.0 == name).ok_or_else(|| {
        bad(format!(
            "unknown family `{name}` (expected one of {})",
            names()
        ))
    })?;
    let mut out = Vec::new();
    for part in sizes.split(',') {
        let part = part.trim();
        let number = |s: &str| {
            s.trim().parse::<usize>().map_err(|_| {
                bad(format!(
                    "`{s}` is not a size (a number or a range like 3..6)"
                ))
            })
        };
        let (lo, hi) = match part.split_once("..") {
            Some((a, b)) => (number(a)?, number(b)?),
            None => (number(part)?, number(part)?),
        };
        if lo > hi {
            return Err(bad(format!("empty range `{part}`")));
        }
        if lo < min || hi > max {
            return Err(bad(format!(
                "{name} sizes go from {min} to {max}, not `{part}`"
            )));
        }
        for n in lo..=hi {
            out.push(generate(&name, n));
        }
    }
    Ok(out)
}

fn generate(family: &str, n: usize) -> Instance {
    let (name, text) = match family {
        "fischer" => (format!("F{n}"), fischer(n, true)),
        "fischer-correct" => (format!("F{n}ok"), fischer(n, false)),
        "fischer-atg" => (format!("F{n}B"), fischer_atg(n)),
        "fischer-scalar" => (format!("FS{n}"), fischer_scalar(n, true)),
        "fischer-scalar-correct" => (format!("FS{n}ok"), fischer_scalar(n, false)),
        "hanoi" => (format!("H{n}"), hanoi(n)),
        "gossip" => (format!("G{n}"), gossip(n)),
        "chain" => (format!("C{n}"), chain(n)),
        // `parse` bounds the depth far below u32::MAX.
        _ => (format!("A{n}"), arbiter(n as u32)),
    };
    // In the layout `zeno fmt` keeps, so that emitted files are final.
    let text = zeno_fmt::format(&text).unwrap_or(text);
    Instance { name, text }
}

/// One line per family for `--help`-style listings.
pub fn describe() -> String {
    FAMILIES
        .iter()
        .map(|(name, min, max, what)| format!("{name}:{min}..{max}  {what}"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(spec: &str) -> Vec<String> {
        parse(spec).unwrap().into_iter().map(|i| i.name).collect()
    }

    #[test]
    fn sizes_are_lists_and_ranges() {
        assert_eq!(names("fischer:5,10,15"), ["F5", "F10", "F15"]);
        assert_eq!(names("hanoi:3..5"), ["H3", "H4", "H5"]);
        assert_eq!(names("Arbiter:2, 4..5"), ["A2", "A4", "A5"]);
        assert_eq!(names("fischer-correct:3"), ["F3ok"]);
        assert_eq!(names("fischer-atg:5,10"), ["F5B", "F10B"]);
        assert_eq!(names("gossip:5..6,8"), ["G5", "G6", "G8"]);
        assert_eq!(names("chain:5000"), ["C5000"]);
    }

    #[test]
    fn bad_requests_say_why() {
        let err = |s: &str| parse(s).unwrap_err();
        assert!(err("hanoi").contains("expected NAME:SIZES"));
        assert!(err("towers:3").contains("unknown family `towers`"));
        assert!(err("hanoi:x").contains("`x` is not a size"));
        assert!(err("hanoi:5..3").contains("empty range"));
        assert!(err("hanoi:0").contains("from 1 to 20"));
        assert!(err("arbiter:99").contains("from 2 to 12"));
        assert!(err("fischer:1").contains("from 2 to 64"));
        assert!(err("hanoi:").contains("is not a size"));
    }

    /// Every family's smallest and a middle instance analyse without any
    /// diagnostic and have exactly one check (gossip: two).
    #[test]
    fn generated_text_is_clean_zeno() {
        for spec in [
            "fischer:2,5",
            "fischer-correct:3",
            "fischer-atg:2,5",
            "hanoi:1,3",
            "arbiter:2,3",
            "gossip:2,5",
            "chain:2,10",
        ] {
            for i in parse(spec).unwrap() {
                let a = zeno_semantics::analyze(&i.text);
                assert!(a.diagnostics.is_empty(), "{}: {:?}", i.name, a.diagnostics);
                let net = a.network.expect("lowers");
                let checks = if spec.starts_with("gossip") { 2 } else { 1 };
                assert_eq!(net.checks.len(), checks, "{}", i.name);
            }
        }
    }
}
