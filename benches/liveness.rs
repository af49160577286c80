//! Directed against blind liveness search, on models with liveness bugs.
//! Prints a Markdown table: verdict, explored and stored states, the
//! lasso's shape (steps before the cycle + steps of the cycle, or how the
//! run ends), time, and the state store's estimated memory.
//!
//! Blind: breadth-first outer search of `-->`, depth-first inner searches
//! in the network's order of successors. Directed (`directed.rs`):
//! best-first outer search on the heuristic toward `p && !q`, inner
//! searches trying cycle-closing successors first.
//!
//! Then the same questions side by side with TChecker's `tck-liveness`
//! (`../shared/peer/tchecker/run.sh`, skipped when absent), run one after
//! the other: "is there an infinite run on which P(1) never reaches goal",
//! `A<> P(1).goal` for zeno, an accepting cycle through P(1)'s `s` for
//! TChecker (nested DFS and Couvreur's SCC algorithm), see docs/checker.md.
//!
//! `cargo bench --bench liveness` (optionally `-- quick` for the smallest
//! instances).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use zeno::bench::families;
use zeno::checker::*;

/// A model with its liveness checks appended.
fn with_checks(text: String, checks: &str) -> zeno::ir::Network {
    let text = format!("{text}\n{checks}\n");
    let analysis = zeno::semantics::analyze(&text);
    analysis
        .network
        .unwrap_or_else(|| panic!("does not analyse: {:?}", analysis.diagnostics))
}

/// `n` urgent counters (time never passes), each of which may count up to
/// 8 or skip a turn (`s -> s`, which changes nothing: a cycle at once).
/// `A<>` all counters at 8 fails: a process may skip for ever. In the
/// network's order the counting edge comes first, so a blind depth-first
/// search counts up before it takes a skip; a cycle-closing search takes
/// the skip at once.
fn counters(n: usize) -> zeno::ir::Network {
    let text = format!(
        "const int N = {n};\ntypedef int[1, N] id_t;\nint[0, 8] c[id_t];\n\
         template C(const id_t i) {{ init urgent location s;\n\
         s -> s when c[i] < 8 do c[i] = c[i] + 1;\n s -> s; }}\n\
         system C;\ncheck all: A<> forall (i : id_t) c[i] == 8;\n"
    );
    with_checks(text, "")
}

/// `n` tasks, each counting to 3 at one step per time unit (invariant
/// `x <= 1`, guard `x >= 1`) and then moving to `goal`, a sink. With
/// `lazy`, a task may also start its count again: P(1) can then avoid goal
/// for ever (a non-Zeno cycle), and `A<> P(1).goal` fails; without, every
/// task must reach goal (nothing cycles, nothing deadlocks or waits for
/// ever while P(1) is in `s`) and it holds after a full exploration.
fn tasks(n: usize, lazy: bool) -> String {
    let reset = if lazy {
        "    s -> s when x >= 1 do c[i] = 0, x = 0;\n"
    } else {
        ""
    };
    format!(
        "const int N = {n};\ntypedef int[1, N] id_t;\nint[0, 3] c[id_t];\n\
         template P(const id_t i) {{\n    clock x;\n    init location s invariant x <= 1;\n    location goal;\n\
             s -> s when x >= 1 && c[i] < 3 do c[i] = c[i] + 1, x = 0;\n{reset}\
             s -> goal when c[i] == 3;\n}}\nsystem P;\ncheck reaches: A<> P(1).goal;\n"
    )
}

/// Fischer's protocol as in UPPAAL's demo (K = 2), `n` processes, with the
/// demo's leads-to `Proc(1).req --> Proc(1).wait` (it holds: `req` has the
/// invariant `x <= K` and its one edge leads to `wait`). With `one_shot`,
/// Proc(1) requests once (no `wait -> req`, and `cs -> done`), so that
/// "an infinite run on which Proc(1) stays in req" is also TChecker's
/// question: an accepting cycle through Proc(1)'s `req`.
fn fischer_leads_to(n: usize, one_shot: bool) -> String {
    format!(
        "const int N = {n};\nconst int K = 2;\nconst int ONE_SHOT = {};\n\
         typedef int[1, N] pid_t;\nint[0, N] id = 0;\n\
         template Proc(const pid_t pid) {{\n    clock x;\n    init location idle;\n\
             location req invariant x <= K;\n    location wait;\n    location cs;\n    location done;\n\
             idle -> req when id == 0 do x = 0;\n\
             req -> wait when x <= K do x = 0, id = pid;\n\
             wait -> req when id == 0 && (pid != 1 || ONE_SHOT == 0) do x = 0;\n\
             wait -> cs when x > K && id == pid;\n\
             cs -> idle when pid != 1 || ONE_SHOT == 0 do id = 0;\n\
             cs -> done when pid == 1 && ONE_SHOT == 1 do id = 0;\n}}\n\
         system Proc;\ncheck req_wait: Proc(1).req --> Proc(1).wait;\n",
        u8::from(one_shot)
    )
}

