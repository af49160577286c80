//! A simulation session: commands applied to the simulator, each giving
//! an outcome the renderers print.

use zeno::checker::{self, Cancel, ConcreteState, Options};
use zeno::ir::Network;
use zeno::report;
use zeno::simulate::{RandomRun, Simulator};

use super::command::{self, Command};

/// What a command did.
pub enum Outcome {
    /// The state changed or is shown again; `note` says more (a random
    /// run that stopped early, the trace loaded).
    State {
        note: Option<Note>,
    },
    Help,
    Quit,
}

/// What a command adds to the state it shows.
pub enum Note {
    Random(RandomRun),
    Trace { check: String, steps: usize },
}

pub struct Session<'a> {
    pub sim: Simulator<'a>,
    options: Options,
    /// The seed of the next `random` without one.
    next_seed: u64,
}

impl<'a> Session<'a> {
    pub fn new(sim: Simulator<'a>, options: Options) -> Session<'a> {
        let next_seed = options.seed;
        Session {
            sim,
            options,
            next_seed,
        }
    }

    pub fn network(&self) -> &'a Network {
        self.sim.network()
    }

    /// Applies one input line; an error leaves the state as it was.
    pub fn execute(&mut self, line: &str) -> Result<Outcome, String> {
        let shown = Ok(Outcome::State { note: None });
        match command::parse(line)? {
            Command::Fire(n) => self.sim.fire(n).map_err(|e| e.to_string()).and(shown),
            Command::Delay(d) => self.sim.delay(d).map_err(|e| e.to_string()).and(shown),
            Command::Back => self.sim.back().map_err(|e| e.to_string()).and(shown),
            Command::Forward => self.sim.forward().map_err(|e| e.to_string()).and(shown),
            Command::Reset => {
                self.sim.reset();
                shown
            }
            Command::Show => shown,
            Command::Help => Ok(Outcome::Help),
            Command::Quit => Ok(Outcome::Quit),
            Command::Random(n, seed) => {
                let seed = seed.unwrap_or_else(|| {
                    let s = self.next_seed;
                    // Seeds are labels, not quantities: after the largest
                    // the count starts over.
                    self.next_seed = self.next_seed.wrapping_add(1);
                    s
                });
                let run = self.sim.random(n, seed).map_err(|e| e.to_string())?;
                Ok(Outcome::State {
                    note: Some(Note::Random(run)),
                })
            }
            Command::Trace(name) => {
                let steps = self.load_trace(&name)?;
                Ok(Outcome::State {
                    note: Some(Note::Trace { check: name, steps }),
                })
            }
        }
    }

    /// Decides check `name` and loads its trace; the number of its steps.
    fn load_trace(&mut self, name: &str) -> Result<usize, String> {
        let net = self.network();
        let Some(k) = net.check_named(name) else {
            let names: Vec<&str> = net.checks.iter().map(|c| c.name.as_str()).collect();
            return Err(format!(
                "no check named `{name}`; the model's checks: {}",
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            ));
        };
        let result = checker::check(net, k, &self.options, &Cancel::new(), &mut |_| {});
        let Some(trace) = &result.trace else {
            return Err(format!(
                "check `{name}` has no trace to step through: {}",
                report::summary(net, net.check(k), &result)
            ));
        };
        self.sim.load_trace(trace).map_err(|e| e.to_string())?;
        Ok(trace.len())
    }

    /// The current state's locations and variables with clocks left out,
    /// to name channels as the CLI's edge reports do.
    pub fn discrete(&self) -> ConcreteState {
        let s = self.sim.state();
        ConcreteState {
            locations: s.locations.clone(),
            variables: s.variables.clone(),
            clocks: Vec::new(),
        }
    }
}
