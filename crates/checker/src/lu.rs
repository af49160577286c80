//! Location-dependent LU bounds for extrapolation (static guard analysis,
//! Behrmann, Bouyer, Fleury, Larsen 2003): for a process in location `l`, the
//! largest constant each clock is compared to, from below (L) and above (U),
//! in `l` or anywhere reachable from `l` along the process' edges without
//! resetting that clock. The bound of a network state is the max over processes.
#![allow(clippy::needless_range_loop)] // index loops over parallel tables read best

use zeno_ir::{ChannelKind, ClockConstraint, Expr, Formula, Interval, Network, SyncDir};

use super::dbm::bound::MAX_CONST;

/// Per process, per location, per clock: (lower, upper); `-1` = never compared.
#[derive(Clone)]
pub struct LuTable {
    bounds: Vec<Vec<Vec<(i32, i32)>>>,
    global: Vec<(i32, i32)>,
    /// Diagonal constraints make Extra+_LU unsound; extrapolation is then off.
    pub has_diagonal: bool,
    /// Use `L = U = max(L, U)` (Extra+_M): deciding `deadlock`, and
    /// priorities, need every valuation of an extrapolated zone to be
    /// bisimilar (region-equivalent) to one of the exact zone, which the LU
    /// simulation alone does not give.
    max_bounds: bool,
    /// The largest magnitude of a clock constant (a bound's value over the
    /// variables' declared ranges, or a reset value) beyond [`MAX_CONST`]:
    /// zones cannot hold it, so the searches stop with
    /// `Limit::ClockRange` instead of comparing with a wrong bound.
    pub beyond_zones: Option<i64>,
}

/// Records `value` when zones cannot hold it.
fn note_beyond(beyond: &mut Option<i64>, value: i64) {
    if value.abs() > MAX_CONST as i64 {
        *beyond = Some(beyond.map_or(value.abs(), |b| b.max(value.abs())));
    }
}

/// Every value a constraint's bound takes, for [`note_beyond`].
fn note_constraint(ranges: &[Interval], c: &ClockConstraint, beyond: &mut Option<i64>) {
    let (lo, hi) = bound_range(ranges, &c.bound);
    note_beyond(beyond, lo);
    note_beyond(beyond, hi);
}

impl LuTable {
    pub fn new(net: &Network, goal: &Formula) -> LuTable {
        let dim = net.dbm_dim();
        let ranges = net.declared_ranges();
        let mut has_diagonal = false;
        let mut beyond_zones = None;
        let mut bounds = Vec::with_capacity(net.processes.len());
        for p in &net.processes {
            let mut local: Vec<Vec<(i32, i32)>> = p
                .locations
                .iter()
                .map(|l| {
                    let mut b = vec![(-1, -1); dim];
                    for c in &l.invariant {
                        note_constraint(&ranges, c, &mut beyond_zones);
                        add_constraint(&ranges, c, &mut b, &mut has_diagonal);
                    }
                    b
                })
                .collect();
            for e in &p.edges {
                // A broadcast goes ahead without a receiver exactly where the
                // receiver's clock guard is false: the guard is used negated
                // too, so its constants bound the clock from both sides.
                let broadcast_receive = e.sync.as_ref().is_some_and(|s| {
                    s.dir == SyncDir::Receive
                        && (s.channel.base..s.channel.base + s.channel.len.max(1)).any(|c| {
                            net.channels
                                .get(c as usize)
                                .is_some_and(|c| c.kind == ChannelKind::Broadcast)
                        })
                });
                // A constant reset inside a function counts too; a value
                // that depends on the state is checked to be within
                // `0..=MAX_CONST` when it runs (a model error otherwise).
                for u in &e.updates {
                    match u {
                        zeno_ir::Update::ResetClock { value, .. } => {
                            note_beyond(&mut beyond_zones, *value as i64)
                        }
                        zeno_ir::Update::Call(c) if c.resets_dynamically() => c
                            .for_each_constant_reset(&mut |v| {
                                note_beyond(&mut beyond_zones, v as i64)
                            }),
                        _ => {}
                    }
                }
                for c in &e.clock_guard {
                    note_constraint(&ranges, c, &mut beyond_zones);
                    let b = &mut local[e.source as usize];
                    if broadcast_receive {
                        add_both_sides(&ranges, c, b, &mut has_diagonal);
                    } else {
                        add_constraint(&ranges, c, b, &mut has_diagonal);
                    }
                }
            }
            // Propagate backwards along edges that do not reset the clock.
            // Only a reset on every run of the edge (must-reset) stops the
            // propagation: a function that resets a clock on some paths
            // only passes the target's bounds on, so the bounds are an
            // over-approximation, which keeps extrapolation sound.
            let mut changed = true;
            while changed {
                changed = false;
                for e in &p.edges {
                    for x in 1..dim {
                        let reset = e.updates.iter().any(|u| u.must_reset(x as u32));
                        if reset {
                            continue;
                        }
                        let (tl, tu) = local[e.target as usize][x];
                        let s = &mut local[e.source as usize][x];
                        if tl > s.0 || tu > s.1 {
                            s.0 = s.0.max(tl);
                            s.1 = s.1.max(tu);
                            changed = true;
                        }
                    }
                }
            }
            bounds.push(local);
        }
        let mut global = vec![(-1, -1); dim];
        goal_bounds(&ranges, goal, &mut global, &mut has_diagonal);
        goal_constants(&ranges, goal, &mut beyond_zones);
        LuTable {
            beyond_zones,
            bounds,
            global,
            has_diagonal,
            // Priorities subtract the guards and invariants of the
            // transitions that block: negated, their constants bound
            // clocks from both sides too.
            max_bounds: goal.mentions_deadlock() || !net.priorities.is_empty(),
        }
    }

