//! The passed/waiting store: discrete parts hashed to an id, and per discrete
//! part the zones stored so far, with inclusion subsumption. Every state keeps
//! its parent and the transition that produced it for trace reconstruction.
//!
//! Zones cost what their active clocks cost (`active.rs`): the active set is
//! a function of the locations, part of the discrete key, so all zones of
//! one discrete part share it. Each discrete part names its interned set,
//! and its zones keep only the `(k+1)²` entries of the `k` active clocks,
//! in the zone table for sets of that size; the inactive clocks are free
//! (only `x >= 0`), which the search has made them before inserting, so a
//! read rebuilds the full canonical zone exactly and inclusion between
//! zones of one discrete part is inclusion of their active entries.

use rustc_hash::FxHashMap;

use zeno_ir::{EdgeId, ProcId};

use super::active::ActiveClocks;
use super::alu;
use super::dbm::Dbm;
use super::dbm::bound::{INF, LE_ZERO, Raw};
use super::lu::LuTable;
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
    /// Its active clocks: an index into `Store::sets`.
    set: u32,
    /// Live states with this discrete part.
    states: Vec<u32>,
    /// Cached heuristic value (`None` = not computed yet).
    pub h: Option<Option<u32>>,
    /// With aLU subsumption, where its bounds start in `AluBounds::bounds`.
    lu_start: u32,
}

/// aLU subsumption (`alu.rs`): the LU bounds of each discrete part, on
/// its active clocks (in the order of its active set, L then U).
struct AluBounds {
    table: LuTable,
    bounds: Vec<i32>,
    lower: Vec<i32>,
    upper: Vec<i32>,
}

pub struct Store {
    nkey: usize,
    dim: usize,
    map: FxHashMap<Box<[i32]>, u32>,
    discs: Vec<Disc>,
    keys: Vec<i32>,
    /// Which clocks are active where; `None`: all, everywhere.
    active: Option<ActiveClocks>,
    /// Number of processes (the locations at the head of a key).
    nproc: usize,
    /// The interned active sets (DBM indices, 0 first), and their ids.
    sets: Vec<Box<[u16]>>,
    set_ids: FxHashMap<Box<[u16]>, u32>,
    /// `zones[n]`: the zones of the discrete parts whose active set has `n`
    /// clocks (the reference clock included), `n²` entries each (created
    /// on first use).
    zones: Vec<ZoneTable>,
    /// Per zone table, the slots of removed states, free for new ones.
    free_slots: Vec<Vec<u32>>,
    /// Scratch: the active set of a new key, the projected zone.
    set_buf: Vec<u16>,
    probe: Vec<Raw>,
    states: Vec<StateRec>,
    trans: Vec<(ProcId, EdgeId)>,
    live: u64,
    /// Set: a zone subsumes another when it is included in its aLU
    /// abstraction, rather than in the zone itself.
    alu: Option<AluBounds>,
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
    /// A store that keeps every clock of every zone.
    pub fn new(nkey: usize, dim: usize) -> Store {
        Store::build(nkey, dim, 0, None)
    }

    /// A store whose zones keep only the clocks `active` calls active at
    /// their locations (the first `nproc` entries of a key); every zone
    /// inserted must have its inactive clocks free.
    pub fn with_active_clocks(
        nkey: usize,
        dim: usize,
        nproc: usize,
        active: ActiveClocks,
    ) -> Store {
        Store::build(nkey, dim, nproc, Some(active))
    }

    fn build(nkey: usize, dim: usize, nproc: usize, active: Option<ActiveClocks>) -> Store {
        let mut store = Store {
            nkey,
            dim,
            map: FxHashMap::default(),
            discs: Vec::new(),
            keys: Vec::new(),
            active,
            nproc,
            sets: Vec::new(),
            set_ids: FxHashMap::default(),
            zones: Vec::new(),
            free_slots: Vec::new(),
            set_buf: Vec::new(),
            probe: Vec::new(),
            states: Vec::new(),
            trans: Vec::new(),
            live: 0,
            alu: None,
        };
        // The full set first, so that a store without the reduction has
        // its one table from the start (and `reserve` reserves in it).
        store.set_buf = (0..dim.max(1) as u16).collect();
        store.intern_set();
        store
    }

    /// Subsumes by aLU simulation (`alu.rs`) with the bounds of `lu`
    /// rather than by inclusion; `nproc` locations head a key. Only before
    /// the first insertion, and only where `lu`'s bounds make the LU
    /// simulation one (`semantics::Model::alu_bounds`).
    pub fn subsume_alu(&mut self, lu: LuTable, nproc: usize) {
        assert!(
            self.discs.is_empty(),
            "aLU subsumption is set before the first state"
        );
        self.nproc = nproc;
        self.alu = Some(AluBounds {
            table: lu,
            bounds: Vec::new(),
            lower: vec![0; self.dim],
            upper: vec![0; self.dim],
        });
    }

    /// The id of the set in `set_buf`, interning it (and creating the zone
    /// table for its size) when new.
    fn intern_set(&mut self) -> u32 {
        if let Some(&id) = self.set_ids.get(self.set_buf.as_slice()) {
            return id;
        }
        let id = self.sets.len() as u32;
        let set: Box<[u16]> = self.set_buf.as_slice().into();
        let k = set.len();
        while self.zones.len() <= k {
            let n = self.zones.len();
            self.zones.push(ZoneTable::new(n * n));
            self.free_slots.push(Vec::new());
        }
        self.sets.push(set.clone());
        self.set_ids.insert(set, id);
        id
    }

