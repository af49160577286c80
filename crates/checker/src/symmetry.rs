//! Symmetry reduction over `scalar` sets: every state is replaced by a
//! representative of its orbit under the permutations of the sets' values
//! before it is stored (`ir::symmetry` says what a permutation moves; the
//! semantics layer has checked that the model cannot tell the values
//! apart, so the transition relation and the check's goal are invariant).
//!
//! **Soundness.** The representative is the state permuted, so it is in
//! the same orbit; a permuted state reaches exactly the permuted states
//! (the relation is invariant) and satisfies the goal exactly when the
//! state does. So a goal is reachable in the reduced graph iff it is in
//! the model, whatever representative is chosen: canonical ones only save
//! more states. Extrapolation and active-clock freeing run before, on the
//! state itself; a permuted abstraction of a state is an abstraction of
//! the permuted state, so this holds of the abstract graph too.
//!
//! **The representative** (as UPPAAL's, FORMATS 2003, sorting the values
//! by what they own): each value gets a signature that a permutation
//! carries along with it (the locations of the processes made for it, the
//! contents of its slots, with a stored value of the set read only as
//! "this value or another", whether each global variable of the set holds
//! it, the bounds of its clocks against 0), and the values are sorted by
//! signature. Values with equal signatures are tried in every order when
//! there are at most [`MAX_TRIES`] orders, and the least state (locations
//! and variables, then the zone's entries, lexicographically) is kept: the
//! representative is then canonical (the same for every state of the
//! orbit, since a permuted state has the same signatures, permuted, and so
//! the same set of candidates). With more ties the sorted order itself is
//! kept: sound, but two states of one orbit may then both be stored.
//!
//! **Traces.** Each stored state keeps the permutation that made it its
//! representative; a path of representatives is turned back into a path of
//! the model by composing their inverses step by step, so the trace is an
//! ordinary run that the concrete replay confirms.

use zeno_ir::symmetry::{ScalarSet, compose, inverse};
use zeno_ir::{EdgeId, ErrorKind, EvalError, Network, ProcId};

use super::dbm::Dbm;
use super::store::{NO_PARENT, Store};

/// Whether the search of `task` stores representatives.
pub fn applies(task: super::Task) -> bool {
    task.options.symmetry && Canon::new(task.net, task.check.index()).is_some()
}

/// Says in `stats` why a search of a network with scalar sets did not
/// reduce by symmetry, when it did not (and the reduction was asked for).
pub fn explain(
    net: &Network,
    check: zeno_ir::CheckId,
    options: &super::Options,
    stats: &mut super::Stats,
) {
    if !options.symmetry || net.symmetry.sets.is_empty() || stats.symmetry.is_some() {
        return;
    }
    let why = match net.symmetry.asymmetric_checks.get(check.index()) {
        Some(Some(why)) => format!("the check is not symmetric: {why}"),
        _ if net.has_stopwatches() => "stopwatch models are searched without it".to_string(),
        _ if options.reduce == super::Reduce::Por => {
            "the local-time zone graph (`--reduce por`) is searched without it".to_string()
        }
        _ => "only the sequential reachability search reduces by symmetry".to_string(),
    };
    stats.symmetry = Some(super::SymmetryUse::Off(why));
}

/// The most orders of tied values tried for a canonical representative.
pub const MAX_TRIES: usize = 720;

/// The reduction for one search: the sets, and scratch buffers.
pub struct Canon<'n> {
    net: &'n Network,
    sets: &'n [ScalarSet],
    nproc: usize,
    dim: usize,
    /// Per stored state, the permutations (one per set, concatenated) that
    /// made it its representative.
    applied: Vec<u32>,
    width: usize,
    sig: Vec<Vec<i64>>,
    key_buf: Vec<i32>,
    best_key: Vec<i32>,
    zone_buf: Dbm,
    best_zone: Dbm,
    clocks: Vec<usize>,
    pi: Vec<u32>,
    best_pi: Vec<u32>,
}

