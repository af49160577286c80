//! Differential test against TChecker (`../shared/peer/tchecker`, the
//! bundled build; the test skips with a message where it is absent).
//!
//! Random TChecker networks (clocks, bounded integers, invariants, urgent
//! and committed locations, asynchronous events, binary and three-way
//! synchronisation vectors, weak participants, labels), made here from a
//! fixed seed, are decided by `tck-reach` and by zeno in several search
//! orders, and the verdicts must agree; then every model's `zeno export --to
//! tchecker` is fed back to `tck-reach`, which must read it and agree too.
//!
//! `cargo test --test it tchecker_diff` runs 300 models. The nightly
//! variant runs more, and larger ones, by hand:
//!
//! ```sh
//! ZENO_DIFF_MODELS=5000 ZENO_DIFF_SEED=7 \
//!     cargo test --release --test it tchecker_diff_nightly -- --ignored --nocapture
//! ```

use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use zeno::checker::{Cancel, Options, SearchOrder, Verdict, check, config::Config};

use crate::support;

use support::cli::*;

/// The bundled TChecker's launcher, if the shared peer is here.
fn peer() -> Option<PathBuf> {
    let run = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/peer/tchecker/run.sh");
    run.exists().then_some(run)
}

/// SplitMix64: a small, seeded, reproducible generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// `true` with probability `percent`%.
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// How big the networks get.
#[derive(Clone, Copy)]
struct Size {
    max_procs: u64,
    max_locs: u64,
    max_edges: u64,
}

const SMALL: Size = Size {
    max_procs: 3,
    max_locs: 4,
    max_edges: 7,
};

const LARGE: Size = Size {
    max_procs: 4,
    max_locs: 6,
    max_edges: 12,
};

/// Events: `a` and `b` synchronise in vectors (`b` with a weak third
/// participant), `t` and `u` are asynchronous.
const EVENTS: [&str; 4] = ["a", "b", "t", "u"];
/// The integers and their bounds.
const INTS: [(&str, i64, i64); 2] = [("i", 0, 3), ("j", -1, 2)];
const CLOCKS: [&str; 2] = ["x", "y"];

