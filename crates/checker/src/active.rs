//! Active clocks (Daws and Yovine, *Reducing the number of clock variables
//! of timed automata*, 1996): a clock that every future of a location
//! vector resets before reading it again is *inactive* there, and a zone
//! may forget it (DBM `free`: only `x >= 0` is kept) without changing which
//! runs the zone allows from then on.
//!
//! Per process and location the analysis computes the clocks the process
//! may read before it resets them: read in the location (an invariant, a
//! clock guard of a leaving edge), or active in the target of a leaving edge
//! that does not reset them. In the IR clocks are read only by invariants,
//! clock guards and the checked formula: updates and functions never read
//! a clock (a function's resets are hoisted `ResetClock` updates, or
//! statements that only write clocks), so call footprints add no reads.
//! Only an edge's must-resets (every run resets the clock) stop a clock
//! from being active in the edge's source: a reset a function makes on
//! some paths only keeps more clocks active, which is sound. A clock is active in a location vector when it
//! is active for some process at its location, or read by the check.
//!
//! Per process is enough even for clocks that several processes share: a
//! clock inactive for every process is, in each process' own future, reset
//! before that process reads it, so the first read of the clock in any run
//! of the network comes after a reset.
#![allow(clippy::needless_range_loop)] // index loops over parallel tables read best

use zeno_ir::{Formula, Network};

use super::dbm::Dbm;

/// Per process, per location: which clocks (DBM indices, 0 = reference,
/// always active) are active.
#[derive(Debug, Clone)]
pub struct ActiveClocks {
    dim: usize,
    local: Vec<Vec<Vec<bool>>>,
    /// Clocks the check reads: active everywhere.
    global: Vec<bool>,
}

impl ActiveClocks {
    /// The analysis of `net` for a check whose goal is `goal`.
    pub fn new(net: &Network, goal: &Formula) -> ActiveClocks {
        let dim = net.dbm_dim();
        let mut local = Vec::with_capacity(net.processes.len());
        for p in &net.processes {
            let mut act: Vec<Vec<bool>> = p
                .locations
                .iter()
                .map(|l| {
                    let mut a = vec![false; dim];
                    for c in &l.invariant {
                        mark(&mut a, c.i as usize, c.j as usize);
                    }
                    a
                })
                .collect();
            for e in &p.edges {
                for c in &e.clock_guard {
                    mark(&mut act[e.source as usize], c.i as usize, c.j as usize);
                }
            }
            // Backwards along edges that do not reset the clock, to a fixpoint.
            let resets: Vec<Vec<bool>> = p
                .edges
                .iter()
                .map(|e| {
                    // Must-resets only: a clock a function resets on some
                    // paths stays active across the edge (more active
                    // clocks is the sound direction).
                    let mut r = vec![false; dim];
                    for u in &e.updates {
                        u.for_each_must_reset(&mut |clock, _| {
                            if let Some(x) = r.get_mut(clock as usize) {
                                *x = true;
                            }
                        });
                    }
                    r
                })
                .collect();
            let mut changed = true;
            while changed {
                changed = false;
                for (e, reset) in p.edges.iter().zip(&resets) {
                    let (s, t) = (e.source as usize, e.target as usize);
                    for x in 1..dim {
                        if act[t][x] && !reset[x] && !act[s][x] {
                            act[s][x] = true;
                            changed = true;
                        }
                    }
                }
            }
            local.push(act);
        }
        let mut global = vec![false; dim];
        if let Some(g) = global.first_mut() {
            *g = true;
        }
        goal_reads(goal, &mut global);
        ActiveClocks { dim, local, global }
    }

    /// Whether clock `x` is active for process `p` in location `l`
    /// (or for the check).
    #[cfg(test)]
    pub fn local(&self, p: usize, l: usize, x: usize) -> bool {
        self.global.get(x).copied().unwrap_or(false)
            || self
                .local
                .get(p)
                .and_then(|ls| ls.get(l))
                .is_some_and(|a| a[x])
    }

