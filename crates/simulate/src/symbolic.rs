//! Symbolic mode: the checker's zone successors, exact (never
//! extrapolated: extrapolation is for termination of the search and would
//! show valuations the state cannot have).

use zeno_checker::Transition;
use zeno_checker::dbm::{Dbm, bound};
use zeno_checker::semantics::Model;
use zeno_ir::{EdgeId, Network, ProcId};

use super::{Clocks, Enabled, SimError, State};

/// The checker's initial state: all clocks 0, invariants, delay.
pub fn initial(model: &Model, net: &Network) -> Result<State, SimError> {
    match model.initial() {
        Ok(Some((key, zone))) => Ok(State::from_key(&key, model.nproc, Clocks::Zone(zone))),
        Ok(None) => Err(SimError::NoInitialState),
        Err(e) => Err(SimError::Model(zeno_report::describe_error(net, &e))),
    }
}

/// Whether every finite bound is far from the DBM's saturation limit:
/// beyond it a bound would silently become "no bound".
fn exact(zone: &Dbm) -> bool {
    zone.raw()
        .iter()
        .all(|&b| b == bound::INF || bound::value(b).abs() < bound::MAX_CONST / 2)
}

/// The successors of transition `edges` (enabled on the data part) from
/// `zone`: one entry per zone piece, none when its clock guards or the
/// target's invariants rule it out.
pub fn options(
    model: &Model,
    key: &[i32],
    zone: &Dbm,
    edges: &[(ProcId, EdgeId)],
    net: &Network,
) -> Result<Vec<Enabled>, SimError> {
    let transition = Transition {
        edges: edges.to_vec(),
    };
    let mut next = Vec::new();
    let mut out = Vec::new();
    let n = match model.successor(key, zone, edges, &mut next, &mut out) {
        Ok(n) => n,
        Err(e) => {
            return Ok(vec![Enabled {
                transition,
                windows: Vec::new(),
                successor: None,
                error: Some(zeno_report::describe_error(net, &e)),
            }]);
        }
    };
    let mut options = Vec::with_capacity(n);
    for z in out.into_iter().take(n) {
        if !exact(&z) {
            return Err(SimError::Overflow);
        }
        options.push(Enabled {
            transition: transition.clone(),
            windows: Vec::new(),
            successor: Some(State::from_key(&next, model.nproc, Clocks::Zone(z))),
            error: None,
        });
    }
    Ok(options)
}
