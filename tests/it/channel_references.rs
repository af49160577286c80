//! Channels as template reference parameters (`chan &c`, `chan &out[3]`):
//! located errors for arguments of the wrong shape, kind or index. The
//! bundled model `tests/data/models/channel-references.zeno` has
//! hand-computed verdicts and runs under every search order in `models.rs`.

use zeno::diagnostics::Severity;

fn errors(text: &str) -> Vec<(String, String)> {
    zeno::semantics::analyze(text)
        .diagnostics
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| {
            let at = text[d.range.start as usize..d.range.end as usize].to_string();
            (d.message, at)
        })
        .collect()
}

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
        &mut |_| {},
    );
    assert_eq!(r.verdict, zeno::checker::Verdict::Holds);
    assert_eq!(r.trace.map(|t| t.len()), Some(1));
}
