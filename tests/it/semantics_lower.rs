//! The ir of small models, with expected values worked out by hand.

use zeno::diagnostics::Severity;
use zeno::ir::{
    BinOp, ChanRef, ChannelKind, CheckKind, ClockConstraint, Expr, Formula, LValue, LocationKind,
    Network, SyncDir, Update,
};
use zeno::semantics::analyze;

fn lower(text: &str) -> Network {
    let a = analyze(text);
    let errors: Vec<_> = a
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    a.network.expect("no errors, so a network")
}

const FISCHER: &str = include_str!("../data/semantics/fischer.zeno");

#[test]
fn fischer_shape() {
    let net = lower(FISCHER);
    let names: Vec<_> = net.processes.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["Proc(1)", "Proc(2)", "Proc(3)"]);
    for p in &net.processes {
        assert_eq!(p.template, "Proc");
        assert_eq!(p.locations.len(), 4);
        assert_eq!(p.edges.len(), 5);
        assert_eq!(p.initial, 0);
    }
    // N and K are constants, folded away; `id` is the only variable.
    assert_eq!(net.variables.len(), 1);
    let id = &net.variables[0];
    assert_eq!((id.name.as_str(), id.lo, id.hi, id.init), ("id", 0, 3, 0));
    let clocks: Vec<_> = net.clocks.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(clocks, ["0", "Proc(1).x", "Proc(2).x", "Proc(3).x"]);
    assert!(net.channels.is_empty());

    // Proc(3): `req invariant x <= K` is x_3 - x_0 <= 2.
    let p3 = &net.processes[2];
    assert_eq!(
        p3.locations[1].invariant,
        [ClockConstraint {
            i: 3,
            j: 0,
            strict: false,
            bound: Expr::Const(2)
        }]
    );
    // `wait -> cs when x >= K && id == pid`: x_0 - x_3 <= -2, and id == 3.
    let e = &p3.edges[3];
    assert_eq!((e.source, e.target), (2, 3));
    assert_eq!(
        e.clock_guard,
        [ClockConstraint {
            i: 0,
            j: 3,
            strict: false,
            bound: Expr::Const(-2)
        }]
    );
    assert_eq!(
        e.guard,
        Some(Expr::Binary(
            BinOp::Eq,
            Box::new(Expr::Var(0)),
            Box::new(Expr::Const(3))
        ))
    );
    // `req -> wait ... do x = 0, id = pid`.
    assert_eq!(
        p3.edges[1].updates,
        [
            Update::ResetClock { clock: 3, value: 0 },
            Update::Assign {
                target: LValue {
                    base: 0,
                    len: 1,
                    index: None
                },
                value: Expr::Const(3)
            }
        ]
    );
    // The edge span is the edge's text.
    let s = e.span;
    assert!(FISCHER[s.start as usize..s.end as usize].starts_with("wait -> cs"));

    // Checks.
    assert_eq!(net.checks.len(), 3);
    assert_eq!(net.checks[0].name, "mutex");
    assert_eq!(
        net.checks[0].kind,
        CheckKind::Invariant(Formula::Not(Box::new(Formula::And(vec![
            Formula::At {
                process: 0,
                location: 3
            },
            Formula::At {
                process: 1,
                location: 3
            },
        ]))))
    );
    assert_eq!(
        net.checks[1].kind,
        CheckKind::Reachable(Formula::At {
            process: 0,
            location: 3
        })
    );
    assert_eq!(
        net.checks[2].kind,
        CheckKind::Invariant(Formula::Not(Box::new(Formula::Deadlock)))
    );
}

