//! Arrays and records: initialisers, several dimensions, arrays indexed by
//! a type, typedefs, constant data and whole-value operations, with their
//! located errors. Values and slots are worked out by hand.

use crate::support::{errors, warnings};
use zeno::diagnostics::Severity;
use zeno::ir::{BinOp, Expr, Network, Update};
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

/// `(name, init)` of every variable slot.
fn slots(net: &Network) -> Vec<(String, i32)> {
    net.variables
        .iter()
        .map(|v| (v.name.clone(), v.init))
        .collect()
}

fn owned(v: &[(&str, i32)]) -> Vec<(String, i32)> {
    v.iter().map(|(n, i)| (n.to_string(), *i)).collect()
}

const IDLE: &str = "template P() { init location s; } system P;";

#[test]
fn initialisers_fill_the_slots_in_order() {
    let net = lower(&format!(
        "int a[3] = {{ 1, 2, 3 }}; int[0, 9] g[2][2] = {{ {{ 1, 2 }}, {{ 3, 4 }} }};
         bool f[2] = {{ true, false }}; int[-5, 5] d[2]; {IDLE}"
    ));
    assert_eq!(
        slots(&net),
        owned(&[
            ("a[0]", 1),
            ("a[1]", 2),
            ("a[2]", 3),
            // Row by row, the last index fastest.
            ("g[0][0]", 1),
            ("g[0][1]", 2),
            ("g[1][0]", 3),
            ("g[1][1]", 4),
            ("f[0]", 1),
            ("f[1]", 0),
            // No initialiser: 0, which is within [-5, 5].
            ("d[0]", 0),
            ("d[1]", 0),
        ])
    );
    assert!(net.variables[7].is_bool);
    assert_eq!((net.variables[3].lo, net.variables[3].hi), (0, 9));
}

#[test]
fn an_array_indexed_by_a_type_has_the_types_values_as_indices() {
    let net = lower(
        "typedef int[1, 3] pid_t; int[0, 9] byid[pid_t] = { 7, 8, 9 }; int[0, 9] x;
         template Q() { init location s; s -> s do x = byid[3], byid[1] = 2; } system Q;",
    );
    // Three slots, named by the indices 1..3.
    assert_eq!(
        slots(&net)[..3],
        owned(&[("byid[1]", 7), ("byid[2]", 8), ("byid[3]", 9)])
    );
    // byid[3] is the third slot (2), byid[1] the first (0).
    let e = &net.processes[0].edges[0];
    let Update::Assign { target, value } = &e.updates[0] else {
        panic!("{e:?}")
    };
    assert_eq!((target.base, value), (3, &Expr::Var(2)));
    let Update::Assign { target, value } = &e.updates[1] else {
        panic!("{e:?}")
    };
    assert_eq!((target.base, value), (0, &Expr::Const(2)));
    // Indices outside 1..3 are run-time errors where they are evaluated
    // (as in UPPAAL: an edge that never fires is no error), with a warning
    // located on the index.
    let text = "typedef int[1, 3] pid_t; int byid[pid_t]; int x;
         template Q() { init location s; s -> s do x = byid[0]; } system Q;
         check fires: A[] true;";
    assert!(errors(text).is_empty(), "{:?}", errors(text));
    assert_eq!(
        warnings(text),
        [(
            "index 0 is out of range [1, 3]: evaluating it is a run-time error".to_string(),
            "0".to_string()
        )]
    );
    let net = lower(text);
    let id = net.check_ids().next().unwrap();
    let r = zeno::checker::check(
        &net,
        id,
        &zeno::checker::Options::default(),
        &zeno::checker::Cancel::new(),
        &mut zeno::checker::no_progress,
    );
    assert!(
        matches!(r.verdict, zeno::checker::Verdict::ModelError(_)),
        "{:?}",
        r.verdict
    );
}

#[test]
fn a_variable_index_into_a_type_indexed_array_is_shifted_by_the_first_index() {
    let net = lower(
        "typedef int[1, 3] pid_t; int byid[pid_t]; int[1, 3] k = 1; int x;
         template Q() { init location s; s -> s do x = byid[k]; } system Q;",
    );
    let Update::Assign { value, .. } = &net.processes[0].edges[0].updates[0] else {
        panic!()
    };
    // byid occupies slots 0..3 and k is slot 3: byid[k] reads slot k - 1.
    assert_eq!(
        value,
        &Expr::Index {
            base: 0,
            len: 3,
            index: Box::new(Expr::Binary(
                BinOp::Sub,
                Box::new(Expr::Var(3)),
                Box::new(Expr::Const(1))
            )),
        }
    );
}

