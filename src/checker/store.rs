//! The passed/waiting store: discrete parts hashed to an id, and per discrete
//! part the zones stored so far, with inclusion subsumption. Every state keeps
//! its parent and the transition that produced it for trace reconstruction.

use rustc_hash::FxHashMap;

use crate::ir::{EdgeId, ProcId};

use super::dbm::Dbm;
use super::zone_table::ZoneTable;

pub const NO_PARENT: u32 = u32::MAX;

pub struct StateRec {
    pub disc: u32,
    pub parent: u32,
    trans_start: u32,
    trans_len: u32,
    /// Number of transitions from the initial state.
    pub g: u32,
    /// Set when a larger zone replaced this one: frontier entries are skipped.
    pub removed: bool,
    /// Set once the state has been taken from the frontier and expanded.
    pub expanded: bool,
    /// Where its zone is kept in the zone table; the slot of a removed state
    /// is reused (a trace needs parents and transitions, not zones: it
    /// recomputes the exact zones forward along the path).
    zone_slot: u32,
}

struct Disc {
    key_start: u32,
    /// Live states with this discrete part.
    states: Vec<u32>,
    /// Cached heuristic value (`None` = not computed yet).
    pub h: Option<Option<u32>>,
}

pub struct Store {
    nkey: usize,
    dim: usize,
    map: FxHashMap<Box<[i32]>, u32>,
    discs: Vec<Disc>,
    keys: Vec<i32>,
    zones: ZoneTable,
    /// Zone slots of removed states, free for new ones.
    free_slots: Vec<u32>,
    states: Vec<StateRec>,
    trans: Vec<(ProcId, EdgeId)>,
    live: u64,
}

/// Which stored zones a new zone may replace, and which may replace it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subsumption {
    /// Inclusion alone (depth-first and greedy orders).
    Any,
    /// Only zones at no greater depth subsume, so shortest traces survive (A*).
    NoDeeper,
    /// As `NoDeeper`, and a larger zone also replaces an included one that
    /// has already been expanded, whatever their depths (breadth-first
    /// search). The expanded state's successors are in the store already,
    /// with their shortest depths and parents, so its trace is kept (parents
    /// are never dropped); only the inclusion list forgets it. In FIFO order
    /// the larger zone is at most as deep as anything inserted after it, so
    /// it subsumes whatever the forgotten one would have: the explored
    /// states are the same, and the store holds what TChecker's covering
    /// store holds.
    NoDeeperUnlessExpanded,
}

/// Outcome of an insertion.
pub enum Inserted {
    New(u32),
    Subsumed,
}

impl Store {
    pub fn new(nkey: usize, dim: usize) -> Store {
        Store {
            nkey,
            dim,
            map: FxHashMap::default(),
            discs: Vec::new(),
            keys: Vec::new(),
            zones: ZoneTable::new(dim * dim),
            free_slots: Vec::new(),
            states: Vec::new(),
            trans: Vec::new(),
            live: 0,
        }
    }

    /// Copies the zone of `id` into `out` without allocating.
    pub fn zone_into(&self, id: u32, out: &mut Dbm) {
        out.set_raw_from(self.dim, self.zones.get(self.states[id as usize].zone_slot));
    }

    pub fn key(&self, id: u32) -> &[i32] {
        let d = &self.discs[self.states[id as usize].disc as usize];
        &self.keys[d.key_start as usize..d.key_start as usize + self.nkey]
    }

    pub fn state(&self, id: u32) -> &StateRec {
        &self.states[id as usize]
    }

    pub fn transition(&self, id: u32) -> &[(ProcId, EdgeId)] {
        let s = &self.states[id as usize];
        &self.trans[s.trans_start as usize..(s.trans_start + s.trans_len) as usize]
    }

    pub fn cached_h(&self, disc: u32) -> Option<Option<u32>> {
        self.discs[disc as usize].h
    }

    pub fn set_cached_h(&mut self, disc: u32, h: Option<u32>) {
        self.discs[disc as usize].h = Some(h);
    }

