//! The editor integrations against the real language server: builds and tests
//! the VS Code extension (type check, unit tests with a mocked `vscode`, the
//! protocol test speaking JSON-RPC to `zeno lsp`, grammar tests, the `.vsix`
//! package) and runs the headless Neovim test, all through `editors/test.sh`.
//!
//! It needs `npm` (and `nvim` for the Neovim part). Without them it says so
//! and passes, except under CI (`CI` set), where a missing tool is a failure.

use std::path::Path;
use std::process::Command;

fn on_path(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn editor_integrations_work_against_zeno_lsp() {
    let in_ci = std::env::var_os("CI").is_some();
    for tool in ["npm", "nvim"] {
        if !on_path(tool) {
            assert!(
                !in_ci,
                "`{tool}` is required under CI (.ci/run installs it)"
            );
            eprintln!("skipping the editor tests: `{tool}` is not installed");
            return;
        }
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("editors/test.sh");
    let out = Command::new("sh")
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_zeno"))
        .output()
        .expect("run editors/test.sh");
    let log = format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "editors/test.sh failed:\n{log}");
    // The script ends with this line only when every step passed, the
    // Neovim test included (it is skipped, with another line, without nvim).
    assert!(log.contains("editors: all passed"), "{log}");
    assert!(log.contains("Neovim headless test (server:"), "{log}");
    // With the real server the lens and key-mapping test runs too.
    assert!(log.contains("ok: lenses and mappings"), "{log}");
}
