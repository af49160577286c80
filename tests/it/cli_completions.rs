//! `zeno completions` and `zeno man`: generated from the CLI definition, so
//! the tests check that they carry the commands and flags, and that the
//! bash script completes in a real bash.

use crate::support;

use support::cli::{stderr, stdout, zeno};

#[test]
fn bash_completion_completes_commands_and_flags() {
    let out = zeno(&["completions", "bash"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let script = stdout(&out);
    let dir = support::cli::scratch("completions-bash");
    let file = dir.join("zeno.bash");
    std::fs::write(&file, &script).unwrap();
    // What bash offers after `zeno sim<Tab>` and `zeno simulate m.zeno --mo<Tab>`.
    // As bash calls it: the words so far, the index of the one completed,
    // and the arguments command, current word, previous word.
    let complete = |words: &str, cword: usize| {
        let program = format!(
            "source '{}'; COMP_WORDS=({words} ''); COMP_CWORD={cword}; COMP_LINE='{words}'; COMP_POINT=${{#COMP_LINE}}; \
             _zeno zeno \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"; echo \"${{COMPREPLY[@]}}\"",
            support::cli::path(&file)
        );
        let out = std::process::Command::new("bash")
            .args(["-c", &program])
            .output()
            .expect("bash");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    assert_eq!(complete("zeno sim", 1), "simulate");
    assert_eq!(complete("zeno compl", 1), "completions");
    assert_eq!(complete("zeno simulate m.zeno --mo", 3), "--mode");
    assert_eq!(
        complete("zeno simulate m.zeno --mode ", 4),
        "concrete symbolic"
    );
}

#[test]
fn zsh_and_fish_scripts_name_the_commands() {
    let zsh = stdout(&zeno(&["completions", "zsh"]));
    assert!(zsh.starts_with("#compdef zeno"), "{zsh}");
    assert!(zsh.contains("'simulate:"), "{zsh}");
    let fish = stdout(&zeno(&["completions", "fish"]));
    assert!(fish.contains("complete -c zeno"), "{fish}");
    assert!(fish.contains("-a \"simulate\""), "{fish}");
    let out = zeno(&["completions", "powershell"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("invalid value 'powershell'"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn man_pages_for_zeno_and_each_command() {
    let out = zeno(&["man"]);
    assert_eq!(out.status.code(), Some(0));
    let page = stdout(&out);
    assert!(page.contains(".TH zeno 1"), "{page}");
    assert!(page.contains("simulate"), "{page}");
    let sim = stdout(&zeno(&["man", "simulate"]));
    assert!(sim.contains(".TH zeno-simulate 1"), "{sim}");
    assert!(sim.contains("\\-\\-mode"), "{sim}");
    let out = zeno(&["man", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no command named `nope`; the commands: check, fmt"),
        "{}",
        stderr(&out)
    );
}
