//! Concrete mode: one valuation of exact rationals. Guards, invariants and
//! broadcast splits are the checker's zones; this module only asks which
//! delays keep the valuation inside them (`window::along`).

use num_rational::Rational64;

use zeno_checker::Transition;
use zeno_checker::dbm::Dbm;
use zeno_checker::semantics::Model;
use zeno_ir::{EdgeId, Network, ProcId};

use super::window::{self, Window};
use super::{Clocks, Enabled, SimError, State};

type Q = Rational64;

/// All clocks 0, where the initial invariants must hold.
pub fn initial(model: &Model) -> Result<State, SimError> {
    let key = model.initial_key();
    let clocks = vec![Q::from_integer(0); model.dim];
    let inv = invariants(model, &key, model.net)?;
    if !window::along(&inv, &clocks, &[])?.contains(Q::from_integer(0)) {
        return Err(SimError::NoInitialState);
    }
    Ok(State::from_key(&key, model.nproc, Clocks::Values(clocks)))
}

/// The valuations the invariants of `key`'s locations allow.
fn invariants(model: &Model, key: &[i32], net: &Network) -> Result<Dbm, SimError> {
    let mut z = Dbm::universe(model.dim);
    model
        .invariants(key, &mut z)
        .map_err(|e| SimError::Model(zeno_report::describe_error(net, &e)))?;
    Ok(z)
}

/// The delays allowed from valuation `v`: those the invariants allow, or
/// only 0 where time may not pass (urgent or committed locations, an
/// enabled urgent channel), as the checker's `can_delay` decides.
pub fn allowed(model: &Model, key: &[i32], v: &[Q]) -> Result<Window, SimError> {
    if !model.can_delay(key) {
        return Ok(Window::zero());
    }
    let inv = invariants(model, key, model.net)?;
    Ok(window::along(&inv, v, &running(model, key))?)
}

/// Which clocks advance with time in `key` (stopped clocks, `x' == 0`, do
/// not; when the rates conflict no delay is allowed and none matters).
fn running(model: &Model, key: &[i32]) -> Vec<bool> {
    model.rates(key).unwrap_or_else(|| vec![true; model.dim])
}

/// Transition `edges` (enabled on the data part) from valuation `v`, with
/// the delays after which it can be taken; `None` when there are none.
///
/// Taking it after a delay `d` needs, as in the checker's successor: `v + d`
/// allowed by the current invariants, inside the clock guards (and, for a
/// broadcast, outside the guards of the receivers left out), and after the
/// resets inside the target's invariants.
pub fn option(
    model: &Model,
    key: &[i32],
    v: &[Q],
    edges: &[(ProcId, EdgeId)],
    net: &Network,
) -> Result<Option<Enabled>, SimError> {
    let describe = |e| zeno_report::describe_error(net, &e);
    let transition = Transition {
        edges: edges.to_vec(),
    };
    let allowed = allowed(model, key, v)?;
    let failing = |windows: Vec<Window>, error: String| {
        Ok(Some(Enabled {
            transition: transition.clone(),
            windows,
            successor: None,
            error: Some(error),
        }))
    };
    let rates = running(model, key);
    let mut guard = Dbm::universe(model.dim);
    match model.guards(key, edges, &mut guard) {
        Err(e) => return failing(vec![allowed.clone()], describe(e)),
        Ok(false) => return Ok(None),
        Ok(true) => {}
    }
    let mut pieces = Vec::new();
    if let Err(e) = model.split_enabled(key, edges, &guard, &mut pieces) {
        return failing(vec![allowed.clone()], describe(e));
    }
    // The delays at which the guards hold, no transition of a higher
    // priority is enabled and, for a broadcast, the receivers left out are
    // disabled.
    let mut guarded = Vec::new();
    for piece in &pieces {
        let w = window::along(piece, v, &rates)?.meet(&allowed);
        if !w.is_empty() {
            guarded.push(w);
        }
    }
    if guarded.is_empty() {
        return Ok(None);
    }
    // As in the checker, an update that fails is an error once the guards
    // hold, whatever the target's invariants.
    let mut next = key.to_vec();
    let mut resets: Vec<(usize, i32)> = Vec::new();
    let record = &mut |x, v| {
        resets.retain(|r: &(usize, i32)| r.0 != x);
        resets.push((x, v));
    };
    if let Err(e) = model.update_with(&mut next, edges, record) {
        return failing(guarded, describe(e));
    }
    let target = match invariants(model, &next, net) {
        Ok(z) => z,
        Err(SimError::Model(e)) => return failing(guarded, e),
        Err(e) => return Err(e),
    };
    // After the resets: reset clocks hold still at their values, the others
    // are `v + d` (`v` for a stopped clock).
    let mut after = v.to_vec();
    let mut moving = rates.clone();
    for (x, value) in resets {
        after[x] = Q::from_integer(value as i64);
        moving[x] = false;
    }
    let arrive = window::along(&target, &after, &moving)?;
    let windows: Vec<Window> = guarded
        .iter()
        .map(|w| w.meet(&arrive))
        .filter(|w| !w.is_empty())
        .collect();
    Ok((!windows.is_empty()).then_some(Enabled {
        transition,
        windows,
        successor: None,
        error: None,
    }))
}

