//! The debuggee: a model, the simulator's history of states, and the
//! position in it. Everything about states comes from the simulator
//! (`zeno::simulate`): the concrete run (clock values, delays) and, replayed
//! in the symbolic mode, each state's zone.
//!
//! A *stop* is a state the debugger halts at: the initial state and the
//! state after each transition (the delays before a transition are part of
//! its step), and for a trace whose end waits, the state after that wait.
//! In a trace session the stops are the trace's; in a simulation session a
//! step past the newest stop takes a random transition (seeded, so a
//! session is repeatable), and stepping back then forward again follows the
//! same run.

use std::cell::RefCell;

use num_rational::Rational64;
use zeno::checker::dbm::Dbm;
use zeno::checker::{self, Cancel, ConcreteState, Options, TraceEnd, Transition};
use zeno::ir::{CheckId, Network};
use zeno::simulate::{Clocks, Mode, Move, Simulator};

use super::place::{Places, Target};
use super::watch::{self, Watch};
use crate::cli::report as cli_report;
use crate::cli::source::Source;

/// What the session steps through.
pub enum Purpose {
    /// A check's counterexample or witness.
    Trace {
        check: CheckId,
        /// How the trace ends, as the checker gives it ...
        end: TraceEnd,
        /// ... and why, in the words every front end shares.
        ending: zeno::report::Ending,
    },
    /// A simulation from the initial state.
    Simulation {
        seed: u64,
        /// How many transitions `continue` takes at most before it pauses.
        max_steps: usize,
    },
}

/// A breakpoint: a location (hit when a transition enters it) or an edge
/// (hit when a transition takes it), with an optional condition on the
/// state reached.
pub struct Breakpoint {
    /// The id the client knows it by.
    pub id: i64,
    pub targets: Vec<Target>,
    pub condition: Option<Watch>,
    /// The condition's text, for messages.
    pub condition_text: Option<String>,
}

/// Why `continue` or `reverseContinue` stopped.
pub enum Halt {
    /// A breakpoint was hit (its index in the breakpoint list).
    Breakpoint(usize),
    /// A breakpoint's condition could not be evaluated.
    ConditionError(String),
    /// The end (or start) of the run was reached.
    Edge,
    /// A simulation could not go on (no transition, a model error).
    Stuck(String),
    /// A simulation took `max_steps` transitions without a breakpoint.
    Paused(usize),
}

pub struct Debuggee {
    pub net: &'static Network,
    pub places: Places,
    pub purpose: Purpose,
    /// The zeno text as a source, to name edges the CLI's way.
    zeno_source: Source,
    sim: Simulator<'static>,
    /// Positions of the stops in the simulator's history.
    stops: Vec<usize>,
    /// The current stop.
    at: usize,
    /// How many times a lasso's loop has been followed past the trace's
    /// end to reach the current stop (0: on the trace itself).
    lap: usize,
    /// The zone of the state after n transitions, by n (or why there is
    /// none): the run replayed in the symbolic mode, computed when first
    /// asked for after the history changed (`continue` in a simulation
    /// takes many steps and shows only the last).
    zones: RefCell<Option<Result<Vec<Dbm>, String>>>,
    pub breakpoints: Vec<Breakpoint>,
}

impl Debuggee {
    /// A session on `net`: a trace session runs the check first. The
    /// network lives as long as the adapter (one debug session per process).
    pub fn new(
        net: Network,
        places: Places,
        check: Option<CheckId>,
        options: &Options,
        max_steps: usize,
    ) -> Result<Debuggee, String> {
        let net: &'static Network = Box::leak(Box::new(net));
        let mut sim = Simulator::for_user(net, Mode::Concrete)
            .map_err(|e| format!("cannot simulate the model: {e}"))?;
        let purpose = match check {
            Some(k) => {
                let options = options.for_check(net, k);
                let result = checker::check(net, k, &options, &Cancel::new(), &mut |_| {});
                let Some(trace) = result.trace else {
                    return Err(format!(
                        "check `{}` has no trace to debug: {}",
                        net.check(k).name,
                        zeno::report::summary(net, net.check(k), &result)
                    ));
                };
                sim.load_trace(&trace)
                    .map_err(|e| format!("the trace of `{}`: {e}", net.check(k).name))?;
                Purpose::Trace {
                    check: k,
                    ending: zeno::simulate::ending(net, net.check(k), &trace),
                    end: trace.end,
                }
            }
            None => Purpose::Simulation {
                seed: options.seed,
                max_steps,
            },
        };
        let zeno_source = Source::new(
            std::path::PathBuf::from(&places.path),
            places.zeno().to_string(),
        );
        let mut d = Debuggee {
            net,
            places,
            purpose,
            zeno_source,
            sim,
            stops: Vec::new(),
            at: 0,
            lap: 0,
            zones: RefCell::new(None),
            breakpoints: Vec::new(),
        };
        d.history_changed();
        Ok(d)
    }

