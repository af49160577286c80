//! Clock lower bounds in invariants (`x >= 3`, as UPPAAL 5 accepts them):
//! the valuations below the bound do not exist in the location, so an edge
//! is enabled only if its target's lower bound holds on arrival, and time
//! never "waits" a state into existence. Verdicts derived by hand; every
//! trace replayed by the independent simulator in every search order.

use crate::support::{self, imported_verdicts};
use zeno::checker::Verdict;
use zeno::import::{ImportOptions, import};

/// `a` (x <= 5) is left for `b` (x >= 3) with `y` reset: `b` is entered at
/// x in [3, 5] only, so in `b` x - y is in [3, 5]; `c` is entered from `b`
/// once y >= 1, so there x >= 4 (x - y >= 3 and y >= 1), x = 4 when `b`
/// was entered at x = 3 and left at y = 1. `c` has no edge: deadlocked.
/// `a` must be left (its invariant, the edge enabled in [3, 5]), `b` need
/// not be (no upper bound).
const ENTRY: &str = "template P() {
    clock x, y;
    init location a invariant x <= 5;
    location b invariant x >= 3;
    location c;
    a -> b do y = 0;
    b -> c when y >= 1;
}
system P;
check enter: E<> P.b;
check early: E<> P.b && P.x < 3;
check gap: A[] P.b imply P.x - P.y >= 3 && P.x - P.y <= 5;
check gap3: E<> P.b && P.x - P.y == 3;
check late: E<> P.b && P.x - P.y > 5;
check c_below4: E<> P.c && P.x < 4;
check c_at4: E<> P.c && P.x <= 4;
check stuck_only_in_c: A[] deadlock imply P.c;
check leaves_a: A<> P.b;
check stays_a: E[] P.a;
";

#[test]
fn a_lower_bound_is_checked_on_arrival() {
    use Verdict::*;
    support::every_order(
        ENTRY,
        &[
            Holds, Fails, Holds, Holds, Fails, Fails, Holds, Holds, Holds, Fails,
        ],
    );
}

/// `a` allows x <= 2 only and `b` needs x >= 3: the edge is never enabled
/// (a delay cannot reach 3 in `a`), so `b` is unreachable and every state
/// is a deadlock.
#[test]
fn a_lower_bound_out_of_reach_disables_the_edge() {
    use Verdict::*;
    let text = "template Q() { clock x; init location a invariant x <= 2; \
                location b invariant x >= 3; a -> b; }\n\
                system Q;\n\
                check reach_b: E<> Q.b;\n\
                check stuck: A[] deadlock;\n";
    support::every_order(text, &[Fails, Holds]);
}

/// The same as a UPPAAL file (`x &gt;= 3` in the invariant of `b`): it
/// imports without error and gives the same answers.
#[test]
fn uppaal_lower_bound_invariants_are_read() {
    let xml = r#"<nta><declaration></declaration>
<template><name>P</name><declaration>clock x, y;</declaration>
<location id="a"><name>a</name><label kind="invariant">x &lt;= 5</label></location>
<location id="b"><name>b</name><label kind="invariant">x &gt;= 3</label></location>
<location id="c"><name>c</name></location><init ref="a"/>
<transition><source ref="a"/><target ref="b"/><label kind="assignment">y := 0</label></transition>
<transition><source ref="b"/><target ref="c"/><label kind="guard">y &gt;= 1</label></transition>
</template>
<system>system P;</system>
<queries>
<query><formula>E&lt;&gt; P.b and P.x &lt; 3</formula></query>
<query><formula>E&lt;&gt; P.c and P.x &lt;= 4</formula></query>
<query><formula>E&lt;&gt; P.c and P.x &lt; 4</formula></query>
</queries></nta>"#;
    let imported = import("m.xml", xml, &ImportOptions::default()).expect("imports");
    let verdicts: Vec<Verdict> = imported_verdicts(&imported)
        .into_iter()
        .map(|(_, v)| v)
        .collect();
    assert_eq!(verdicts, [Verdict::Fails, Verdict::Holds, Verdict::Fails]);
}

/// A multiple of a clock (`2 >= 5*xabs`, which bounds the clock by 2/5)
/// in a UPPAAL file: read, with the time unit refined by 5. By hand: `a` is
/// left at some `xabs` in [0, 2/5] (guard `xabs >= 0`).
#[test]
fn a_scaled_clock_in_an_invariant_is_read() {
    let xml = r#"<nta><declaration></declaration>
<template><name>P</name><declaration>clock xabs;</declaration>
<location id="a"><name>a</name><label kind="invariant">2 &gt;= 5*xabs</label></location>
<location id="b"><name>b</name></location><init ref="a"/>
<transition><source ref="a"/><target ref="b"/><label kind="guard">xabs &gt;= 0</label></transition>
</template>
<system>system P;</system>
<queries>
<query><formula>E&lt;&gt; P.a and 5*P.xabs == 2</formula></query>
<query><formula>E&lt;&gt; P.a and 5*P.xabs &gt; 2</formula></query>
<query><formula>A[] P.a imply 5*P.xabs &lt;= 2</formula></query>
<query><formula>E&lt;&gt; P.b</formula></query>
</queries></nta>"#;
    let imported = import("m.xml", xml, &ImportOptions::default()).expect("imports");
    let verdicts: Vec<Verdict> = imported_verdicts(&imported)
        .into_iter()
        .map(|(_, v)| v)
        .collect();
    assert_eq!(
        verdicts,
        [
            Verdict::Holds,
            Verdict::Fails,
            Verdict::Holds,
            Verdict::Holds
        ]
    );
    let analysis = zeno::semantics::analyze(&imported.zeno);
    assert_eq!(
        analysis.network.expect("a network").time_scale,
        zeno::ir::TimeScale(5)
    );
}