impl<'n> Canon<'n> {
    /// The reduction for check `check` of `net`; `None` when the network
    /// has no symmetry, or the check names one value (see
    /// [`ir::symmetry::Symmetry::asymmetric_checks`]), or stopwatches make
    /// the search confirm its paths (not done on representatives).
    pub fn new(net: &'n Network, check: usize) -> Option<Canon<'n>> {
        let sym = &net.symmetry;
        if !sym.check_is_symmetric(check) || net.has_stopwatches() {
            return None;
        }
        let dim = net.dbm_dim();
        Some(Canon {
            net,
            sets: &sym.sets,
            nproc: net.processes.len(),
            dim,
            applied: Vec::new(),
            width: sym.sets.iter().map(|s| s.size as usize).sum(),
            sig: Vec::new(),
            key_buf: Vec::new(),
            best_key: Vec::new(),
            zone_buf: Dbm::zero(dim),
            best_zone: Dbm::zero(dim),
            clocks: Vec::new(),
            pi: Vec::new(),
            best_pi: Vec::new(),
        })
    }

    /// Replaces `key` and `zone` by their representative; the permutations
    /// applied are kept for the state the store gives `id` next
    /// ([`Canon::stored`]).
    pub fn canonicalize(&mut self, key: &mut Vec<i32>, zone: &mut Dbm) {
        self.best_pi.clear();
        let mut all = std::mem::take(&mut self.best_pi);
        for k in 0..self.sets.len() {
            self.one_set(k, key, zone);
            all.extend_from_slice(&self.pi);
        }
        self.best_pi = all;
    }

    /// Records that the state last canonicalised was stored as `id`.
    pub fn stored(&mut self, id: u32) {
        let at = id as usize * self.width;
        if self.applied.len() < at + self.width {
            self.applied.resize(at + self.width, 0);
        }
        self.applied[at..at + self.width].copy_from_slice(&self.best_pi);
    }

    /// The representative of `key`/`zone` over set `k`; `self.pi` is the
    /// permutation applied.
    fn one_set(&mut self, k: usize, key: &mut Vec<i32>, zone: &mut Dbm) {
        let sets = self.sets;
        let set = &sets[k];
        let n = set.size as usize;
        self.signatures(k, key, zone);
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| self.sig[a].cmp(&self.sig[b]));
        // Runs of equal signatures.
        let mut groups: Vec<(usize, usize)> = Vec::new();
        let mut start = 0;
        for i in 1..=n {
            if i == n || self.sig[order[i]] != self.sig[order[start]] {
                if i - start > 1 {
                    groups.push((start, i));
                }
                start = i;
            }
        }
        let tries = groups.iter().try_fold(1usize, |acc, &(a, b)| {
            (1..=b - a)
                .try_fold(acc, |x, f| x.checked_mul(f))
                .filter(|&t| t <= MAX_TRIES)
        });
        let pi_of = |order: &[usize]| {
            let mut pi = vec![0u32; order.len()];
            for (pos, &v) in order.iter().enumerate() {
                pi[v] = pos as u32;
            }
            pi
        };
        match tries {
            Some(t) if t > 1 => {
                let mut best: Option<Vec<u32>> = None;
                let mut current = order.clone();
                for_each_arrangement(&mut current, &groups, 0, &mut |o| {
                    let pi = pi_of(o);
                    self.apply(set, &pi, key, zone);
                    let better = best.is_none()
                        || (&self.key_buf, self.zone_buf.raw())
                            < (&self.best_key, self.best_zone.raw());
                    if better {
                        std::mem::swap(&mut self.best_key, &mut self.key_buf);
                        self.best_zone.assign(&self.zone_buf);
                        best = Some(pi);
                    }
                });
                key.clone_from(&self.best_key);
                zone.assign(&self.best_zone);
                self.pi = best.expect("at least one arrangement");
            }
            _ => {
                let pi = pi_of(&order);
                self.apply(set, &pi, key, zone);
                std::mem::swap(key, &mut self.key_buf);
                zone.assign(&self.zone_buf);
                self.pi = pi;
            }
        }
    }

