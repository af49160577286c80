//! A simulation session: commands applied to the simulator, each giving
//! an outcome the renderers print.

use zeno::checker::{self, Cancel, ConcreteState, Options};
use zeno::ir::Network;
use zeno::report;
use zeno::simulate::{RandomRun, SimError, Simulator};

use super::super::check::NoSuchCheck;
use super::command::{self, Command, CommandError};

/// Why a command line changed nothing.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error(transparent)]
    Command(#[from] CommandError),
    /// The simulator refused (not enabled, no such step, a model error).
    #[error(transparent)]
    Sim(#[from] SimError),
    #[error(transparent)]
    NoCheck(#[from] NoSuchCheck),
    /// The check was decided, with no trace (or a limit stopped it).
    #[error("check `{name}` has no trace to step through: {summary}")]
    NoTrace { name: String, summary: String },
}

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

/// The trace loaded last, to mark its end while the history still holds it.
pub struct Loaded {
    pub check: zeno::ir::CheckId,
    /// Why the trace ends.
    pub ending: report::Ending,
    /// The end: its index in the history and its state.
    pub index: usize,
    pub state: zeno::simulate::State,
}

pub struct Session<'a> {
    pub sim: Simulator<'a>,
    /// The trace loaded last.
    pub loaded: Option<Loaded>,
    options: Options,
    /// The seed of the next `random` without one.
    next_seed: u64,
}

impl<'a> Session<'a> {
    pub fn new(sim: Simulator<'a>, options: Options) -> Session<'a> {
        let next_seed = options.seed;
        Session {
            sim,
            loaded: None,
            options,
            next_seed,
        }
    }

    pub fn network(&self) -> &'a Network {
        self.sim.network()
    }

    /// Applies one input line; an error leaves the state as it was.
    pub fn execute(&mut self, line: &str) -> Result<Outcome, SessionError> {
        let note = match command::parse(line)? {
            Command::Fire(n) => self.sim.fire(n).map(|()| None)?,
            Command::Delay(d) => self.sim.delay(d).map(|()| None)?,
            Command::Back => self.sim.back().map(|()| None)?,
            Command::Forward => self.sim.forward().map(|()| None)?,
            Command::Reset => {
                self.sim.reset();
                None
            }
            Command::Show => None,
            Command::Help => return Ok(Outcome::Help),
            Command::Quit => return Ok(Outcome::Quit),
            Command::Random(n, seed) => {
                let seed = seed.unwrap_or_else(|| {
                    let s = self.next_seed;
                    // Seeds are labels, not quantities: after the largest
                    // the count starts over.
                    self.next_seed = self.next_seed.wrapping_add(1);
                    s
                });
                Some(Note::Random(self.sim.random(n, seed)?))
            }
            Command::Trace(name) => {
                let steps = self.load_trace(&name)?;
                Some(Note::Trace { check: name, steps })
            }
        };
        Ok(Outcome::State { note })
    }

    /// Decides check `name` and loads its trace; the number of its steps.
    fn load_trace(&mut self, name: &str) -> Result<usize, SessionError> {
        let net = self.network();
        let Some(k) = net.check_named(name) else {
            return Err(NoSuchCheck::new(net, name).into());
        };
        let result = checker::check(
            net,
            k,
            &self.options.for_check(net, k),
            &Cancel::new(),
            &mut checker::no_progress,
        );
        let Some(trace) = &result.trace else {
            return Err(SessionError::NoTrace {
                name: name.to_string(),
                summary: report::summary(net, net.check(k), &result),
            });
        };
        self.sim.load_trace(trace)?;
        let index = self.sim.history().len() - 1;
        self.loaded = Some(Loaded {
            check: k,
            ending: zeno::simulate::ending(net, net.check(k), trace),
            index,
            state: self.sim.history()[index].state.clone(),
        });
        Ok(trace.len())
    }

    /// Why the loaded trace ends, when the current state is its end.
    pub fn at_trace_end(&self) -> Option<&Loaded> {
        let l = self.loaded.as_ref()?;
        let here = self.sim.position() == l.index
            && self.sim.history().get(l.index).map(|e| &e.state) == Some(&l.state);
        here.then_some(l)
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