#[test]
fn each_index_of_a_two_dimensional_access_is_checked_on_its_own() {
    let net = lower(
        "int g[2][3]; int[0, 5] i; int[0, 5] j; int x;
         template Q() { init location s; s -> s do x = g[i][j]; } system Q;",
    );
    let Update::Assign { value, .. } = &net.processes[0].edges[0].updates[0] else {
        panic!()
    };
    // g is slots 0..6, i slot 6, j slot 7: g[i][j] reads slot
    // Checked(i, 2) * 3 + Checked(j, 3).
    let checked = |v, len| Expr::Checked {
        index: Box::new(Expr::Var(v)),
        len,
    };
    let flat = Expr::Binary(
        BinOp::Add,
        Box::new(Expr::Binary(
            BinOp::Mul,
            Box::new(checked(6, 2)),
            Box::new(Expr::Const(3)),
        )),
        Box::new(checked(7, 3)),
    );
    assert_eq!(
        value,
        &Expr::Index {
            base: 0,
            len: 6,
            index: Box::new(flat.clone()),
        }
    );
    // i = 0, j = 3: slot 3 exists (g[1][0]), but j is past its row.
    let mut vars = vec![0; 9];
    vars[7] = 3;
    assert!(value.eval(&vars).is_err());
    vars[6] = 1;
    vars[7] = 2;
    vars[5] = 42;
    assert_eq!(value.eval(&vars), Ok(42));
    // Constant indices are checked when the model is read, each against
    // its own dimension: a warning, and a run-time error when evaluated.
    let text = "int g[2][3]; int x;
         template Q() { init location s; s -> s do x = g[0][3], x = g[2][0]; } system Q;";
    assert!(errors(text).is_empty(), "{:?}", errors(text));
    let at_run_time = ": evaluating it is a run-time error";
    assert_eq!(
        warnings(text),
        [
            (
                format!("index 3 is out of range [0, 2]{at_run_time}"),
                "3".to_string()
            ),
            (
                format!("index 2 is out of range [0, 1]{at_run_time}"),
                "2".to_string()
            ),
        ]
    );
}

#[test]
fn channel_arrays_of_two_dimensions() {
    let net = lower(
        "chan c[2][2]; int[0, 1] i;
         template S() { init location s; s -> s sync c[i][1]!; }
         template R() { init location s; s -> s sync c[1][1]?; }
         system S, R;",
    );
    let names: Vec<_> = net.channels.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["c[0][0]", "c[0][1]", "c[1][0]", "c[1][1]"]);
    // c[1][1] is channel 3; c[i][1] is 1 + Checked(i, 2) * 2.
    let recv = net.processes[1].edges[0].sync.as_ref().unwrap();
    assert_eq!((recv.channel.base, recv.channel.index.is_none()), (3, true));
    let send = net.processes[0].edges[0].sync.as_ref().unwrap();
    assert_eq!(send.channel.base, 1);
    assert_eq!(send.channel.resolve(&[1]), Ok(3));
}

#[test]
fn bad_initialisers_are_located() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "int a[3] = { 1, 2 };",
            "expected 3 element(s) for int[-32768, 32767][3], found 2",
            "{ 1, 2 }",
        ),
        (
            "int g[2][2] = { { 1, 2 }, { 3 } };",
            "expected 2 element(s) for int[-32768, 32767][2], found 1",
            "{ 3 }",
        ),
        (
            "int[0, 3] a[2] = { 1, 4 };",
            "initial value 4 is outside the range [0, 3]",
            "4",
        ),
        (
            "int a[2] = 1;",
            "an array (int[-32768, 32767][2]) is initialised with a list `{ … }`",
            "1",
        ),
        (
            "int x = { 1 };",
            "a list `{ … }` initialises an array or a record, not int[-32768, 32767]",
            "{ 1 }",
        ),
        (
            "int y; int a[2] = { y, 1 };",
            "expected a constant expression",
            "y",
        ),
        (
            "bool b[2] = { true, 2 };",
            "initial value 2 is not a boolean",
            "2",
        ),
    ];
    for (decls, message, at) in cases {
        let text = format!("{decls} {IDLE}");
        assert_eq!(
            errors(&text),
            [(message.to_string(), at.to_string())],
            "{decls}"
        );
    }
}

