//! The symmetry of a network in its `scalar` sets (UPPAAL's scalarsets;
//! Hendriks, Behrmann, Larsen, Niebert, Vaandrager, "Adding symmetry
//! reduction to UPPAAL", FORMATS 2003): which parts of a state the values
//! of a set own, so that a permutation of the values acts on states.
//!
//! The semantics layer fills this in only where it has checked that the
//! model uses the set's values as UPPAAL allows (equality, indexing arrays
//! declared over the set, assignment, parameters and quantifiers of the
//! set's type; no arithmetic, no ordering, no literal), so that the
//! transition relation is invariant under every permutation of the values:
//! a permuted run is a run. The checker's canonicalisation
//! (`checker::symmetry`) relies on that.
//!
//! A permutation `pi` (`pi[v]`: the image of value `v`) moves the part of
//! the state that value `v` owns to the place of value `pi[v]` and maps the
//! values stored in the set's variables through `pi`.

use super::{ClockId, EdgeId, Network, ProcId, Span, VarId};

/// The symmetry of a network: its scalar sets, and which checks are
/// symmetric too.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Symmetry {
    /// The sets reduced over (each checked to be used symmetrically).
    pub sets: Vec<ScalarSet>,
    /// Per check (indexed like `Network::checks`): why the check is not
    /// symmetric (it names one value, `P(1).cs`), or `None`.
    pub asymmetric_checks: Vec<Option<String>>,
}

/// One scalar set and what each of its values owns.
#[derive(Debug, Clone, PartialEq)]
pub struct ScalarSet {
    /// The typedef's name.
    pub name: String,
    /// The typedef.
    pub span: Span,
    /// The number of values.
    pub size: u32,
    /// Rows of processes, one per template instantiated over the set:
    /// `processes[r][v]` is the process made for value `v`.
    pub processes: Vec<Vec<ProcId>>,
    /// Rows of variable slots: `variables[r][v]` is the slot value `v`
    /// owns in row `r` (an element of an array declared over the set, or
    /// a local variable of the process made for `v`).
    pub variables: Vec<Vec<VarId>>,
    /// Rows of clocks, as `variables`.
    pub clocks: Vec<Vec<ClockId>>,
    /// The slots that hold a value of the set (their value is mapped).
    pub values: Vec<VarId>,
    /// The edges (by their span) with `select` bindings of the set, and
    /// the names of those bindings: an edge made for the value `j` of such a
    /// binding becomes the one made for `pi[j]`.
    pub selects: Vec<(Span, Vec<String>)>,
}

impl Symmetry {
    /// Whether the check at `index` may be decided on the reduced space: a
    /// check the semantics layer has not read (one added to the network
    /// afterwards) is not.
    pub fn check_is_symmetric(&self, index: usize) -> bool {
        !self.sets.is_empty() && matches!(self.asymmetric_checks.get(index), Some(None))
    }
}

impl ScalarSet {
    /// Whether `pi` is a permutation of the set's values.
    fn is_permutation(&self, pi: &[u32]) -> bool {
        let mut seen = vec![false; self.size as usize];
        pi.len() == seen.len()
            && pi.iter().all(|&v| {
                (v as usize) < seen.len() && !std::mem::replace(&mut seen[v as usize], true)
            })
    }

    /// The process `p` becomes under `pi` (unchanged when no value owns it).
    pub fn process_image(&self, pi: &[u32], p: ProcId) -> ProcId {
        for row in &self.processes {
            if let Some(v) = row.iter().position(|&q| q == p) {
                return row[pi[v] as usize];
            }
        }
        p
    }

    /// Where each clock goes under `pi` (`out[c]`: the image of clock `c`),
    /// for a network of `nclocks` clocks (the reference clock included).
    pub fn clock_images(&self, pi: &[u32], nclocks: usize, out: &mut Vec<usize>) {
        out.clear();
        out.extend(0..nclocks);
        for row in &self.clocks {
            for (v, &c) in row.iter().enumerate() {
                out[c as usize] = row[pi[v] as usize] as usize;
            }
        }
    }

    /// `state`'s locations (the first `nproc` entries) and variables (the
    /// rest) permuted by `pi`, written to `out`.
    pub fn permute_key(&self, pi: &[u32], nproc: usize, state: &[i32], out: &mut Vec<i32>) {
        debug_assert!(self.is_permutation(pi));
        out.clear();
        out.extend_from_slice(state);
        for row in &self.processes {
            for (v, &p) in row.iter().enumerate() {
                out[row[pi[v] as usize] as usize] = state[p as usize];
            }
        }
        for row in &self.variables {
            for (v, &s) in row.iter().enumerate() {
                out[nproc + row[pi[v] as usize] as usize] = state[nproc + s as usize];
            }
        }
        for &s in &self.values {
            let x = &mut out[nproc + s as usize];
            if let Some(&image) = usize::try_from(*x).ok().and_then(|v| pi.get(v)) {
                *x = image as i32;
            }
        }
    }