    /// Fills `lower`/`upper` (length `dim`) for the given locations.
    pub fn fill(&self, locations: &[i32], lower: &mut [i32], upper: &mut [i32]) {
        self.fill_where(locations, |_| true, lower, upper);
    }

    /// [`LuTable::fill`] from the locations of the processes with `kept[p]`
    /// only (a pattern database's abstraction, which does not know where the
    /// other processes are; smaller bounds only coarsen its zones).
    pub fn fill_kept(
        &self,
        locations: &[i32],
        kept: &[bool],
        lower: &mut [i32],
        upper: &mut [i32],
    ) {
        self.fill_where(
            locations,
            |p| kept.get(p).copied().unwrap_or(false),
            lower,
            upper,
        );
    }

    fn fill_where(
        &self,
        locations: &[i32],
        counts: impl Fn(usize) -> bool,
        lower: &mut [i32],
        upper: &mut [i32],
    ) {
        for (x, &(l, u)) in self.global.iter().enumerate() {
            lower[x] = l;
            upper[x] = u;
        }
        for (p, &loc) in locations.iter().enumerate() {
            if !counts(p) {
                continue;
            }
            for (x, &(l, u)) in self.bounds[p][loc as usize].iter().enumerate() {
                lower[x] = lower[x].max(l);
                upper[x] = upper[x].max(u);
            }
        }
        if self.max_bounds {
            for x in 0..lower.len() {
                let m = lower[x].max(upper[x]);
                lower[x] = m;
                upper[x] = m;
            }
        }
        lower[0] = 0;
        upper[0] = 0;
    }
}

fn add_constraint(ranges: &[Interval], c: &ClockConstraint, b: &mut [(i32, i32)], diag: &mut bool) {
    let (lo, hi) = bound_range(ranges, &c.bound);
    let clamp = |v: i64| v.clamp(-1, MAX_CONST as i64) as i32;
    let (i, j) = (c.i as usize, c.j as usize);
    if i != 0 && j != 0 {
        *diag = true;
    } else if j == 0 && i != 0 {
        // x_i ≺ bound: an upper bound.
        b[i].1 = b[i].1.max(clamp(hi));
    } else if i == 0 && j != 0 {
        // -x_j ≺ bound, i.e. x_j ≻ -bound: a lower bound.
        b[j].0 = b[j].0.max(clamp(-lo));
    }
}

