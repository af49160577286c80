//! Symmetry reduction over `scalar` sets (`Options::symmetry`,
//! `--symmetry`): which models the semantics layer finds symmetric (and
//! the warnings where it does not), state counts on Fischer's protocol
//! with a scalar process set, and agreement with the unreduced search on
//! random symmetric models (verdicts always equal, never more states in
//! breadth-first search, every trace replayed by the independent
//! simulator).

use proptest::prelude::*;

use crate::support;
use zeno::checker::{Cancel, CheckResult, Options, SearchOrder, Subsume, Verdict, check};
use zeno::ir::Network;

fn network(text: &str) -> Network {
    let a = zeno::semantics::analyze(text);
    a.network
        .unwrap_or_else(|| panic!("the model has errors: {:?}", a.diagnostics))
}

fn run(net: &Network, k: usize, order: SearchOrder, symmetry: bool) -> CheckResult {
    let options = Options {
        config: zeno::checker::config::Config {
            search: order,
            ..Default::default()
        },
        subsume: Subsume::Inclusion,
        symmetry,
        ..Options::default()
    };
    let id = net.check_at(k).expect("a check");
    check(net, id, &options, &Cancel::new(), &mut |_| {})
}

/// Fischer's protocol with `n` processes over a scalar set (`zeno bench`'s
/// `fischer-scalar` family), with a second check that names processes 0
/// and 1 (not symmetric).
fn fischer(n: usize, faulty: bool) -> String {
    let family = if faulty {
        "fischer-scalar"
    } else {
        "fischer-scalar-correct"
    };
    let mut text = zeno::bench::families::parse(&format!("{family}:{n}")).unwrap()[0]
        .text
        .clone();
    text.push_str("\ncheck first_alone: A[] !(Proc(0).cs && Proc(1).cs);\n");
    text
}

/// The correct protocol holds with and without the reduction, which
/// stores fewer states, but never fewer than one per orbit of n! states
/// (a representative stands for at most n! states of the plain search).
#[test]
fn fischer_over_a_scalar_set_stores_one_state_per_orbit() {
    for n in 2..=6usize {
        let net = network(&fischer(n, false));
        assert_eq!(net.symmetry.sets.len(), 1);
        assert_eq!(net.symmetry.sets[0].processes.len(), 1);
        let plain = run(&net, 0, SearchOrder::Bfs, false);
        let reduced = run(&net, 0, SearchOrder::Bfs, true);
        assert_eq!(plain.verdict, Verdict::Holds);
        assert_eq!(reduced.verdict, Verdict::Holds);
        let fact: u64 = (1..=n as u64).product();
        assert!(
            reduced.stats.stored < plain.stats.stored
                && reduced.stats.stored * fact >= plain.stats.stored,
            "n = {n}: {} reduced, {} plain",
            reduced.stats.stored,
            plain.stats.stored
        );
        // Depth-first search agrees.
        assert_eq!(run(&net, 0, SearchOrder::Dfs, true).verdict, Verdict::Holds);
    }
}

/// The faulty protocol (`x >= K`) lets two processes in: both searches find
/// it, breadth-first at the same depth, and the reduced search's trace,
/// mapped back to the model's processes, replays. A check that names
/// processes 0 and 1 is not symmetric: it is searched without the
/// reduction (as many states as the plain search) and still fails.
#[test]
fn faulty_fischer_traces_are_mapped_back_and_replay() {
    let net = network(&fischer(4, true));
    for order in [SearchOrder::Bfs, SearchOrder::Dfs] {
        let plain = run(&net, 0, order, false);
        let reduced = run(&net, 0, order, true);
        assert_eq!(plain.verdict, Verdict::Fails);
        assert_eq!(reduced.verdict, Verdict::Fails);
        let trace = reduced.trace.as_ref().expect("a counterexample");
        support::simulator::replay(&net, 0, trace).expect("the mapped trace replays");
        if order == SearchOrder::Bfs {
            // Two processes each go A -> req -> wait -> cs: 6 steps.
            assert_eq!(trace.len(), 6);
            assert_eq!(plain.trace.as_ref().map(|t| t.len()), Some(6));
        }
    }
    assert_eq!(net.symmetry.asymmetric_checks[0], None);
    let why = net.symmetry.asymmetric_checks[1]
        .as_deref()
        .expect("asymmetric");
    assert!(why.contains("pid_t"), "{why}");
    let plain = run(&net, 1, SearchOrder::Bfs, false);
    let reduced = run(&net, 1, SearchOrder::Bfs, true);
    assert_eq!(reduced.verdict, Verdict::Fails);
    assert_eq!(reduced.stats.stored, plain.stats.stored);
    support::simulator::replay(&net, 1, reduced.trace.as_ref().unwrap()).unwrap();
}