    /// Stores `(key, zone)` unless a stored zone of the same discrete part
    /// includes it; removes stored zones it includes, as `rule` allows.
    pub fn insert(
        &mut self,
        key: &[i32],
        zone: &Dbm,
        parent: u32,
        trans: &[(ProcId, EdgeId)],
        g: u32,
        rule: Subsumption,
    ) -> Inserted {
        let by_depth = rule != Subsumption::Any;
        let forget_expanded = rule == Subsumption::NoDeeperUnlessExpanded;
        let disc = match self.map.get(key) {
            Some(&d) => d,
            None => {
                let d = self.discs.len() as u32;
                let key_start = self.keys.len() as u32;
                self.keys.extend_from_slice(key);
                self.discs.push(Disc {
                    key_start,
                    states: Vec::new(),
                    h: None,
                });
                self.map.insert(key.into(), d);
                d
            }
        };
        self.zones.load_probe(zone.raw());
        let mut k = 0;
        let mut live = std::mem::take(&mut self.discs[disc as usize].states);
        while k < live.len() {
            let s = live[k];
            let slot = self.states[s as usize].zone_slot;
            let sg = self.states[s as usize].g;
            if self.zones.probe_within(slot) && (!by_depth || sg <= g) {
                self.discs[disc as usize].states = live;
                return Inserted::Subsumed;
            }
            let expanded = self.states[s as usize].expanded;
            if self.zones.probe_covers(slot)
                && (!by_depth || g <= sg || (forget_expanded && expanded))
            {
                self.states[s as usize].removed = true;
                self.free_slots.push(self.states[s as usize].zone_slot);
                self.live -= 1;
                live.swap_remove(k);
            } else {
                k += 1;
            }
        }
        let id = self.states.len() as u32;
        live.push(id);
        self.discs[disc as usize].states = live;
        let zone_slot = self.zones.store_probe(self.free_slots.pop());
        let trans_start = self.trans.len() as u32;
        self.trans.extend_from_slice(trans);
        self.states.push(StateRec {
            disc,
            parent,
            trans_start,
            trans_len: trans.len() as u32,
            g,
            removed: false,
            expanded: false,
            zone_slot,
        });
        self.live += 1;
        Inserted::New(id)
    }

    /// Makes room for `states` more states (each with a new discrete part
    /// and a few edges) so that inserting them does not grow a table: the
    /// tables grow here, within the memory budget, or not at all.
    pub fn reserve(&mut self, states: usize) -> Result<(), crate::memory::OutOfMemory> {
        use crate::memory::{reserve, reserve_map};
        self.zones.reserve(states)?;
        reserve(&mut self.states, states)?;
        reserve(&mut self.trans, states * 4)?;
        reserve(&mut self.keys, states * self.nkey)?;
        reserve(&mut self.discs, states)?;
        reserve_map(&mut self.map, states)
    }

    /// Records that `id` has been taken from the frontier and expanded.
    pub fn mark_expanded(&mut self, id: u32) {
        self.states[id as usize].expanded = true;
    }

    /// Live (not removed) states.
    pub fn live(&self) -> u64 {
        self.live
    }

    /// Bytes held by the store (capacities of its tables).
    pub fn bytes(&self) -> u64 {
        let map = self.map.capacity() * (std::mem::size_of::<(Box<[i32]>, u32)>() + 1)
            + self.map.len() * self.nkey * 4;
        let discs = self.discs.capacity() * std::mem::size_of::<Disc>()
            + self
                .discs
                .iter()
                .map(|d| d.states.capacity() * 4)
                .sum::<usize>();
        (map + discs
            + self.keys.capacity() * 4
            + self.zones.bytes()
            + self.states.capacity() * std::mem::size_of::<StateRec>()
            + self.trans.capacity() * 8) as u64
    }

    /// Bytes per stored state: discrete part, zone and bookkeeping.
    pub fn bytes_per_state(&self) -> u64 {
        let n = self.states.len().max(1) as u64;
        self.bytes() / n
    }
}
