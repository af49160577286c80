//! The heuristics through the public API, as the search uses them.

use zeno::checker::HeuristicKind;
use zeno::checker::heuristics::{EdgeSet, build};
use zeno::ir::*;

fn location(name: &str) -> Location {
    Location {
        name: name.into(),
        kind: LocationKind::Normal,
        invariant: vec![],
        data_invariant: None,
        stopped: Vec::new(),
        running: Vec::new(),
        data_rates: Vec::new(),
        span: Span::default(),
    }
}

fn edge(source: LocId, target: LocId, guard: Option<Expr>, updates: Vec<Update>) -> Edge {
    Edge {
        source,
        target,
        guard,
        clock_guard: vec![],
        sync: None,
        label: None,
        updates,
        selects: vec![],
        span: Span::default(),
    }
}

/// `Door` opens only after `Key` set `unlocked`; the check asks for an open door.
fn door_and_key() -> (Network, Formula) {
    let unlocked = Expr::Var(0);
    let network = Network {
        time_scale: Default::default(),
        variables: vec![Variable {
            name: "unlocked".into(),
            lo: 0,
            hi: 1,
            init: 0,
            is_bool: true,
            span: Span::default(),
        }],
        clocks: vec![Clock {
            name: "0".into(),
            span: Span::default(),
        }],
        channels: vec![],
        processes: vec![
            Process {
                name: "Door".into(),
                template: "Door".into(),
                locations: vec![location("closed"), location("open")],
                edges: vec![edge(0, 1, Some(unlocked), vec![])],
                initial: 0,
                span: Span::default(),
            },
            Process {
                name: "Key".into(),
                template: "Key".into(),
                locations: vec![location("pocket"), location("hand"), location("lock")],
                edges: vec![
                    edge(0, 1, None, vec![]),
                    edge(
                        1,
                        2,
                        None,
                        vec![Update::Assign {
                            target: LValue {
                                base: 0,
                                len: 1,
                                index: None,
                            },
                            value: Expr::Const(1),
                        }],
                    ),
                ],
                initial: 0,
                span: Span::default(),
            },
        ],
        vectors: vec![],
        priorities: Default::default(),
        checks: vec![Check {
            name: "door_opens".into(),
            kind: CheckKind::Reachable(Formula::At {
                process: 0,
                location: 1,
            }),
            span: Span::default(),
            name_span: Span::default(),
        }],
        lines: None,
        symmetry: Default::default(),
    };
    let goal = network.checks[0].kind.goal();
    (network, goal)
}

#[test]
fn estimates_from_the_initial_state() {
    let (network, goal) = door_and_key();
    let none = EdgeSet::none(&network);
    let locs = network.initial_locations();
    let vars = network.initial_variables();
    let estimate = |kind| build(kind, &network, &goal, &none).estimate(&locs, &vars);
    assert_eq!(estimate(HeuristicKind::Zero), Some(0));
    // The door is one edge from open, ignoring its guard.
    assert_eq!(estimate(HeuristicKind::DL), Some(1));
    assert_eq!(estimate(HeuristicKind::DU), Some(1));
    // The key must travel two edges before the guard can hold: three layers,
    // and a plan of three transitions.
    assert_eq!(estimate(HeuristicKind::HL), Some(3));
    assert_eq!(estimate(HeuristicKind::HU), Some(3));
}

#[test]
fn switching_off_the_unlocking_edge_proves_the_door_stays_closed() {
    let (network, goal) = door_and_key();
    let mut off = EdgeSet::none(&network);
    off.disabled[1][1] = true;
    let locs = network.initial_locations();
    let vars = network.initial_variables();
    assert_eq!(
        build(HeuristicKind::DL, &network, &goal, &off).estimate(&locs, &vars),
        Some(1)
    );
    assert_eq!(
        build(HeuristicKind::HL, &network, &goal, &off).estimate(&locs, &vars),
        None
    );
    assert_eq!(
        build(HeuristicKind::HU, &network, &goal, &off).estimate(&locs, &vars),
        None
    );
}
