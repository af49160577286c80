//! The search of `E[] keep` under `--non-zeno`: on the product network of
//! `non_zeno.rs`, a maximal run that keeps the formula is a run into a
//! state where time diverges or a deadlocked one (cases 2 and 3 of
//! `liveness.rs`, both non-Zeno), or an infinite run that ticks infinitely
//! often (case 1, restricted to non-Zeno runs). Case 1 is a reachable
//! strongly connected set of the zone graph inside the `keep`-states with a
//! ticking transition in it: Couvreur's algorithm ("On-the-fly verification
//! of linear temporal logic", FM 1999) with acceptance on transitions.
//!
//! Nodes are numbered in the order they are entered (node ids grow during a
//! search). `grey` marks a *live* node: entered, its component not yet
//! finished; a node is *dead* (`grey == None`) once its component is
//! complete. The root stack holds, for each component under construction,
//! its first node, whether the transition that entered that node ticks, and
//! whether a ticking transition lies inside the component. A successor
//! equal to a live node merges every component entered after it into the
//! one holding it (they are all on one cycle now), with the entering
//! transitions of the merged roots and the closing transition itself: a
//! tick among them makes the component accepting.
//!
//! Reduction, with its proof: **a successor whose zone is included in a
//! dead node's zone (same discrete part) is not explored**. Claim: no
//! maximal `keep`-run of the product starts in a valuation of a dead node.
//! By induction on the order in which components die. Let `C` be a
//! component that dies, and a maximal `keep`-run start in a valuation of a
//! node of `C`. It does not end there (a node of case 2 or 3 ends the search
//! when entered). Each transition leads into a successor zone of the node
//! (zone successors over-approximate concrete ones, and extrapolation only
//! adds valuations). When `C` died, each successor of its nodes inside
//! `keep` was a node of `C`, or equal to or included in a node that died
//! before `C`: a successor equal to a live node merged that node's
//! component into `C`'s, inclusion is only ever tested against dead nodes,
//! and a successor entered as a new node belongs to a component that died
//! first or was merged into `C`. If the run ever enters a node that died
//! before `C`, it goes on from a valuation of that node as a maximal
//! `keep`-run, excluded by induction. So it stays in `C` for ever, along transitions computed
//! while `C` was explored; it is infinite (it does not end) and non-Zeno
//! (it is maximal in the non-Zeno sense), so it ticks infinitely often, and
//! one of its ticking transitions joins two nodes of `C`. Every transition
//! between two nodes of a component is a closing transition (its tick is
//! added when it merges) or the tree transition that entered a node other
//! than the component's first, whose tick was added when that node's own
//! component was merged into this one, so `C` was accepting and the search would have stopped: contradiction.
//! Dead nodes stay dead across the searches of `-->` (the claim is about the
//! node alone). Inclusion in a live node proves nothing and is not used.

use std::collections::VecDeque;

use rustc_hash::FxHashMap;

use zeno_ir::Formula;

use super::super::dbm::Dbm;
use super::non_zeno;
use super::{Edges, End, Frame, Outcome, Run, Search, Walk};

/// A component under construction.
struct Root {
    node: u32,
    /// The transition that entered `node` ticks.
    entered_by_tick: bool,
    /// A ticking transition joins two of the component's nodes.
    accepting: bool,
}

/// The non-Zeno search's state beside the walk: Couvreur's root stack and
/// the live nodes in the order entered, with their discrete parts.
#[derive(Default)]
struct Components {
    roots: Vec<Root>,
    live: Vec<(u32, Box<[i32]>)>,
}

impl Walk for Components {
    fn entered(&mut self, id: u32, key: &[i32], via: &Edges) {
        self.roots.push(Root {
            node: id,
            entered_by_tick: non_zeno::ticks(via),
            accepting: false,
        });
        self.live.push((id, key.into()));
    }

    fn finished(&mut self, s: &mut Search, node: u32, _key: &[i32]) {
        if self.roots.last().is_some_and(|r| r.node == node) {
            // The component rooted here is complete: it dies.
            self.roots.pop();
            let mut dead = Vec::new();
            while let Some((n, key)) = self.live.pop() {
                s.nodes[n as usize].grey = None;
                dead.push((n, key));
                if n == node {
                    break;
                }
            }
            for (n, key) in dead {
                s.blacken(n, &key);
            }
        }
    }