/// Fischer's protocol as the model file writes it has no warning; each
/// use UPPAAL refuses gets one, located, saying the reduction is off, and
/// the network then has no symmetry.
#[test]
fn scalar_misuse_turns_the_reduction_off_with_a_located_warning() {
    let ok = fischer(3, false);
    assert_eq!(support::warnings(&ok), []);
    let cases = [
        // Arithmetic, a literal, an ordering, a plain array indexed by a value.
        ("id = pid", "id = (pid + 1) % 3", "pid"),
        (
            "bool set = false;",
            "bool set = false; pid_t start = 1;",
            "1",
        ),
        ("when x <= K ", "when x <= K && pid < id ", "pid"),
        ("do set = false;", "do set = false, seen[pid] = 1;", "seen"),
    ];
    for (from, to, at) in cases {
        let mut text = ok.replacen(from, to, 1);
        assert_ne!(text, ok, "{from}");
        if at == "seen" {
            text = text.replacen("bool set = false;", "bool set = false; int seen[3];", 1);
        }
        let warnings = support::warnings(&text);
        let net = network(&text);
        assert!(net.symmetry.sets.is_empty(), "{to}");
        let w: Vec<_> = warnings
            .iter()
            .filter(|(m, _)| m.contains("without symmetry reduction over `pid_t`"))
            .collect();
        assert_eq!(w.len(), 1, "{to}: {warnings:?}");
        let expected_at = if at == "seen" { "pid" } else { at };
        assert_eq!(w[0].1, expected_at, "{to}: {warnings:?}");
    }
}

/// The pass reads which declaration a name denotes from the resolver: a
/// template's plain `g` hides the global value of the set `g`, so
/// assigning it a literal keeps the reduction; without the local, the
/// same update assigns a literal to a value of the set and turns it off.
#[test]
fn a_local_hiding_a_set_valued_global_is_read_as_the_local() {
    let text = "typedef scalar[2] id_t;\nid_t g;\nint[0, 1] c[id_t];\n\
                template P(const id_t i) {\n  int[0, 3] g;\n  init location l;\n  \
                l -> l do g = 1, c[i] = 1;\n}\nsystem P;\ncheck safe: A[] c[g] <= 1;\n";
    let off = |t: &str| {
        support::warnings(t)
            .into_iter()
            .filter(|(m, _)| m.contains("without symmetry reduction"))
            .collect::<Vec<_>>()
    };
    assert_eq!(off(text), []);
    assert_eq!(network(text).symmetry.sets.len(), 1);
    let global = text.replacen("  int[0, 3] g;\n", "", 1);
    assert_ne!(global, text);
    let w = off(&global);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(network(&global).symmetry.sets.is_empty());
}

/// A verdict, with a model error's kind only (which variable overflows
/// first depends on the order).
fn verdict_kind(v: &Verdict) -> String {
    match v {
        Verdict::ModelError(e) => format!("model error {}", e.kind)
            .split(" of variable")
            .next()
            .unwrap()
            .to_string(),
        other => format!("{other:?}"),
    }
}

/// One edge of the random template: locations, a guard, an update and a
/// synchronisation, each picked from symmetric ones.
#[derive(Debug, Clone)]
struct EdgeSpec {
    from: u8,
    to: u8,
    guard: Option<u8>,
    update: Option<u8>,
    sync: Option<bool>,
}

const GUARDS: [&str; 8] = [
    "x <= 2",
    "x >= 1",
    "!busy",
    "busy && last == me",
    "last != me",
    "cnt[me] < 2",
    "y[me] > 1",
    "forall (j : pid_t) cnt[j] <= cnt[me]",
];
const UPDATES: [&str; 6] = [
    "x = 0",
    "busy = true, last = me",
    "busy = false",
    "cnt[me]++",
    "y[me] = 0, x = 0",
    "last = last",
];
const GOALS: [&str; 5] = [
    "E<> (sum (i : pid_t) P(i).l2) >= 2",
    "E<> exists (i : pid_t) P(i).l1 && cnt[i] == 2",
    "A[] !(busy && forall (i : pid_t) P(i).l0)",
    "E<> exists (i : pid_t) exists (j : pid_t) i != j && P(i).l2 && P(j).l2 && last == i",
    "E<> P(0).l2 && P(1).l1",
];

