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
//!
//! The bookkeeping is kept small, since on Fischer-like models there are
//! almost as many discrete parts as zones: a discrete part is stored once,
//! packed into bytes (`packed_key.rs`), and the hash table holds only its
//! number; a state record is five `u32`s (its transitions end where the
//! next state's begin, its two flags are bit sets), and the zones of a
//! discrete part are listed inline up to four.

use std::hash::Hasher;

use hashbrown::HashTable;
use rustc_hash::{FxHashMap, FxHasher};
use smallvec::SmallVec;

use zeno_ir::{EdgeId, ProcId};

use super::active::ActiveClocks;
use super::alu;
use super::dbm::Dbm;
use super::dbm::bound::{INF, LE_ZERO, Raw};
use super::lu::LuTable;
use super::packed_key::KeyCodec;
use super::zone_table::ZoneTable;

pub const NO_PARENT: u32 = u32::MAX;

pub struct StateRec {
    pub disc: u32,
    pub parent: u32,
    /// Its transitions: `Store::trans` from here to the next state's start.
    trans_start: u32,
    /// Number of transitions from the initial state.
    pub g: u32,
    /// Where its zone is kept in the zone table; the slot of a removed state
    /// is reused (a trace needs parents and transitions, not zones: it
    /// recomputes the exact zones forward along the path).
    zone_slot: u32,
}

/// One bit per state.
#[derive(Default)]
struct Bits(Vec<u64>);

impl Bits {
    fn get(&self, i: u32) -> bool {
        self.0
            .get(i as usize / 64)
            .is_some_and(|w| w >> (i % 64) & 1 == 1)
    }

    fn set(&mut self, i: u32) {
        let w = i as usize / 64;
        if w >= self.0.len() {
            self.0.resize(w + 1, 0);
        }
        self.0[w] |= 1 << (i % 64);
    }

    fn bytes(&self) -> usize {
        self.0.capacity() * 8
    }
}

struct Disc {
    /// Its active clocks: an index into `Store::sets`.
    set: u32,
    /// Live states with this discrete part.
    states: SmallVec<[u32; 4]>,
}

/// aLU subsumption (`alu.rs`): the LU bounds of each discrete part, on
/// its active clocks (in the order of its active set, L then U).
struct AluBounds {
    table: LuTable,
    bounds: Vec<i32>,
    /// Per discrete part, where its bounds start in `bounds`.
    starts: Vec<u32>,
    lower: Vec<i32>,
    upper: Vec<i32>,
}

