//! The stored zones, compactly. A zone is a canonical `(n+1)²` matrix of
//! raw bounds (`dbm::bound`, 32 bits each); after extrapolation its finite
//! bounds lie within the model's largest constants, which almost always fit
//! 16 bits. The table therefore starts *narrow* (16-bit entries, half the
//! memory) and turns *wide* (32 bits, every stored zone converted once) the
//! first time a zone has a bound that does not fit. Both encodings keep the
//! order of bounds, so inclusion tests compare entries directly.
//!
//! Identical zones share one slot: on CSMA/CD with 9 stations the 55,554
//! stored states have 12,554 distinct zones (TChecker's graph of the same
//! exploration), since stations in different locations often leave the
//! clocks in the same relation. A slot counts the states that use it and
//! is free for new zones once none does; an index by contents finds the
//! slot of a zone already stored (one hash of each inserted zone).

use std::hash::Hasher;

use hashbrown::HashTable;
use rustc_hash::FxHasher;

use super::dbm::bound::{INF, Raw};
use zeno_base::memory::{self, OutOfMemory};

/// "No bound" in the narrow encoding: larger than every finite narrow bound,
/// as `INF` is in the wide one.
const NARROW_INF: i16 = i16::MAX;

pub(crate) fn narrow(r: Raw) -> Option<i16> {
    if r == INF {
        Some(NARROW_INF)
    } else if r > i16::MIN as Raw && r < NARROW_INF as Raw {
        Some(r as i16)
    } else {
        None
    }
}

pub(crate) fn widen(v: i16) -> Raw {
    if v == NARROW_INF { INF } else { v as Raw }
}

/// How a probe and a stored zone compare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Inclusion {
    /// The probe is included in the stored zone.
    pub within: bool,
    /// The stored zone is included in the probe.
    pub covers: bool,
}

/// Entries compared per step of [`compare`]: a fixed-size block has no
/// early exit inside, so the compiler compares it with vector
/// instructions; between blocks the scan stops once neither inclusion can
/// hold (zones of one discrete part often differ early).
const BLOCK: usize = 32;

/// Entrywise `probe <= stored` and `stored <= probe`.
fn compare<T: Copy + Ord>(probe: &[T], stored: &[T]) -> Inclusion {
    debug_assert_eq!(probe.len(), stored.len());
    let (mut within, mut covers) = (true, true);
    let mut blocks = probe.chunks_exact(BLOCK).zip(stored.chunks_exact(BLOCK));
    for (p, s) in &mut blocks {
        let (p, s): (&[T; BLOCK], &[T; BLOCK]) = (p.try_into().unwrap(), s.try_into().unwrap());
        let (mut above, mut below) = (false, false);
        for i in 0..BLOCK {
            above |= p[i] > s[i];
            below |= p[i] < s[i];
        }
        within &= !above;
        covers &= !below;
        if !within && !covers {
            return Inclusion { within, covers };
        }
    }
    let tail = probe.len() - probe.len() % BLOCK;
    for (x, y) in probe[tail..].iter().zip(&stored[tail..]) {
        within &= x <= y;
        covers &= y <= x;
    }
    Inclusion { within, covers }
}

/// Zones of `entries` raw bounds each, addressed by slot.
pub(crate) struct ZoneTable {
    entries: usize,
    narrow: Vec<i16>,
    wide: Vec<Raw>,
    is_wide: bool,
    /// Per slot, the states using its zone (0: the slot is free).
    users: Vec<u32>,
    /// The slots in use, by the hash of their zones.
    index: HashTable<u32>,
    /// Free slots, reused before the table grows.
    free: Vec<u32>,
    /// The zone being inserted, in the table's encoding ([`Self::load_probe`]),
    /// so that comparing it with many stored zones is a plain slice loop.
    probe_narrow: Vec<i16>,
    probe_wide: Vec<Raw>,
}

