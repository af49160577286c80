//! The distributed breadth-first search (`zeno check --workers`, `--hosts`)
//! against the sequential one: on random networks, 1, 2 and 4 workers give
//! the same verdicts, stored counts and (shortest) traces, which the
//! independent simulator replays, and a state limit stops them after the
//! same states; on a peer model 1, 2 and 4 processes on loopback agree with
//! `--search bfs --threads 1`; a process killed mid-run, or one that never
//! connects, ends the others with `unknown`, not a hang; bad flags are
//! usage errors.

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::support;

use proptest::prelude::*;
use support::cli::{scratch, stderr, stdout, zeno};
use support::random_net::{bfs, build, run, spec};
use zeno::checker::*;
use zeno::distributed::{Cluster, Plan};
use zeno::ir::*;

/// Every check of `net` on a cluster of `workers` threads.
fn distributed(net: &Network, workers: usize, options: &Options) -> Vec<CheckResult> {
    let cluster = Cluster::start(&Plan {
        workers,
        hosts: None,
    })
    .expect("threads start");
    let shared = Arc::new(net.clone());
    let results = (0..net.checks.len())
        .map(|k| {
            let id = net.check_at(k).unwrap();
            assert_eq!(distributed::refusal(net, id, options), None);
            cluster
                .check(&shared, id, options, &Cancel::new(), 7)
                .expect("no peer is lost")
                .expect("worker 0 is here")
                .0
        })
        .collect();
    cluster.finish(Duration::from_secs(10)).expect("ends");
    results
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    #[test]
    fn distributed_bfs_agrees_with_sequential_bfs(s in spec()) {
        let net = build(&s);
        let options = bfs(1, 20_000);
        let seq: Vec<CheckResult> =
            (0..net.checks.len()).map(|k| run(&net, k, &options)).collect();
        for workers in [1, 2, 4] {
            for (k, (d, s)) in distributed(&net, workers, &options).iter().zip(&seq).enumerate() {
                prop_assert!(!matches!(s.verdict, Verdict::Unknown(_)));
                prop_assert_eq!(d.stats.threads, workers as u32);
                // Model errors included: the first goal or error in the
                // sequential order is the one reported, by the same path.
                prop_assert_eq!(&d.verdict, &s.verdict, "workers {} check {}", workers, k);
                prop_assert_eq!(&d.trace, &s.trace, "workers {} check {}", workers, k);
                if let Some(t) = &d.trace {
                    let replayed = support::simulator::replay(&net, k, t);
                    prop_assert!(replayed.is_ok(), "check {}: {:?}\n{:#?}", k, replayed, t);
                }
                if s.trace.is_none() {
                    // A full exploration: the same states, the same successors.
                    prop_assert_eq!(d.stats.stored, s.stats.stored, "workers {} check {}", workers, k);
                    prop_assert_eq!(d.stats.explored, s.stats.explored);
                    prop_assert_eq!(d.stats.generated, s.stats.generated);
                } else {
                    // Whole slabs are expanded at once, never fewer states.
                    prop_assert!(d.stats.explored >= s.stats.explored);
                }
            }
        }
    }

    /// A state limit stops the distributed search exactly where it stops
    /// the sequential one.
    #[test]
    fn a_state_limit_stops_both_alike(s in spec(), max in 1u64..40) {
        let net = build(&s);
        let options = bfs(1, max);
        for (k, d) in distributed(&net, 3, &options).iter().enumerate() {
            let s = run(&net, k, &options);
            prop_assert_eq!(&d.verdict, &s.verdict);
            prop_assert_eq!(&d.trace, &s.trace);
            if s.verdict == Verdict::Unknown(Limit::States) {
                prop_assert_eq!(d.stats.explored, max);
                prop_assert_eq!(s.stats.explored, max);
            }
        }
    }
}

/// Free ports on loopback: bound, then let go (the processes bind them
/// next).
fn hostfile(dir: &Path, processes: usize) -> String {
    let ports: Vec<TcpListener> = (0..processes)
        .map(|_| TcpListener::bind("127.0.0.1:0").expect("a free port"))
        .collect();
    let text: String = ports
        .iter()
        .map(|l| format!("127.0.0.1:{}\n", l.local_addr().unwrap().port()))
        .collect();
    let path = dir.join("hosts");
    std::fs::write(&path, text).expect("write the host file");
    path.to_string_lossy().into_owned()
}

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_zeno"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn zeno")
}

