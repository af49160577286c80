//! Small builders for ir networks, shared by the checker tests and benches.

use zeno::ir::*;

pub struct Net {
    pub n: Network,
}

pub fn c(v: i32) -> Expr {
    Expr::Const(v)
}
pub fn v(id: VarId) -> Expr {
    Expr::Var(id)
}
pub fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    Expr::Binary(op, Box::new(a), Box::new(b))
}
pub fn eq(a: Expr, b: Expr) -> Expr {
    bin(BinOp::Eq, a, b)
}
pub fn add(a: Expr, b: Expr) -> Expr {
    bin(BinOp::Add, a, b)
}
/// `x <= k`
pub fn le(x: ClockId, k: i32) -> ClockConstraint {
    ClockConstraint {
        i: x,
        j: 0,
        strict: false,
        bound: c(k),
    }
}
/// `x < k`
pub fn lt(x: ClockId, k: i32) -> ClockConstraint {
    ClockConstraint {
        i: x,
        j: 0,
        strict: true,
        bound: c(k),
    }
}
/// `x >= k`
pub fn ge(x: ClockId, k: i32) -> ClockConstraint {
    ClockConstraint {
        i: 0,
        j: x,
        strict: false,
        bound: c(-k),
    }
}
/// `x > k`
pub fn gt(x: ClockId, k: i32) -> ClockConstraint {
    ClockConstraint {
        i: 0,
        j: x,
        strict: true,
        bound: c(-k),
    }
}
pub fn at(p: ProcId, l: LocId) -> Formula {
    Formula::At {
        process: p,
        location: l,
    }
}
pub fn and(fs: Vec<Formula>) -> Formula {
    Formula::And(fs)
}
pub fn not(f: Formula) -> Formula {
    Formula::Not(Box::new(f))
}

impl Net {
    pub fn new() -> Net {
        Net {
            n: Network {
                clocks: vec![Clock {
                    name: "0".into(),
                    span: Span::default(),
                }],
                ..Network::default()
            },
        }
    }

    pub fn clock(&mut self, name: &str) -> ClockId {
        self.n.clocks.push(Clock {
            name: name.into(),
            span: Span::default(),
        });
        (self.n.clocks.len() - 1) as ClockId
    }

    pub fn var(&mut self, name: &str, lo: i32, hi: i32, init: i32) -> VarId {
        self.n.variables.push(Variable {
            name: name.into(),
            lo,
            hi,
            init,
            is_bool: false,
            span: Span::default(),
        });
        (self.n.variables.len() - 1) as VarId
    }

    pub fn chan(&mut self, name: &str, kind: ChannelKind, urgent: bool) -> ChanId {
        self.n.channels.push(Channel {
            name: name.into(),
            kind,
            urgent,
            span: Span::default(),
        });
        (self.n.channels.len() - 1) as ChanId
    }

    /// A process whose initial location is the first one.
    pub fn process(&mut self, name: &str, locs: &[(&str, LocationKind)]) -> ProcId {
        self.n.processes.push(Process {
            name: name.into(),
            template: name.into(),
            locations: locs
                .iter()
                .map(|(n, k)| Location {
                    name: (*n).into(),
                    kind: *k,
                    invariant: Vec::new(),
                    data_invariant: None,
                    stopped: Vec::new(),
                    running: Vec::new(),
                    data_rates: Vec::new(),
                    span: Span::default(),
                })
                .collect(),
            edges: Vec::new(),
            initial: 0,
            span: Span::default(),
        });
        (self.n.processes.len() - 1) as ProcId
    }

    pub fn normal(&mut self, name: &str, locs: &[&str]) -> ProcId {
        let l: Vec<(&str, LocationKind)> =
            locs.iter().map(|n| (*n, LocationKind::Normal)).collect();
        self.process(name, &l)
    }

    pub fn inv(&mut self, p: ProcId, l: LocId, cc: ClockConstraint) {
        self.n.processes[p as usize].locations[l as usize]
            .invariant
            .push(cc);
    }