    /// The slot `s` becomes under `pi` (unchanged when no value owns it).
    pub fn slot_image(&self, pi: &[u32], s: VarId) -> VarId {
        for row in &self.variables {
            if let Some(v) = row.iter().position(|&t| t == s) {
                return row[pi[v] as usize];
            }
        }
        s
    }

    /// A transition's edges, as `(process, edge)`, under `pi`.
    pub fn permute_edges(
        &self,
        net: &Network,
        pi: &[u32],
        edges: &[(ProcId, EdgeId)],
    ) -> Vec<(ProcId, EdgeId)> {
        edges
            .iter()
            .map(|&(p, e)| self.edge_image(net, pi, p, e))
            .collect()
    }

    /// Edge `e` of process `p` under `pi`: the edge of `p`'s image made
    /// from the same template edge (the same span, and the same place
    /// among the edges of that span with the same bindings), with the
    /// bindings of the set mapped.
    pub fn edge_image(&self, net: &Network, pi: &[u32], p: ProcId, e: EdgeId) -> (ProcId, EdgeId) {
        let q = self.process_image(pi, p);
        let edges = &net.processes[p as usize].edges;
        let edge = &edges[e as usize];
        let ours = self
            .selects
            .iter()
            .find(|(span, _)| *span == edge.span)
            .map(|(_, names)| names.as_slice())
            .unwrap_or_default();
        let rank = edges[..e as usize]
            .iter()
            .filter(|f| f.span == edge.span && f.selects == edge.selects)
            .count();
        let image: Vec<(String, i32)> = edge
            .selects
            .iter()
            .map(|(name, v)| {
                let mapped = match usize::try_from(*v).ok().and_then(|v| pi.get(v)) {
                    Some(&w) if ours.contains(name) => w as i32,
                    _ => *v,
                };
                (name.clone(), mapped)
            })
            .collect();
        let found = net.processes[q as usize]
            .edges
            .iter()
            .enumerate()
            .filter(|(_, f)| f.span == edge.span && f.selects == image)
            .nth(rank)
            .map(|(k, _)| k as EdgeId);
        (q, found.unwrap_or(e))
    }
}

/// `a` after `b`: the permutation `v -> a[b[v]]`.
pub fn compose(a: &[u32], b: &[u32]) -> Vec<u32> {
    b.iter().map(|&v| a[v as usize]).collect()
}

/// The inverse permutation.
pub fn inverse(pi: &[u32]) -> Vec<u32> {
    let mut inv = vec![0; pi.len()];
    for (v, &w) in pi.iter().enumerate() {
        inv[w as usize] = v as u32;
    }
    inv
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set() -> ScalarSet {
        // Two values; processes 0 and 1; slots 0 and 1 an array over the
        // set, slot 2 a variable of the set; clocks 1 and 2 one per value.
        ScalarSet {
            name: "id_t".into(),
            span: Span::default(),
            size: 2,
            processes: vec![vec![0, 1]],
            variables: vec![vec![0, 1]],
            clocks: vec![vec![1, 2]],
            values: vec![2],
            selects: Vec::new(),
        }
    }

    #[test]
    fn a_swap_moves_what_each_value_owns_and_maps_the_stored_values() {
        let s = set();
        let mut out = Vec::new();
        // Locations 5 and 7, array 10 and 20, id = 0.
        s.permute_key(&[1, 0], 2, &[5, 7, 10, 20, 0], &mut out);
        assert_eq!(out, [7, 5, 20, 10, 1]);
        s.permute_key(&[0, 1], 2, &[5, 7, 10, 20, 0], &mut out);
        assert_eq!(out, [5, 7, 10, 20, 0]);
        let mut clocks = Vec::new();
        s.clock_images(&[1, 0], 3, &mut clocks);
        assert_eq!(clocks, [0, 2, 1]);
        assert_eq!(s.process_image(&[1, 0], 0), 1);
        assert_eq!(s.slot_image(&[1, 0], 1), 0);
        assert_eq!(s.slot_image(&[1, 0], 2), 2);
    }

    #[test]
    fn composition_and_inverse() {
        let pi = [2, 0, 1];
        assert_eq!(compose(&pi, &inverse(&pi)), [0, 1, 2]);
        assert_eq!(compose(&[1, 2, 0], &[1, 0, 2]), [2, 1, 0]);
        assert!(set().is_permutation(&[1, 0]));
        assert!(!set().is_permutation(&[1, 1]));
    }
}
