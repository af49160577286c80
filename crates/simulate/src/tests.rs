//! The simulator on small models whose states are worked out by hand.

use num_rational::Rational64;

use super::*;
use zeno_semantics::test_network;

fn q(n: i64, d: i64) -> Rational64 {
    Rational64::new(n, d)
}

/// `a` (x <= 3) --x >= 1, x = 0--> `b` --x < 2--> `c`; `y` is never reset.
const MODEL: &str = "template T() {
    clock x;
    clock y;
    init location a invariant x <= 3;
    location b;
    location c;
    a -> b when x >= 1 do x = 0;
    b -> c when x < 2;
}
system T;
";

fn values(sim: &Simulator) -> Vec<Rational64> {
    match &sim.state().clocks {
        Clocks::Values(v) => v.clone(),
        Clocks::Zone(_) => panic!("concrete mode"),
    }
}

#[test]
fn concrete_delays_windows_and_firing() {
    let net = test_network(MODEL);
    let mut sim = Simulator::new(&net, Mode::Concrete).unwrap();
    let enabled = sim.enabled().unwrap();
    assert_eq!(enabled.len(), 1);
    // x >= 1 within the invariant x <= 3.
    assert_eq!(enabled[0].windows[0].to_string(), "[1, 3]");
    assert!(matches!(
        sim.fire(1),
        Err(SimError::NotNow { number: 1, .. })
    ));
    assert!(matches!(
        sim.fire(2),
        Err(SimError::OutOfRange { given: 2, count: 1 })
    ));
    assert!(matches!(
        sim.fire(0),
        Err(SimError::OutOfRange { given: 0, count: 1 })
    ));
    assert!(matches!(
        sim.delay(q(4, 1)),
        Err(SimError::DelayForbidden { .. })
    ));
    assert!(matches!(
        sim.delay(q(-1, 2)),
        Err(SimError::NegativeDelay(_))
    ));
    assert_eq!(sim.position(), 0, "failed commands leave the state alone");

    sim.delay(q(3, 2)).unwrap();
    assert_eq!(values(&sim), vec![q(0, 1), q(3, 2), q(3, 2)]);
    sim.fire(1).unwrap();
    // At b: x reset, y kept.
    assert_eq!(sim.state().locations, vec![1]);
    assert_eq!(values(&sim), vec![q(0, 1), q(0, 1), q(3, 2)]);
    assert_eq!(sim.enabled().unwrap()[0].windows[0].to_string(), "[0, 2)");
    // b has no invariant: any delay; after 2 the guard x < 2 is false for good.
    assert_eq!(sim.allowed_delays().unwrap().unwrap().to_string(), "[0, ∞)");
    sim.delay(q(2, 1)).unwrap();
    assert!(sim.enabled().unwrap().is_empty());
    assert_eq!(sim.fire(1), Err(SimError::NoTransition));

    // Back and forward walk the history; a new move replaces what follows.
    sim.back().unwrap();
    assert_eq!(values(&sim), vec![q(0, 1), q(0, 1), q(3, 2)]);
    sim.forward().unwrap();
    assert_eq!(values(&sim)[1], q(2, 1));
    assert_eq!(sim.forward(), Err(SimError::AtEnd));
    sim.back().unwrap();
    sim.delay(q(1, 3)).unwrap();
    assert_eq!(sim.history().len(), 4);
    assert_eq!(sim.forward(), Err(SimError::AtEnd));
    sim.fire(1).unwrap();
    assert_eq!(sim.state().locations, vec![2]);
    for _ in 0..4 {
        sim.back().unwrap();
    }
    assert_eq!(sim.back(), Err(SimError::AtStart));
    sim.reset();
    assert_eq!(sim.history().len(), 1);
}

#[test]
fn symbolic_zones_are_exact_and_described() {
    let net = test_network(MODEL);
    let mut sim = Simulator::new(&net, Mode::Symbolic).unwrap();
    let Clocks::Zone(z) = &sim.state().clocks else {
        panic!("symbolic")
    };
    // x = y, both within the invariant.
    assert_eq!(
        zone::describe(&net, z),
        vec!["T.x <= 3", "T.y <= 3", "T.x - T.y <= 0", "T.y - T.x <= 0"]
    );
    assert_eq!(sim.delay(q(1, 1)), Err(SimError::DelayInSymbolicMode));
    sim.fire(1).unwrap();
    let Clocks::Zone(z) = &sim.state().clocks else {
        panic!("symbolic")
    };
    // x reset when 1 <= y <= 3, then time passes: y - x in [1, 3].
    assert_eq!(
        zone::describe(&net, z),
        vec!["T.y >= 1", "T.x - T.y <= -1", "T.y - T.x <= 3"]
    );
    assert_eq!(sim.allowed_delays().unwrap(), None);
}