/// A random network with the labels `goal1` (on a location of `P0`) and
/// `goal2` (on one of `P1`): `P0`'s second location, `P1`'s last. Edges of a weak participant get no guard
/// (TChecker refuses any there; zeno refuses clock guards: whether the
/// participant takes part would depend on the clocks); integer updates
/// stay in range (out of range, TChecker stops with an error where zeno,
/// as UPPAAL, reports a reachable model error), and there are no diagonal
/// constraints.
fn random_network(rng: &mut Rng, size: Size) -> String {
    let procs = 2 + rng.below(size.max_procs - 1) as usize;
    let mut t = String::from("system:rnd\n\n");
    for e in EVENTS {
        let _ = writeln!(t, "event:{e}");
    }
    for (name, lo, hi) in INTS {
        let _ = writeln!(t, "int:1:{lo}:{hi}:0:{name}");
    }
    for c in CLOCKS {
        let _ = writeln!(t, "clock:1:{c}");
    }
    // Who takes part in which vector: P0 and P1 in `a`; P0, P1 and, weakly,
    // P2 (or P1 weakly, with two processes) in `b`.
    let weak_b = |p: usize| if procs > 2 { p == 2 } else { p == 1 };
    for p in 0..procs {
        let locs = 2 + rng.below(size.max_locs - 1);
        let _ = writeln!(t, "\nprocess:P{p}");
        for l in 0..locs {
            let mut attrs = Vec::new();
            if l == 0 {
                attrs.push("initial:".to_string());
            }
            if rng.chance(25) {
                let c = CLOCKS[rng.below(2) as usize];
                attrs.push(format!("invariant:{c}<={}", 1 + rng.below(4)));
            }
            if l > 0 && rng.chance(10) {
                attrs.push("urgent:".to_string());
            } else if l > 0 && rng.chance(10) {
                attrs.push("committed:".to_string());
            }
            let label = match p {
                0 if l == 1 => "goal1",
                1 if l == locs - 1 => "goal2",
                _ => "",
            };
            if !label.is_empty() {
                attrs.push(format!("labels:{label}"));
            }
            let _ = writeln!(t, "location:P{p}:l{l}{{{}}}", attrs.join(" : "));
        }
        let edges = 1 + rng.below(size.max_edges);
        for _ in 0..edges {
            let from = rng.below(locs);
            let to = rng.below(locs);
            let event = EVENTS[rng.below(4) as usize];
            let weak = event == "b" && weak_b(p);
            let mut guard = Vec::new();
            let mut updates = Vec::new();
            if !weak && rng.chance(50) {
                let c = CLOCKS[rng.below(2) as usize];
                let op = ["<", "<=", ">", ">=", "=="][rng.below(5) as usize];
                guard.push(format!("{c}{op}{}", rng.below(4)));
            }
            if !weak && rng.chance(35) {
                let (v, lo, hi) = INTS[rng.below(2) as usize];
                let op = ["==", "!=", "<", ">="][rng.below(4) as usize];
                let k = lo + rng.below((hi - lo + 1) as u64) as i64;
                guard.push(format!("{v}{op}{k}"));
            }
            if rng.chance(40) {
                updates.push(format!("{}=0", CLOCKS[rng.below(2) as usize]));
            }
            if rng.chance(40) {
                let (v, lo, hi) = INTS[rng.below(2) as usize];
                // Increments only on asynchronous events: two participants
                // of one vector could otherwise both add 1 past the bound.
                let synchronised = event == "a" || event == "b";
                if synchronised || rng.chance(50) {
                    let k = lo + rng.below((hi - lo + 1) as u64) as i64;
                    updates.push(format!("{v}={k}"));
                } else {
                    // An increment, guarded to stay in range.
                    guard.push(format!("{v}<{hi}"));
                    updates.push(format!("{v}={v}+1"));
                }
            }
            let mut attrs = Vec::new();
            if !guard.is_empty() {
                attrs.push(format!("provided:{}", guard.join("&&")));
            }
            if !updates.is_empty() {
                attrs.push(format!("do:{}", updates.join(";")));
            }
            let _ = writeln!(
                t,
                "edge:P{p}:l{from}:l{to}:{event}{{{}}}",
                attrs.join(" : ")
            );
        }
    }
    t.push('\n');
    t.push_str("sync:P0@a:P1@a\n");
    if procs > 2 {
        t.push_str("sync:P0@b:P1@b:P2@b?\n");
    } else {
        t.push_str("sync:P0@b:P1@b?\n");
    }
    t
}

/// `tck-reach`'s answer for `labels` in the file at `file`: reachable or
/// not; an error names what TChecker printed.
fn tchecker_reachable(run: &Path, file: &Path, labels: &str) -> Result<bool, String> {
    let o = Command::new(run)
        .args(["tck-reach", "-a", "reach", "-l", labels])
        .arg(file)
        .output()
        .map_err(|e| format!("cannot run TChecker: {e}"))?;
    let out = String::from_utf8_lossy(&o.stdout);
    match out.lines().find_map(|l| l.strip_prefix("REACHABLE ")) {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        _ => Err(format!(
            "TChecker gave no verdict:\n{out}{}",
            String::from_utf8_lossy(&o.stderr)
        )),
    }
}

/// The orders zeno decides every model in.
const ORDERS: [SearchOrder; 4] = [
    SearchOrder::Bfs,
    SearchOrder::Dfs,
    SearchOrder::Greedy,
    SearchOrder::AStar,
];

