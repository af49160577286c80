//! The typed AST over the draft's first model and over each construct.

use zeno::syntax::ast::{self, AstNode, BinOp, Expr, Item, PathQuantifier, SyncKind};
use zeno::syntax::parse;

const FISCHER: &str = include_str!("../data/syntax/valid/fischer.zeno");

fn text(node: &impl AstNode) -> String {
    node.syntax().text().to_string()
}

#[test]
fn fischer_parses_without_errors_and_losslessly() {
    let parse = parse(FISCHER);
    assert_eq!(parse.errors(), &[]);
    assert_eq!(parse.syntax_node().to_string(), FISCHER);
}

#[test]
fn fischer_items() {
    let file = parse(FISCHER).tree();
    let items: Vec<Item> = file.items().collect();
    assert_eq!(items.len(), 9);

    let Item::VarDecl(n) = &items[0] else {
        panic!("expected a declaration, got {:?}", items[0])
    };
    assert!(n.is_const());
    assert!(matches!(n.ty(), Some(ast::Type::IntType(_))));
    let decl = n.declarators().next().unwrap();
    assert_eq!(decl.name().unwrap().text(), "N");
    assert_eq!(text(&decl.init().unwrap()), "3");

    let Item::TypedefDecl(t) = &items[2] else {
        panic!()
    };
    assert_eq!(t.name().unwrap().text(), "pid_t");
    let Some(ast::Type::IntType(int)) = t.ty() else {
        panic!()
    };
    let range = int.range().unwrap();
    assert_eq!(text(&range.lo().unwrap()), "1");
    assert_eq!(text(&range.hi().unwrap()), "N");

    let Item::Template(proc_) = &items[4] else {
        panic!()
    };
    assert_eq!(proc_.name().unwrap().text(), "Proc");
    let params: Vec<_> = proc_.params().collect();
    assert_eq!(params.len(), 1);
    assert!(params[0].is_const());
    assert!(!params[0].is_ref());
    assert_eq!(params[0].name().unwrap().text(), "pid");
    let Some(ast::Type::NamedType(named)) = params[0].ty() else {
        panic!()
    };
    assert_eq!(named.name_ref().unwrap().text(), "pid_t");

    assert_eq!(proc_.var_decls().count(), 1);
    let locations: Vec<_> = proc_.locations().collect();
    let names: Vec<_> = locations.iter().map(|l| l.name().unwrap().text()).collect();
    assert_eq!(names, ["idle", "req", "wait", "cs"]);
    assert!(locations[0].is_init());
    assert!(!locations[1].is_init());
    assert_eq!(
        text(&locations[1].invariant().unwrap().expr().unwrap()),
        "x <= K"
    );

    let edges: Vec<_> = proc_.edges().collect();
    assert_eq!(edges.len(), 5);
    let e1 = &edges[1];
    assert_eq!(e1.source().unwrap().text(), "req");
    assert_eq!(e1.target().unwrap().text(), "wait");
    assert_eq!(text(&e1.guard().unwrap().expr().unwrap()), "x <= K");
    let updates: Vec<_> = e1.update().unwrap().exprs().map(|e| text(&e)).collect();
    assert_eq!(updates, ["x = 0", "id = pid"]);
    assert!(e1.sync().is_none());
    let e3 = &edges[3];
    assert!(e3.update().is_none());
    let Some(Expr::BinExpr(and)) = e3.guard().unwrap().expr() else {
        panic!()
    };
    assert_eq!(and.op(), Some(BinOp::And));
    assert_eq!(text(&and.lhs().unwrap()), "x >= K");
    assert_eq!(text(&and.rhs().unwrap()), "id == pid");
    let e4 = &edges[4];
    assert!(e4.guard().is_none());
    assert_eq!(e4.source().unwrap().text(), "cs");

    let Item::System(system) = &items[5] else {
        panic!()
    };
    let entries: Vec<_> = system.entries().map(|e| e.text()).collect();
    assert_eq!(entries, ["Proc"]);

    let Item::Check(mutex) = &items[6] else {
        panic!()
    };
    assert_eq!(mutex.name().unwrap().text(), "mutex");
    assert_eq!(mutex.quantifier(), Some(PathQuantifier::AlwaysGlobally));
    assert_eq!(
        text(&mutex.formula().unwrap()),
        "!(Proc(1).cs && Proc(2).cs)"
    );
    let Item::Check(can_enter) = &items[7] else {
        panic!()
    };
    assert_eq!(
        can_enter.quantifier(),
        Some(PathQuantifier::ExistsEventually)
    );
    let Some(Expr::FieldExpr(field)) = can_enter.formula() else {
        panic!()
    };
    assert_eq!(field.field().unwrap().text(), "cs");
    let Some(Expr::CallExpr(call)) = field.base() else {
        panic!()
    };
    assert_eq!(text(&call.callee().unwrap()), "Proc");
    let args: Vec<_> = call.args().map(|a| text(&a)).collect();
    assert_eq!(args, ["1"]);
}

