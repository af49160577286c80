//! The train-gate controller with its queue in functions (UPPAAL's demo:
//! enqueue, dequeue, front and tail over `list[N + 1]` and `len`,
//! `benches/models/train-gate-functions.zeno`) against the same queue written as
//! inline updates (`models/train-gate.zeno`, whose dequeue shifts the whole
//! array in one update), for N trains: the full exploration of `safe`
//! (which holds) by breadth-first search, through the release `zeno`
//! binary so that the peak memory is its counting allocator's. Prints a
//! Markdown table.
//!
//! Both models reach the same states (every queue slot from `len` on is 0
//! in both), so their explored and stored counts must be equal; the bench
//! fails if they are not.
//!
//! `cargo bench --bench train_gate` (N = 4 to 8; `-- 4 5` for some).

use std::path::Path;
use std::process::Command;

const LIMIT_SECONDS: &str = "60";

/// The model with `N` trains: the `const int N = 3;` line replaced, and for
/// the inline model the dequeue update written out for `n` slots.
fn with_trains(text: &str, n: usize, inline_dequeue: bool) -> String {
    let mut text = text.replace("const int N = 3;", &format!("const int N = {n};"));
    if inline_dequeue {
        let three = "do list[0] = list[1], list[1] = list[2], list[2] = 0, len = len - 1;";
        assert!(text.contains(three), "train-gate.zeno's dequeue changed");
        let shifts: Vec<String> = (0..n - 1)
            .map(|k| format!("list[{k}] = list[{}]", k + 1))
            .collect();
        let dequeue = format!(
            "do {}, list[{}] = 0, len = len - 1;",
            shifts.join(", "),
            n - 1
        );
        text = text.replace(three, &dequeue);
    }
    text
}

/// One full exploration: verdict, explored, stored, seconds, peak bytes.
fn explore(path: &Path) -> (String, u64, u64, f64, u64) {
    let out = Command::new(env!("CARGO_BIN_EXE_zeno"))
        .args(["check", "--search", "bfs", "--check", "safe"])
        .args(["--timeout", LIMIT_SECONDS, "--format", "json"])
        .arg(path)
        .output()
        .expect("run zeno");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    let c = &doc["files"][0]["checks"][0];
    let s = &c["stats"];
    (
        c["summary"].as_str().unwrap_or("?").to_string(),
        s["explored"].as_u64().unwrap(),
        s["stored"].as_u64().unwrap(),
        s["time_seconds"].as_f64().unwrap(),
        s["peak_memory_bytes"].as_u64().unwrap(),
    )
}

fn main() {
    let mut ns: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    if ns.is_empty() {
        ns = (4..=8).collect();
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let functions = std::fs::read_to_string(root.join("benches/models/train-gate-functions.zeno"))
        .expect("benches/models/train-gate-functions.zeno");
    let inline =
        std::fs::read_to_string(root.join("models/train-gate.zeno")).expect("train-gate.zeno");
    let dir = std::env::temp_dir().join(format!("zeno-train-gate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch directory");

    println!("| N | queue | verdict | explored | stored | time | peak memory |");
    println!("|---|---|---|---|---|---|---|");
    for n in ns {
        let mut counts = Vec::new();
        for (name, text, inline_dequeue) in
            [("functions", &functions, false), ("inline", &inline, true)]
        {
            let path = dir.join(format!("train-gate-{name}-{n}.zeno"));
            std::fs::write(&path, with_trains(text, n, inline_dequeue)).expect("write model");
            let (verdict, explored, stored, seconds, peak) = explore(&path);
            println!(
                "| {n} | {name} | {verdict} | {explored} | {stored} | {seconds:.2} s | {:.1} MiB |",
                peak as f64 / (1024.0 * 1024.0)
            );
            counts.push((verdict, explored, stored));
        }
        if counts.iter().all(|c| c.0 == "holds") {
            assert_eq!(
                (counts[0].1, counts[0].2),
                (counts[1].1, counts[1].2),
                "N = {n}: the two queues explored different state spaces"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