/// One model: TChecker's verdict, zeno's in every order (and, for every
/// tenth model, the CLI's exit code), and TChecker's verdict on zeno's
/// export. Returns whether the goal is reachable.
fn compare(run: &Path, dir: &Path, n: usize, text: &str) -> bool {
    let file = dir.join(format!("m{n}.tck"));
    std::fs::write(&file, text).expect("write model");
    // Both labels together are seldom reachable: every other model asks
    // for `goal1` alone.
    let query = if n.is_multiple_of(2) {
        "goal1,goal2"
    } else {
        "goal1"
    };
    let expected =
        tchecker_reachable(run, &file, query).unwrap_or_else(|e| panic!("model {n}: {e}\n{text}"));

    let labels: Vec<String> = query.split(',').map(str::to_string).collect();
    let imported = zeno::import::import_tchecker(text, &labels)
        .unwrap_or_else(|e| panic!("model {n}: import refused: {e:?}\n{text}"));
    let analysis = zeno::semantics::analyze(&imported.zeno);
    let errors: Vec<_> = analysis
        .diagnostics
        .iter()
        .filter(|d| d.severity == zeno::diagnostics::Severity::Error)
        .map(|d| &d.message)
        .collect();
    assert!(
        errors.is_empty(),
        "model {n}: {errors:?}\n{text}\n{}",
        imported.zeno
    );
    let net = analysis.network.expect("a network");
    let id = net.check_named("labels").expect("the labels check");
    let want = if expected {
        Verdict::Holds
    } else {
        Verdict::Fails
    };
    for order in ORDERS {
        let options = Options {
            config: Config {
                search: order,
                ..Config::default()
            },
            ..Options::default()
        };
        let r = check(
            &net,
            id,
            &options,
            &Cancel::new(),
            &mut zeno::checker::no_progress,
        );
        assert_eq!(
            r.verdict, want,
            "model {n}, {order:?}: TChecker says reachable = {expected}\n{text}"
        );
        if let Some(trace) = &r.trace {
            let k = net.check_ids().position(|c| c == id).expect("its index");
            support::simulator::replay(&net, k, trace)
                .unwrap_or_else(|e| panic!("model {n}, {order:?}: {e}\n{text}"));
        }
    }
    if n.is_multiple_of(10) {
        let o = zeno(&["check", "--labels", query, path(&file)]);
        let code = if expected { 0 } else { 1 };
        assert_eq!(
            o.status.code(),
            Some(code),
            "model {n}: {}\n{text}",
            stderr(&o)
        );
    }

    let exported = zeno::import::export_tchecker(&net, "rnd")
        .unwrap_or_else(|e| panic!("model {n}: export refused: {e:?}\n{text}"));
    let exported_query = exported
        .lines()
        .find_map(|l| l.strip_prefix("# check labels: tck-reach -l "))
        .and_then(|l| l.split_whitespace().next())
        .unwrap_or_else(|| panic!("model {n}: the export has no labels for the check\n{exported}"))
        .to_string();
    let back = dir.join(format!("m{n}.export.tck"));
    std::fs::write(&back, &exported).expect("write export");
    let again = tchecker_reachable(run, &back, &exported_query)
        .unwrap_or_else(|e| panic!("model {n}: export: {e}\n{exported}"));
    assert_eq!(
        again, expected,
        "model {n}: TChecker on zeno's export\n{text}\n{exported}"
    );
    expected
}

/// Decides `count` random networks from `seed`, printing how many were
/// reachable; `false` (with a message) when TChecker is not here.
fn differential(name: &str, seed: u64, count: usize, size: Size) -> bool {
    let Some(run) = peer() else {
        println!(
            "skipped: no TChecker at ../shared/peer/tchecker (the differential test needs it)"
        );
        return false;
    };
    let dir = scratch(name);
    let mut rng = Rng(seed);
    let mut reachable = 0;
    for n in 0..count {
        let text = random_network(&mut rng, size);
        reachable += usize::from(compare(&run, &dir, n, &text));
    }
    println!("{count} models from seed {seed}: {reachable} reachable, all agree with TChecker");
    // Both answers must be exercised for the comparison to mean much.
    assert!(
        reachable > count / 10 && reachable < count - count / 10,
        "{reachable} of {count} reachable: the generator is lopsided"
    );
    true
}

#[test]
fn zeno_agrees_with_tchecker_on_random_networks() {
    differential("tchecker-diff", 29, 300, SMALL);
}

/// More and larger models; see the module's documentation.
#[test]
#[ignore]
fn tchecker_diff_nightly() {
    let env = |k: &str, default: u64| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let seed = env("ZENO_DIFF_SEED", 1);
    let count = env("ZENO_DIFF_MODELS", 3000) as usize;
    differential("tchecker-diff-nightly", seed, count, LARGE);
}