/// Counts the constant of `c` as a lower and an upper bound of its clocks
/// (for constraints that are also used negated).
fn add_both_sides(ranges: &[Interval], c: &ClockConstraint, b: &mut [(i32, i32)], diag: &mut bool) {
    let (lo, hi) = bound_range(ranges, &c.bound);
    let m = lo.abs().max(hi.abs()).min(MAX_CONST as i64) as i32;
    if c.i != 0 && c.j != 0 {
        *diag = true;
    }
    for x in [c.i as usize, c.j as usize] {
        if x != 0 {
            b[x].0 = b[x].0.max(m);
            b[x].1 = b[x].1.max(m);
        }
    }
}

fn goal_bounds(ranges: &[Interval], f: &Formula, b: &mut [(i32, i32)], diag: &mut bool) {
    match f {
        // Under negation a lower bound becomes an upper one: count both.
        Formula::Clock(c) => add_both_sides(ranges, c, b, diag),
        Formula::Not(g) => goal_bounds(ranges, g, b, diag),
        Formula::And(gs) | Formula::Or(gs) => {
            for g in gs {
                goal_bounds(ranges, g, b, diag);
            }
        }
        _ => {}
    }
}

/// [`note_constraint`] for every clock constraint of a goal.
fn goal_constants(ranges: &[Interval], f: &Formula, beyond: &mut Option<i64>) {
    match f {
        Formula::Clock(c) => note_constraint(ranges, c, beyond),
        Formula::Not(g) => goal_constants(ranges, g, beyond),
        Formula::And(gs) | Formula::Or(gs) => {
            for g in gs {
                goal_constants(ranges, g, beyond);
            }
        }
        _ => {}
    }
}

/// The values `bound` can take over the variables' declared `ranges`,
/// whether or not its evaluation may fail: a comparison whose bound fails to
/// evaluate is never made, so only successful evaluations count.
pub fn bound_range(ranges: &[Interval], bound: &Expr) -> Interval {
    bound.range(ranges).lenient()
}

/// Whether the LU bounds (at most [`MAX_CONST`]) cover every value `bound`
/// can take over the declared `ranges`.
pub fn within_lu_bounds(ranges: &[Interval], bound: &Expr) -> bool {
    let (lo, hi) = bound_range(ranges, bound);
    let max = MAX_CONST as i64;
    -max <= lo && hi <= max
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (L, U) of clock `x` (DBM index 1) in the initial location of the
    /// one-process model `text`.
    fn initial_bounds(text: &str) -> (i32, i32) {
        let net = zeno_semantics::test_network(text);
        let lu = LuTable::new(&net, &net.checks[0].kind.goal());
        let (mut lower, mut upper) = (vec![0; 2], vec![0; 2]);
        lu.fill(
            &net.initial_locations()
                .iter()
                .map(|&l| l as i32)
                .collect::<Vec<_>>(),
            &mut lower,
            &mut upper,
        );
        (lower[1], upper[1])
    }

    fn model(guard: &str) -> String {
        format!(
            "int[0, 10] d = 4;\ntemplate P() {{\n clock x;\n init location a;\n location b;\n \
             a -> b when {guard};\n}}\nsystem P;\ncheck reach: E<> P.b;\n"
        )
    }

    #[test]
    fn bounds_reading_variables_take_their_declared_ranges() {
        // d / 2 ∈ [0, 5]; x > d % 3 is 0 - x < -(d % 3), with d % 3 ∈ [0, 2].
        assert_eq!(initial_bounds(&model("x <= d / 2 && x > d % 3")), (2, 5));
        // x >= 7 - d: -(7 - d) ∈ [-7, 3], so L = 7.
        assert_eq!(initial_bounds(&model("x >= 7 - d")), (7, -1));
        // A bound beyond the largest constant is cut to it.
        assert_eq!(initial_bounds(&model("x < d * 100000000")), (-1, MAX_CONST));
    }
}