    /// `key`/`zone` permuted by `pi`, into `key_buf`/`zone_buf`.
    fn apply(&mut self, set: &ScalarSet, pi: &[u32], key: &[i32], zone: &Dbm) {
        set.permute_key(pi, self.nproc, key, &mut self.key_buf);
        set.clock_images(pi, self.dim, &mut self.clocks);
        let d = self.dim;
        let mut m = vec![0; d * d];
        for i in 0..d {
            for j in 0..d {
                m[self.clocks[i] * d + self.clocks[j]] = zone.get(i, j);
            }
        }
        self.zone_buf.set_raw(d, &m);
    }

    /// Each value's signature over set `k`: what a permutation carries
    /// along with the value.
    fn signatures(&mut self, k: usize, key: &[i32], zone: &Dbm) {
        let sets = self.sets;
        let set = &sets[k];
        let n = set.size as usize;
        let vars = &key[self.nproc..];
        self.sig.resize_with(n, Vec::new);
        for (v, sig) in self.sig.iter_mut().enumerate() {
            sig.clear();
            for row in &set.processes {
                sig.push(key[row[v] as usize] as i64);
            }
            for row in &set.variables {
                let s = row[v];
                let x = vars[s as usize];
                if set.values.binary_search(&s).is_ok() {
                    // Another value's identity is not carried along.
                    sig.push(i64::from(x == v as i32) - 2);
                } else {
                    sig.push(x as i64);
                }
            }
            for &s in &set.values {
                sig.push(i64::from(vars[s as usize] == v as i32));
            }
            for row in &set.clocks {
                let c = row[v] as usize;
                sig.push(zone.get(c, 0) as i64);
                sig.push(zone.get(0, c) as i64);
            }
        }
    }

    /// The transitions from the initial state to stored state `id`, as
    /// transitions of the model: each step's representative coordinates
    /// taken back through the permutations composed so far.
    pub fn path_to(&self, store: &Store, id: u32) -> Vec<Vec<(ProcId, EdgeId)>> {
        self.map_back(store, id, &[], None).path
    }

    /// [`Canon::path_to`], with `edges` (a transition from state `id`, in
    /// its representative's coordinates) and the `error` met at state `id`
    /// (its variable, if it names one) in the model's.
    pub fn map_back(
        &self,
        store: &Store,
        id: u32,
        edges: &[(ProcId, EdgeId)],
        error: Option<EvalError>,
    ) -> MappedBack {
        let mut ids = Vec::new();
        let mut at = id;
        while at != NO_PARENT {
            ids.push(at);
            at = store.state(at).parent;
        }
        ids.reverse();
        // tau[k]: representative coordinates of the current state -> the
        // model's, per set.
        let mut tau: Vec<Vec<u32>> = (0..self.sets.len())
            .map(|k| inverse(self.perm(ids[0], k)))
            .collect();
        let mut path = Vec::new();
        for &next in &ids[1..] {
            path.push(self.map(&tau, store.transition(next)));
            for (k, t) in tau.iter_mut().enumerate() {
                *t = compose(t, &inverse(self.perm(next, k)));
            }
        }
        let edges = self.map(&tau, edges);
        let error = error.map(|mut e| {
            if let ErrorKind::OutOfRange { var, .. } = &mut e.kind {
                for (set, t) in self.sets.iter().zip(&tau) {
                    *var = set.slot_image(t, *var);
                }
            }
            e
        });
        MappedBack { path, edges, error }
    }

    fn map(&self, tau: &[Vec<u32>], edges: &[(ProcId, EdgeId)]) -> Vec<(ProcId, EdgeId)> {
        let mut out = edges.to_vec();
        for (set, t) in self.sets.iter().zip(tau) {
            out = set.permute_edges(self.net, t, &out);
        }
        out
    }

    /// The permutation of set `k` that made stored state `id`.
    fn perm(&self, id: u32, k: usize) -> &[u32] {
        let start = id as usize * self.width
            + self.sets[..k]
                .iter()
                .map(|s| s.size as usize)
                .sum::<usize>();
        &self.applied[start..start + self.sets[k].size as usize]
    }
}

/// A path of representatives, a transition from its last state and an
/// error met there, in the model's coordinates ([`Canon::map_back`]).
pub struct MappedBack {
    /// The transitions from the initial state.
    pub path: Vec<Vec<(ProcId, EdgeId)>>,
    /// The transition from the last state.
    pub edges: Vec<(ProcId, EdgeId)>,
    /// The error, with its variable mapped.
    pub error: Option<EvalError>,
}