/// UPPAAL's train-gate demo with `n` trains (the queue written with the
/// demo's functions), with its leads-to `Train(0).Appr --> Train(0).Cross`
/// (it holds). With `one_shot`, Train(0) leaves the bridge for a sink
/// `Gone` instead of `Safe`: "an infinite run on which Train(0) stays
/// in Appr, Stop or Start" is TChecker's accepting cycle through those.
fn train_gate_leads_to(n: usize, one_shot: bool) -> String {
    format!(
        "const int N = {n};\nconst int ONE_SHOT = {};\ntypedef int[0, N - 1] id_t;\n\
         chan appr[N];\nchan stop[N];\nchan leave[N];\nurgent chan go[N];\n\
         template Train(const id_t id) {{\n    clock x;\n    init location Safe;\n\
             location Appr invariant x <= 20;\n    location Stop;\n\
             location Start invariant x <= 15;\n    location Cross invariant x <= 5;\n    location Gone;\n\
             Safe -> Appr sync appr[id]! do x = 0;\n\
             Appr -> Stop when x <= 10 sync stop[id]?;\n\
             Appr -> Cross when x >= 10 do x = 0;\n\
             Stop -> Start sync go[id]? do x = 0;\n\
             Start -> Cross when x >= 7 do x = 0;\n\
             Cross -> Safe when x >= 3 && (id != 0 || ONE_SHOT == 0) sync leave[id]!;\n\
             Cross -> Gone when x >= 3 && id == 0 && ONE_SHOT == 1 sync leave[id]!;\n}}\n\
         template Gate() {{\n    id_t list[N + 1];\n    int[0, N] len;\n\
             void enqueue(id_t element) {{ list[len++] = element; }}\n\
             void dequeue() {{ int i = 0; len -= 1; while (i < len) {{ list[i] = list[i + 1]; i++; }} list[i] = 0; }}\n\
             id_t front() {{ return list[0]; }}\n    id_t tail() {{ return list[len - 1]; }}\n\
             init location Free;\n    location Occ;\n    committed location Enq;\n\
             Free -> Occ when len > 0 sync go[front()]!;\n\
             Free -> Occ select e : id_t when len == 0 sync appr[e]? do enqueue(e);\n\
             Occ -> Enq select e : id_t sync appr[e]? do enqueue(e);\n\
             Enq -> Occ sync stop[tail()]!;\n\
             Occ -> Free select e : id_t when e == front() sync leave[e]? do dequeue();\n}}\n\
         system Train, Gate;\ncheck appr_cross: Train(0).Appr --> Train(0).Cross;\n",
        u8::from(one_shot)
    )
}

/// Leads-to at scale: zeno's `-->` on the full demo models and on the
/// one-shot variants, then `tck-liveness` on the one-shot variants (the
/// same question, see above), back to back. Explored states, time and
/// memory (zeno: the stores' estimate; TChecker: its max RSS).
fn scale(full: &[(&str, usize)], tck: bool) {
    println!("\n| model | tool | answer | explored | stored | time (ms) | memory (KiB) |");
    println!("|---|---|---|---:|---:|---:|---:|");
    let run = tchecker().filter(|_| tck);
    for &(family, n) in full {
        for one_shot in [false, true] {
            let text = match family {
                "fischer" => fischer_leads_to(n, one_shot),
                _ => train_gate_leads_to(n, one_shot),
            };
            let net = with_checks(text, "");
            let model = format!(
                "{family}{} N = {n}",
                if one_shot { " one-shot" } else { "" }
            );
            let options = Options {
                config: zeno::checker::config::Config {
                    search: SearchOrder::Bfs,
                    ..Default::default()
                },
                ..Options::default()
            };
            let r = zeno::checker::check(
                &net,
                net.check_at(0).expect("a check"),
                &options,
                &Cancel::new(),
                &mut |_| {},
            );
            println!(
                "| {model} | zeno | --> {:?} | {} | {} | {:.1} | {} (store) |",
                r.verdict,
                r.stats.explored,
                r.stats.stored,
                r.stats.elapsed.as_secs_f64() * 1000.0,
                r.stats.peak_memory / 1024,
            );
            // TChecker has no urgent channels nor channel indices computed
            // from variables: the train-gate does not export.
            if let (Some(run), true, "fischer") = (&run, one_shot, family) {
                let file = tck_labelled(&net, &format!("{family}_{n}"), "Proc_1", &["req"]);
                for algo in ["ndfs", "couvscc"] {
                    println!(
                        "| {model} | tck-liveness {algo} | {} |",
                        run_tck(run, algo, &file)
                    );
                }
            }
        }
    }
}

