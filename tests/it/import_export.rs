//! Export of a hand-built network to TChecker and XTA.

use expect_test::expect;
use zeno::import::{export_tchecker, export_xta};
use zeno::ir::*;

fn var(name: &str, lo: i32, hi: i32, is_bool: bool) -> Variable {
    Variable {
        name: name.into(),
        lo,
        hi,
        init: 0,
        is_bool,
        span: Span::default(),
    }
}

fn loc(name: &str, kind: LocationKind, invariant: Vec<ClockConstraint>) -> Location {
    Location {
        name: name.into(),
        kind,
        invariant,
        data_invariant: None,
        stopped: Vec::new(),
        running: Vec::new(),
        data_rates: Vec::new(),
        span: Span::default(),
    }
}

fn edge(source: LocId, target: LocId) -> Edge {
    Edge {
        source,
        target,
        guard: None,
        clock_guard: vec![],
        sync: None,
        label: None,
        updates: vec![],
        selects: vec![],
        span: Span::default(),
    }
}

fn sync(base: ChanId, dir: SyncDir) -> Option<Sync> {
    Some(Sync {
        channel: ChanRef {
            base,
            len: 1,
            index: None,
        },
        dir,
    })
}

/// Two processes: P1 sends on `go` after `x >= 1` and sets `id` and
/// `flag[id]`; P2 receives, then enters its committed `cs` when `flag[1]`.
fn network() -> Network {
    let c = |v| Box::new(Expr::Const(v));
    let x_le_2 = |x| ClockConstraint {
        i: x,
        j: 0,
        strict: false,
        bound: Expr::Const(2),
    };
    let mut p1_go = edge(0, 1);
    p1_go.guard = Some(Expr::Binary(BinOp::Eq, Box::new(Expr::Var(0)), c(0)));
    p1_go.clock_guard = vec![ClockConstraint {
        i: 0,
        j: 1,
        strict: false,
        bound: Expr::Const(-1),
    }];
    p1_go.sync = sync(0, SyncDir::Send);
    p1_go.updates = vec![
        Update::Assign {
            target: LValue {
                base: 0,
                len: 1,
                index: None,
            },
            value: Expr::Const(1),
        },
        Update::ResetClock { clock: 1, value: 0 },
        Update::Assign {
            target: LValue {
                base: 1,
                len: 2,
                index: Some(Expr::Binary(BinOp::Sub, Box::new(Expr::Var(0)), c(1))),
            },
            value: Expr::Const(1),
        },
    ];
    let mut p2_go = edge(0, 1);
    p2_go.sync = sync(0, SyncDir::Receive);
    let mut p2_cs = edge(1, 2);
    p2_cs.guard = Some(Expr::Binary(BinOp::Ne, Box::new(Expr::Var(2)), c(0)));
    let proc_ = |name: &str, x, edges| Process {
        name: name.into(),
        template: "P".into(),
        locations: vec![
            loc("idle", LocationKind::Normal, vec![]),
            loc("req", LocationKind::Normal, vec![x_le_2(x)]),
            loc("cs", LocationKind::Committed, vec![]),
        ],
        edges,
        initial: 0,
        span: Span::default(),
    };
    Network {
        time_scale: Default::default(),
        variables: vec![
            var("id", 0, 2, false),
            var("flag[0]", 0, 1, true),
            var("flag[1]", 0, 1, true),
        ],
        clocks: vec![
            Clock {
                name: "0".into(),
                span: Span::default(),
            },
            Clock {
                name: "P(1).x".into(),
                span: Span::default(),
            },
            Clock {
                name: "P(2).x".into(),
                span: Span::default(),
            },
        ],
        channels: vec![Channel {
            name: "go".into(),
            kind: ChannelKind::Binary,
            urgent: false,
            span: Span::default(),
        }],
        processes: vec![
            proc_("P(1)", 1, vec![p1_go]),
            proc_("P(2)", 2, vec![p2_go, p2_cs]),
        ],
        vectors: vec![],
        priorities: Default::default(),
        checks: vec![
            Check {
                name: "mutex".into(),
                kind: CheckKind::Invariant(Formula::Not(Box::new(Formula::And(vec![
                    Formula::At {
                        process: 0,
                        location: 2,
                    },
                    Formula::At {
                        process: 1,
                        location: 2,
                    },
                ])))),
                span: Span::default(),
                name_span: Span::default(),
            },
            Check {
                name: "no_deadlock".into(),
                kind: CheckKind::Invariant(Formula::Not(Box::new(Formula::Deadlock))),
                span: Span::default(),
                name_span: Span::default(),
            },
        ],
        lines: None,
        symmetry: Default::default(),
    }
}