#[test]
fn named_instances_and_reference_parameters() {
    let net = lower(
        "int[0, 5] a; int[0, 5] b;\n\
         template T(int &v, const int k) {\n\
           int[0, 9] own = 2;\n\
           init committed location s;\n\
           urgent location u;\n\
           s -> u do v = k, own += 3;\n\
         }\n\
         P = T(a, 1); Q = T(b, 4);\n\
         system P, Q;\n\
         check c: E<> P.own == 5 && Q.u;",
    );
    let names: Vec<_> = net.processes.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["P", "Q"]);
    let vars: Vec<_> = net
        .variables
        .iter()
        .map(|v| (v.name.as_str(), v.init))
        .collect();
    assert_eq!(vars, [("a", 0), ("b", 0), ("P.own", 2), ("Q.own", 2)]);
    assert_eq!(net.processes[0].locations[0].kind, LocationKind::Committed);
    assert_eq!(net.processes[0].locations[1].kind, LocationKind::Urgent);
    // Q's `v` is bound to `b` (slot 1), `own` is Q.own (slot 3).
    assert_eq!(
        net.processes[1].edges[0].updates,
        [
            Update::Assign {
                target: LValue {
                    base: 1,
                    len: 1,
                    index: None
                },
                value: Expr::Const(4)
            },
            Update::Assign {
                target: LValue {
                    base: 3,
                    len: 1,
                    index: None
                },
                value: Expr::Binary(BinOp::Add, Box::new(Expr::Var(3)), Box::new(Expr::Const(3)))
            },
        ]
    );
    assert_eq!(
        net.checks[0].kind,
        CheckKind::Reachable(Formula::And(vec![
            Formula::Data(Expr::Binary(
                BinOp::Eq,
                Box::new(Expr::Var(2)),
                Box::new(Expr::Const(5))
            )),
            Formula::At {
                process: 1,
                location: 1
            },
        ]))
    );
}

#[test]
fn select_channels_arrays() {
    let net = lower(
        "const int N = 2;\n\
         int[0, 7] a[N + 1];\n\
         broadcast chan go[N];\n\
         urgent chan u;\n\
         template P() {\n\
           init location s;\n\
           s -> s select i : int[0, N - 1] sync go[i]! do a[i + 1] = i * 2;\n\
           s -> s sync u? do a[a[0]] = 1;\n\
         }\n\
         system P;",
    );
    let vars: Vec<_> = net.variables.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(vars, ["a[0]", "a[1]", "a[2]"]);
    let chans: Vec<_> = net
        .channels
        .iter()
        .map(|c| (c.name.as_str(), c.kind, c.urgent))
        .collect();
    assert_eq!(
        chans,
        [
            ("go[0]", ChannelKind::Broadcast, false),
            ("go[1]", ChannelKind::Broadcast, false),
            ("u", ChannelKind::Binary, true)
        ]
    );
    let edges = &net.processes[0].edges;
    assert_eq!(edges.len(), 3);
    for i in 0..2u32 {
        let e = &edges[i as usize];
        assert_eq!(e.selects, [("i".to_string(), i as i32)]);
        let sync = e.sync.as_ref().expect("sync");
        assert_eq!(sync.dir, SyncDir::Send);
        assert_eq!(
            sync.channel,
            ChanRef {
                base: i,
                len: 1,
                index: None
            }
        );
        assert_eq!(
            e.updates,
            [Update::Assign {
                target: LValue {
                    base: i + 1,
                    len: 1,
                    index: None
                },
                value: Expr::Const(2 * i as i32)
            }]
        );
    }
    // A run-time index stays an index over the whole array.
    assert_eq!(
        edges[2].updates,
        [Update::Assign {
            target: LValue {
                base: 0,
                len: 3,
                index: Some(Expr::Var(0))
            },
            value: Expr::Const(1)
        }]
    );
    assert_eq!(
        edges[2].sync.as_ref().map(|s| s.dir),
        Some(SyncDir::Receive)
    );
}

#[test]
fn clock_constraint_forms() {
    let net = lower(
        "template P() {\n\
           clock x, y;\n\
           init location s invariant x < 4 && x - y <= 2;\n\
           s -> s when x == 3 && 2 < y && x - y > 1;\n\
         }\n\
         system P;\n\
         check c: E<> P.x > 1;",
    );
    let cc = |i, j, strict, b| ClockConstraint {
        i,
        j,
        strict,
        bound: Expr::Const(b),
    };
    let p = &net.processes[0];
    assert_eq!(
        p.locations[0].invariant,
        [cc(1, 0, true, 4), cc(1, 2, false, 2)]
    );
    assert_eq!(
        p.edges[0].clock_guard,
        [
            cc(1, 0, false, 3),
            cc(0, 1, false, -3),
            cc(0, 2, true, -2),
            cc(2, 1, true, -1)
        ]
    );
    assert_eq!(p.edges[0].guard, None);
    assert_eq!(
        net.checks[0].kind,
        CheckKind::Reachable(Formula::Clock(cc(0, 1, true, -1)))
    );
}

