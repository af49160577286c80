//! The sample outputs in the documentation are what zeno prints: every
//! `$ zeno ...` block in README.md and docs/cli.md is run and compared,
//! with times, memory sizes and the states the default search's other
//! searches explored alongside (which vary) masked. A block may end with a
//! line `  ...`: then only the lines before it are compared.

use std::path::Path;
use std::process::Command;

/// The documents with samples, and the directory their commands run in.
const DOCUMENTS: [(&str, &str); 2] = [("README.md", "."), ("docs/cli.md", "tests/data/cli")];

/// `(command line, expected output)` for every sample block of `text`.
fn samples(text: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if !line.starts_with("```") {
            continue;
        }
        let block: Vec<&str> = lines
            .by_ref()
            .take_while(|l| !l.starts_with("```"))
            .collect();
        if let Some(command) = block.first().and_then(|l| l.strip_prefix("$ zeno ")) {
            out.push((
                command.to_string(),
                block[1..].iter().map(|l| l.to_string()).collect(),
            ));
        }
    }
    out
}

/// Masks what varies from run to run: `0.001 s` and `peak memory 3.9 KiB`.
fn mask(line: &str) -> String {
    let mut out = Vec::new();
    let words: Vec<&str> = line.split(' ').collect();
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        let next = words.get(i + 1).copied().unwrap_or("");
        if (next == "s," || next == "s") && w.contains('.') && w.parse::<f64>().is_ok() {
            out.push("TIME");
        } else if i >= 2 && words[i - 2] == "peak" && words[i - 1] == "memory" {
            out.push("SIZE");
            i += 1; // the unit
        } else if next == "more" && w.parse::<u64>().is_ok() {
            // `(decided by …; 36 more states explored alongside)`: how far
            // the others got depends on the machine's speed.
            out.extend(["COUNT", "more", "states"]);
            i += 2;
        } else {
            out.push(w);
        }
        i += 1;
    }
    out.join(" ").replace("SIZE,", "SIZE")
}

#[test]
fn documented_outputs_are_what_zeno_prints() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    for (doc, dir) in DOCUMENTS {
        let text = std::fs::read_to_string(root.join(doc)).unwrap();
        for (command, expected) in samples(&text) {
            let o = Command::new(env!("CARGO_BIN_EXE_zeno"))
                .args(command.split_whitespace())
                .current_dir(root.join(dir))
                .env("NO_COLOR", "1")
                .output()
                .expect("run zeno");
            let actual = String::from_utf8_lossy(&o.stdout);
            let actual: Vec<String> = actual.lines().map(mask).collect();
            let cut = expected.iter().position(|l| l.trim() == "...");
            let truncated = cut.is_some();
            let expected: Vec<String> = expected[..cut.unwrap_or(expected.len())]
                .iter()
                .map(|l| mask(l))
                .collect();
            assert!(
                actual.len() >= expected.len() && actual[..expected.len()] == expected[..],
                "{doc}: `zeno {command}` prints\n{}\nbut the document shows\n{}",
                actual.join("\n"),
                expected.join("\n")
            );
            if !truncated {
                // A complete sample (no `...`) must be the whole output.
                assert_eq!(actual.len(), expected.len(), "{doc}: `zeno {command}`");
            }
            checked += 1;
        }
    }
    assert!(checked >= 2, "the samples were not found");
}

#[test]
fn masking_keeps_the_figures_that_must_match() {
    assert_eq!(
        mask("    explored 6 states, generated 13, stored 12, 0.001 s, peak memory 21.7 KiB"),
        "    explored 6 states, generated 13, stored 12, TIME s, peak memory SIZE"
    );
    assert_eq!(
        mask(
            "    explored 6 states, 0.001 s, peak memory 21.7 KiB (decided by best-first search; 1 more state explored alongside)"
        ),
        "    explored 6 states, TIME s, peak memory SIZE (decided by best-first search; COUNT more states explored alongside)"
    );
}
