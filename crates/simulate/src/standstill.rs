//! How far time may go on from a concrete state and what stops it: the
//! words a trace's ending gives for a deadlock that is also a timelock.

use num_rational::Rational64;

use zeno_checker::dbm::Dbm;
use zeno_checker::semantics::Model;
use zeno_ir::LocationKind;

use super::window;
use super::{Clocks, SimError, Simulator, State};

/// Time may pass at most `most` more units from the state, because of `why`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimeLimit {
    /// The longest delay allowed (the last one itself may be excluded, as
    /// with a strict invariant `x < 2`).
    pub most: Rational64,
    /// What stops time: ``the invariant of `P.c` ``, ``P is in the
    /// committed location `c` ``.
    pub why: String,
}

impl Simulator<'_> {
    /// How long time may still pass in the current state (concrete mode)
    /// and what stops it; `None` when it may pass forever (and in symbolic
    /// mode, whose zone already holds every delay).
    pub fn time_limit(&self) -> Result<Option<TimeLimit>, SimError> {
        let state = self.state();
        let Clocks::Values(v) = &state.clocks else {
            return Ok(None);
        };
        let key = state.key();
        if !self.model.can_delay(&key) {
            return Ok(Some(TimeLimit {
                most: Rational64::from_integer(0),
                why: super::concrete::why_stopped(&self.model, &key),
            }));
        }
        let Some(allowed) = self.allowed_delays()? else {
            return Ok(None);
        };
        let Some((most, _)) = allowed.hi else {
            return Ok(None);
        };
        Ok(Some(TimeLimit {
            most,
            why: self.bounding_invariants(state, v, most)?,
        }))
    }

    /// The locations whose invariant alone stops time after `most`:
    /// ``the invariant of `P.c` `` (several joined by `and`).
    fn bounding_invariants(
        &self,
        state: &State,
        v: &[Rational64],
        most: Rational64,
    ) -> Result<String, SimError> {
        let model: &Model = &self.model;
        let key = state.key();
        let rates = model.rates(&key).unwrap_or_else(|| vec![true; model.dim]);
        let mut named = Vec::new();
        for (p, proc_) in self.net.processes.iter().enumerate() {
            let loc = &proc_.locations[state.locations[p] as usize];
            if loc.kind != LocationKind::Normal || loc.invariant.is_empty() {
                continue;
            }
            let mut zone = Dbm::universe(model.dim);
            model
                .constrain_all(&mut zone, &loc.invariant, model.vars(&key))
                .map_err(|e| SimError::Model(zeno_report::describe_error(self.net, &e)))?;
            let alone = window::along(&zone, v, &rates)?;
            if alone.hi.is_some_and(|(hi, _)| hi == most) {
                named.push(format!("the invariant of `{}.{}`", proc_.name, loc.name));
            }
        }
        Ok(match named.is_empty() {
            true => "the invariants together".to_string(),
            false => named.join(" and "),
        })
    }
}
