//! A hand-built model text with its network and results, for testing the
//! renderers without the frontend or the checker.

use std::time::Duration;

use num_rational::Rational64;
use zeno::checker::{
    CheckResult, ConcreteState, Limit, Stats, Step, Trace, TraceEnd, Transition, Verdict,
};
use zeno::ir::*;

use super::source::Source;

pub const TEXT: &str = "\
chan go;
int[0, 3] id = 0;
template A() {
    clock x;
    init location idle;
    location cs;
    idle -> cs when x >= 1 sync go! do id = 1;
}
template B() {
    init location wait;
    location done;
    wait -> done sync go?;
}
system A, B;
check mutex: A[] !(A.cs && B.done);
check reach: E<> B.done;
";

pub fn source() -> Source {
    Source::new("m.zeno", TEXT.to_string())
}

/// The span of the first occurrence of `s` in [`TEXT`].
pub fn span(s: &str) -> Span {
    let start = TEXT.find(s).expect("fixture text") as u32;
    Span::new(start, start + s.len() as u32)
}

fn loc(name: &str) -> Location {
    Location {
        name: name.to_string(),
        kind: LocationKind::Normal,
        invariant: Vec::new(),
        data_invariant: None,
        stopped: Vec::new(),
        running: Vec::new(),
        data_rates: Vec::new(),
        span: span(&format!("location {name}")),
    }
}

fn edge(source: LocId, target: LocId, chan_dir: SyncDir, text: &str) -> Edge {
    Edge {
        source,
        target,
        guard: None,
        clock_guard: Vec::new(),
        sync: Some(Sync {
            channel: ChanRef {
                base: 0,
                len: 1,
                index: None,
            },
            dir: chan_dir,
        }),
        label: None,
        updates: Vec::new(),
        selects: Vec::new(),
        span: span(text),
    }
}

pub fn network() -> Network {
    let at = |process, location| Formula::At { process, location };
    Network {
        time_scale: Default::default(),
        variables: vec![Variable {
            name: "id".into(),
            lo: 0,
            hi: 3,
            init: 0,
            is_bool: false,
            span: span("int[0, 3] id = 0;"),
        }],
        clocks: vec![
            Clock {
                name: "0".into(),
                span: Span::default(),
            },
            Clock {
                name: "A.x".into(),
                span: span("clock x;"),
            },
        ],
        channels: vec![Channel {
            name: "go".into(),
            kind: ChannelKind::Binary,
            urgent: false,
            span: span("chan go;"),
        }],
        processes: vec![
            Process {
                name: "A".into(),
                template: "A".into(),
                locations: vec![loc("idle"), loc("cs")],
                edges: vec![edge(
                    0,
                    1,
                    SyncDir::Send,
                    "idle -> cs when x >= 1 sync go! do id = 1;",
                )],
                initial: 0,
                span: span("template A"),
            },
            Process {
                name: "B".into(),
                template: "B".into(),
                locations: vec![loc("wait"), loc("done")],
                edges: vec![edge(0, 1, SyncDir::Receive, "wait -> done sync go?;")],
                initial: 0,
                span: span("template B"),
            },
        ],
        vectors: Vec::new(),
        priorities: Default::default(),
        checks: vec![
            Check {
                name: "mutex".into(),
                kind: CheckKind::Invariant(Formula::Not(Box::new(Formula::And(vec![
                    at(0, 1),
                    at(1, 1),
                ])))),
                span: span("check mutex: A[] !(A.cs && B.done);"),
                name_span: span("mutex"),
            },
            Check {
                name: "reach".into(),
                kind: CheckKind::Reachable(at(1, 1)),
                span: span("check reach: E<> B.done;"),
                name_span: span("reach"),
            },
        ],
        lines: Some(zeno::line_index::LineIndex::in_chars(TEXT)),
        symmetry: Default::default(),
    }
}

pub fn stats() -> Stats {
    Stats {
        explored: 10,
        generated: 12,
        stored: 9,
        elapsed: Duration::from_millis(250),
        peak_memory: 2048,
        bytes_per_state: 64,
        ..Stats::default()
    }
}

fn both_sync() -> Transition {
    Transition {
        edges: vec![(0, 0), (1, 0)],
    }
}

/// Waits 3/2, then A and B synchronise on `go`; the goal holds right after.
pub fn trace() -> Trace {
    Trace {
        initial: ConcreteState {
            locations: vec![0, 0],
            variables: vec![0],
            clocks: vec![Rational64::from_integer(0), Rational64::from_integer(0)],
        },
        steps: vec![Step {
            delay: Rational64::new(3, 2),
            transition: both_sync(),
            after: ConcreteState {
                locations: vec![1, 1],
                variables: vec![1],
                clocks: vec![Rational64::from_integer(0), Rational64::new(3, 2)],
            },
        }],
        end: TraceEnd::Goal {
            delay: Rational64::from_integer(0),
        },
    }
}

pub fn violated() -> CheckResult {
    CheckResult {
        verdict: Verdict::Fails,
        stats: stats(),
        trace: Some(trace()),
    }
}

pub fn holds() -> CheckResult {
    CheckResult {
        verdict: Verdict::Holds,
        stats: stats(),
        trace: None,
    }
}

pub fn limit() -> CheckResult {
    CheckResult {
        verdict: Verdict::Unknown(Limit::States),
        stats: stats(),
        trace: None,
    }
}

/// The sync is enabled at once but assigning 4 to `id` (range [0, 3]) fails.
pub fn model_error() -> CheckResult {
    let error = EvalError::from(ErrorKind::OutOfRange {
        var: 0,
        value: 4,
        lo: 0,
        hi: 3,
    });
    let mut t = trace();
    t.steps.clear();
    t.end = TraceEnd::ModelError {
        delay: Rational64::new(1, 3),
        transition: both_sync(),
        error,
    };
    CheckResult {
        verdict: Verdict::ModelError(error),
        stats: stats(),
        trace: Some(t),
    }
}
