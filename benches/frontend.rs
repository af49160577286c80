//! Frontend timings on a generated ~5,000-line model: a full analysis, and a
//! re-analysis after a one-character edit inside one template.
//!
//! Run with `cargo bench --bench frontend`.

use std::time::{Duration, Instant};

use zeno::semantics::AnalysisHost;

#[path = "support/model.rs"]
mod model;

use model::{TEMPLATES, model};

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