#[test]
fn edge_with_every_clause() {
    let src = "template P() { l0 -> l1 select i : int[0, 2], j : id_t when x > 1 \
               sync c[i + 1]! do a[i] += 2, x = 0, n++; }";
    let parse = parse(src);
    assert_eq!(parse.errors(), &[]);
    let Some(Item::Template(t)) = parse.tree().items().next() else {
        panic!()
    };
    let edge = t.edges().next().unwrap();
    let bindings: Vec<_> = edge.select().unwrap().bindings().collect();
    assert_eq!(bindings.len(), 2);
    assert_eq!(bindings[0].name().unwrap().text(), "i");
    assert_eq!(text(&bindings[0].ty().unwrap()), "int[0, 2]");
    assert_eq!(text(&bindings[1].ty().unwrap()), "id_t");
    let sync = edge.sync().unwrap();
    assert_eq!(sync.kind(), Some(SyncKind::Send));
    let Some(Expr::IndexExpr(index)) = sync.channel() else {
        panic!()
    };
    assert_eq!(text(&index.base().unwrap()), "c");
    assert_eq!(text(&index.index().unwrap()), "i + 1");
    let updates: Vec<_> = edge.update().unwrap().exprs().collect();
    let Expr::AssignExpr(add) = &updates[0] else {
        panic!()
    };
    assert_eq!(add.op(), Some(ast::AssignOp::Add));
    assert_eq!(text(&add.lhs().unwrap()), "a[i]");
    assert_eq!(text(&add.rhs().unwrap()), "2");
    let Expr::PostfixExpr(incr) = &updates[2] else {
        panic!()
    };
    assert_eq!(incr.op(), Some(ast::PostfixOp::Incr));
}