#[test]
fn quantifiers_expand() {
    let net = lower(
        "typedef int[1, 2] pid_t;\n\
         template A(const pid_t i) { init location s; location t; s -> t; }\n\
         system A;\n\
         check c: A[] forall (i : pid_t) forall (j : pid_t) i != j imply not (A(i).t and A(j).t);",
    );
    let CheckKind::Invariant(Formula::And(outer)) = &net.checks[0].kind else {
        panic!("expected a conjunction: {:?}", net.checks[0].kind);
    };
    assert_eq!(outer.len(), 2);
    let Formula::And(inner) = &outer[0] else {
        panic!("{:?}", outer[0])
    };
    assert_eq!(inner.len(), 2);
    // i = 1, j = 2: `1 != 2` folds to true.
    assert_eq!(
        inner[1],
        Formula::Or(vec![
            Formula::Not(Box::new(Formula::True)),
            Formula::Not(Box::new(Formula::And(vec![
                Formula::At {
                    process: 0,
                    location: 1
                },
                Formula::At {
                    process: 1,
                    location: 1
                },
            ]))),
        ])
    );
}

#[test]
fn array_reference_parameters() {
    let net = lower(
        "int[0, 1] pad; int[0, 3] g[2];\n\
         template P(int[0, 3] &r[2], const int k) {\n\
           init location s;\n\
           s -> s do r[1] = k, r[k - 1] = 3;\n\
         }\n\
         Q = P(g, 2);\n\
         system Q;",
    );
    // g occupies slots 1 and 2; r[1] is slot 2, r[k - 1] with k = 2 too.
    let target = |base| LValue {
        base,
        len: 1,
        index: None,
    };
    assert_eq!(
        net.processes[0].edges[0].updates,
        [
            Update::Assign {
                target: target(2),
                value: Expr::Const(2)
            },
            Update::Assign {
                target: target(2),
                value: Expr::Const(3)
            },
        ]
    );
}

#[test]
fn parameter_sized_local_arrays() {
    // `a[1]` is fine for n = 2 although the template alone cannot tell.
    let net = lower(
        "template P(const int n) {\n\
           int[0, 5] a[n];\n\
           init location s;\n\
           s -> s do a[1] = n;\n\
         }\n\
         Q = P(2);\n\
         system Q;",
    );
    let vars: Vec<_> = net.variables.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(vars, ["Q.a[0]", "Q.a[1]"]);
    let bad = analyze(
        "template P(const int n) { int a[n]; init location s; s -> s do a[2] = 1; }\nQ = P(2);\nsystem Q;",
    );
    let msgs: Vec<_> = bad.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        msgs,
        ["index 2 is out of range [0, 1]: evaluating it is a run-time error"]
    );
    assert!(bad.network.is_some());
}

#[test]
fn location_named_as_a_local_variable_or_parameter_is_located() {
    // `busy` is both a local variable and a location of P: `P.busy` in a
    // query could mean either, so (as UPPAAL) the model is refused, at the
    // location's name. Same for a parameter `k`.
    let text = "template P(const int[0, 1] k) { bool busy; init location idle; location busy; \
                location k; idle -> busy do busy = true; } system P;";
    assert_eq!(
        crate::support::errors(text),
        [
            (
                "location `busy` has the name of a parameter or variable of `P`".to_string(),
                "busy".to_string()
            ),
            (
                "location `k` has the name of a parameter or variable of `P`".to_string(),
                "k".to_string()
            ),
        ]
    );
    // The same names in different templates are fine.
    lower(
        "template P() { bool busy; init location idle; } \
         template Q() { init location busy; } system P, Q; check q: E<> Q.busy and not P.busy;",
    );
}