    fn reached(&mut self, s: &mut Search, stack: &[Frame], node: u32, by: Edges) -> Option<Run> {
        s.nodes[node as usize].grey?;
        let mut accepting = non_zeno::ticks(&by);
        while let Some(r) = self.roots.pop_if(|r| r.node > node) {
            accepting |= r.accepting || r.entered_by_tick;
        }
        let Some(root) = self.roots.last_mut() else {
            unreachable!("a live node belongs to a component on the root stack");
        };
        root.accepting |= accepting;
        if !root.accepting {
            return None;
        }
        let root = root.node;
        Some(s.accepting_lasso(stack, &self.live, root))
    }
}

impl Search<'_, '_> {
    /// A maximal non-Zeno run of the product from (`key`, `zone`) that
    /// keeps `keep` in every state, as `Search::keeps` gives it.
    pub(super) fn keeps_non_zeno(
        &mut self,
        key: &[i32],
        zone: Dbm,
        keep: &Formula,
        prefix: &[Edges],
    ) -> Outcome {
        self.depth_first(key, zone, keep, prefix, &mut Components::default())
    }

    /// The lasso through an accepting component: the depth-first path to
    /// its root, then a shortest cycle from the root through a ticking
    /// transition back to the root, inside the component (its live nodes
    /// from the root on). The component is strongly connected by the
    /// transitions the search computed and holds a ticking one, so a
    /// breadth-first search over (node, ticked yet) finds the cycle; the
    /// successors are recomputed (they are deterministic).
    fn accepting_lasso(&mut self, stack: &[Frame], live: &[(u32, Box<[i32]>)], root: u32) -> Run {
        let depth = stack
            .iter()
            .position(|f| f.node == root)
            .expect("a component's root is on the depth-first path");
        let mut path: Vec<Edges> = stack[1..=depth].iter().map(|f| f.via.clone()).collect();
        let members: FxHashMap<u32, &[i32]> = live
            .iter()
            .filter(|(n, _)| *n >= root)
            .map(|(n, k)| (*n, &k[..]))
            .collect();
        let zone_of = |s: &Self, n: u32| s.nodes[n as usize].zone.clone();
        // Breadth-first over (node, a tick taken): parents for the path.
        let mut parent: FxHashMap<(u32, bool), ((u32, bool), Edges)> = FxHashMap::default();
        let mut queue = VecDeque::from([(root, false)]);
        let goal = (root, true);
        // These successors were computed once already: a limit reached now
        // must not cut them short.
        self.watch_transitions = false;
        'bfs: while let Some((n, ticked)) = queue.pop_front() {
            let key = members[&n];
            let zone = zone_of(self, n);
            let succ = match self.timed.is_some() {
                true => self.successors_timed(key, &zone).ok(),
                false => self.successors(key, &zone).ok(),
            }
            .expect("successors of an explored node evaluate");
            for (k2, z2, edges) in succ {
                let Ok(m) = self.lookup(&k2, &z2) else {
                    continue;
                };
                if !members.contains_key(&m) {
                    continue;
                }
                let next = (m, ticked || non_zeno::ticks(&edges));
                if next == (root, false) || parent.contains_key(&next) {
                    continue;
                }
                parent.insert(next, ((n, ticked), edges));
                if next == goal {
                    break 'bfs;
                }
                queue.push_back(next);
            }
        }
        self.watch_transitions = true;
        let mut cycle = Vec::new();
        let mut cycle_zones = Vec::new();
        let mut at = goal;
        while at != (root, false) {
            let (prev, edges) = parent
                .remove(&at)
                .expect("an accepting component has a ticking cycle through its root");
            cycle.push(edges);
            cycle_zones.push(Some(zone_of(self, at.0)));
            at = prev;
        }
        cycle.reverse();
        cycle_zones.reverse();
        path.extend(cycle);
        let mut zones: Vec<Option<Dbm>> = stack[..=depth]
            .iter()
            .map(|f| Some(zone_of(self, f.node)))
            .collect();
        zones.extend(cycle_zones);
        (path, zones, End::Loop(depth, zone_of(self, root)))
    }
}
