//! Channels as template reference parameters (`chan &c`, `chan &out[3]`):
//! located errors for arguments of the wrong shape, kind or index. The
//! bundled model `tests/data/models/channel-references.zeno` has
//! hand-computed verdicts and runs under every search order in `models.rs`.

use crate::support;
use crate::support::errors;

const DECLS: &str = "chan go[2][3]; chan solo; broadcast chan bell; int[0, 1] j; clock x;
template S(chan &out[3]) { init location a; a -> a sync out[0]!; }
template T(chan &c) { init location a; a -> a sync c!; }
template R() { init location r; r -> r sync go[0][0]?; r -> r sync solo?; }
";

#[test]
fn a_row_of_a_channel_array_is_the_channels_it_holds() {
    let text = format!("{DECLS}P = S(go[1]);\nsystem P, R;");
    let net = zeno::semantics::analyze(&text).network.expect("a network");
    let sync = net.processes[0].edges[0].sync.as_ref().unwrap();
    // go[1][0] is channel 3 (go[0][0..3] are 0..2), solo 6, bell 7.
    assert_eq!(sync.channel.base, 3);
    assert_eq!(net.channels[3].name, "go[1][0]");
}

#[test]
fn bad_channel_arguments_are_located_errors() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "P = S(go);",
            "`out` expects chan[3], but this is chan[2][3]",
            "go",
        ),
        (
            "P = S(solo);",
            "`out` expects chan[3], but this is chan",
            "solo",
        ),
        (
            "P = T(go[1]);",
            "`c` expects chan, but this is chan[3]",
            "go[1]",
        ),
        (
            "P = T(bell);",
            "`c` expects chan, but this is broadcast chan",
            "bell",
        ),
        ("P = T(j);", "`c` expects chan, but this is a variable", "j"),
        ("P = T(x);", "`c` expects chan, but this is a clock", "x"),
        ("P = S(go[j]);", "constant indices", "go[j]"),
        ("P = T(nope);", "unknown name", "nope"),
    ];
    for (inst, message, at) in cases {
        let text = format!("{DECLS}{inst}\nsystem P, R;");
        let errs = errors(&text);
        assert!(
            errs.iter().any(|(m, a)| m.contains(message) && a == at),
            "{inst}: {errs:?}"
        );
    }
}

/// UPPAAL's `chan &out[3]` and `urgent chan &c` parameters, bound to a row
/// of a two-dimensional array and to a channel: P's out[2] is go[1][2],
/// which U receives, so P reaches b in one step.
#[test]
fn uppaal_channel_parameters_are_imported() {
    let xml = include_str!("../data/import/channel-references.xml");
    let imported = zeno::import::import("c.xml", xml, &Default::default()).expect("imports");
    assert!(
        imported.zeno.contains("template S(chan &out[3])"),
        "{}",
        imported.zeno
    );
    assert!(imported.zeno.contains("P = S(go[1]);"), "{}", imported.zeno);
    let net = zeno::semantics::analyze(&imported.zeno)
        .network
        .expect("a network");
    let r = zeno::checker::check(
        &net,
        net.check_at(0).expect("a check"),
        &Default::default(),
        &zeno::checker::Cancel::new(),
        &mut zeno::checker::no_progress,
    );
    assert_eq!(r.verdict, zeno::checker::Verdict::Holds);
    assert_eq!(r.trace.map(|t| t.len()), Some(1));
}

/// `P(i) = T(c[i])`: each instance's reference is the element its own
/// parameter picks (UPPAAL's partial instantiation with a channel
/// argument), and a row of a two-dimensional array likewise. By hand: only
/// `c[0]` and `c[2]` have a receiver, in that order, so P(1) never moves,
/// and `R.r2` needs P(0)'s then P(2)'s send (2 steps, the shortest).
#[test]
fn an_element_picked_by_a_parameter_is_each_instances_own() {
    use zeno::checker::{SearchOrder, Verdict};
    let one_dimension = "const int N = 3;\ntypedef int[0, N - 1] id_t;\nchan c[N];\n\
         template T(chan &out) { init location a; location b; a -> b sync out!; }\n\
         P(const id_t i) = T(c[i]);\n";
    let rows = "const int N = 3;\ntypedef int[0, N - 1] id_t;\nchan g[N][2];\n\
         template T(chan &out[2]) { init location a; location b; a -> b sync out[1]!; }\n\
         P(const id_t i) = T(g[i]);\n";
    let receiver = |c: &str| {
        format!(
            "template R() {{ init location r0; location r1; location r2;\n\
             r0 -> r1 sync {c}[0]{sub}?; r1 -> r2 sync {c}[2]{sub}?; }}\n\
             system P, R;\n\
             check reach: E<> R.r2;\ncheck stuck: A[] !P(1).b;\ncheck both: E<> P(0).b && P(2).b;\n",
            sub = if c == "g" { "[1]" } else { "" }
        )
    };
    for text in [
        format!("{one_dimension}{}", receiver("c")),
        format!("{rows}{}", receiver("g")),
    ] {
        let net = zeno::semantics::analyze(&text)
            .network
            .unwrap_or_else(|| panic!("{text}"));
        // (verdict, shortest trace) per check.
        let expected = [
            (Verdict::Holds, Some(2)),
            (Verdict::Holds, None),
            (Verdict::Holds, Some(2)),
        ];
        for (k, (verdict, shortest)) in expected.into_iter().enumerate() {
            for order in SearchOrder::ALL {
                let r = support::check_in_order(&net, k, order);
                assert_eq!(r.verdict, verdict, "check {k}, {order:?}\n{text}");
                if let Some(t) = &r.trace {
                    support::simulator::replay(&net, k, t)
                        .unwrap_or_else(|e| panic!("check {k}, {order:?}: {e}"));
                }
                let len = r.trace.as_ref().map(|t| t.len());
                if matches!(order, SearchOrder::Bfs | SearchOrder::AStar) {
                    assert_eq!(len, shortest, "check {k}, {order:?}");
                } else {
                    assert!(len >= shortest, "check {k}, {order:?}");
                }
            }
        }
    }
}
