//! Frontend timings on a generated ~5,000-line model: a full analysis, and a
//! re-analysis after a one-character edit inside one template.
//!
//! Run with `cargo bench --bench frontend`.

use std::time::{Duration, Instant};

use zeno::semantics::AnalysisHost;

const TEMPLATES: usize = 80;

fn template(k: usize, bound: usize) -> String {
    let mut s =
        format!("template T{k}(const pid_t pid) {{\n    clock x, y;\n    int[0, 9] count;\n");
    for l in 0..8 {
        let init = if l == 0 { "init " } else { "" };
        s += &format!("    {init}location l{l} invariant x <= {bound};\n");
    }
    for l in 0..8 {
        let next = (l + 1) % 8;
        s += &format!(
            "    l{l} -> l{next}\n        select i : int[0, 2]\n        when x >= 1 && y < 20 && id == 0 && g[i] < 3\n        sync c[pid - 1]!\n        do x = 0, id = pid, g[i] = i, count = (count + 1) % 10;\n"
        );
        s += &format!("    l{l} -> l{l} when id == pid sync c[pid - 1]? do id = 0, y = 0;\n");
    }
    s += "}\n\n";
    s
}

fn model(edited_bound: usize) -> String {
    let mut s = String::from(
        "const int N = 2;\ntypedef int[1, N] pid_t;\nint[0, N] id;\nint[0, 3] g[3];\nchan c[N];\n\n",
    );
    for k in 0..TEMPLATES {
        s += &template(k, if k == TEMPLATES / 2 { edited_bound } else { 5 });
    }
    let names: Vec<String> = (0..TEMPLATES).map(|k| format!("T{k}")).collect();
    s += &format!("system {};\n", names.join(", "));
    s += "check reach: E<> T0(1).l3 && T1(2).count == 4;\ncheck safe: A[] !deadlock;\n";
    s
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let base = model(5);
    let edited = model(6);
    assert_eq!(base.len(), edited.len());
    let lines = base.lines().count();

    let mut full = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        let mut host = AnalysisHost::new();
        host.set_text(&base);
        let d = host.diagnostics();
        let net = host.network();
        full.push(t.elapsed());
        assert!(d.is_empty(), "{:?}", &d[..d.len().min(3)]);
        assert!(net.is_some());
    }

    let mut host = AnalysisHost::new();
    host.set_text(&base);
    host.diagnostics();
    host.network();
    let mut incr = Vec::new();
    for k in 0..10 {
        let text = if k % 2 == 0 { &edited } else { &base };
        let t = Instant::now();
        host.set_text(text);
        host.diagnostics();
        let net = host.network();
        incr.push(t.elapsed());
        assert!(net.is_some());
    }
    let net = host.network().expect("network");
    println!(
        "model: {lines} lines, {} templates, {} processes, {} edges",
        TEMPLATES,
        net.processes.len(),
        net.processes.iter().map(|p| p.edges.len()).sum::<usize>()
    );
    println!(
        "full parse + semantics + lowering: median {:?}",
        median(full)
    );
    println!(
        "re-analysis after a one-character edit: median {:?}",
        median(incr)
    );
}