    /// The active clocks of the location vector `locations`, in increasing
    /// order, 0 first.
    pub fn fill(&self, locations: &[i32], out: &mut Vec<u16>) {
        out.clear();
        for x in 0..self.dim {
            let active = self.global[x]
                || locations.iter().enumerate().any(|(p, &l)| {
                    self.local
                        .get(p)
                        .and_then(|ls| ls.get(l as usize))
                        .is_some_and(|a| a[x])
                });
            if active {
                out.push(x as u16);
            }
        }
    }

    /// Frees the inactive clocks of `zone` at `locations` (`scratch` holds
    /// the active set), so that zones differing only in dead clocks are one.
    pub fn free_inactive(&self, locations: &[i32], zone: &mut Dbm, scratch: &mut Vec<u16>) {
        self.fill(locations, scratch);
        if scratch.len() == self.dim {
            return;
        }
        let mut next = scratch.iter().peekable();
        for x in 0..self.dim {
            if next.peek().is_some_and(|&&a| a as usize == x) {
                next.next();
            } else {
                zone.free(x);
            }
        }
    }
}

fn mark(a: &mut [bool], i: usize, j: usize) {
    for x in [i, j] {
        if x != 0
            && let Some(v) = a.get_mut(x)
        {
            *v = true;
        }
    }
}

/// The clocks the checked formula compares (`deadlock` reads only guards
/// and invariants, which the locations' own sets hold already).
fn goal_reads(f: &Formula, a: &mut [bool]) {
    match f {
        Formula::Clock(c) => mark(a, c.i as usize, c.j as usize),
        Formula::Not(g) => goal_reads(g, a),
        Formula::And(gs) | Formula::Or(gs) => gs.iter().for_each(|g| goal_reads(g, a)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analysis(text: &str) -> (Network, ActiveClocks) {
        let net = zeno_semantics::test_network(text);
        let active = ActiveClocks::new(&net, &net.checks[0].kind.goal());
        (net, active)
    }

    /// Active sets by hand: `x` is read in `b` (guard) and `c` (invariant),
    /// reset on `a -> b` and `c -> a`; `y` is read only on `a -> b`, and
    /// reset on `c -> a`; nothing resets `y` on `a -> b`, `b -> c`.
    #[test]
    fn per_location_sets_match_a_hand_computation() {
        let (net, active) = analysis(
            "template P() {\n clock x, y;\n init location a;\n location b;\n \
             location c invariant x <= 4;\n location d;\n \
             a -> b when y >= 1 do x = 0;\n b -> c when x >= 2;\n c -> a do y = 0, x = 0;\n \
             c -> d;\n}\nsystem P;\ncheck reach: E<> P.d;\n",
        );
        let p = &net.processes[0];
        let loc = |n: &str| p.locations.iter().position(|l| l.name == n).unwrap();
        let (x, y) = (1, 2);
        // a: y read by the guard; x reset before b reads it.
        assert!(!active.local(0, loc("a"), x) && active.local(0, loc("a"), y));
        // b: x by its guard; y is not read again before c -> a resets it.
        assert!(active.local(0, loc("b"), x) && !active.local(0, loc("b"), y));
        // c: x by the invariant; y not read before its reset.
        assert!(active.local(0, loc("c"), x) && !active.local(0, loc("c"), y));
        // d: no edges, nothing read.
        assert!(!active.local(0, loc("d"), x) && !active.local(0, loc("d"), y));
        let mut out = Vec::new();
        active.fill(&[loc("a") as i32], &mut out);
        assert_eq!(out, [0, 2]);
    }

    #[test]
    fn clocks_the_check_reads_are_active_everywhere() {
        let (net, active) = analysis(
            "template P() {\n clock x;\n init location a;\n location b;\n a -> b do x = 0;\n}\n\
             system P;\ncheck late: E<> P.b && P.x > 3;\n",
        );
        let b = net.processes[0]
            .locations
            .iter()
            .position(|l| l.name == "b")
            .unwrap();
        assert!(active.local(0, b, 1));
        let mut out = Vec::new();
        active.fill(&[b as i32], &mut out);
        assert_eq!(out, [0, 1]);
    }
}