/// The network as a TChecker file whose `process`'s `locations` are
/// labelled `acc`.
fn tck_labelled(net: &zeno::ir::Network, name: &str, process: &str, locations: &[&str]) -> PathBuf {
    let text = zeno::import::export_tchecker(net, name).expect("exports");
    let mut labelled = String::new();
    let mut done = 0;
    for line in text.lines() {
        let hit = locations
            .iter()
            .any(|l| line.starts_with(&format!("location:{process}:{l}{{")));
        if hit {
            labelled.push_str(&line.replacen('}', " : labels:acc}", 1));
            done += 1;
        } else {
            labelled.push_str(line);
        }
        labelled.push('\n');
    }
    assert_eq!(
        done,
        locations.len(),
        "labels not placed in {process}: {text}"
    );
    let path = std::env::temp_dir().join(format!("zeno-leads-to-{name}.tck"));
    std::fs::write(&path, labelled).unwrap();
    path
}

fn tchecker() -> Option<PathBuf> {
    let run = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/peer/tchecker/run.sh");
    run.is_file().then_some(run)
}

/// The network as a TChecker file whose first process's location `s` is
/// labelled `acc`.
fn tck_file(net: &zeno::ir::Network, name: &str) -> PathBuf {
    let text = zeno::import::export_tchecker(net, name).expect("exports");
    let first = net.processes[0].name.replace(['(', ')'], "_");
    let mut labelled = String::new();
    let mut done = false;
    for line in text.lines() {
        if !done && line.starts_with("location:") && line.contains(":s{") {
            let line = line.replace("}", " : labels:acc}");
            labelled.push_str(&line);
            done = true;
        } else {
            labelled.push_str(line);
        }
        labelled.push('\n');
    }
    assert!(done, "no location s in {first}: {text}");
    let path = std::env::temp_dir().join(format!("zeno-liveness-{name}.tck"));
    std::fs::write(&path, labelled).unwrap();
    path
}

/// `tck-liveness -a ALGO -l acc FILE`: its answer, visited and stored
/// states, time (its own) and peak memory (its own, max RSS).
fn run_tck(run: &Path, algo: &str, file: &Path) -> String {
    let out = Command::new(run)
        .args(["tck-liveness", "-a", algo, "-l", "acc"])
        .arg(file)
        .output()
        .expect("runs tck-liveness");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let get = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key).map(|v| v.trim().to_string()))
            .unwrap_or_else(|| "?".to_string())
    };
    let visited = if algo == "ndfs" {
        get("VISITED_STATES_TOTAL")
    } else {
        get("VISITED_STATES")
    };
    let seconds: f64 = get("RUNNING_TIME_SECONDS").parse().unwrap_or(f64::NAN);
    format!(
        "cycle {} | {visited} | {} | {:.1} | {} (max RSS)",
        get("CYCLE"),
        get("STORED_STATES"),
        seconds * 1000.0,
        get("MEMORY_MAX_RSS"),
    )
}