#[test]
fn tchecker_export() {
    let out = export_tchecker(&network(), "demo").expect("exports");
    expect![[r#"
        # exported from zeno
        system:demo

        # check mutex: tck-reach -l mutex_1,mutex_2 (holds iff not reachable)
        # check no_deadlock: not expressible with labels (only `E<>` and `A[] !` of locations, disjunctions of locations, and conjunctions of these are)

        event:tau
        event:go_rcv
        event:go_snd

        int:1:0:2:0:id
        int:2:0:1:0:flag
        clock:1:P_1_x
        clock:1:P_2_x

        process:P_1
        location:P_1:idle{initial:}
        location:P_1:req{invariant:P_1_x <= 2}
        location:P_1:cs{committed: : labels:mutex_1}
        edge:P_1:idle:req:go_snd{provided:id == 0&&P_1_x >= 1 : do:id = 1;P_1_x = 0;flag[id - 1] = 1}

        process:P_2
        location:P_2:idle{initial:}
        location:P_2:req{invariant:P_2_x <= 2}
        location:P_2:cs{committed: : labels:mutex_2}
        edge:P_2:idle:req:go_rcv{}
        edge:P_2:req:cs:tau{provided:flag[1] != 0}

        sync:P_1@go_snd:P_2@go_rcv
    "#]].assert_eq(&out);
}

#[test]
fn xta_export() {
    let (xta, q) = export_xta(&network()).expect("exports");
    expect![[r#"
        // exported from zeno
        int[0, 2] id = 0;
        bool flag[2];
        clock P_1_x;
        clock P_2_x;
        chan go;

        process P_1() {
        state
            idle,
            req { P_1_x <= 2 },
            cs;
        commit cs;
        init idle;
        trans
            idle -> req { guard id == 0 && P_1_x >= 1; sync go!; assign id = 1, P_1_x = 0, flag[id - 1] = 1; };
        }

        process P_2() {
        state
            idle,
            req { P_2_x <= 2 },
            cs;
        commit cs;
        init idle;
        trans
            idle -> req { sync go?; },
            req -> cs { guard flag[1] != 0; };
        }

        system P_1, P_2;
    "#]].assert_eq(&xta);
    expect![[r#"
        /* mutex */
        A[] !(P_1.cs && P_2.cs)
        /* no_deadlock */
        A[] !deadlock
    "#]]
    .assert_eq(&q);
}

#[test]
fn tchecker_rejects_conditionals_and_urgent_channels() {
    let mut net = network();
    net.channels[0].urgent = true;
    net.processes[1].edges[1].guard = Some(Expr::Cond(
        Box::new(Expr::Var(0)),
        Box::new(Expr::Const(1)),
        Box::new(Expr::Const(0)),
    ));
    let errs = export_tchecker(&net, "demo").expect_err("not expressible");
    let msgs: Vec<&str> = errs.iter().map(|d| d.message.as_str()).collect();
    assert!(
        msgs.iter().any(|m| m.contains("urgent channels")),
        "{msgs:?}"
    );
    assert!(msgs.iter().any(|m| m.contains("conditional")), "{msgs:?}");
    // XTA has both.
    assert!(export_xta(&net).is_ok());
}

#[test]
fn exported_xta_reads_back() {
    let (xta, _) = export_xta(&network()).expect("exports");
    let back = zeno::import::import("back.xta", &xta, &Default::default()).expect("re-imports");
    assert!(back.zeno.contains("system P_1, P_2;"), "{}", back.zeno);
    let parse = zeno::syntax::parse(&back.zeno);
    assert!(parse.errors().is_empty(), "{:?}", parse.errors());
}

#[test]
fn exported_tchecker_reads_back() {
    let out = export_tchecker(&network(), "demo").expect("exports");
    let labels = vec!["mutex_1".to_string(), "mutex_2".to_string()];
    let back = zeno::import::import_tchecker(&out, &labels).expect("re-imports");
    assert!(
        back.zeno.contains("check labels: E<> P_1.cs && P_2.cs;"),
        "{}",
        back.zeno
    );
}

#[test]
fn lower_bounds_reading_variables_print_without_double_negation() {
    // `x >= id && x > id + 1` lowers to `0 - x <= -id && 0 - x < -(id + 1)`.
    let mut net = network();
    let lower = |strict, bound| ClockConstraint {
        i: 0,
        j: 1,
        strict,
        bound,
    };
    let id = || Box::new(Expr::Var(0));
    let id_plus_1 = Expr::Binary(BinOp::Add, id(), Box::new(Expr::Const(1)));
    net.processes[0].edges[0].clock_guard = vec![
        lower(false, Expr::Unary(UnOp::Neg, id())),
        lower(true, Expr::Unary(UnOp::Neg, Box::new(id_plus_1))),
    ];
    let (xta, _) = export_xta(&net).expect("exports");
    assert!(
        xta.contains("guard id == 0 && P_1_x >= id && P_1_x > id + 1;"),
        "{xta}"
    );
    let tck = export_tchecker(&net, "demo").expect("exports");
    assert!(
        tck.contains("provided:id == 0&&P_1_x >= id&&P_1_x > id + 1"),
        "{tck}"
    );
}