/// Calls `f` with every order of `order` that permutes only within each of
/// the `groups` (ranges of positions), from group `g` on.
fn for_each_arrangement(
    order: &mut [usize],
    groups: &[(usize, usize)],
    g: usize,
    f: &mut impl FnMut(&[usize]),
) {
    let Some(&(a, b)) = groups.get(g) else {
        f(order);
        return;
    };
    permute_range(order, b, a, &mut |o| {
        let mut o = o.to_vec();
        for_each_arrangement(&mut o, groups, g + 1, f)
    });
}

/// Every order of `order[i..b]` (swapping each candidate into place `i`).
fn permute_range(order: &mut [usize], b: usize, i: usize, f: &mut impl FnMut(&[usize])) {
    if i + 1 >= b {
        f(order);
        return;
    }
    for j in i..b {
        order.swap(i, j);
        permute_range(order, b, i + 1, f);
        order.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dbm::bound;

    /// Every permutation of a state has the same representative, and the
    /// representative is a permutation of the state.
    #[test]
    fn the_representative_is_the_same_for_a_whole_orbit() {
        let net = zeno_semantics::test_network(
            "typedef scalar[4] pid_t;
pid_t id;
template P(const pid_t me) {
    clock x;
    init location a;
    location b;
    a -> b when x > 1 do id = me, x = 0;
    b -> a when id == me;
}
system P;
check c: A[] true;",
        );
        let set = &net.symmetry.sets[0];
        assert_eq!(set.processes, [[0, 1, 2, 3]]);
        assert_eq!(set.clocks, [[1, 2, 3, 4]]);
        // Three processes at b whose clocks have the same bounds (0 to 3)
        // but are ordered (x of P(0) <= x of P(1) <= x of P(2)), so only
        // the zone tells them apart; P(3) at a; id names P(2).
        let key = vec![1, 1, 1, 0, 2];
        let mut zone = Dbm::zero(5);
        zone.up();
        for x in 1..5 {
            zone.constrain(x, 0, bound::le(3));
        }
        zone.constrain(1, 2, bound::le(0));
        zone.constrain(2, 3, bound::le(0));
        let mut canon = Canon::new(&net, 0).expect("symmetric");
        let (mut k0, mut z0) = (key.clone(), zone.clone());
        canon.canonicalize(&mut k0, &mut z0);
        let mut pi = vec![0u32, 1, 2, 3];
        let mut images = 0;
        let mut clocks = Vec::new();
        permute_range(&mut [0, 1, 2, 3], 4, 0, &mut |o| {
            pi = o.iter().map(|&v| v as u32).collect();
            let mut k = Vec::new();
            set.permute_key(&pi, 4, &key, &mut k);
            set.clock_images(&pi, 5, &mut clocks);
            let mut m = vec![0; 25];
            for i in 0..5 {
                for j in 0..5 {
                    m[clocks[i] * 5 + clocks[j]] = zone.get(i, j);
                }
            }
            let mut z = Dbm::from_canonical(5, m);
            canon.canonicalize(&mut k, &mut z);
            assert_eq!((&k, z.raw()), (&k0, z0.raw()), "{pi:?}");
            images += 1;
        });
        assert_eq!(images, 24);
        // The representative: the process at a first, then the others by
        // their clocks' bounds, id following its process.
        assert_eq!(k0[..4], [0, 1, 1, 1]);
    }

    #[test]
    fn every_arrangement_within_groups_once() {
        let mut seen = Vec::new();
        let mut order = vec![0, 1, 2, 3, 4];
        for_each_arrangement(&mut order, &[(0, 3), (3, 5)], 0, &mut |o| {
            seen.push(o.to_vec())
        });
        // 3! * 2! orders, all distinct, each keeping the groups' members.
        assert_eq!(seen.len(), 12);
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 12);
        assert!(seen.iter().all(|o| {
            let mut head = o[..3].to_vec();
            head.sort();
            head == [0, 1, 2]
        }));
    }
}