    pub fn edge(&mut self, p: ProcId, from: LocId, to: LocId) -> &mut Edge {
        let edges = &mut self.n.processes[p as usize].edges;
        edges.push(Edge {
            source: from,
            target: to,
            guard: None,
            clock_guard: Vec::new(),
            sync: None,
            label: None,
            updates: Vec::new(),
            selects: Vec::new(),
            span: Span::default(),
        });
        edges.last_mut().unwrap()
    }

    pub fn reach(&mut self, f: Formula) -> usize {
        self.push_check(CheckKind::Reachable(f))
    }

    pub fn always(&mut self, f: Formula) -> usize {
        self.push_check(CheckKind::Invariant(f))
    }

    fn push_check(&mut self, kind: CheckKind) -> usize {
        let k = self.n.checks.len();
        self.n.checks.push(Check {
            name: format!("c{k}"),
            kind,
            span: Span::default(),
            name_span: Span::default(),
        });
        k
    }
}

pub trait EdgeExt {
    fn guard(&mut self, e: Expr) -> &mut Self;
    fn when(&mut self, cc: ClockConstraint) -> &mut Self;
    fn send(&mut self, ch: ChanId) -> &mut Self;
    fn recv(&mut self, ch: ChanId) -> &mut Self;
    fn set(&mut self, var: VarId, e: Expr) -> &mut Self;
    fn reset(&mut self, x: ClockId) -> &mut Self;
}

impl EdgeExt for Edge {
    fn guard(&mut self, e: Expr) -> &mut Self {
        self.guard = Some(e);
        self
    }
    fn when(&mut self, cc: ClockConstraint) -> &mut Self {
        self.clock_guard.push(cc);
        self
    }
    fn send(&mut self, ch: ChanId) -> &mut Self {
        self.sync = Some(Sync {
            channel: ChanRef {
                base: ch,
                len: 1,
                index: None,
            },
            dir: SyncDir::Send,
        });
        self
    }
    fn recv(&mut self, ch: ChanId) -> &mut Self {
        self.sync = Some(Sync {
            channel: ChanRef {
                base: ch,
                len: 1,
                index: None,
            },
            dir: SyncDir::Receive,
        });
        self
    }
    fn set(&mut self, var: VarId, e: Expr) -> &mut Self {
        self.updates.push(Update::Assign {
            target: LValue {
                base: var,
                len: 1,
                index: None,
            },
            value: e,
        });
        self
    }
    fn reset(&mut self, x: ClockId) -> &mut Self {
        self.updates.push(Update::ResetClock { clock: x, value: 0 });
        self
    }
}

/// Fischer's protocol with `n` processes and constant `k` (locations
/// A=0, req=1, wait=2, cs=3); `buggy` uses `x >= k` instead of `x > k` on
/// wait -> cs. Returns the network with one check: `A[] mutex`.
pub fn fischer(n: usize, k: i32, buggy: bool) -> Network {
    let mut net = Net::new();
    let id = net.var("id", 0, n as i32, 0);
    let mut cs = Vec::new();
    for i in 1..=n as i32 {
        let x = net.clock(&format!("P{i}.x"));
        let p = net.normal(&format!("P{i}"), &["A", "req", "wait", "cs"]);
        net.inv(p, 1, le(x, k));
        net.edge(p, 0, 1).guard(eq(v(id), c(0))).reset(x);
        net.edge(p, 1, 2).when(le(x, k)).reset(x).set(id, c(i));
        net.edge(p, 2, 1).guard(eq(v(id), c(0))).reset(x);
        let enter = if buggy { ge(x, k) } else { gt(x, k) };
        net.edge(p, 2, 3).when(enter).guard(eq(v(id), c(i)));
        net.edge(p, 3, 0).set(id, c(0));
        cs.push(p);
    }
    // mutex: no two processes in cs at once.
    let mut pairs = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            pairs.push(and(vec![at(cs[a], 3), at(cs[b], 3)]));
        }
    }
    net.always(not(Formula::Or(pairs)));
    net.n
}

#[test]
fn fischer_builds() {
    let f = fischer(3, 2, false);
    assert_eq!(f.processes.len(), 3);
    assert_eq!(f.clocks.len(), 4);
}