pub struct Store {
    nkey: usize,
    dim: usize,
    /// The discrete parts' numbers, hashed by their packed keys.
    table: HashTable<u32>,
    discs: Vec<Disc>,
    /// How keys are packed, and the packed keys: discrete part `d` at
    /// `d * codec.len()`.
    codec: KeyCodec,
    keys: Vec<u8>,
    /// Scratch: the key being inserted, packed.
    packed: Vec<u8>,
    /// Cached heuristic values per discrete part (`None` = not computed
    /// yet), grown only when a search caches one.
    h: Vec<Option<Option<u32>>>,
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
    /// Scratch: the active set of a new key, the projected zone.
    set_buf: Vec<u16>,
    probe: Vec<Raw>,
    states: Vec<StateRec>,
    /// Set when a larger zone replaced the state: frontier entries are skipped.
    removed: Bits,
    /// Set once the state has been taken from the frontier and expanded.
    expanded: Bits,
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

/// The entries of `zone` on the clocks `set` (increasing, 0 first), row
/// by row, `set.len()²` of them: what a store keeps of a zone whose other
/// clocks are free (the distributed search sends the same).
pub(crate) fn project(zone: &Dbm, set: &[u16], out: &mut Vec<Raw>) {
    out.clear();
    for &i in set {
        for &j in set {
            out.push(zone.get(i as usize, j as usize));
        }
    }
}

/// The canonical zone of `dim` clocks whose clocks `set` have the entries
/// `entry(0..set.len()²)` (as [`project`] lists them) and whose other
/// clocks are free.
pub(crate) fn unproject(dim: usize, set: &[u16], entry: impl Fn(usize) -> Raw, out: &mut Dbm) {
    let (n, k) = (dim, set.len());
    if k == n {
        out.set_raw_from(n, (0..n * n).map(entry));
        return;
    }
    // A free clock x: x - x_j unbounded, x_i - x bounded as x_i - 0
    // (the reference clock is active, at position 0). So row i of the
    // full zone is row `pos(i)` of the stored one spread over the
    // columns, with an inactive column reading the stored column 0,
    // and an inactive row is unbounded but for its diagonal.
    out.set_raw_from(n, std::iter::repeat_n(INF, n * n));
    let m = out.raw_mut();
    for (a, &i) in set.iter().enumerate() {
        let row = &mut m[i as usize * n..(i as usize + 1) * n];
        row.fill(entry(a * k));
        for (b, &j) in set.iter().enumerate().skip(1) {
            row[j as usize] = entry(a * k + b);
        }
        row[i as usize] = LE_ZERO;
    }
    for x in 0..n {
        m[x * n + x] = LE_ZERO;
    }
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
            table: HashTable::new(),
            discs: Vec::new(),
            codec: KeyCodec::wide(nkey),
            keys: Vec::new(),
            packed: Vec::new(),
            h: Vec::new(),
            active,
            nproc,
            sets: Vec::new(),
            set_ids: FxHashMap::default(),
            zones: Vec::new(),
            set_buf: Vec::new(),
            probe: Vec::new(),
            states: Vec::new(),
            removed: Bits::default(),
            expanded: Bits::default(),
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
            starts: Vec::new(),
            lower: vec![0; self.dim],
            upper: vec![0; self.dim],
        });
    }

    /// Packs discrete parts with `codec` (`packed_key.rs`) rather than 4
    /// bytes a slot. Only before the first insertion.
    pub fn pack_keys(&mut self, codec: KeyCodec) {
        assert!(
            self.discs.is_empty(),
            "keys are packed from the first state"
        );
        self.codec = codec;
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
        let table = &self.zones[set.len()];
        unproject(self.dim, set, |i| table.entry(s.zone_slot, i), out);
    }

    /// Writes the discrete part of `id` to `out` (cleared first).
    pub fn key_into(&self, id: u32, out: &mut Vec<i32>) {
        let n = self.codec.len();
        let at = self.states[id as usize].disc as usize * n;
        out.clear();
        self.codec.decode(&self.keys[at..at + n], out);
    }

    /// The discrete part of `id`.
    pub fn key(&self, id: u32) -> Vec<i32> {
        let mut key = Vec::with_capacity(self.nkey);
        self.key_into(id, &mut key);
        key
    }

    pub fn state(&self, id: u32) -> &StateRec {
        &self.states[id as usize]
    }

    /// Whether a larger zone replaced state `id` (its frontier entries are
    /// skipped).
    pub fn removed(&self, id: u32) -> bool {
        self.removed.get(id)
    }

    pub fn transition(&self, id: u32) -> &[(ProcId, EdgeId)] {
        let start = self.states[id as usize].trans_start as usize;
        let end = self
            .states
            .get(id as usize + 1)
            .map_or(self.trans.len(), |s| s.trans_start as usize);
        &self.trans[start..end]
    }

    pub fn cached_h(&self, disc: u32) -> Option<Option<u32>> {
        self.h.get(disc as usize).copied().flatten()
    }

    pub fn set_cached_h(&mut self, disc: u32, h: Option<u32>) {
        if self.h.len() <= disc as usize {
            self.h.resize(self.discs.len(), None);
        }
        self.h[disc as usize] = Some(h);
    }

    /// The number of the discrete part `key`, adding it when new.
    fn disc_of(&mut self, key: &[i32]) -> u32 {
        self.packed.clear();
        if !self.codec.encode(key, &mut self.packed) {
            // A value outside the ranges the codec was built for: every
            // key from now on takes 4 bytes a slot.
            self.widen_keys();
            assert!(self.codec.encode(key, &mut self.packed));
        }
        let hash = hash_bytes(&self.packed);
        let n = self.codec.len();
        let (keys, packed) = (&self.keys, &self.packed);
        if let Some(&d) = self.table.find(hash, |&d| {
            &keys[d as usize * n..(d as usize + 1) * n] == packed
        }) {
            return d;
        }
        let set = match &self.active {
            Some(active) => {
                active.fill(&key[..self.nproc], &mut self.set_buf);
                self.intern_set()
            }
            None => 0,
        };
        let d = self.discs.len() as u32;
        self.keys.extend_from_slice(&self.packed);
        if let Some(a) = &mut self.alu {
            a.starts.push(a.bounds.len() as u32);
            a.table.fill(&key[..self.nproc], &mut a.lower, &mut a.upper);
            let set = &self.sets[set as usize];
            a.bounds.extend(set.iter().map(|&x| a.lower[x as usize]));
            a.bounds.extend(set.iter().map(|&x| a.upper[x as usize]));
        }
        self.discs.push(Disc {
            set,
            states: SmallVec::new(),
        });
        let keys = &self.keys;
        self.table.insert_unique(hash, d, |&d| {
            hash_bytes(&keys[d as usize * n..(d as usize + 1) * n])
        });
        d
    }

    /// Re-packs every stored key 4 bytes a slot, and hashes them again.
    fn widen_keys(&mut self) {
        let wide = KeyCodec::wide(self.nkey);
        let n = self.codec.len();
        let mut key = Vec::with_capacity(self.nkey);
        let mut keys = Vec::with_capacity(self.discs.len() * wide.len());
        for packed in self.keys.chunks_exact(n.max(1)).take(self.discs.len()) {
            key.clear();
            self.codec.decode(packed, &mut key);
            assert!(wide.encode(&key, &mut keys));
        }
        let m = wide.len();
        self.table.clear();
        for d in 0..self.discs.len() as u32 {
            let hash = hash_bytes(&keys[d as usize * m..(d as usize + 1) * m]);
            self.table.insert_unique(hash, d, |&d| {
                hash_bytes(&keys[d as usize * m..(d as usize + 1) * m])
            });
        }
        self.keys = keys;
        self.codec = wide;
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
        let disc = self.disc_of(key);
        let set = &self.sets[self.discs[disc as usize].set as usize];
        let table = set.len();
        if table == self.dim {
            self.zones[table].load_probe(zone.raw());
        } else {
            project(zone, set, &mut self.probe);
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
            let start = a.starts[disc as usize] as usize;
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
            let expanded = self.expanded.get(s);
            if inclusion.covers && (!by_depth || g <= sg || (forget_expanded && expanded)) {
                self.removed.set(s);
                zones.release(self.states[s as usize].zone_slot);
                self.live -= 1;
                live.swap_remove(k);
            } else {
                k += 1;
            }
        }
        let id = self.states.len() as u32;
        live.push(id);
        self.discs[disc as usize].states = live;
        let zone_slot = zones.intern_probe();
        let trans_start = self.trans.len() as u32;
        self.trans.extend_from_slice(trans);
        self.states.push(StateRec {
            disc,
            parent,
            trans_start,
            g,
            zone_slot,
        });
        self.live += 1;
        Inserted::New(id)
    }

    /// Makes room for `states` more states (each with a new discrete part
    /// and a few edges) so that inserting them does not grow a table: the
    /// tables grow here, within the memory budget, or not at all.
    pub fn reserve(&mut self, states: usize) -> Result<(), zeno_base::memory::OutOfMemory> {
        use zeno_base::memory::reserve;
        // Successors may land in any table: each makes room.
        for zones in &mut self.zones {
            zones.reserve(states)?;
        }
        reserve(&mut self.states, states)?;
        reserve(&mut self.trans, states * 4)?;
        reserve(&mut self.keys, states * self.codec.len())?;
        reserve(&mut self.discs, states)?;
        if self.table.capacity() - self.table.len() >= states {
            return Ok(());
        }
        let (keys, n) = (&self.keys, self.codec.len());
        zeno_base::memory::fallible(|| {
            self.table.try_reserve(states, |&d| {
                hash_bytes(&keys[d as usize * n..(d as usize + 1) * n])
            })
        })
        .map_err(|_| zeno_base::memory::OutOfMemory)
    }

    /// Records that `id` has been taken from the frontier and expanded.
    pub fn mark_expanded(&mut self, id: u32) {
        self.expanded.set(id);
    }

    /// Live (not removed) states.
    pub fn live(&self) -> u64 {
        self.live
    }

    /// Bytes held by the store (capacities of its tables).
    pub fn bytes(&self) -> u64 {
        // A table of `capacity` entries has about 8/7 as many buckets, each
        // an entry and a control byte.
        let map = self.table.capacity() * 8 / 7 * (std::mem::size_of::<u32>() + 1);
        let discs = self.discs.capacity() * std::mem::size_of::<Disc>()
            + self
                .discs
                .iter()
                .filter(|d| d.states.spilled())
                .map(|d| d.states.capacity() * 4)
                .sum::<usize>();
        (map + discs
            + self.keys.capacity()
            + self.packed.capacity()
            + self.h.capacity() * std::mem::size_of::<Option<Option<u32>>>()
            + self.removed.bytes()
            + self.expanded.bytes()
            + self.zones.iter().map(ZoneTable::bytes).sum::<usize>()
            + self.sets.iter().map(|s| s.len() * 4).sum::<usize>()
            + self.states.capacity() * std::mem::size_of::<StateRec>()
            + self.trans.capacity() * 8
            + self
                .alu
                .as_ref()
                .map_or(0, |a| (a.bounds.capacity() + a.starts.capacity()) * 4)) as u64
    }

    /// Bytes per stored state: discrete part, zone and bookkeeping.
    pub fn bytes_per_state(&self) -> u64 {
        let n = self.states.len().max(1) as u64;
        self.bytes() / n
    }
}