/// Waits for `child` at most `limit`, killing it after (a hang fails the
/// test rather than the suite).
fn wait(mut child: Child, limit: Duration) -> Output {
    let start = Instant::now();
    while child.try_wait().expect("poll").is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().expect("output");
            panic!("zeno ran past {limit:?}: {}{}", stdout(&out), stderr(&out));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

/// `zeno check` on `processes` processes on loopback: every process's
/// output, process 0's first.
fn on_processes(test: &str, processes: usize, args: &[&str]) -> Vec<Output> {
    let dir = scratch(test);
    let hosts = hostfile(&dir, processes);
    let children: Vec<Child> = (0..processes)
        .map(|i| {
            let i = i.to_string();
            let mut all = args.to_vec();
            all.extend([
                "--hosts",
                &hosts,
                "--process",
                &i,
                "--connect-timeout",
                "60",
            ]);
            spawn(&all)
        })
        .collect();
    children
        .into_iter()
        .map(|c| wait(c, Duration::from_secs(120)))
        .collect()
}

/// The figures a JSON report gives every check: verdict, explored,
/// generated, stored and the trace. With a trace, the search stopped at a
/// goal or an error, and the distributed search has expanded the rest of
/// its slab: explored, generated and stored are then compared as 0.
fn figures(json: &str) -> Vec<(String, u64, u64, u64, String)> {
    let doc: serde_json::Value = serde_json::from_str(json).expect("a JSON report");
    doc["files"][0]["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .map(|c| {
            let full = c["trace"].is_null();
            let n = |f: &str| {
                let n = c["stats"][f].as_u64().expect(f);
                if full { n } else { 0 }
            };
            (
                c["verdict"].as_str().unwrap().to_string(),
                n("explored"),
                n("generated"),
                n("stored"),
                c["trace"].to_string(),
            )
        })
        .collect()
}

const FDDI: &str = "../shared/peer/models/fddi/fddi_8_full.tck";

#[test]
fn processes_on_loopback_agree_with_the_sequential_search() {
    if !Path::new(FDDI).exists() {
        return;
    }
    let args = [
        "check",
        FDDI,
        "--labels",
        "nvA,nvB",
        "--format",
        "json",
        "--symmetry",
        "off",
    ];
    let mut seq_args = args.to_vec();
    seq_args.extend(["--search", "bfs", "--threads", "1"]);
    let seq = zeno(&seq_args);
    let expected = figures(&stdout(&seq));
    // TChecker's verdict (EXPECTED.md): the labels are not reachable together;
    // the sequential figures are the pinned ones of tests/data/state_counts.tsv.
    assert_eq!(expected[0].0, "fails", "{}", stdout(&seq));
    assert_eq!(
        (expected[0].1, expected[0].2, expected[0].3),
        (2635, 3589, 303)
    );
    let dir = scratch("dist-fddi-workers");
    for workers in ["1", "2", "4"] {
        let traffic = dir.join(format!("traffic-{workers}.tsv"));
        let mut a = args.to_vec();
        a.extend(["--workers", workers, "--traffic", traffic.to_str().unwrap()]);
        let out = zeno(&a);
        assert_eq!(figures(&stdout(&out)), expected, "--workers {workers}");
        // The traffic table: its levels' states add up to the explored
        // states; one worker sends nothing, more send some of the
        // generated successors.
        let table = std::fs::read_to_string(&traffic).expect("the traffic table");
        let rows: Vec<Vec<u64>> = table
            .lines()
            .skip(1)
            .map(|l| l.split('\t').skip(1).map(|n| n.parse().unwrap()).collect())
            .collect();
        let sum = |i: usize| rows.iter().map(|r| r[i]).sum::<u64>();
        assert_eq!(sum(1), 2635, "{table}");
        assert_eq!(
            rows.iter().map(|r| r[0]).collect::<Vec<_>>(),
            (0..rows.len() as u64).collect::<Vec<_>>()
        );
        if workers == "1" {
            assert_eq!((sum(2), sum(3)), (0, 0), "{table}");
        } else {
            assert!(sum(2) > 0 && sum(2) <= 3589, "{table}");
            assert!(sum(3) > sum(2), "{table}");
        }
    }
    for processes in [1, 2, 4] {
        let outs = on_processes(
            &format!("dist-fddi-{processes}"),
            processes,
            &[&args[..], &["--workers", "1"]].concat(),
        );
        assert_eq!(outs[0].status.code(), Some(1), "{}", stderr(&outs[0]));
        assert_eq!(
            figures(&stdout(&outs[0])),
            expected,
            "{processes} processes"
        );
        for (i, o) in outs.iter().enumerate().skip(1) {
            // The others print nothing, and end as process 0 does.
            assert_eq!(stdout(o), "", "process {i}");
            assert_eq!(stderr(o), "", "process {i}");
            assert_eq!(o.status.code(), Some(0), "process {i}");
        }
    }
}