    /// Recomputes the stops and zones after the history grew.
    fn history_changed(&mut self) {
        let history = self.sim.history();
        let last = history.len() - 1;
        self.stops = (0..history.len())
            .filter(|&i| match history[i].via {
                Move::Start | Move::Fire(_) => true,
                Move::Delay(_) => i == last,
            })
            .collect();
        self.zones = RefCell::new(None);
    }

    /// The run replayed in the symbolic mode: the zone after each transition.
    fn replay_zones(&self) -> Result<Vec<Dbm>, String> {
        // A copy of the simulator's history, taken to its end, as a trace.
        let mut sim = Simulator::new(self.net, Mode::Concrete).map_err(|e| e.to_string())?;
        for entry in &self.sim.history()[1..] {
            match &entry.via {
                Move::Delay(d) => sim.delay(*d).map_err(|e| e.to_string())?,
                Move::Fire(t) => {
                    let enabled = sim.enabled().map_err(|e| e.to_string())?;
                    let k = enabled
                        .iter()
                        .position(|o| &o.transition == t && o.now())
                        .ok_or("a step of the run is not enabled in its replay")?;
                    sim.fire(k + 1).map_err(|e| e.to_string())?;
                }
                Move::Start => {}
            }
        }
        let run = sim
            .run_as_trace()
            .map_err(|e| e.to_string())?
            .ok_or("the run is not concrete")?;
        let mut symbolic = Simulator::new(self.net, Mode::Symbolic).map_err(|e| e.to_string())?;
        symbolic.load_trace(&run).map_err(|e| e.to_string())?;
        Ok(symbolic
            .history()
            .iter()
            .filter_map(|e| match &e.state.clocks {
                Clocks::Zone(z) => Some(z.clone()),
                Clocks::Values(_) => None,
            })
            .collect())
    }

    /// The number of stops known so far.
    pub fn len(&self) -> usize {
        self.stops.len()
    }

    /// The current stop (0: the initial state).
    pub fn at(&self) -> usize {
        self.at
    }

    /// Whether the current stop is the last one of a trace.
    pub fn at_trace_end(&self) -> bool {
        matches!(self.purpose, Purpose::Trace { .. }) && self.at + 1 == self.stops.len()
    }

    /// The state at stop `k` (the current one by default).
    pub fn state_at(&self, k: usize) -> ConcreteState {
        let s = &self.sim.history()[self.stops[k]].state;
        ConcreteState {
            locations: s.locations.clone(),
            variables: s.variables.clone(),
            clocks: match &s.clocks {
                Clocks::Values(v) => v.clone(),
                Clocks::Zone(_) => Vec::new(),
            },
        }
    }

    pub fn state(&self) -> ConcreteState {
        self.state_at(self.at)
    }

    /// How many transitions lead to stop `k`.
    fn transitions_before(&self, k: usize) -> usize {
        self.sim.history()[..=self.stops[k]]
            .iter()
            .filter(|e| matches!(e.via, Move::Fire(_)))
            .count()
    }

    /// The zone of the current stop, or why there is none.
    pub fn zone(&self) -> Result<Dbm, String> {
        let mut zones = self.zones.borrow_mut();
        let zones = zones.get_or_insert_with(|| self.replay_zones());
        match zones {
            Err(e) => Err(format!("no zone: {e}")),
            Ok(zones) => zones
                .get(self.transitions_before(self.at))
                .cloned()
                .ok_or_else(|| "no zone for this state".to_string()),
        }
    }