/// The hash of a packed key.
fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut h = FxHasher::default();
    h.write(bytes);
    h.finish()
}

#[cfg(test)]
mod tests {
    //! The compact store against a plain one: every discrete part as an
    //! `i32` vector, every zone as its own matrix, the subsumption rules
    //! written out again. Random insertions (keys partly outside the
    //! packing's ranges, zones partly beyond 16 bits, many repeated) must
    //! give the same answers, the same keys and zones back, and the same
    //! removals.

    use proptest::prelude::*;

    use super::*;
    use crate::dbm::bound::raw;

    /// A state of the plain store.
    struct Plain {
        key: Vec<i32>,
        zone: Dbm,
        g: u32,
        removed: bool,
        expanded: bool,
    }

    /// The plain store's insertion: the rules of [`Store::insert`].
    fn plain_insert(
        states: &mut Vec<Plain>,
        lists: &mut Vec<(Vec<i32>, Vec<u32>)>,
        key: &[i32],
        zone: &Dbm,
        g: u32,
        rule: Subsumption,
    ) -> Option<u32> {
        let by_depth = rule != Subsumption::Any;
        let forget = rule == Subsumption::NoDeeperUnlessExpanded;
        let list = match lists.iter().position(|(k, _)| k == key) {
            Some(i) => i,
            None => {
                lists.push((key.to_vec(), Vec::new()));
                lists.len() - 1
            }
        };
        let mut k = 0;
        while k < lists[list].1.len() {
            let s = lists[list].1[k] as usize;
            let (within, covers) = (
                zone.is_subset_of(&states[s].zone),
                states[s].zone.is_subset_of(zone),
            );
            if within && (!by_depth || states[s].g <= g) {
                return None;
            }
            if covers && (!by_depth || g <= states[s].g || (forget && states[s].expanded)) {
                states[s].removed = true;
                lists[list].1.swap_remove(k);
            } else {
                k += 1;
            }
        }
        let id = states.len() as u32;
        lists[list].1.push(id);
        states.push(Plain {
            key: key.to_vec(),
            zone: zone.clone(),
            g,
            removed: false,
            expanded: false,
        });
        Some(id)
    }