impl ZoneTable {
    pub(crate) fn new(entries: usize) -> ZoneTable {
        ZoneTable {
            entries: entries.max(1),
            narrow: Vec::new(),
            wide: Vec::new(),
            is_wide: false,
            users: Vec::new(),
            index: HashTable::new(),
            free: Vec::new(),
            probe_narrow: Vec::new(),
            probe_wide: Vec::new(),
        }
    }

    /// Number of slots in use.
    pub(crate) fn slots(&self) -> usize {
        if self.is_wide {
            self.wide.len() / self.entries
        } else {
            self.narrow.len() / self.entries
        }
    }

    fn fits(z: &[Raw]) -> bool {
        z.iter().all(|&r| narrow(r).is_some())
    }

    /// Converts every stored zone to 32-bit entries (and indexes them
    /// again: a zone's hash is taken in its encoding).
    fn make_wide(&mut self) {
        self.wide = self.narrow.iter().map(|&v| widen(v)).collect();
        self.narrow = Vec::new();
        self.is_wide = true;
        self.index.clear();
        for slot in 0..self.users.len() as u32 {
            if self.users[slot as usize] > 0 {
                let hash = self.hash_slot(slot);
                let (wide, n) = (&self.wide, self.entries);
                self.index
                    .insert_unique(hash, slot, |&s| hash_entries(&wide[s as usize * n..][..n]));
            }
        }
    }

    /// The hash of the zone in `slot`, in the table's encoding.
    fn hash_slot(&self, slot: u32) -> u64 {
        let at = slot as usize * self.entries;
        if self.is_wide {
            hash_entries(&self.wide[at..at + self.entries])
        } else {
            hash_entries(&self.narrow[at..at + self.entries])
        }
    }