#[test]
fn constant_arrays_fold_and_index_by_a_table() {
    let net = lower(
        "const int delay[3] = { 1, 2, 5 }; int a[delay[1]]; int[0, 2] k; int x;
         template Q() { init location s; s -> s do x = delay[k] + delay[2]; } system Q;",
    );
    // delay is folded away; delay[1] = 2 is a constant size.
    assert_eq!(
        slots(&net),
        owned(&[("a[0]", 0), ("a[1]", 0), ("k", 0), ("x", 0)])
    );
    let Update::Assign { value, .. } = &net.processes[0].edges[0].updates[0] else {
        panic!()
    };
    // delay[k] + 5, where delay[k] is a table of 1, 2, 5 read at k.
    for (k, want) in [(0, 6), (1, 7), (2, 10)] {
        assert_eq!(value.eval(&[0, 0, k, 0]), Ok(want), "k = {k}");
    }
    // k = 3 is outside the table: an error, not a neighbouring value.
    assert!(value.eval(&[0, 0, 3, 0]).is_err());
    // The range analysis sees every value of the table (1 to 5), plus 5.
    let r = value.range(&net.declared_ranges());
    assert_eq!((r.lo, r.hi), (6, 10));
}

#[test]
fn constant_array_errors_are_located() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "const int d[2] = { 1, 2 }; template P() { init location s; s -> s do d[0] = 1; } system P;",
            "cannot assign to a constant",
            "d[0]",
        ),
        (
            "const int d[2]; template P() { init location s; } system P;",
            "constant `d` needs a value",
            "d",
        ),
        (
            "int y; const int d[2] = { 1, y }; template P() { init location s; } system P;",
            "expected a constant expression",
            "y",
        ),
    ];
    for (text, message, at) in cases {
        assert_eq!(
            errors(text),
            [(message.to_string(), at.to_string())],
            "{text}"
        );
    }
}

#[test]
fn typedefs_of_arrays_nest() {
    let net = lower(&format!(
        "typedef int[0, 7] pair_t[2]; typedef pair_t pairs_t[2]; typedef bool flags[3];
         pairs_t ps = {{ {{ 1, 2 }}, {{ 3, 4 }} }}; flags f; {IDLE}"
    ));
    let names: Vec<_> = net.variables.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "ps[0][0]", "ps[0][1]", "ps[1][0]", "ps[1][1]", "f[0]", "f[1]", "f[2]"
        ]
    );
    assert_eq!((net.variables[3].init, net.variables[3].hi), (4, 7));
    assert!(net.variables[6].is_bool);
    // A typedef dimension that is not a size or a bounded type.
    assert_eq!(
        errors(&format!(
            "typedef int[0, 7] pair_t[2]; int a[pair_t]; {IDLE}"
        )),
        [(
            "`pair_t` is int[0, 7][2]: an array is indexed by a size or a bounded integer type"
                .to_string(),
            "pair_t".to_string()
        )]
    );
}