#[test]
fn two_processes_of_two_workers_find_the_sequential_trace() {
    // A model with a witness, its trace and a model error, as text.
    let dir = scratch("dist-trace");
    let model = dir.join("m.zeno");
    std::fs::write(
        &model,
        "
        typedef int[1, 3] id_t;
        int[0, 5] n = 0;
        template P(const id_t id) {
            clock x;
            init location a invariant x <= 4;
            location b;
            a -> a when n < 4 && x >= id do n = n + 1, x = 0;
            a -> b when n == 3;
            a -> a when n == 4 && id == 3 do n = n + 2;
        }
        system P;
        check three: E<> P(2).b && n == 3;
        check never: A[] n <= 4;
        check overflow: A[] n != 7;
        ",
    )
    .unwrap();
    let model = model.to_string_lossy().into_owned();
    let args = ["check", &model, "--format", "json", "--trace", "full"];
    let seq = zeno(&[&args[..], &["--search", "bfs", "--threads", "1"]].concat());
    let expected = figures(&stdout(&seq));
    assert_eq!(expected.len(), 3, "{}{}", stdout(&seq), stderr(&seq));
    assert_eq!(expected[0].0, "holds");
    assert_ne!(expected[0].4, "null");
    let outs = on_processes(
        "dist-trace-2",
        2,
        &[&args[..], &["--workers", "2"]].concat(),
    );
    assert_eq!(figures(&stdout(&outs[0])), expected, "{}", stderr(&outs[0]));
    assert_eq!(outs[0].status.code(), seq.status.code());
}

/// A chain of a million states, one a level: a run long enough to kill a
/// process in the middle of it.
fn long_chain(dir: &Path) -> String {
    let model = dir.join("chain.zeno");
    std::fs::write(
        &model,
        "
        int[0, 1000000] n = 0;
        template P() {
            init location a;
            a -> a when n < 1000000 do n = n + 1;
        }
        system P;
        check never: A[] n != 1000000;
        ",
    )
    .unwrap();
    model.to_string_lossy().into_owned()
}

#[test]
fn a_killed_process_ends_the_others_with_unknown() {
    let dir = scratch("dist-kill");
    let model = long_chain(&dir);
    let hosts = hostfile(&dir, 3);
    let run = |i: &str| {
        spawn(&[
            "check",
            &model,
            "--format",
            "json",
            "--hosts",
            &hosts,
            "--process",
            i,
        ])
    };
    let p0 = run("0");
    let p1 = run("1");
    let mut p2 = run("2");
    // Connected and searching: then process 2 dies.
    std::thread::sleep(Duration::from_secs(2));
    assert!(p2.try_wait().unwrap().is_none(), "still searching");
    p2.kill().expect("kill process 2");
    let _ = p2.wait();
    let out0 = wait(p0, Duration::from_secs(60));
    let out1 = wait(p1, Duration::from_secs(60));
    assert_eq!(out0.status.code(), Some(3), "{}", stderr(&out0));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out0)).expect("JSON");
    let check = &doc["files"][0]["checks"][0];
    assert_eq!(check["verdict"], "unknown");
    assert_eq!(check["limit"], "peer");
    // The connection's end, as timely's network thread met it.
    assert!(
        stderr(&out0).contains("error: distributed search: timely:"),
        "{}",
        stderr(&out0)
    );
    // Process 1 prints no result, only its error.
    assert_eq!(stdout(&out1), "");
    assert!(
        stderr(&out1).contains("error: distributed search"),
        "{}",
        stderr(&out1)
    );
    assert_eq!(out1.status.code(), Some(3));
}