    /// The raw bounds of the zone in `slot`.
    pub(crate) fn get(&self, slot: u32) -> impl Iterator<Item = Raw> + '_ {
        let at = slot as usize * self.entries;
        let (wide, narrow): (&[Raw], &[i16]) = if self.is_wide {
            (&self.wide[at..at + self.entries], &[])
        } else {
            (&[], &self.narrow[at..at + self.entries])
        };
        wide.iter().copied().chain(narrow.iter().map(|&v| widen(v)))
    }

    /// Entry `at` of the zone in `slot`.
    pub(crate) fn entry(&self, slot: u32, at: usize) -> Raw {
        let at = slot as usize * self.entries + at;
        if self.is_wide {
            self.wide[at]
        } else {
            widen(self.narrow[at])
        }
    }

    /// Encodes `z` as the probe that [`Self::probe_within`],
    /// [`Self::probe_covers`] and [`Self::store_probe`] use (widening the
    /// table first if `z` does not fit 16 bits).
    pub(crate) fn load_probe(&mut self, z: &[Raw]) {
        if !self.is_wide && !Self::fits(z) {
            self.make_wide();
        }
        if self.is_wide {
            self.probe_wide.clear();
            self.probe_wide.extend_from_slice(z);
        } else {
            self.probe_narrow.clear();
            self.probe_narrow
                .extend(z.iter().map(|&r| narrow(r).unwrap_or(NARROW_INF)));
        }
    }

    /// Whether the probe is included in the zone of `slot`.
    #[cfg(test)]
    pub(crate) fn probe_within(&self, slot: u32) -> bool {
        self.compare_probe(slot).within
    }

    /// Whether the zone of `slot` is included in the probe.
    #[cfg(test)]
    pub(crate) fn probe_covers(&self, slot: u32) -> bool {
        self.compare_probe(slot).covers
    }

    /// Both inclusions between the probe and the zone of `slot`, in one
    /// pass over the entries.
    pub(crate) fn compare_probe(&self, slot: u32) -> Inclusion {
        let at = slot as usize * self.entries;
        if self.is_wide {
            compare(&self.probe_wide, &self.wide[at..at + self.entries])
        } else {
            compare(&self.probe_narrow, &self.narrow[at..at + self.entries])
        }
    }

    /// The slot of the probe's zone for one more state: a slot holding the
    /// same zone, else a free slot or a new one.
    pub(crate) fn intern_probe(&mut self) -> u32 {
        let n = self.entries;
        let (hash, found) = if self.is_wide {
            let (wide, probe) = (&self.wide, &self.probe_wide);
            let hash = hash_entries(probe);
            let found = self
                .index
                .find(hash, |&s| &wide[s as usize * n..][..n] == probe.as_slice());
            (hash, found.copied())
        } else {
            let (narrow, probe) = (&self.narrow, &self.probe_narrow);
            let hash = hash_entries(probe);
            let found = self.index.find(hash, |&s| {
                &narrow[s as usize * n..][..n] == probe.as_slice()
            });
            (hash, found.copied())
        };
        if let Some(slot) = found {
            self.users[slot as usize] += 1;
            return slot;
        }
        let free = self.free.pop();
        let slot = self.store_probe(free);
        if slot as usize == self.users.len() {
            self.users.push(0);
        }
        self.users[slot as usize] = 1;
        let (narrow, wide, is_wide) = (&self.narrow, &self.wide, self.is_wide);
        self.index.insert_unique(hash, slot, |&s| {
            let at = s as usize * n;
            if is_wide {
                hash_entries(&wide[at..at + n])
            } else {
                hash_entries(&narrow[at..at + n])
            }
        });
        slot
    }

    /// One state less uses the zone of `slot`; with none left, the slot is
    /// free for another zone.
    pub(crate) fn release(&mut self, slot: u32) {
        let users = &mut self.users[slot as usize];
        *users -= 1;
        if *users > 0 {
            return;
        }
        let hash = self.hash_slot(slot);
        if let Ok(entry) = self.index.find_entry(hash, |&s| s == slot) {
            entry.remove();
        }
        self.free.push(slot);
    }

    /// Stores the probe in `slot`, or in a new slot when `slot` is `None`.
    fn store_probe(&mut self, slot: Option<u32>) -> u32 {
        let (n, is_wide) = (self.entries, self.is_wide);
        match (slot, is_wide) {
            (Some(s), true) => {
                let at = s as usize * n;
                self.wide[at..at + n].copy_from_slice(&self.probe_wide);
                s
            }
            (Some(s), false) => {
                let at = s as usize * n;
                self.narrow[at..at + n].copy_from_slice(&self.probe_narrow);
                s
            }
            (None, true) => {
                self.wide.extend_from_slice(&self.probe_wide);
                (self.slots() - 1) as u32
            }
            (None, false) => {
                self.narrow.extend_from_slice(&self.probe_narrow);
                (self.slots() - 1) as u32
            }
        }
    }

    /// Makes room for `zones` more zones, within the memory budget.
    pub(crate) fn reserve(&mut self, zones: usize) -> Result<(), OutOfMemory> {
        let n = zones * self.entries;
        if self.is_wide {
            memory::reserve(&mut self.wide, n)?;
        } else {
            memory::reserve(&mut self.narrow, n)?;
        }
        memory::reserve(&mut self.users, zones)?;
        if self.index.capacity() - self.index.len() >= zones {
            return Ok(());
        }
        let (narrow, wide, is_wide, n) = (&self.narrow, &self.wide, self.is_wide, self.entries);
        memory::fallible(|| {
            self.index.try_reserve(zones, |&s| {
                let at = s as usize * n;
                if is_wide {
                    hash_entries(&wide[at..at + n])
                } else {
                    hash_entries(&narrow[at..at + n])
                }
            })
        })
        .map_err(|_| OutOfMemory)
    }

    /// Bytes the table holds (its capacity).
    pub(crate) fn bytes(&self) -> usize {
        self.narrow.capacity() * 2
            + self.wide.capacity() * 4
            + self.users.capacity() * 4
            + self.free.capacity() * 4
            + self.index.capacity() * 8 / 7 * (std::mem::size_of::<u32>() + 1)
    }

    /// Whether the zones are kept in 16 bits per bound.
    #[cfg(test)]
    pub(crate) fn is_narrow(&self) -> bool {
        !self.is_wide
    }
}