#[test]
fn whole_arrays_are_copied_slot_by_slot_and_compared() {
    let net = lower(
        "int[0, 9] a[2][2]; int[0, 9] b[2]; bool same;
         template Q() { init location s; s -> s do a[1] = b, same = a[0] == b; } system Q;",
    );
    // a is slots 0..4, b 4..6, same 6: a[1] = b is a[1][0] = b[0], a[1][1] = b[1].
    let e = &net.processes[0].edges[0];
    let assigned: Vec<_> = e
        .updates
        .iter()
        .map(|u| match u {
            Update::Assign { target, value } => (target.base, value.clone()),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(assigned[0], (2, Expr::Var(4)));
    assert_eq!(assigned[1], (3, Expr::Var(5)));
    // same = a[0][0] == b[0] && a[0][1] == b[1].
    let (_, cmp) = &assigned[2];
    assert_eq!(cmp.eval(&[1, 2, 0, 0, 1, 2, 0]), Ok(1));
    assert_eq!(cmp.eval(&[1, 3, 0, 0, 1, 2, 0]), Ok(0));
    let errs = |body: &str| {
        errors(&format!(
            "int a[2]; int b[3]; int[0, 1] i; int m[2][2];
             template Q() {{ init location s; s -> s do {body}; }} system Q;"
        ))
    };
    assert_eq!(
        errs("a = b"),
        [(
            "int[-32768, 32767][2] and int[-32768, 32767][3] do not have the same shape"
                .to_string(),
            "a = b".to_string()
        )]
    );
    assert_eq!(
        errs("a += a"),
        [(
            "arrays and records can only be assigned whole with `=`".to_string(),
            "a += a".to_string()
        )]
    );
    // The copy runs slot by slot: an index read from the target itself could
    // change half-way.
    assert_eq!(
        errs("m[m[0][0]] = a"),
        [(
            "an index of this assignment reads the variable it assigns; copy through a separate index variable"
                .to_string(),
            "m[m[0][0]] = a".to_string()
        )]
    );
}

#[test]
fn records_are_stored_field_after_field() {
    let net = lower(&format!(
        "typedef struct {{ int[0, 3] a; bool b; int c[2]; }} rec_t;
         struct {{ int a; bool b; }} s1 = {{ 2, true }};
         rec_t rs[2] = {{ {{ 1, false, {{ 2, 3 }} }}, {{ 0, true, {{ 4, 5 }} }} }}; {IDLE}"
    ));
    assert_eq!(
        slots(&net),
        owned(&[
            ("s1.a", 2),
            ("s1.b", 1),
            ("rs[0].a", 1),
            ("rs[0].b", 0),
            ("rs[0].c[0]", 2),
            ("rs[0].c[1]", 3),
            ("rs[1].a", 0),
            ("rs[1].b", 1),
            ("rs[1].c[0]", 4),
            ("rs[1].c[1]", 5),
        ])
    );
    assert_eq!((net.variables[2].lo, net.variables[2].hi), (0, 3));
    assert!(net.variables[3].is_bool);
}

#[test]
fn a_field_of_an_element_reads_at_the_elements_stride() {
    let net = lower(
        "typedef struct { int[0, 3] a; int c[2]; } rec_t; rec_t rs[3]; int[0, 2] i; int x;
         template Q() { init location s; s -> s do x = rs[i].c[1]; } system Q;",
    );
    // rs is slots 0..9 (3 records of 3 slots), i is slot 9: rs[i].c[1] is
    // slot 2 + Checked(i, 3) * 3.
    let Update::Assign { value, .. } = &net.processes[0].edges[0].updates[0] else {
        panic!()
    };
    let mut vars = vec![0; 11];
    for (slot, v) in vars.iter_mut().enumerate().take(9) {
        *v = 10 + slot as i32;
    }
    for (i, want) in [(0, 12), (1, 15), (2, 18)] {
        vars[9] = i;
        assert_eq!(value.eval(&vars), Ok(want), "i = {i}");
    }
    vars[9] = 3;
    assert!(value.eval(&vars).is_err(), "rs[3] does not exist");
}

#[test]
fn record_errors_are_located() {
    let decls =
        "typedef struct { int[0, 3] a; bool b; } rec_t; rec_t r; rec_t q; int x; int arr[2];";
    let cases: &[(&str, &str, &str)] = &[
        ("x = r.z", "the record has no field `z`", "z"),
        (
            "x = arr.a",
            "int[-32768, 32767][2] has no fields: it is not a record",
            "a",
        ),
        (
            "x = r",
            "`r` is a record: use one of its fields, or compare or assign it whole",
            "r",
        ),
        ("r = 1", "`r` is a record: assign its fields", "r = 1"),
        ("r.a = 4", "value 4 is outside the range [0, 3]", "r.a = 4"),
        (
            "r = arr",
            "struct { int[0, 3] a; bool b; } and int[-32768, 32767][2] do not have the same shape",
            "r = arr",
        ),
        (
            "x = r < q",
            "arrays and records can only be compared with `==` and `!=`",
            "r < q",
        ),
    ];
    for (update, message, at) in cases {
        let text =
            format!("{decls} template Q() {{ init location s; s -> s do {update}; }} system Q;");
        assert_eq!(
            errors(&text),
            [(message.to_string(), at.to_string())],
            "{update}"
        );
    }
    // Declarations: a field twice, a field with a value, a record
    // initialiser with the wrong number of fields.
    let bad = |decl: &str| errors(&format!("{decl} {IDLE}"));
    assert_eq!(
        bad("typedef struct { int a; bool a; } t;"),
        [("field `a` is already defined".to_string(), "a".to_string())]
    );
    assert_eq!(
        bad("typedef struct { int a = 1; } t;"),
        [(
            "a field has no initial value of its own: initialise the record variable".to_string(),
            "1".to_string()
        )]
    );
    // Every field within limits, the whole record beyond them.
    assert_eq!(
        bad("typedef struct { int a[10][6000]; int b[10][6000]; } big_t;"),
        [(
            "the record has more than 100000 elements".to_string(),
            "a".to_string()
        )]
    );
    assert_eq!(
        bad("struct { int a; bool b; } s = { 1 };"),
        [(
            "expected 2 field value(s) for struct { int[-32768, 32767] a; bool b; }, found 1"
                .to_string(),
            "{ 1 }".to_string()
        )]
    );
}

/// For editors, a field read resolves to the field's declaration: in a
/// template (from a global record or a local of a global record type),
/// nested, and in a check.
#[test]
fn fields_resolve_to_their_declaration() {
    use zeno::semantics::AnalysisHost;
    use zeno::semantics::resolve::DefKind;
    let text = "typedef struct { int[0, 3] a; bool b; int c[2]; } rec_t;
typedef struct { rec_t inner; int n; } outer_t;
rec_t g;
outer_t o;
template P() {
    rec_t l;
    init location s;
    s -> s when g.a == 1 do l.a = 2, o.inner.c[1] = l.c[0], o.n = 1;
}
system P;
check q: E<> g.b && o.inner.a == 0;
";
    let mut host = AnalysisHost::new();
    host.set_text(text);
    assert!(
        host.diagnostics()
            .iter()
            .all(|d| d.severity != Severity::Error),
        "{:?}",
        host.diagnostics()
    );
    let res = host.resolutions();
    // Where the field a name at `at` (the nth occurrence of `pattern`, at
    // `offset` into it) resolves to, as the text of its declaration's name
    // and the line it is on.
    let target = |pattern: &str, nth: usize, offset: usize| {
        let at = text.match_indices(pattern).nth(nth).unwrap().0 + offset;
        let name = res.at(at as u32).expect("a resolved name");
        let def = res.def(name.def);
        assert_eq!(def.kind, DefKind::Field, "{pattern}");
        let line = text[..def.span.start as usize].lines().count();
        (
            text[def.span.start as usize..def.span.end as usize].to_string(),
            line,
        )
    };
    // `a`, `b`, `c` are declared on line 1, `inner` and `n` on line 2.
    assert_eq!(target("g.a", 0, 2), ("a".to_string(), 1));
    assert_eq!(target("l.a", 0, 2), ("a".to_string(), 1));
    assert_eq!(target("o.inner.c", 0, 2), ("inner".to_string(), 2));
    assert_eq!(target("o.inner.c", 0, 8), ("c".to_string(), 1));
    assert_eq!(target("l.c", 0, 2), ("c".to_string(), 1));
    assert_eq!(target("o.n", 0, 2), ("n".to_string(), 2));
    // In the check.
    assert_eq!(target("g.b", 0, 2), ("b".to_string(), 1));
    assert_eq!(target("o.inner.a", 0, 8), ("a".to_string(), 1));
    // Every use of `a` of rec_t is an occurrence of the one definition.
    let a_def = res.at(text.find("g.a").unwrap() as u32 + 2).unwrap().def;
    assert_eq!(
        res.occurrences(a_def).count(),
        4,
        "declaration, g.a, l.a, o.inner.a"
    );
}

#[test]
fn meta_variables_and_scalar_sets_are_ordinary_integers() {
    let net = lower(&format!(
        "typedef scalar[3] s_t; meta int swap = 4; const meta int k = 1; s_t s = 2; int arr[s_t]; {IDLE}"
    ));
    // `swap` is a slot like any other; s ranges over 0..2; arr has one
    // element per value of s_t, indexed 0 to 2.
    assert_eq!(
        slots(&net),
        owned(&[
            ("swap", 4),
            ("s", 2),
            ("arr[0]", 0),
            ("arr[1]", 0),
            ("arr[2]", 0)
        ])
    );
    assert_eq!((net.variables[1].lo, net.variables[1].hi), (0, 2));
    assert_eq!(
        errors(&format!("scalar[0] s; {IDLE}")),
        [(
            "a scalar set has between 1 and 10000 values, not 0".to_string(),
            "0".to_string()
        )]
    );
    assert_eq!(
        errors(&format!("scalar[3] s = 3; {IDLE}")),
        [(
            "initial value 3 is outside the range [0, 2]".to_string(),
            "3".to_string()
        )]
    );
}

/// Exported to XTA, a model with two-dimensional arrays, constant tables
/// and an index past its row keeps its meaning: arrays are written flat
/// and each checked index reads a constant table `_idxN`, which is an
/// error outside its dimension in UPPAAL as in zeno. Imported back, the
/// network has the same slots, so the original checks (on slots) give the
/// same verdicts and traces of the same lengths.
#[test]
fn exported_arrays_keep_their_verdicts() {
    use zeno::checker::{self, Cancel, Options};
    for name in ["arrays", "array-dimension", "const-arrays"] {
        let path = format!(
            "{}/tests/data/models/{name}.zeno",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(path).unwrap();
        let original = lower(&text);
        let (xta, _) = zeno::import::export_xta(&original).expect("exports");
        let back = zeno::import::import("back.xta", &xta, &Default::default()).expect("imports");
        let mut again = lower(&back.zeno);
        let ranges = |n: &Network| -> Vec<(i32, i32, i32)> {
            n.variables.iter().map(|v| (v.lo, v.hi, v.init)).collect()
        };
        assert_eq!(ranges(&again), ranges(&original), "{name}\n{xta}");
        again.checks = original.checks.clone();
        for k in 0..original.checks.len() {
            let run = |n: &Network| {
                let r = checker::check(
                    n,
                    n.check_at(k).unwrap(),
                    &Options::default(),
                    &Cancel::new(),
                    &mut zeno::checker::no_progress,
                );
                (format!("{:?}", r.verdict), r.trace.map(|t| t.len()))
            };
            assert_eq!(run(&again), run(&original), "{name} check {k}\n{xta}");
        }
    }
}

/// The examples of UPPAAL's documentation (language reference,
/// declarations and types), written out by hand, read through the UPPAAL
/// importer and lowered: the values the documentation states.
#[test]
fn uppaal_documentation_examples() {
    let xta = "const int a = 1;
bool b[8], c[4];
int[0,100] n=5;
int m[2][3] = { { 1, 2, 3 }, { 4, 5, 6} };
struct { int a; bool b; } s1 = { 2, true };
meta int swap;
int x = 3;
int y = 4;
typedef scalar[3] mySet;
mySet s;
int arr[mySet];
process P() {
  state l, done;
  init l;
  trans l -> done { assign swap = x, x = y, y = swap, arr[s] = 2; };
}
system P;
";
    let imported = zeno::import::import("doc.xta", xta, &Default::default()).expect("imports");
    let net = lower(&imported.zeno);
    let init = |name: &str| {
        net.variables
            .iter()
            .find(|v| v.name == name)
            .unwrap_or_else(|| panic!("no {name}"))
            .init
    };
    // "two boolean arrays b and c, with 8 and 4 elements respectively"
    let count = |prefix: &str| {
        net.variables
            .iter()
            .filter(|v| v.name.starts_with(prefix) && v.is_bool)
            .count()
    };
    assert_eq!((count("b["), count("c[")), (8, 4));
    // "an integer variable with the range [0, 100] initialised to 5"
    assert_eq!(init("n"), 5);
    // "a multidimensional integer array with default range and an initialiser"
    assert_eq!(
        (init("m[0][2]"), init("m[1][0]"), init("m[1][2]")),
        (3, 4, 6)
    );
    // "the members a and b are set to 2 and true"
    assert_eq!((init("s1.a"), init("s1.b")), (2, 1));
    // "a is an integer array indexed by the scalar set mySet"
    assert_eq!(
        ["arr[0]", "arr[1]", "arr[2]"].map(init),
        [0, 0, 0],
        "three elements"
    );
    // "a meta variable swap is used to swap the contents of two integers":
    // after the one edge, x and y have traded values and arr[s] is 2.
    let e = &net.processes[0].edges[0];
    let mut vars = net.initial_variables();
    for u in &e.updates {
        if let Update::Assign { target, value } = u {
            let v = value.eval(&vars).unwrap();
            let slot = target.resolve(&vars).unwrap();
            vars[slot as usize] = v;
        }
    }
    let slot = |name: &str| net.variables.iter().position(|v| v.name == name).unwrap();
    assert_eq!((vars[slot("x")], vars[slot("y")]), (4, 3));
    assert_eq!(vars[slot("arr[0]")], 2, "s starts at 0");
}