/// The state after taking `edges` now (the caller checked that it can).
pub fn take(
    model: &Model,
    state: &State,
    edges: &[(ProcId, EdgeId)],
    net: &Network,
) -> Result<State, SimError> {
    let Clocks::Values(v) = &state.clocks else {
        return Err(SimError::DelayInSymbolicMode);
    };
    let key = state.key();
    let mut next = key.clone();
    model
        .update(&mut next, edges, None)
        .map_err(|e| SimError::Model(zeno_report::describe_error(net, &e)))?;
    let mut clocks = v.clone();
    let resets = model
        .final_resets(&key, edges)
        .map_err(|e| SimError::Model(zeno_report::describe_error(net, &e)))?;
    for (x, value) in resets {
        clocks[x] = Q::from_integer(value as i64);
    }
    Ok(State::from_key(&next, model.nproc, Clocks::Values(clocks)))
}

/// The state after `d` time units, if the state allows them.
pub fn delay(model: &Model, state: &State, v: &[Q], d: Q) -> Result<State, SimError> {
    if d < Q::from_integer(0) {
        return Err(SimError::NegativeDelay(d));
    }
    let key = state.key();
    if d > Q::from_integer(0) && !model.can_delay(&key) {
        return Err(SimError::TimeStopped(why_stopped(model, &key)));
    }
    let allowed = allowed(model, &key, v)?;
    if !allowed.contains(d) {
        return Err(SimError::DelayForbidden { delay: d, allowed });
    }
    let rates = running(model, &key);
    let clocks = v
        .iter()
        .zip(&rates)
        .map(|(&x, &runs)| if runs { window::add(x, d) } else { Ok(x) })
        .collect::<Result<Vec<Q>, _>>()?;
    Ok(State {
        clocks: Clocks::Values(clocks),
        ..state.clone()
    })
}

/// Why `can_delay` says no, in words: the first urgent or committed
/// location, clock rates that invariants set differently, else an urgent
/// channel.
pub fn why_stopped(model: &Model, key: &[i32]) -> String {
    use zeno_ir::LocationKind;
    for (p, proc_) in model.net.processes.iter().enumerate() {
        let loc = &proc_.locations[key[p] as usize];
        let kind = match loc.kind {
            LocationKind::Urgent => "urgent",
            LocationKind::Committed => "committed",
            LocationKind::Normal => continue,
        };
        return format!("{} is in the {kind} location `{}`", proc_.name, loc.name);
    }
    if model.rates(key).is_none() {
        return "one location stops a clock (`x' == 0`) that another says runs (`x' == 1`)"
            .to_string();
    }
    "a synchronisation on an urgent channel is enabled".to_string()
}