    /// The transition that led to stop `k`, the delay waited before it, and
    /// the state it started from; `None` at the initial state. The final
    /// wait of a trace is a stop of its own with no transition.
    pub fn step_into(&self, k: usize) -> Option<Step> {
        if k == 0 {
            return None;
        }
        let history = self.sim.history();
        let (from, to) = (self.stops[k - 1], self.stops[k]);
        let mut delay = Rational64::from_integer(0);
        let mut transition = None;
        for entry in &history[from + 1..=to] {
            match &entry.via {
                Move::Delay(d) => delay += d,
                Move::Fire(t) => transition = Some(t.clone()),
                Move::Start => {}
            }
        }
        Some(Step {
            delay,
            transition,
            before: self.state_at(k - 1),
        })
    }

    /// The edges of `t` as the CLI names them (`Proc(1): idle -> req`).
    pub fn describe(&self, t: &Transition, before: &ConcreteState) -> String {
        cli_report::transition(&self.zeno_source, self.net, t, before)
            .iter()
            .map(|e| {
                let sync = e.sync.as_ref().map_or(String::new(), |s| format!(" {s}"));
                format!("{}: {} -> {}{sync}", e.process, e.source, e.target)
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Moves the simulator to the current stop.
    fn sync_cursor(&mut self) {
        let target = self.stops[self.at];
        while self.sim.position() < target && self.sim.forward().is_ok() {}
        while self.sim.position() > target && self.sim.back().is_ok() {}
    }

    /// Goes to stop `k` of the trace itself (a `goto` request: off any
    /// round of a lasso's loop).
    pub fn goto(&mut self, k: usize) -> Result<(), String> {
        self.move_to(k)?;
        self.lap = 0;
        Ok(())
    }

    /// Moves to stop `k` (one that exists).
    fn move_to(&mut self, k: usize) -> Result<(), String> {
        if k >= self.stops.len() {
            return Err(format!(
                "there is no state {k}: the states are numbered 0 to {}",
                self.stops.len() - 1
            ));
        }
        self.at = k;
        self.sync_cursor();
        Ok(())
    }

    /// One stop forward: along the known stops; past a lasso's end, round
    /// its loop again (to the state after the loop's first step); else (a
    /// simulation) one random transition. `Err` says why it cannot go on.
    pub fn forward(&mut self) -> Result<(), String> {
        if self.at + 1 < self.stops.len() {
            return self.move_to(self.at + 1);
        }
        if let Some(first) = self.loop_entry() {
            self.lap += 1;
            return self.move_to(first);
        }
        let Purpose::Simulation { seed, .. } = self.purpose else {
            return Err("the end of the trace".to_string());
        };
        // The seed of each step is the session's seed plus the step's
        // number: the same session takes the same run.
        let n = self.transitions_before(self.at) as u64;
        let run = self
            .sim
            .random(1, seed.wrapping_add(n))
            .map_err(|e| e.to_string())?;
        if let Some(why) = run.stopped {
            return Err(why);
        }
        self.history_changed();
        self.at = self.stops.len() - 1;
        self.sync_cursor();
        Ok(())
    }

    /// One stop back; on a lap of a lasso's loop, from its first state back
    /// to the end of the lap before.
    pub fn back(&mut self) -> Result<(), String> {
        if self.lap > 0 && self.loop_entry() == Some(self.at) {
            self.lap -= 1;
            return self.move_to(self.stops.len() - 1);
        }
        if self.at == 0 {
            return Err("already at the initial state".to_string());
        }
        self.move_to(self.at - 1)
    }

    /// For a lasso, the stop its loop goes on to after the trace's end:
    /// the state after the loop's first step.
    fn loop_entry(&self) -> Option<usize> {
        match self.purpose {
            Purpose::Trace {
                end: TraceEnd::Loop { start, .. },
                ..
            } => self.stop_after(start + 1),
            _ => None,
        }
    }

    /// How many times the lasso's loop was followed past the trace's end.
    pub fn lap(&self) -> usize {
        self.lap
    }

    /// Runs forward (or backward) until a breakpoint is hit, the run's end
    /// (or start), or for a simulation the step limit.
    pub fn run(&mut self, forward: bool) -> Halt {
        let mut taken = 0;
        loop {
            let moved = if forward { self.forward() } else { self.back() };
            if let Err(why) = moved {
                return if forward && matches!(self.purpose, Purpose::Simulation { .. }) {
                    Halt::Stuck(why)
                } else {
                    Halt::Edge
                };
            }
            // Going backward, a breakpoint is hit at the state its
            // transition reached, as going forward.
            match self.hit() {
                Ok(Some(b)) => return Halt::Breakpoint(b),
                Ok(None) => {}
                Err(e) => return Halt::ConditionError(e),
            }
            // A lasso goes round for ever: one lap per run.
            if forward && self.at_trace_end() {
                return Halt::Edge;
            }
            taken += 1;
            if let Purpose::Simulation { max_steps, .. } = self.purpose
                && forward
                && taken >= max_steps
                && self.at + 1 == self.stops.len()
            {
                return Halt::Paused(taken);
            }
        }
    }

    /// The first breakpoint the step into the current stop hits.
    fn hit(&self) -> Result<Option<usize>, String> {
        let Some(step) = self.step_into(self.at) else {
            return Ok(None);
        };
        let Some(t) = &step.transition else {
            return Ok(None);
        };
        let after = self.state();
        for (i, b) in self.breakpoints.iter().enumerate() {
            let on_path = b.targets.iter().any(|target| match *target {
                Target::Edge(p, e) => t.edges.contains(&(p, e)),
                Target::Location(p, l) => {
                    t.edges.iter().any(|&(q, _)| q == p) && after.locations[p as usize] == l
                }
            });
            if !on_path {
                continue;
            }
            let Some(condition) = &b.condition else {
                return Ok(Some(i));
            };
            match self.evaluate(condition) {
                Ok(watch::Value::Bool(false)) | Ok(watch::Value::Int(0)) => {}
                Ok(_) => return Ok(Some(i)),
                Err(e) => {
                    return Err(format!(
                        "the condition `{}` of a breakpoint: {e}",
                        b.condition_text.as_deref().unwrap_or("")
                    ));
                }
            }
        }
        Ok(None)
    }

    /// Evaluates a watch expression in the current state.
    pub fn evaluate(&self, w: &Watch) -> Result<watch::Value, String> {
        let state = self.state();
        let deadlock = || {
            self.sim
                .enabled()
                .map(|e| e.is_empty())
                .map_err(|e| e.to_string())
        };
        watch::evaluate(
            self.net,
            w,
            &watch::At {
                locations: &state.locations,
                variables: &state.variables,
                clocks: &state.clocks,
                deadlock: &deadlock,
            },
        )
    }

    /// Why the trace ends, said at its last stop, in the words every front
    /// end shares (`report::Ending`); the loop's start is said at the stop
    /// the lasso returns to.
    pub fn ending(&self) -> Option<Ending> {
        let Purpose::Trace {
            check, end, ending, ..
        } = &self.purpose
        else {
            return None;
        };
        let last = self.stops.len() - 1;
        let check = self.net.check(*check);
        let formula = cli_report::formula_of(&self.places.snippet(check.span));
        let words = ending.words(&check.name, &formula);
        if let TraceEnd::Loop { start, .. } = end
            && self.at != last
            && self.stop_after(*start) == Some(self.at)
        {
            return Some(Ending {
                violation: false,
                short: "loop start".to_string(),
                text: format!("the trace's last state (state {last}) comes back here: {words}"),
            });
        }
        if self.at != last {
            return None;
        }
        let text = match end {
            TraceEnd::ModelError { transition, .. } => format!(
                "{words} (taking {} here)",
                self.describe(transition, &self.state())
            ),
            _ => words,
        };
        Some(Ending {
            // A model error ends every check's trace as a failure.
            violation: check.kind.is_universal()
                || ending.kind == zeno::report::EndingKind::ModelError,
            short: ending.label(),
            text,
        })
    }

    /// The stop reached after `n` transitions.
    fn stop_after(&self, n: usize) -> Option<usize> {
        (0..self.stops.len()).find(|&k| self.transitions_before(k) == n)
    }

    /// The trace of a trace session (steps as the checker gave them).
    pub fn trace_len(&self) -> Option<usize> {
        match self.purpose {
            Purpose::Trace { .. } => Some(self.transitions_before(self.stops.len() - 1)),
            Purpose::Simulation { .. } => None,
        }
    }
}

/// How a stop was reached.
pub struct Step {
    /// The time waited since the previous stop.
    pub delay: Rational64,
    /// The transition taken (none for a trace's final wait).
    pub transition: Option<Transition>,
    /// The state of the previous stop.
    pub before: ConcreteState,
}

/// What the debugger says at a trace's end (or a lasso's loop start).
pub struct Ending {
    /// Whether the end is a counterexample's (shown as an exception).
    pub violation: bool,
    /// A few words, for the stop's description.
    pub short: String,
    /// The whole sentence.
    pub text: String,
}
