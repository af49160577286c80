//! Lowering tests on HIR built by hand (independent of the parser).

use std::sync::Arc;

use rustc_hash::FxHashSet;

use super::hir::*;
use super::system::lower_network;
use zeno_ir::{self as ir, ClockConstraint, Expr as IE, LocationKind, Span, Update};

/// A span of its own for each piece of HIR, as the parser gives: the
/// resolver tells names apart by where they are written.
fn sp() -> Span {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let start = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    Span::new(start, start + 1)
}
fn name(s: &str) -> Name {
    Name::new(s, sp())
}
fn int(v: i64) -> Expr {
    Expr::new(ExprKind::Int(v), sp())
}
fn var(s: &str) -> Expr {
    Expr::new(ExprKind::Name(s.into()), sp())
}
fn bin(op: BinaryOp, a: Expr, b: Expr) -> Expr {
    Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), sp())
}
fn assign(a: Expr, b: Expr) -> Expr {
    Expr::new(
        ExprKind::Assign(AssignOp::Assign, Box::new(a), Box::new(b)),
        sp(),
    )
}
fn range(lo: Expr, hi: Expr) -> TypeRef {
    TypeRef::Int {
        range: Some(Box::new((lo, hi))),
        span: sp(),
    }
}
fn decl(is_const: bool, ty: TypeRef, n: &str, init: Option<Expr>) -> Decl {
    Decl::Var(VarDecl {
        is_const,
        ty,
        name: name(n),
        array: vec![],
        init,
        span: sp(),
    })
}
fn loc(n: &str, init: bool, invariant: Option<Expr>) -> Location {
    Location {
        name: name(n),
        init,
        kind: LocationKind::Normal,
        invariant,
        span: sp(),
    }
}
fn edge(s: &str, t: &str, guard: Option<Expr>, updates: Vec<Expr>) -> Edge {
    Edge {
        source: name(s),
        target: name(t),
        selects: vec![],
        guard,
        sync: None,
        label: None,
        updates,
        span: sp(),
    }
}

/// const int N = 3; int[0, N] id = 0;
/// template Proc(const int[1, N] pid) {
///   clock x; init location idle; location req invariant x <= 2;
///   idle -> req when id == 0 do x = 0;
///   req -> idle when x >= 2 && id == 0 do id = pid;
/// }
/// system Proc;
fn fischer_like() -> ItemTree {
    let template = Template {
        name: name("Proc"),
        params: vec![Param {
            is_const: true,
            is_ref: false,
            ty: range(int(1), var("N")),
            array: vec![],
            name: name("pid"),
            span: sp(),
        }],
        decls: vec![Decl::Var(VarDecl {
            is_const: false,
            ty: TypeRef::Clock { span: sp() },
            name: name("x"),
            array: vec![],
            init: None,
            span: sp(),
        })],
        locations: vec![
            loc("idle", true, None),
            loc("req", false, Some(bin(BinaryOp::Le, var("x"), int(2)))),
        ],
        edges: vec![
            edge(
                "idle",
                "req",
                Some(bin(BinaryOp::Eq, var("id"), int(0))),
                vec![assign(var("x"), int(0))],
            ),
            edge(
                "req",
                "idle",
                Some(bin(
                    BinaryOp::And,
                    bin(BinaryOp::Ge, var("x"), int(2)),
                    bin(BinaryOp::Eq, var("id"), int(0)),
                )),
                vec![assign(var("id"), var("pid"))],
            ),
        ],
        span: sp(),
    };
    ItemTree {
        globals: vec![
            decl(
                true,
                TypeRef::Int {
                    range: None,
                    span: sp(),
                },
                "N",
                Some(int(3)),
            ),
            decl(false, range(int(0), var("N")), "id", Some(int(0))),
        ],
        templates: vec![TemplateItem {
            data: Arc::new(template),
            offset: 0,
        }],
        instances: vec![],
        system: vec![name("Proc")],
        system_levels: vec![0],
        system_span: None,
        vectors: vec![],
        priorities: vec![],
        checks: vec![],
    }
}