fn side_by_side(sizes: &[usize]) {
    let Some(run) = tchecker() else {
        println!("\n(tck-liveness not found beside the repository: no side-by-side table)");
        return;
    };
    println!("\n| model | tool | answer | explored | stored | time (ms) | memory (KiB) |");
    println!("|---|---|---|---:|---:|---:|---:|");
    for &n in sizes {
        for lazy in [true, false] {
            let model = format!("tasks-{} N = {n}", if lazy { "lazy" } else { "forced" });
            let net = with_checks(tasks(n, lazy), "");
            for (name, search, heuristic) in [
                ("zeno blind", SearchOrder::Bfs, HeuristicKind::Zero),
                ("zeno directed", SearchOrder::Greedy, HeuristicKind::HU),
            ] {
                let options = Options {
                    config: zeno::checker::config::Config {
                        search,
                        heuristic,
                        ..Default::default()
                    },
                    ..Options::default()
                };
                let r = zeno::checker::check(
                    &net,
                    net.check_at(0).expect("a check"),
                    &options,
                    &Cancel::new(),
                    &mut |_| {},
                );
                println!(
                    "| {model} | {name} | A<> {:?} | {} | {} | {:.1} | {} (store) |",
                    r.verdict,
                    r.stats.explored,
                    r.stats.stored,
                    r.stats.elapsed.as_secs_f64() * 1000.0,
                    r.stats.peak_memory / 1024,
                );
            }
            let file = tck_file(&net, &format!("tasks_{n}_{lazy}"));
            for algo in ["ndfs", "couvscc"] {
                println!(
                    "| {model} | tck-liveness {algo} | {} |",
                    run_tck(&run, algo, &file)
                );
            }
        }
    }
}

fn shape(t: &Trace) -> String {
    match t.end {
        TraceEnd::Loop { start, .. } => format!("{start} + {}", t.len() - start),
        TraceEnd::Deadlock { .. } => format!("{}, deadlock", t.len()),
        TraceEnd::TimeDiverges => format!("{}, time diverges", t.len()),
        _ => format!("{}", t.len()),
    }
}

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    // `-- scale`: leads-to on the demo models at 10^4..10^6 states.
    if std::env::args().any(|a| a == "scale") {
        let sizes: &[(&str, usize)] = if quick {
            &[("fischer", 5), ("train-gate", 5)]
        } else {
            &[
                ("fischer", 6),
                ("fischer", 7),
                ("train-gate", 6),
                ("train-gate", 7),
            ]
        };
        scale(sizes, true);
        return;
    }
    let sizes: &[usize] = if quick { &[3, 4] } else { &[3, 4, 5, 6, 7] };
    let configs: [(&str, SearchOrder, HeuristicKind); 3] = [
        ("blind", SearchOrder::Bfs, HeuristicKind::Zero),
        ("directed hU", SearchOrder::Greedy, HeuristicKind::HU),
        ("directed hL", SearchOrder::Greedy, HeuristicKind::HL),
    ];
    println!(
        "| model | check | search | verdict | explored | stored | lasso | time (ms) | memory (KiB) |"
    );
    println!("|---|---|---|---|---:|---:|---|---:|---:|");
    for &n in sizes {
        // Correct Fischer starves a process: Proc(1) may go round
        // req -> wait -> req for ever while the others take turns in cs.
        let starve = with_checks(
            families::fischer(n, false),
            "check starve: Proc(1).req --> Proc(1).cs;",
        );
        // Faulty Fischer breaks mutual exclusion, and nothing forces the
        // intruders out of cs (no invariant there): the breach never heals.
        let breach = with_checks(
            families::fischer(n, true),
            "check heals: Proc(1).cs && Proc(2).cs --> id == 0;",
        );
        // With an invariant in wait (x <= 3, K = 2) no process can wait
        // for ever: a run that starves Proc(1) must go round a cycle (or
        // stop in a time-lock), so the inner search has to close one.
        let bounded = with_checks(
            families::fischer(n, false)
                .replace("location wait;", "location wait invariant x <= 3;"),
            "check starve: Proc(1).req --> Proc(1).cs;",
        );
        let counting = counters(n);
        for (model, net) in [
            ("counters", &counting),
            ("fischer", &starve),
            ("fischer-faulty", &breach),
            ("fischer-bounded", &bounded),
        ] {
            let check = net.check_ids().last().expect("a check");
            for (name, search, heuristic) in configs {
                let options = Options {
                    config: zeno::checker::config::Config {
                        search,
                        heuristic,
                        ..Default::default()
                    },
                    ..Options::default()
                };
                let started = Instant::now();
                let r = zeno::checker::check(net, check, &options, &Cancel::new(), &mut |_| {});
                let ms = started.elapsed().as_secs_f64() * 1000.0;
                println!(
                    "| {model} N = {n} | {} | {name} | {:?} | {} | {} | {} | {ms:.1} | {} |",
                    net.check(check).name,
                    r.verdict,
                    r.stats.explored,
                    r.stats.stored,
                    r.trace.as_ref().map_or("-".to_string(), shape),
                    r.stats.peak_memory / 1024,
                );
            }
        }
    }
    side_by_side(if quick { &[3] } else { &[3, 4, 5, 6] });
}