#[test]
fn receive_sync_and_declarations() {
    let src = "urgent chan u; broadcast chan b[3]; chan c; bool f[2] = {true, false};\n\
               const int M = 2, L = 3; clock x, y;\n\
               template Q(int &v, pid_t p) { urgent location a; init committed location b;\n\
               committed location d; b -> a sync u?; }\n\
               Q1 = Q(v, 1);\nsystem Q1, Q;\ncheck E<> Q1.a;\n";
    let parse = parse(src);
    assert_eq!(parse.errors(), &[]);
    let items: Vec<_> = parse.tree().items().collect();
    let Item::VarDecl(u) = &items[0] else {
        panic!()
    };
    let Some(ast::Type::ChanType(chan)) = u.ty() else {
        panic!()
    };
    assert!(chan.is_urgent() && !chan.is_broadcast());
    let Item::VarDecl(b) = &items[1] else {
        panic!()
    };
    let Some(ast::Type::ChanType(chan)) = b.ty() else {
        panic!()
    };
    assert!(chan.is_broadcast() && !chan.is_urgent());
    let sizes: Vec<_> = b.declarators().next().unwrap().array_sizes().collect();
    assert_eq!(text(&sizes[0].expr().unwrap()), "3");
    let Item::VarDecl(f) = &items[3] else {
        panic!()
    };
    let Some(Expr::ArrayInit(init)) = f.declarators().next().unwrap().init() else {
        panic!()
    };
    assert_eq!(init.elements().count(), 2);
    let Item::VarDecl(m) = &items[4] else {
        panic!()
    };
    let names: Vec<_> = m.declarators().map(|d| d.name().unwrap().text()).collect();
    assert_eq!(names, ["M", "L"]);

    let Item::Template(q) = &items[6] else {
        panic!()
    };
    let params: Vec<_> = q.params().collect();
    assert!(params[0].is_ref() && !params[0].is_const());
    assert!(!params[1].is_ref() && !params[1].is_const());
    let locs: Vec<_> = q.locations().collect();
    assert!(locs[0].is_urgent() && !locs[0].is_committed() && !locs[0].is_init());
    assert!(locs[1].is_init() && locs[1].is_committed());
    let edge = q.edges().next().unwrap();
    assert_eq!(edge.sync().unwrap().kind(), Some(SyncKind::Receive));

    let Item::Instance(inst) = &items[7] else {
        panic!()
    };
    assert_eq!(inst.name().unwrap().text(), "Q1");
    assert_eq!(inst.template().unwrap().text(), "Q");
    let args: Vec<_> = inst.args().map(|a| text(&a)).collect();
    assert_eq!(args, ["v", "1"]);
    let Item::Check(check) = &items[9] else {
        panic!()
    };
    assert!(check.name().is_none());
    assert_eq!(check.quantifier(), Some(PathQuantifier::ExistsEventually));
}

#[test]
fn spans_locate_nodes() {
    let src = "clock x;\ntemplate T() { init location a; }";
    let parse = parse(src);
    let Some(Item::Template(t)) = parse.tree().items().nth(1) else {
        panic!()
    };
    let loc = t.locations().next().unwrap();
    let span = loc.span();
    assert_eq!(
        &src[span.start as usize..span.end as usize],
        "init location a;"
    );
    let name = loc.name().unwrap();
    assert_eq!(u32::from(name.syntax().text_range().start()), 38);
}

#[test]
fn accessors_on_broken_input_return_none_instead_of_guessing() {
    let src = "template P() {\n a -> \n b -> c when;\n location;\n}\ncheck : x;\nint[, 3] v;";
    let parse = parse(src);
    assert!(!parse.errors().is_empty());
    let items: Vec<_> = parse.tree().items().collect();
    let Item::Template(t) = &items[0] else {
        panic!()
    };
    let edges: Vec<_> = t.edges().collect();
    assert_eq!(edges.len(), 2);
    assert_eq!(edges[0].source().unwrap().text(), "a");
    assert!(edges[0].target().is_none());
    assert_eq!(edges[1].target().unwrap().text(), "c");
    let guard = edges[1].guard().unwrap();
    assert!(guard.expr().is_none());
    let loc = t.locations().next().unwrap();
    assert!(loc.name().is_none());

    let Item::Check(check) = &items[1] else {
        panic!()
    };
    assert!(check.name().is_none());
    assert!(check.quantifier().is_none());

    let Item::VarDecl(v) = &items[2] else {
        panic!()
    };
    let Some(ast::Type::IntType(int)) = v.ty() else {
        panic!()
    };
    let range = int.range().unwrap();
    assert!(
        range.lo().is_none(),
        "the upper bound must not pose as the lower"
    );
    assert_eq!(text(&range.hi().unwrap()), "3");
}

#[test]
fn literal_values() {
    let parse = parse("int x = 99999999999999999999; int y = 7;");
    let values: Vec<_> = parse
        .syntax_node()
        .descendants()
        .filter_map(ast::Literal::cast)
        .map(|l| (l.kind(), l.int_value()))
        .collect();
    assert_eq!(
        values,
        [
            (Some(ast::LiteralKind::Int), None),
            (Some(ast::LiteralKind::Int), Some(7))
        ]
    );
}