#[test]
fn committed_locations_stop_time_and_take_priority() {
    // P goes to a committed location; while there only P may move and no
    // time may pass.
    let net = test_network(
        "template P() { clock x; init location a; committed location b; location c;
             a -> b; b -> c; }
         template Q() { init location a; location d; a -> d; }
         system P, Q;",
    );
    let mut sim = Simulator::new(&net, Mode::Concrete).unwrap();
    assert_eq!(sim.enabled().unwrap().len(), 2);
    sim.fire(1).unwrap();
    let enabled = sim.enabled().unwrap();
    assert_eq!(enabled.len(), 1, "only the committed process moves");
    assert_eq!(enabled[0].transition.edges, vec![(0, 1)]);
    let err = sim.delay(q(1, 2)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "time may not pass here: P is in the committed location `b`"
    );
    // A delay of 0 is always allowed.
    sim.delay(q(0, 1)).unwrap();
}

#[test]
fn a_failing_update_is_listed_and_reported_when_fired() {
    let net = test_network(
        "int[0, 1] v = 1;
         template T() { init location a; a -> a do v = v + 1; }
         system T;",
    );
    let mut sim = Simulator::new(&net, Mode::Concrete).unwrap();
    let enabled = sim.enabled().unwrap();
    assert_eq!(
        enabled[0].error.as_deref(),
        Some("value 2 is outside the range [0, 1] of `v`")
    );
    assert_eq!(
        sim.fire(1).unwrap_err().to_string(),
        "run-time error of the model: value 2 is outside the range [0, 1] of `v`"
    );
    let run = sim.random(5, 1).unwrap();
    assert_eq!(run.taken, 0);
    assert_eq!(
        run.stopped.as_deref(),
        Some("every enabled transition raises a run-time error")
    );
}

#[test]
fn random_runs_repeat_with_their_seed() {
    let net = test_network(MODEL);
    let mut a = Simulator::new(&net, Mode::Concrete).unwrap();
    let run = a.random(10, 7).unwrap();
    // a -> b -> c, then nothing is enabled.
    assert_eq!(run.taken, 2);
    assert_eq!(run.stopped.as_deref(), Some("no transition is enabled"));
    assert_eq!(a.state().locations, vec![2]);
    let mut b = Simulator::new(&net, Mode::Concrete).unwrap();
    b.random(10, 7).unwrap();
    assert_eq!(a.history(), b.history());
    let mut s = Simulator::new(&net, Mode::Symbolic).unwrap();
    assert_eq!(s.random(10, 7).unwrap().taken, 2);
}

#[test]
fn a_concrete_run_becomes_a_trace_with_summed_delays() {
    let net = test_network(MODEL);
    let mut sim = Simulator::new(&net, Mode::Concrete).unwrap();
    sim.delay(q(1, 2)).unwrap();
    sim.delay(q(1, 1)).unwrap();
    sim.fire(1).unwrap();
    sim.delay(q(1, 3)).unwrap();
    let t = sim.run_as_trace().unwrap().unwrap();
    assert_eq!(t.initial.clocks, vec![q(0, 1); 3]);
    assert_eq!(t.steps.len(), 1);
    // 1/2 + 1 before a -> b; x reset, y = 3/2.
    assert_eq!(t.steps[0].delay, q(3, 2));
    assert_eq!(t.steps[0].after.clocks, vec![q(0, 1), q(0, 1), q(3, 2)]);
    assert_eq!(t.end, zeno_checker::TraceEnd::Goal { delay: q(1, 3) });
    // Only up to the current state.
    sim.back().unwrap();
    assert_eq!(
        sim.run_as_trace().unwrap().unwrap().end,
        zeno_checker::TraceEnd::Goal { delay: q(0, 1) }
    );
    let sym = Simulator::new(&net, Mode::Symbolic).unwrap();
    assert_eq!(sym.run_as_trace().unwrap(), None);
}

/// Stopwatches: in `b` the clock `x` is stopped (`x' == 0`) while `y`
/// runs. From `x = y = 1` (entering `b` after 1), `y <= 4` allows a delay
/// of 3, after which `x` is still 1 and `y` is 4; the guard `x >= 2` of
/// `b -> c` is never met there, so no window opens; the `y >= 3` of
/// `b -> a` opens after 2. With `x` running the first would open at once.
#[test]
fn a_stopped_clock_keeps_its_value_in_the_simulator() {
    let net = test_network(
        "template T() {
    clock x;
    clock y;
    init location a;
    location b invariant y <= 4 && x' == 0;
    location c;
    a -> b when x == 1;
    b -> c when x >= 2;
    b -> a when y >= 3;
}
system T;
",
    );
    let mut sim = Simulator::new(&net, Mode::Concrete).unwrap();
    sim.delay(q(1, 1)).unwrap();
    sim.fire(1).unwrap();
    let enabled = sim.enabled().unwrap();
    assert_eq!(enabled.len(), 1, "{enabled:?}");
    assert_eq!(enabled[0].windows[0].to_string(), "[2, 3]");
    assert_eq!(sim.allowed_delays().unwrap().unwrap().to_string(), "[0, 3]");
    sim.delay(q(3, 1)).unwrap();
    assert_eq!(values(&sim), vec![q(0, 1), q(1, 1), q(4, 1)]);
    assert!(matches!(
        sim.delay(q(1, 2)),
        Err(SimError::DelayForbidden { .. })
    ));
}