/// The hash of a zone's entries.
fn hash_entries<T: Copy + Into<i32>>(entries: &[T]) -> u64 {
    let mut h = FxHasher::default();
    for &e in entries {
        h.write_i32(e.into());
    }
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dbm::bound::{LE_ZERO, LT_ZERO, raw};

    #[test]
    fn probes_compare_and_store_like_zones() {
        let a = [LE_ZERO, raw(5, true), INF, LT_ZERO];
        let b = [LE_ZERO, raw(3, false), INF, LT_ZERO];
        let mut t = ZoneTable::new(4);
        t.load_probe(&a);
        assert_eq!(t.store_probe(None), 0);
        t.load_probe(&b);
        assert!(t.probe_within(0) && !t.probe_covers(0));
        assert_eq!(t.store_probe(None), 1);
        t.load_probe(&a);
        assert!(t.probe_covers(1) && t.probe_within(0) && t.probe_covers(0));
        // A probe that does not fit widens the table before it compares.
        let big = [LE_ZERO, raw(40_000, false), INF, LT_ZERO];
        t.load_probe(&big);
        assert!(!t.is_narrow());
        assert!(t.probe_covers(0) && !t.probe_within(0));
        assert_eq!(t.store_probe(Some(1)), 1);
        assert_eq!(t.get(1).collect::<Vec<_>>(), big);
        assert_eq!(t.get(0).collect::<Vec<_>>(), a);
    }

    #[test]
    fn identical_zones_share_a_slot_until_no_state_uses_it() {
        let a = [LE_ZERO, raw(5, true), INF, LT_ZERO];
        let b = [LE_ZERO, raw(3, false), INF, LT_ZERO];
        let mut t = ZoneTable::new(4);
        t.load_probe(&a);
        let sa = t.intern_probe();
        t.load_probe(&b);
        let sb = t.intern_probe();
        assert_ne!(sa, sb);
        t.load_probe(&a);
        assert_eq!(t.intern_probe(), sa, "the same zone, the same slot");
        assert_eq!(t.slots(), 2);
        // Two states use `a`: it stays until both are gone.
        t.release(sa);
        t.load_probe(&a);
        assert_eq!(t.intern_probe(), sa);
        t.release(sa);
        t.release(sa);
        // Free now: a new zone takes the slot, and `a` is no longer found.
        let c = [LE_ZERO, raw(7, false), INF, LT_ZERO];
        t.load_probe(&c);
        assert_eq!(t.intern_probe(), sa);
        assert_eq!(t.get(sa).collect::<Vec<_>>(), c);
        t.load_probe(&a);
        let sa2 = t.intern_probe();
        assert_eq!(t.slots(), 3);
        assert_eq!(t.get(sa2).collect::<Vec<_>>(), a);
        // Widening the table keeps every zone findable.
        let big = [LE_ZERO, raw(40_000, false), INF, LT_ZERO];
        t.load_probe(&big);
        assert!(!t.is_narrow());
        let sbig = t.intern_probe();
        for (zone, slot) in [(&a, sa2), (&b, sb), (&c, sa), (&big, sbig)] {
            t.load_probe(zone);
            assert_eq!(t.intern_probe(), slot);
            assert_eq!(t.get(slot).collect::<Vec<_>>(), zone);
        }
    }

    #[test]
    fn the_encodings_keep_the_order_of_bounds() {
        let samples = [
            i16::MIN as Raw + 1,
            -3,
            -1,
            0,
            1,
            2,
            7,
            i16::MAX as Raw - 1,
            INF,
        ];
        for &x in &samples {
            for &y in &samples {
                let (nx, ny) = (narrow(x).unwrap(), narrow(y).unwrap());
                assert_eq!(x <= y, nx <= ny, "{x} {y}");
                assert_eq!(widen(nx), x);
            }
        }
        assert_eq!(narrow(i16::MAX as Raw), None);
        assert_eq!(narrow(i16::MIN as Raw), None);
    }
}
