//! Whole models in the style of well-known UPPAAL case studies and course
//! exercises, as XML files the GUI would save (`tests/data/import/case`).
//! Every verdict is worked out by hand from the model, as said next to it.

use zeno::checker::Verdict;
use zeno::import::{ImportOptions, import};

use Verdict::{Fails, Holds};

/// The verdict of every check of `tests/data/import/case/NAME.xml`.
fn verdicts(name: &str) -> Vec<(String, Verdict)> {
    let path = format!(
        "{}/tests/data/import/case/{name}.xml",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("fixture");
    let imported = import(&path, &text, &ImportOptions::default())
        .unwrap_or_else(|d| panic!("import failed: {d:?}"));
    assert!(imported.warnings.is_empty(), "{:?}", imported.warnings);
    crate::support::imported_verdicts(&imported)
}

fn expect(name: &str, expected: &[(&str, Verdict)]) {
    let expected: Vec<(String, Verdict)> = expected
        .iter()
        .map(|(n, v)| (n.to_string(), v.clone()))
        .collect();
    assert_eq!(verdicts(name), expected, "{name}");
}

#[test]
fn train_gate() {
    // UPPAAL's train-gate demo, 4 trains, the gate keeping a queue in
    // functions: all its properties hold, and two trains never cross
    // together (the last query).
    expect(
        "traingate",
        &[
            ("q1", Holds),
            ("q2", Holds),
            ("q3", Holds),
            ("q4", Holds),
            ("q5", Holds),
            ("q6", Holds),
            ("q7", Holds),
            ("q8", Holds),
            ("q9", Fails),
        ],
    );
}

#[test]
fn bridge_and_torch() {
    // Crossing times 5, 10, 20, 25, at most two at a time with the torch:
    // the best schedule takes 10 + 5 + 25 + 10 + 10 = 60.
    expect("bridge", &[("ok", Holds), ("fails", Fails), ("q3", Holds)]);
}

#[test]
fn two_doors() {
    // A door opens only while the other is closed, so both are never open;
    // a door kept waiting 5 units while the other is open has nowhere to go
    // (its invariant ends, its guard is false): a deadlock, which also
    // breaks `opening --> idle`.
    expect(
        "doors",
        &[
            ("ok", Holds),
            ("q2", Holds),
            ("q3", Holds),
            ("q4", Fails),
            ("q5", Fails),
        ],
    );
}

#[test]
fn csma_cd() {
    // Two senders transmit together only after a collision started, which
    // the broadcast `cd` ends within sigma, sending every transmitter to
    // `Retry`; the bus leaves `Collision` before `y` reaches sigma.
    expect(
        "csma",
        &[
            ("two", Holds),
            ("onlycoll", Holds),
            ("no", Fails),
            ("recovers", Holds),
            ("dl", Holds),
            ("no2", Fails),
        ],
    );
}

#[test]
fn token_ring() {
    // One token, held 1 to 3 units, passed on to a node that always takes
    // it: mutual exclusion and progress; `Node(0)` starts in a committed
    // location, so `E[] Node(0).idle` fails at once.
    expect(
        "ring",
        &[
            ("mutex", Holds),
            ("live", Holds),
            ("eventually", Holds),
            ("q4", Fails),
            ("no", Fails),
            ("dl", Holds),
        ],
    );
}

#[test]
fn coffee_machine_with_broadcast() {
    // The coin is broadcast to the idle machine, which brews 2 to 4 units
    // and broadcasts `done`; the user may think forever, so the observer
    // need not ever hear `done`.
    expect(
        "coffee",
        &[
            ("two", Holds),
            ("wait_brew", Holds),
            ("inv", Holds),
            ("served", Holds),
            ("fails_user_may_think_forever", Fails),
            ("no", Fails),
        ],
    );
}

#[test]
fn priority_scheduler_with_records() {
    // Periods 10, 15, 20, execution times 2, 3, 4, non-preemptive, the
    // dispatch forced by an urgent channel: whatever the order of releases
    // at one instant, every job starts within 9 units of its release, so no
    // deadline is missed; the queue is sorted by priority (task 0 first).
    expect(
        "sched",
        &[
            ("runs", Holds),
            ("onecpu", Holds),
            ("bounded", Holds),
            ("prio_first", Holds),
            ("miss", Fails),
            ("dl", Holds),
            ("t2_before_t0", Holds),
        ],
    );
}

#[test]
fn leader_election_on_a_ring() {
    // Chang-Roberts over broadcast channel arrays `msg[to][value]`, uids
    // {2, 0, 1}: only node 0 (uid 2) can be elected, but a message sent to
    // a node that is not listening is lost, so election is not certain.
    expect(
        "leader",
        &[
            ("unique", Holds),
            ("zero_wins", Holds),
            ("one_loses", Fails),
            ("always_elects", Fails),
            ("only0", Holds),
        ],
    );
}

#[test]
fn bounded_retransmission() {
    // Alternating bit over lossy channels with at most 2 retransmissions,
    // committed locations in the receiver: two frames can be delivered,
    // the sender can give up, and the time-out always ends a wait.
    expect(
        "brp",
        &[
            ("two", Holds),
            ("err", Holds),
            ("succ_means_delivered", Holds),
            ("bounded", Holds),
            ("no", Fails),
            ("terminates", Holds),
        ],
    );
}

#[test]
fn elevator_with_functions() {
    // Direction chosen by functions with loops over `req`; the car stops
    // at the first requested floor on its way, never passing floor 0 going
    // down, and may stay stopped forever (no urgency).
    expect(
        "elevator",
        &[
            ("top", Holds),
            ("moves", Holds),
            ("doors_on_request", Holds),
            ("served_fails_stop_elsewhere", Fails),
            ("no", Fails),
            ("dl", Holds),
        ],
    );
}

#[test]
fn traffic_light() {
    // One direction is always red; a waiting car may never take its green
    // (no fairness), so `Waiting --> Crossed` fails.
    expect(
        "traffic",
        &[
            ("safe", Holds),
            ("one_red", Holds),
            ("no", Fails),
            ("yellow_ends", Holds),
            ("fails_car_may_idle", Fails),
        ],
    );
}