/// TChecker's own verdicts on two vectors that name an event a process has
/// no edge for: a strong participant without it keeps the vector from
/// firing (P's `a` edge never moves: unreachable), a weak one stays out
/// (P moves alone through the vector: reachable). zeno refused both files.
#[test]
fn vectors_naming_an_event_a_process_lacks() {
    let strong = "system:v\nevent:a\nevent:b\n\
        process:P\nlocation:P:p0{initial:}\nlocation:P:p1{labels:goal}\nedge:P:p0:p1:a\n\
        process:Q\nlocation:Q:q0{initial:}\nlocation:Q:q1\nedge:Q:q0:q1:a\n\
        process:R\nlocation:R:r0{initial:}\nedge:R:r0:r0:b\n\
        sync:P@a:Q@a:R@a\n";
    let weak = "system:v\nevent:a\nevent:b\n\
        process:P\nlocation:P:p0{initial:}\nlocation:P:p1{labels:goal}\nedge:P:p0:p1:a\n\
        process:Q\nlocation:Q:q0{initial:}\nlocation:Q:q1\nedge:Q:q0:q1:b\n\
        sync:P@a:Q@a?\n";
    let dir = scratch("tchecker-vectors");
    for (name, text, reachable) in [("strong", strong, false), ("weak", weak, true)] {
        let file = dir.join(format!("{name}.tck"));
        std::fs::write(&file, text).expect("write");
        let o = zeno(&["check", "--labels", "goal", path(&file)]);
        let code = if reachable { 0 } else { 1 };
        assert_eq!(o.status.code(), Some(code), "{name}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("has no edge labelled `a`"),
            "{}",
            stderr(&o)
        );
        if let Some(run) = peer() {
            assert_eq!(
                tchecker_reachable(&run, &file, "goal"),
                Ok(reachable),
                "{name}"
            );
        }
    }
}

/// Guards with a conjunction in the data part: zeno wrote
/// `(i >= 0 && i < 3)&&x > 1`, which TChecker's parser rejects.
#[test]
fn exported_guards_are_flat_conjunctions() {
    let text = "int[0, 3] i = 0;\nbool b = false;\n\
        template P() {\n    clock x;\n\
        init location l0 invariant x <= 5 && i < 3;\n    location l1;\n\
        l0 -> l1 when i >= 0 && i < 3 && x > 1 && !(i == 2) && !b do i = i + 1, b = true;\n\
        l1 -> l0 when b && x >= 2 do x = 0;\n}\nsystem P;\ncheck c: E<> P.l1;\n";
    let net = zeno::semantics::analyze(text).network.expect("a network");
    let out = zeno::import::export_tchecker(&net, "flat").expect("exports");
    assert!(
        out.contains("location:P:l0{initial: : invariant:i < 3&&P_x <= 5}"),
        "{out}"
    );
    assert!(
        out.contains(
            "edge:P:l0:l1:tau{provided:i >= 0&&i < 3&&!(i == 2)&&b == 0&&P_x > 1 : do:i = i + 1;b = 1}"
        ),
        "{out}"
    );
    assert!(
        out.contains("edge:P:l1:l0:tau{provided:b != 0&&P_x >= 2 : do:P_x = 0}"),
        "{out}"
    );
    if let Some(run) = peer() {
        let file = scratch("tchecker-flat").join("flat.tck");
        std::fs::write(&file, &out).expect("write");
        assert_eq!(tchecker_reachable(&run, &file, "c_1"), Ok(true), "{out}");
    }
    // What TChecker cannot read at all is refused, located.
    let or = "int[0, 3] i = 0;\ntemplate P() {\n    init location l0;\n    location l1;\n\
        l0 -> l1 when i == 1 || i == 2;\n}\nsystem P;\ncheck c: E<> P.l1;\n";
    let net = zeno::semantics::analyze(or).network.expect("a network");
    let errs = zeno::import::export_tchecker(&net, "or").expect_err("no ||");
    assert!(
        errs.iter().any(|d| d.message.contains("no `||`")),
        "{errs:?}"
    );
}