#[test]
fn system_expansion_and_encoding() {
    let (net, diags) = lower_network(&fischer_like(), &FxHashSet::default());
    assert!(diags.is_empty(), "{diags:?}");
    let names: Vec<&str> = net.processes.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["Proc(1)", "Proc(2)", "Proc(3)"]);
    // N is folded away: the only variable is `id`, with range [0, 3].
    assert_eq!(net.variables.len(), 1);
    assert_eq!((net.variables[0].lo, net.variables[0].hi), (0, 3));
    let clocks: Vec<&str> = net.clocks.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(clocks, ["0", "Proc(1).x", "Proc(2).x", "Proc(3).x"]);

    let p2 = &net.processes[1];
    assert_eq!(p2.locations.len(), 2);
    assert_eq!(p2.initial, 0);
    // invariant x <= 2 on Proc(2).x (clock 2): x_2 - x_0 <= 2.
    assert_eq!(
        p2.locations[1].invariant,
        vec![ClockConstraint {
            i: 2,
            j: 0,
            strict: false,
            bound: IE::Const(2)
        }]
    );
    // x >= 2 is x_0 - x_2 <= -2; the data part id == 0 stays a guard.
    let e = &p2.edges[1];
    assert_eq!(
        e.clock_guard,
        vec![ClockConstraint {
            i: 0,
            j: 2,
            strict: false,
            bound: IE::Const(-2)
        }]
    );
    assert_eq!(
        e.guard,
        Some(IE::Binary(
            ir::BinOp::Eq,
            Box::new(IE::Var(0)),
            Box::new(IE::Const(0))
        ))
    );
    // pid is folded to the instance's value.
    assert_eq!(
        e.updates,
        vec![Update::Assign {
            target: ir::LValue {
                base: 0,
                len: 1,
                index: None
            },
            value: IE::Const(2)
        }]
    );
    assert_eq!(
        p2.edges[0].updates,
        vec![Update::ResetClock { clock: 2, value: 0 }]
    );
}

#[test]
fn select_is_expanded() {
    let mut tree = fischer_like();
    let t = Arc::make_mut(&mut tree.templates[0].data);
    t.edges = vec![Edge {
        selects: vec![Select {
            name: name("i"),
            ty: range(int(0), int(2)),
        }],
        ..edge("idle", "req", None, vec![assign(var("id"), var("i"))])
    }];
    let (net, diags) = lower_network(&tree, &FxHashSet::default());
    assert!(
        diags
            .iter()
            .all(|d| d.severity != zeno_base::diagnostics::Severity::Error)
    );
    let edges = &net.processes[0].edges;
    assert_eq!(edges.len(), 3);
    for (k, e) in edges.iter().enumerate() {
        assert_eq!(e.selects, vec![("i".to_string(), k as i32)]);
        assert!(
            matches!(&e.updates[..], [Update::Assign { value: IE::Const(v), .. }] if *v == k as i32)
        );
    }
}

#[test]
fn out_of_range_initial_value_and_unknown_name() {
    let mut tree = fischer_like();
    tree.globals[1] = decl(false, range(int(0), var("N")), "id", Some(int(7)));
    tree.globals.push(decl(
        false,
        TypeRef::Bool { span: sp() },
        "b",
        Some(var("nope")),
    ));
    let (net, diags) = lower_network(&tree, &FxHashSet::default());
    let msgs: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
    assert!(
        msgs.contains(&"initial value 7 is outside the range [0, 3]"),
        "{msgs:?}"
    );
    assert!(msgs.contains(&"unknown name `nope`"), "{msgs:?}");
    assert_eq!(net.processes.len(), 3);
}

#[test]
fn huge_system_expansion_is_capped() {
    let mut tree = fischer_like();
    Arc::make_mut(&mut tree.templates[0].data).params[0].ty = range(int(0), int(2_000_000_000));
    let (net, diags) = lower_network(&tree, &FxHashSet::default());
    assert!(net.processes.is_empty());
    assert!(
        diags
            .iter()
            .any(|d| d.message.contains("would make 2000000001 processes"))
    );
}