/// After a lost process the others give up their rounds, join their
/// threads and end: within seconds of the loss, never a hang, with the
/// reason, and with the figures the workers had agreed on before it.
#[test]
fn a_lost_process_ends_the_run_promptly_with_its_reason_and_figures() {
    let dir = scratch("dist-lost-prompt");
    let model = long_chain(&dir);
    let hosts = hostfile(&dir, 2);
    let run = |i: &str| {
        spawn(&[
            "check",
            &model,
            "--format",
            "json",
            "--hosts",
            &hosts,
            "--process",
            i,
        ])
    };
    let p0 = run("0");
    let mut p1 = run("1");
    std::thread::sleep(Duration::from_secs(2));
    assert!(p1.try_wait().unwrap().is_none(), "still searching");
    p1.kill().expect("kill process 1");
    let _ = p1.wait();
    let lost = Instant::now();
    let out0 = wait(p0, Duration::from_secs(60));
    // The workers look for a failure every 50 ms, answer within 2 s and
    // are joined within 5 s: 15 s leaves room for a loaded machine.
    let took = lost.elapsed();
    assert!(
        took < Duration::from_secs(15),
        "ended {took:?} after the loss"
    );
    assert_eq!(out0.status.code(), Some(3), "{}", stderr(&out0));
    assert!(
        stderr(&out0).contains("error: distributed search: timely:"),
        "{}",
        stderr(&out0)
    );
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out0)).expect("JSON");
    let check = &doc["files"][0]["checks"][0];
    assert_eq!(check["verdict"], "unknown");
    assert_eq!(check["limit"], "peer");
    // The chain has one state a level: the levels explored before the
    // loss, which took two seconds, are some and far from all.
    let explored = check["stats"]["explored"].as_u64().expect("explored");
    assert!(
        explored > 0 && explored < 1_000_001,
        "explored {explored} before the loss"
    );
    // Each state of the chain generates the next, after the initial one.
    let generated = check["stats"]["generated"].as_u64().expect("generated");
    assert_eq!(generated, explored + 1);
    // Every state of the chain is new: stored as of the last slab
    // inserted, which the loss may have caught between the expansion of a
    // slab and the insertion of its successor.
    let stored = check["stats"]["stored"].as_u64().expect("stored");
    assert!(explored <= stored && stored <= generated, "stored {stored}");
}

#[test]
fn a_process_that_never_connects_is_a_timeout() {
    let dir = scratch("dist-absent");
    let model = long_chain(&dir);
    let hosts = hostfile(&dir, 2);
    let started = Instant::now();
    let out = wait(
        spawn(&[
            "check",
            &model,
            "--hosts",
            &hosts,
            "--process",
            "0",
            "--connect-timeout",
            "0.5",
        ]),
        Duration::from_secs(60),
    );
    assert!(started.elapsed() < Duration::from_secs(30));
    assert_eq!(out.status.code(), Some(3));
    assert!(
        stderr(&out).contains("process 1 (127.0.0.1:")
            && stderr(&out).contains("did not connect within 0.5 s"),
        "{}",
        stderr(&out)
    );
    assert!(
        stdout(&out)
            .contains("unknown: a process of the distributed search was lost or never connected")
    );
}

#[test]
fn bad_flags_and_host_files_are_usage_errors() {
    let dir = scratch("dist-flags");
    let model = long_chain(&dir);
    let bad = dir.join("bad-hosts");
    std::fs::write(&bad, "# two\n127.0.0.1:2101\n127.0.0.1\n").unwrap();
    let bad = bad.to_string_lossy().into_owned();
    let good = hostfile(&dir, 2);
    let cases: [(&[&str], &str); 7] = [
        (
            &["--workers", "0"],
            "invalid --workers `0`: expected at least 1",
        ),
        (
            &["--hosts", "missing-hosts", "--process", "0"],
            "cannot read --hosts missing-hosts",
        ),
        (
            &["--hosts", &bad, "--process", "0"],
            "bad-hosts:3: `127.0.0.1` is not `host:port`",
        ),
        (&["--hosts", &good, "--process", "2"], "--process 2: "),
        (&["--hosts", &good], "--process"),
        (&["--workers", "2", "--search", "dfs"], "breadth-first only"),
        (
            &["--workers", "2", "--threads", "2"],
            "cannot be combined with --threads",
        ),
    ];
    for (flags, message) in cases {
        let out = zeno(&[&["check", &model][..], flags].concat());
        assert_eq!(out.status.code(), Some(2), "{flags:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(message),
            "{flags:?}: {}",
            stderr(&out)
        );
        assert_eq!(stdout(&out), "", "{flags:?}");
    }
}

#[test]
fn checks_it_does_not_decide_are_refused_by_name() {
    let dir = scratch("dist-refused");
    let model = dir.join("live.zeno");
    std::fs::write(
        &model,
        "
        template P() {
            clock x;
            init location a invariant x <= 1;
            a -> a when x >= 1 do x = 0;
        }
        system P;
        check live: A<> P.a;
        check safe: A[] P.a;
        ",
    )
    .unwrap();
    let out = zeno(&["check", &model.to_string_lossy(), "--workers", "2"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "check `live`: a liveness check: distributed search decides reachability checks only"
        ),
        "{}",
        stderr(&out)
    );
    // The reachability check is decided all the same.
    assert!(stdout(&out).contains("safe: holds"), "{}", stdout(&out));
}