fn edge_spec() -> impl Strategy<Value = EdgeSpec> {
    (
        0..3u8,
        0..3u8,
        proptest::option::weighted(0.7, 0..GUARDS.len() as u8),
        proptest::option::weighted(0.7, 0..UPDATES.len() as u8),
        proptest::option::weighted(0.25, any::<bool>()),
    )
        .prop_map(|(from, to, guard, update, sync)| EdgeSpec {
            from,
            to,
            guard,
            update,
            sync,
        })
}

/// A random model of three processes over a scalar set, with a global
/// variable of the set, an array and a clock array over it, a channel
/// array over it, and a process clock; every check of `GOALS`.
fn random_model(edges: &[EdgeSpec], invariant: Option<u8>) -> String {
    let mut t = String::from(
        "typedef scalar[3] pid_t;
pid_t last;
bool busy = false;
int[0, 3] cnt[pid_t];
clock y[pid_t];
chan go[pid_t];

template P(const pid_t me) {
    clock x;
",
    );
    for l in 0..3u8 {
        let init = if l == 0 { "init " } else { "" };
        let inv = match invariant {
            Some(k) if k == l => " invariant x <= 3",
            _ => "",
        };
        t.push_str(&format!("    {init}location l{l}{inv};\n"));
    }
    for e in edges {
        let mut line = format!("    l{} -> l{}", e.from, e.to);
        if e.sync == Some(false) {
            line.push_str(" select j : pid_t");
        }
        if let Some(g) = e.guard {
            line.push_str(&format!(" when {}", GUARDS[g as usize]));
        }
        match e.sync {
            Some(true) => line.push_str(" sync go[me]!"),
            Some(false) => line.push_str(" sync go[j]?"),
            None => {}
        }
        if let Some(u) = e.update {
            line.push_str(&format!(" do {}", UPDATES[u as usize]));
        }
        t.push_str(&line);
        t.push_str(";\n");
    }
    t.push_str("}\n\nsystem P;\n\n");
    for (k, g) in GOALS.iter().enumerate() {
        t.push_str(&format!("check c{k}: {g};\n"));
    }
    t
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Verdicts equal with and without the reduction, never more states
    /// stored in breadth-first search, every trace replayed by the
    /// independent simulator (a trace of the reduced search is mapped
    /// back to the model's processes).
    #[test]
    fn reduction_agrees_with_the_plain_search_on_random_symmetric_models(
        edges in proptest::collection::vec(edge_spec(), 2..7),
        invariant in proptest::option::of(0..3u8),
    ) {
        let text = random_model(&edges, invariant);
        let net = network(&text);
        prop_assert_eq!(net.symmetry.sets.len(), 1, "{}", text);
        // Only the last check names single processes.
        for (k, why) in net.symmetry.asymmetric_checks.iter().enumerate() {
            prop_assert_eq!(why.is_some(), k == GOALS.len() - 1, "check {}", k);
        }
        for k in 0..net.checks.len() {
            for order in [SearchOrder::Bfs, SearchOrder::Dfs] {
                let plain = run(&net, k, order, false);
                let reduced = run(&net, k, order, true);
                // A search stops at the first goal or model error it meets,
                // and the reduction changes the order: where one meets a
                // model error, the other meets one too (perhaps in another
                // process: the same kind) or a goal (a trace).
                let error = |r: &CheckResult| matches!(r.verdict, Verdict::ModelError(_));
                if error(&plain) != error(&reduced) {
                    let other = if error(&plain) { &reduced } else { &plain };
                    prop_assert!(other.trace.is_some(), "check {}, {:?}\n{}", k, order, text);
                } else {
                    prop_assert_eq!(
                        verdict_kind(&reduced.verdict),
                        verdict_kind(&plain.verdict),
                        "check {}, {:?}\n{}", k, order, text
                    );
                }
                for t in reduced.trace.iter().chain(&plain.trace) {
                    let replayed = support::simulator::replay(&net, k, t);
                    prop_assert!(replayed.is_ok(), "check {k}, {order:?}: {replayed:?}\n{text}");
                }
                // Where the search covers everything (a search that stops at
                // a goal stores what its order met first).
                if order == SearchOrder::Bfs && plain.trace.is_none() {
                    prop_assert!(reduced.stats.stored <= plain.stats.stored,
                        "check {}: {} > {}\n{}", k, reduced.stats.stored, plain.stats.stored, text);
                }
                if order == SearchOrder::Bfs && error(&plain) == error(&reduced) {
                    // The shortest counterexample is as long.
                    prop_assert_eq!(
                        reduced.trace.as_ref().map(|t| t.len()),
                        plain.trace.as_ref().map(|t| t.len())
                    );
                }
            }
        }
    }
}