    /// Copies the zone of `id` into `out` without allocating: the stored
    /// entries of its active clocks, the inactive ones free.
    pub fn zone_into(&self, id: u32, out: &mut Dbm) {
        let s = &self.states[id as usize];
        let set = &self.sets[self.discs[s.disc as usize].set as usize];
        if set.len() == self.dim {
            out.set_raw_from(self.dim, self.zones[self.dim].get(s.zone_slot));
            return;
        }
        let (n, k) = (self.dim, set.len());
        let table = &self.zones[k];
        // A free clock x: x - x_j unbounded, x_i - x bounded as x_i - 0
        // (the reference clock is active, at position 0). So row i of the
        // full zone is row `pos(i)` of the stored one spread over the
        // columns, with an inactive column reading the stored column 0,
        // and an inactive row is unbounded but for its diagonal.
        out.set_raw_from(n, std::iter::repeat_n(INF, n * n));
        let m = out.raw_mut();
        for (a, &i) in set.iter().enumerate() {
            let row = &mut m[i as usize * n..(i as usize + 1) * n];
            row.fill(table.entry(s.zone_slot, a * k));
            for (b, &j) in set.iter().enumerate().skip(1) {
                row[j as usize] = table.entry(s.zone_slot, a * k + b);
            }
            row[i as usize] = LE_ZERO;
        }
        for x in 0..n {
            m[x * n + x] = LE_ZERO;
        }
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
                let set = match &self.active {
                    Some(active) => {
                        active.fill(&key[..self.nproc], &mut self.set_buf);
                        self.intern_set()
                    }
                    None => 0,
                };
                let d = self.discs.len() as u32;
                let key_start = self.keys.len() as u32;
                self.keys.extend_from_slice(key);
                let lu_start = match &mut self.alu {
                    Some(a) => {
                        let start = a.bounds.len() as u32;
                        a.table.fill(&key[..self.nproc], &mut a.lower, &mut a.upper);
                        let set = &self.sets[set as usize];
                        a.bounds.extend(set.iter().map(|&x| a.lower[x as usize]));
                        a.bounds.extend(set.iter().map(|&x| a.upper[x as usize]));
                        start
                    }
                    None => 0,
                };
                self.discs.push(Disc {
                    key_start,
                    set,
                    states: Vec::new(),
                    h: None,
                    lu_start,
                });
                self.map.insert(key.into(), d);
                d
            }
        };
        let set = &self.sets[self.discs[disc as usize].set as usize];
        let table = set.len();
        if table == self.dim {
            self.zones[table].load_probe(zone.raw());
        } else {
            self.probe.clear();
            for &i in set.iter() {
                for &j in set.iter() {
                    self.probe.push(zone.get(i as usize, j as usize));
                }
            }
            debug_assert!(
                (0..self.dim).all(|x| set.contains(&(x as u16)) || {
                    let mut free = zone.clone();
                    free.free(x);
                    free == *zone
                }),
                "an inactive clock is not free"
            );
            self.zones[table].load_probe(&self.probe);
        }
        let zones = &mut self.zones[table];
        // The aLU bounds of this discrete part, and the probe's entries.
        let alu_bounds = self.alu.as_ref().map(|a| {
            let start = self.discs[disc as usize].lu_start as usize;
            let (lower, upper) = a.bounds[start..start + 2 * table].split_at(table);
            let probe: &[Raw] = if table == self.dim {
                zone.raw()
            } else {
                &self.probe
            };
            (lower, upper, probe)
        });
        let mut k = 0;
        let mut live = std::mem::take(&mut self.discs[disc as usize].states);
        while k < live.len() {
            let s = live[k];
            let slot = self.states[s as usize].zone_slot;
            let sg = self.states[s as usize].g;
            let mut inclusion = zones.compare_probe(slot);
            // Inclusion implies aLU inclusion: the aLU test runs only where
            // inclusion fails, reading the stored zone in place.
            if let Some((lower, upper, probe)) = alu_bounds {
                let stored = |i| zones.entry(slot, i);
                let probe = |i| probe[i];
                inclusion.within =
                    inclusion.within || alu::included(probe, stored, table, lower, upper);
                inclusion.covers =
                    inclusion.covers || alu::included(stored, probe, table, lower, upper);
            }
            if inclusion.within && (!by_depth || sg <= g) {
                self.discs[disc as usize].states = live;
                return Inserted::Subsumed;
            }
            let expanded = self.states[s as usize].expanded;
            if inclusion.covers && (!by_depth || g <= sg || (forget_expanded && expanded)) {
                self.states[s as usize].removed = true;
                self.free_slots[table].push(self.states[s as usize].zone_slot);
                self.live -= 1;
                live.swap_remove(k);
            } else {
                k += 1;
            }
        }
        let id = self.states.len() as u32;
        live.push(id);
        self.discs[disc as usize].states = live;
        let zone_slot = zones.store_probe(self.free_slots[table].pop());
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
    pub fn reserve(&mut self, states: usize) -> Result<(), zeno_base::memory::OutOfMemory> {
        use zeno_base::memory::{reserve, reserve_map};
        // Successors may land in any table: each makes room.
        for zones in &mut self.zones {
            zones.reserve(states)?;
        }
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
            + self.zones.iter().map(ZoneTable::bytes).sum::<usize>()
            + self
                .free_slots
                .iter()
                .map(|f| f.capacity() * 4)
                .sum::<usize>()
            + self.sets.iter().map(|s| s.len() * 4).sum::<usize>()
            + self.states.capacity() * std::mem::size_of::<StateRec>()
            + self.trans.capacity() * 8
            + self.alu.as_ref().map_or(0, |a| a.bounds.capacity() * 4)) as u64
    }

    /// Bytes per stored state: discrete part, zone and bookkeeping.
    pub fn bytes_per_state(&self) -> u64 {
        let n = self.states.len().max(1) as u64;
        self.bytes() / n
    }
}