    /// A zone of two clocks from a few constraints (`None`: empty).
    fn zone(constraints: &[(usize, usize, i32, bool)]) -> Option<Dbm> {
        let mut z = Dbm::zero(3);
        z.up();
        for &(i, j, c, strict) in constraints {
            if i != j && !z.constrain(i, j, raw(c, strict)) {
                return None;
            }
        }
        Some(z)
    }

    fn rule() -> impl Strategy<Value = Subsumption> {
        prop_oneof![
            Just(Subsumption::Any),
            Just(Subsumption::NoDeeper),
            Just(Subsumption::NoDeeperUnlessExpanded),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, .. ProptestConfig::default() })]

        #[test]
        fn the_compact_store_agrees_with_a_plain_one(
            rule in rule(),
            ops in proptest::collection::vec(
                (
                    // Locations (ranges 0..=1, 0..=2), a variable declared
                    // -2..=2 that sometimes leaves its range.
                    (0..2i32, 0..3i32, prop_oneof![8 => -2..3i32, 1 => Just(300), 1 => Just(-70_000)]),
                    proptest::collection::vec(
                        (0..3usize, 0..3usize, prop_oneof![9 => -3..4i32, 1 => Just(40_000)], any::<bool>()),
                        0..3,
                    ),
                    0..6u32,
                    any::<bool>(),
                ),
                1..60,
            ),
        ) {
            let mut store = Store::new(3, 3);
            store.pack_keys(KeyCodec::for_ranges([(0, 1), (0, 2), (-2, 2)]));
            let (mut states, mut lists) = (Vec::new(), Vec::new());
            let mut out = Dbm::zero(3);
            let mut key = Vec::new();
            for ((l0, l1, v), constraints, g, expand) in ops {
                let Some(z) = zone(&constraints) else { continue };
                let k = [l0, l1, v];
                store.reserve(1).unwrap();
                let got = match store.insert(&k, &z, NO_PARENT, &[(0, g)], g, rule) {
                    Inserted::New(id) => Some(id),
                    Inserted::Subsumed => None,
                };
                let want = plain_insert(&mut states, &mut lists, &k, &z, g, rule);
                prop_assert_eq!(got, want);
                if expand && !states.is_empty() {
                    let id = g % states.len() as u32;
                    store.mark_expanded(id);
                    states[id as usize].expanded = true;
                }
                let live = states.iter().filter(|s| !s.removed).count() as u64;
                prop_assert_eq!(store.live(), live);
                for (id, s) in states.iter().enumerate() {
                    let id = id as u32;
                    prop_assert_eq!(store.removed(id), s.removed);
                    prop_assert_eq!(store.state(id).g, s.g);
                    prop_assert_eq!(store.transition(id), &[(0, s.g)][..]);
                    store.key_into(id, &mut key);
                    prop_assert_eq!(&key, &s.key);
                    if !s.removed {
                        store.zone_into(id, &mut out);
                        prop_assert_eq!(&out, &s.zone);
                    }
                }
            }
        }
    }
}
