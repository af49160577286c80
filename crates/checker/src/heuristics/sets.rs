//! Value sets of the monotonicity abstraction, with the layer at which each
//! value first appeared, and the evaluation of expressions over them.
//!
//! A variable with a small range keeps one entry per value (first layer and
//! the transition that first produced it) plus a bitset for fast iteration. A
//! variable with a large range is kept as a growing interval, with the history
//! of its growth. The set "at layer k" is everything whose first layer is at
//! most k, so one structure serves every layer and nothing is copied.

use zeno_ir::{BinOp, Expr, UnOp, VarId};

/// Ranges with at most this many values are kept value by value.
pub(crate) const SMALL_DOMAIN: i64 = 256;
/// A large-range variable whose interval has grown this many times grows
/// to its declared bound in the direction it grows (widening). A counter
/// (`count++` with UPPAAL's default range, -32768..32767) would otherwise
/// gain one value per layer, and the fixpoint would take tens of thousands
/// of layers, each a pass over the transitions, for every state the search
/// measures. Widening only adds values, so the abstraction stays an
/// over-approximation: what it cannot reach stays unreachable.
pub(crate) const WIDEN_AFTER: usize = 16;
/// Expressions are evaluated by enumerating value combinations when there are
/// at most this many; otherwise with interval arithmetic.
pub(crate) const ENUM_CAP: u64 = 256;
pub(crate) const ABSENT: u16 = u16::MAX;
pub(crate) const NO_ACHIEVER: u32 = u32::MAX;

/// An expression with the variable slots it may read.
#[derive(Debug, Clone)]
pub(crate) struct Compiled {
    pub expr: Expr,
    pub reads: Vec<VarId>,
}

impl Compiled {
    pub(crate) fn new(expr: &Expr) -> Compiled {
        let mut reads = Vec::new();
        expr.for_each_read(&mut |v| reads.push(v));
        reads.sort_unstable();
        reads.dedup();
        Compiled {
            expr: expr.clone(),
            reads,
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct Slot {
    lo: i32,
    hi: i32,
    /// Offset into the per-value arrays for small ranges.
    small: Option<usize>,
    /// Offset into the bitset (small ranges only).
    word: usize,
}

/// One growth step of a large-range variable.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entry {
    pub layer: u16,
    pub lo: i32,
    pub hi: i32,
    pub achiever: u32,
}

/// A fact of the abstraction: a process location, a value of a small-range
/// variable, or one growth step of a large-range variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Fact {
    Loc(u32),
    Val(VarId, i32),
    Hist(VarId, u32),
}

#[derive(Debug, Clone)]
pub(crate) struct Sets {
    slots: Vec<Slot>,
    pub loc_first: Vec<u16>,
    pub loc_achiever: Vec<u32>,
    val_first: Vec<u16>,
    val_achiever: Vec<u32>,
    bits: Vec<u64>,
    hist: Vec<Vec<Entry>>,
    /// Per variable, the last layer at which it gained a value.
    changed_at: Vec<u16>,
}

impl Sets {
    pub(crate) fn new(ranges: impl Iterator<Item = (i32, i32)>, locations: usize) -> Sets {
        let mut slots = Vec::new();
        let (mut values, mut words) = (0usize, 0usize);
        for (lo, hi) in ranges {
            let size = hi as i64 - lo as i64 + 1;
            let small = (1..=SMALL_DOMAIN).contains(&size);
            slots.push(Slot {
                lo,
                hi,
                small: small.then_some(values),
                word: words,
            });
            if small {
                values += size as usize;
                words += (size as usize).div_ceil(64);
            }
        }
        let n = slots.len();
        Sets {
            slots,
            loc_first: vec![ABSENT; locations],
            loc_achiever: vec![NO_ACHIEVER; locations],
            val_first: vec![ABSENT; values],
            val_achiever: vec![NO_ACHIEVER; values],
            bits: vec![0; words],
            hist: vec![Vec::new(); n],
            changed_at: vec![0; n],
        }
    }

    pub(crate) fn var_count(&self) -> usize {
        self.slots.len()
    }

    /// Starts over from one concrete valuation (locations are set by the caller).
    pub(crate) fn reset(&mut self, values: &[i32]) {
        self.loc_first.fill(ABSENT);
        self.val_first.fill(ABSENT);
        self.bits.fill(0);
        self.changed_at.fill(0);
        for v in 0..self.slots.len() {
            let slot = self.slots[v];
            let x = values
                .get(v)
                .copied()
                .unwrap_or(slot.lo)
                .clamp(slot.lo, slot.hi);
            match slot.small {
                Some(_) => {
                    self.insert(v as VarId, x as i64, 0, NO_ACHIEVER);
                }
                None => {
                    self.hist[v].clear();
                    self.hist[v].push(Entry {
                        layer: 0,
                        lo: x,
                        hi: x,
                        achiever: NO_ACHIEVER,
                    });
                }
            }
        }
    }

    /// Adds a value at `layer`; values outside the variable's range are model
    /// errors in the concrete semantics and are ignored. True if new.
    pub(crate) fn insert(&mut self, v: VarId, x: i64, layer: u16, achiever: u32) -> bool {
        self.insert_range(v, x, x, layer, achiever)
    }

    /// Adds the values `a..=b` (clamped to the variable's range). True if any is new.
    pub(crate) fn insert_range(
        &mut self,
        v: VarId,
        a: i64,
        b: i64,
        layer: u16,
        achiever: u32,
    ) -> bool {
        let new = self.insert_range_inner(v, a, b, layer, achiever);
        if new {
            let c = &mut self.changed_at[v as usize];
            *c = (*c).max(layer);
        }
        new
    }

    /// The last layer at which `v` gained a value (0 if never).
    pub(crate) fn changed_at(&self, v: VarId) -> u16 {
        self.changed_at[v as usize]
    }

    fn insert_range_inner(&mut self, v: VarId, a: i64, b: i64, layer: u16, achiever: u32) -> bool {
        let slot = self.slots[v as usize];
        let a = a.max(slot.lo as i64);
        let b = b.min(slot.hi as i64);
        if a > b {
            return false;
        }
        match slot.small {
            Some(off) => {
                let mut changed = false;
                for x in a..=b {
                    let i = (x - slot.lo as i64) as usize;
                    if self.val_first[off + i] == ABSENT {
                        self.val_first[off + i] = layer;
                        self.val_achiever[off + i] = achiever;
                        self.bits[slot.word + i / 64] |= 1 << (i % 64);
                        changed = true;
                    }
                }
                changed
            }
            None => {
                let hist = &mut self.hist[v as usize];
                let Some(last) = hist.last().copied() else {
                    return false;
                };
                let (a, b) = (a as i32, b as i32);
                if a >= last.lo && b <= last.hi {
                    return false;
                }
                let mut grown = Entry {
                    layer,
                    lo: last.lo.min(a),
                    hi: last.hi.max(b),
                    achiever,
                };
                if hist.len() >= WIDEN_AFTER {
                    if grown.lo < last.lo {
                        grown.lo = slot.lo;
                    }
                    if grown.hi > last.hi {
                        grown.hi = slot.hi;
                    }
                }
                if last.layer == layer {
                    let n = hist.len();
                    hist[n - 1].lo = grown.lo;
                    hist[n - 1].hi = grown.hi;
                } else {
                    hist.push(grown);
                }
                true
            }
        }
    }

    /// Index of the history entry of a large-range variable in force at layer `k`.
    fn entry_at(&self, v: VarId, k: u16) -> usize {
        let hist = &self.hist[v as usize];
        hist.iter().rposition(|e| e.layer <= k).unwrap_or(0)
    }

    /// An upper bound on the number of values of `v` at layer `k`.
    pub(crate) fn count_upper(&self, v: VarId, k: u16) -> u64 {
        let slot = self.slots[v as usize];
        match slot.small {
            Some(_) => {
                let size = (slot.hi as i64 - slot.lo as i64 + 1) as usize;
                self.bits[slot.word..slot.word + size.div_ceil(64)]
                    .iter()
                    .map(|w| w.count_ones() as u64)
                    .sum()
            }
            None => match self.hist[v as usize].get(self.entry_at(v, k)) {
                Some(e) => (e.hi as i64 - e.lo as i64 + 1) as u64,
                None => 0,
            },
        }
    }

    /// Calls `f` on every value of `v` at layer `k`.
    pub(crate) fn for_each_value(&self, v: VarId, k: u16, mut f: impl FnMut(i32)) {
        let slot = self.slots[v as usize];
        match slot.small {
            Some(off) => {
                let size = (slot.hi as i64 - slot.lo as i64 + 1) as usize;
                for w in 0..size.div_ceil(64) {
                    let mut bits = self.bits[slot.word + w];
                    while bits != 0 {
                        let i = w * 64 + bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        if self.val_first[off + i] <= k {
                            f(slot.lo + i as i32);
                        }
                    }
                }
            }
            None => {
                if let Some(e) = self.hist[v as usize].get(self.entry_at(v, k)) {
                    (e.lo..=e.hi).for_each(f);
                }
            }
        }
    }

    /// Smallest and largest value of `v` at layer `k`.
    pub(crate) fn hull(&self, v: VarId, k: u16) -> (i64, i64) {
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        match self.slots[v as usize].small {
            Some(_) => self.for_each_value(v, k, |x| {
                lo = lo.min(x as i64);
                hi = hi.max(x as i64);
            }),
            None => {
                if let Some(e) = self.hist[v as usize].get(self.entry_at(v, k)) {
                    (lo, hi) = (e.lo as i64, e.hi as i64);
                }
            }
        }
        if lo > hi { FULL } else { (lo, hi) }
    }

    /// The fact that makes `x` a value of `v`, if it is one.
    pub(crate) fn fact_of(&self, v: VarId, x: i32) -> Option<Fact> {
        let slot = self.slots[v as usize];
        match slot.small {
            Some(off) => {
                let i = x as i64 - slot.lo as i64;
                let present = i >= 0 && x <= slot.hi && self.val_first[off + i as usize] != ABSENT;
                present.then_some(Fact::Val(v, x))
            }
            None => self.hist[v as usize]
                .iter()
                .position(|e| e.lo <= x && x <= e.hi)
                .map(|i| Fact::Hist(v, i as u32)),
        }
    }

    /// The latest-appearing fact of `v` at layer `k` or before.
    pub(crate) fn latest_fact(&self, v: VarId, k: u16) -> Option<Fact> {
        match self.slots[v as usize].small {
            Some(_) => {
                let mut best: Option<(u16, i32)> = None;
                self.for_each_value(v, k, |x| {
                    let l = self.first_of_value(v, x);
                    if best.is_none_or(|(b, _)| l > b) {
                        best = Some((l, x));
                    }
                });
                best.map(|(_, x)| Fact::Val(v, x))
            }
            None => Some(Fact::Hist(v, self.entry_at(v, k) as u32)),
        }
    }

    fn first_of_value(&self, v: VarId, x: i32) -> u16 {
        let slot = self.slots[v as usize];
        match slot.small {
            Some(off) if x >= slot.lo && x <= slot.hi => {
                self.val_first[off + (x - slot.lo) as usize]
            }
            _ => ABSENT,
        }
    }

    /// First layer and achieving transition of a fact.
    pub(crate) fn first(&self, f: Fact) -> (u16, u32) {
        match f {
            Fact::Loc(i) => (self.loc_first[i as usize], self.loc_achiever[i as usize]),
            Fact::Val(v, x) => {
                let slot = self.slots[v as usize];
                match slot.small {
                    Some(off) if x >= slot.lo && x <= slot.hi => {
                        let i = off + (x - slot.lo) as usize;
                        (self.val_first[i], self.val_achiever[i])
                    }
                    _ => (ABSENT, NO_ACHIEVER),
                }
            }
            Fact::Hist(v, i) => match self.hist[v as usize].get(i as usize) {
                Some(e) => (e.layer, e.achiever),
                None => (ABSENT, NO_ACHIEVER),
            },
        }
    }

    /// The interval of history entry `i` of `v` and of the entry before it.
    pub(crate) fn entry_bounds(&self, v: VarId, i: u32) -> ((i32, i32), Option<(i32, i32)>) {
        let hist = &self.hist[v as usize];
        let at = |j: usize| hist.get(j).map(|e| (e.lo, e.hi));
        let now = at(i as usize).unwrap_or((1, 0));
        let before = (i as usize).checked_sub(1).and_then(at);
        (now, before)
    }
}

/// Scratch space for enumerating value combinations.
#[derive(Debug, Default, Clone)]
pub(crate) struct Enumerator {
    env: Vec<i32>,
    vals: Vec<i32>,
    starts: Vec<usize>,
    pos: Vec<usize>,
}

impl Enumerator {
    /// Calls `f(value, valuation)` for the value of `c` under every combination
    /// of values its variables have at layer `k` (combinations whose evaluation
    /// is a model error are skipped), until `f` returns true. `Some(stopped)`,
    /// or `None` when there are too many combinations to enumerate.
    pub(crate) fn run(
        &mut self,
        sets: &Sets,
        c: &Compiled,
        k: u16,
        mut f: impl FnMut(i32, &[i32]) -> bool,
    ) -> Option<bool> {
        let mut product = 1u64;
        for &v in &c.reads {
            product = product.saturating_mul(sets.count_upper(v, k));
            if product > ENUM_CAP {
                return None;
            }
        }
        if self.env.len() < sets.var_count() {
            self.env.resize(sets.var_count(), 0);
        }
        self.vals.clear();
        self.starts.clear();
        for &v in &c.reads {
            self.starts.push(self.vals.len());
            let vals = &mut self.vals;
            sets.for_each_value(v, k, |x| vals.push(x));
        }
        self.starts.push(self.vals.len());
        let n = c.reads.len();
        if (0..n).any(|i| self.starts[i] == self.starts[i + 1]) {
            return Some(false);
        }
        self.pos.clear();
        self.pos.resize(n, 0);
        loop {
            for i in 0..n {
                self.env[c.reads[i] as usize] = self.vals[self.starts[i] + self.pos[i]];
            }
            if let Ok(x) = c.expr.eval(&self.env)
                && f(x, &self.env)
            {
                return Some(true);
            }
            // Next combination (odometer).
            let mut i = 0;
            loop {
                if i == n {
                    return Some(false);
                }
                self.pos[i] += 1;
                if self.starts[i] + self.pos[i] < self.starts[i + 1] {
                    break;
                }
                self.pos[i] = 0;
                i += 1;
            }
        }
    }

    /// Whether `c` can be non-zero at layer `k` (an over-approximation).
    pub(crate) fn satisfiable(&mut self, sets: &Sets, c: &Compiled, k: u16) -> bool {
        match self.run(sets, c, k, |x, _| x != 0) {
            Some(found) => found,
            None => interval(sets, &c.expr, k) != (0, 0),
        }
    }
}

pub(crate) const FULL: (i64, i64) = (i32::MIN as i64, i32::MAX as i64);

fn clamp(r: (i64, i64)) -> (i64, i64) {
    let (lo, hi) = (r.0.max(FULL.0), r.1.min(FULL.1));
    // Values beyond i32 are overflow errors concretely; an empty result can only
    // come from such errors, so any non-empty answer is sound.
    if lo > hi { (0, 0) } else { (lo, hi) }
}

/// `Some(b)` when the truth of a value in `r` is decided.
fn truth(r: (i64, i64)) -> Option<bool> {
    if r == (0, 0) {
        Some(false)
    } else if r.0 > 0 || r.1 < 0 {
        Some(true)
    } else {
        None
    }
}

fn bool_range(t: Option<bool>) -> (i64, i64) {
    match t {
        Some(true) => (1, 1),
        Some(false) => (0, 0),
        None => (0, 1),
    }
}

/// An interval containing every value `e` can take at layer `k`.
pub(crate) fn interval(sets: &Sets, e: &Expr, k: u16) -> (i64, i64) {
    match e {
        Expr::Const(c) => (*c as i64, *c as i64),
        Expr::Var(v) => sets.hull(*v, k),
        Expr::Call(c) => c.result.map_or(FULL, |(lo, hi)| (lo as i64, hi as i64)),
        Expr::Index { base, len, index } => {
            let (ilo, ihi) = interval(sets, index, k);
            let (mut ilo, mut ihi) = (ilo.max(0), ihi.min(*len as i64 - 1));
            if ilo > ihi {
                (ilo, ihi) = (0, *len as i64 - 1);
            }
            let mut r = (i64::MAX, i64::MIN);
            for i in ilo..=ihi {
                let h = sets.hull(base + i as u32, k);
                r = (r.0.min(h.0), r.1.max(h.1));
            }
            if r.0 > r.1 { FULL } else { r }
        }
        Expr::Checked { index, len } => {
            // The values within 0..len (the others fail).
            let (lo, hi) = interval(sets, index, k);
            let top = *len as i64 - 1;
            let (lo, hi) = (lo.max(0), hi.min(top));
            if lo > hi { (0, top.max(0)) } else { (lo, hi) }
        }
        Expr::Unary(op, a) => {
            let a = interval(sets, a, k);
            match op {
                UnOp::Neg => clamp((-a.1, -a.0)),
                UnOp::Not => bool_range(truth(a).map(|t| !t)),
                UnOp::BitNot => (!a.1, !a.0),
            }
        }
        Expr::Binary(op @ (BinOp::And | BinOp::Or), a, b) => {
            // The operand value that decides alone: false for `&&`, true for `||`.
            let decisive = *op == BinOp::Or;
            let (a, b) = (truth(interval(sets, a, k)), truth(interval(sets, b, k)));
            bool_range(match (a, b) {
                (Some(x), _) | (_, Some(x)) if x == decisive => Some(decisive),
                (Some(_), Some(_)) => Some(!decisive),
                _ => None,
            })
        }
        Expr::Binary(op, a, b) => binary(*op, interval(sets, a, k), interval(sets, b, k)),
        Expr::Cond(c, a, b) => match truth(interval(sets, c, k)) {
            Some(true) => interval(sets, a, k),
            Some(false) => interval(sets, b, k),
            None => {
                let (a, b) = (interval(sets, a, k), interval(sets, b, k));
                (a.0.min(b.0), a.1.max(b.1))
            }
        },
    }
}

fn corners(a: (i64, i64), b: (i64, i64), f: impl Fn(i64, i64) -> i64) -> (i64, i64) {
    let c = [f(a.0, b.0), f(a.0, b.1), f(a.1, b.0), f(a.1, b.1)];
    let lo = c.iter().copied().min().unwrap_or(FULL.0);
    let hi = c.iter().copied().max().unwrap_or(FULL.1);
    clamp((lo, hi))
}

fn binary(op: BinOp, a: (i64, i64), b: (i64, i64)) -> (i64, i64) {
    let single = a.0 == a.1 && b.0 == b.1;
    match op {
        BinOp::Add => clamp((a.0 + b.0, a.1 + b.1)),
        BinOp::Sub => clamp((a.0 - b.1, a.1 - b.0)),
        BinOp::Mul => corners(a, b, |x, y| x.saturating_mul(y)),
        BinOp::Div => {
            if b.0 > 0 || b.1 < 0 {
                corners(a, b, |x, y| x / y)
            } else {
                let m = a.0.abs().max(a.1.abs());
                (-m, m)
            }
        }
        BinOp::Mod => {
            let m = (b.0.abs().max(b.1.abs()) - 1).max(0);
            if a.0 >= 0 {
                (0, m.min(a.1))
            } else if a.1 <= 0 {
                ((-m).max(a.0), 0)
            } else {
                (-m, m)
            }
        }
        BinOp::Lt => bool_range(decide(a.1 < b.0, a.0 >= b.1)),
        BinOp::Le => bool_range(decide(a.1 <= b.0, a.0 > b.1)),
        BinOp::Gt => bool_range(decide(a.0 > b.1, a.1 <= b.0)),
        BinOp::Ge => bool_range(decide(a.0 >= b.1, a.1 < b.0)),
        BinOp::Eq => bool_range(decide(single && a.0 == b.0, a.1 < b.0 || b.1 < a.0)),
        BinOp::Ne => bool_range(decide(a.1 < b.0 || b.1 < a.0, single && a.0 == b.0)),
        BinOp::Min => (a.0.min(b.0), a.1.min(b.1)),
        BinOp::Max => (a.0.max(b.0), a.1.max(b.1)),
        BinOp::BitAnd if a.0 >= 0 && b.0 >= 0 => (0, a.1.min(b.1)),
        BinOp::BitOr | BinOp::BitXor if a.0 >= 0 && b.0 >= 0 => {
            let top = (a.1.max(b.1) as u64 + 1).next_power_of_two() as i64 - 1;
            (0, top)
        }
        BinOp::Shr if a.0 >= 0 && b.0 >= 0 => (0, a.1),
        BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor | BinOp::Shl | BinOp::Shr | BinOp::Pow => {
            if single {
                let r = zeno_ir::Expr::Binary(
                    op,
                    Box::new(Expr::Const(a.0 as i32)),
                    Box::new(Expr::Const(b.0 as i32)),
                )
                .eval(&[]);
                match r {
                    Ok(x) => (x as i64, x as i64),
                    Err(_) => FULL,
                }
            } else {
                FULL
            }
        }
        // Handled by the caller (short-circuit); reaching here is harmless.
        BinOp::And | BinOp::Or | BinOp::Imply => (0, 1),
    }
}

fn decide(always: bool, never: bool) -> Option<bool> {
    if always {
        Some(true)
    } else if never {
        Some(false)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn var(v: VarId) -> Box<Expr> {
        Box::new(Expr::Var(v))
    }
    fn c(x: i32) -> Box<Expr> {
        Box::new(Expr::Const(x))
    }

    #[test]
    fn small_sets_remember_layers() {
        let mut s = Sets::new([(0, 3), (0, 1_000_000)].into_iter(), 0);
        s.reset(&[1, 5]);
        assert!(s.insert(0, 3, 1, 7));
        assert!(!s.insert(0, 3, 2, 8));
        assert!(!s.insert(0, 9, 1, 7), "out of range is ignored");
        let mut at0 = vec![];
        s.for_each_value(0, 0, |x| at0.push(x));
        assert_eq!(at0, vec![1]);
        let mut at1 = vec![];
        s.for_each_value(0, 1, |x| at1.push(x));
        assert_eq!(at1, vec![1, 3]);
        assert_eq!(s.first(Fact::Val(0, 3)), (1, 7));
        // Large range: intervals with history.
        assert!(s.insert_range(1, 10, 20, 2, 4));
        assert_eq!(s.hull(1, 1), (5, 5));
        assert_eq!(s.hull(1, 2), (5, 20));
        assert_eq!(s.fact_of(1, 15), Some(Fact::Hist(1, 1)));
        assert_eq!(s.first(Fact::Hist(1, 1)), (2, 4));
    }

    #[test]
    fn enumeration_finds_correlated_witnesses() {
        let mut s = Sets::new([(0, 3), (0, 3)].into_iter(), 0);
        s.reset(&[0, 0]);
        s.insert(0, 2, 1, 0);
        s.insert(1, 3, 1, 0);
        // x + y == 5 needs x = 2 and y = 3, both new at layer 1.
        let g = Compiled::new(&Expr::Binary(
            BinOp::Eq,
            Box::new(Expr::Binary(BinOp::Add, var(0), var(1))),
            c(5),
        ));
        let mut en = Enumerator::default();
        assert!(!en.satisfiable(&s, &g, 0));
        assert!(en.satisfiable(&s, &g, 1));
    }

    #[test]
    fn intervals_over_approximate() {
        let mut s = Sets::new([(0, 1_000_000)].into_iter(), 0);
        s.reset(&[10]);
        s.insert_range(0, 0, 100, 1, 0);
        let lt = Expr::Binary(BinOp::Lt, var(0), c(0));
        assert_eq!(interval(&s, &lt, 1), (0, 0));
        let le = Expr::Binary(BinOp::Le, var(0), c(0));
        assert_eq!(interval(&s, &le, 1), (0, 1));
        assert_eq!(interval(&s, &le, 0), (0, 0));
        let mul = Expr::Binary(BinOp::Mul, var(0), c(-2));
        assert_eq!(interval(&s, &mul, 1), (-200, 0));
        let m = Expr::Binary(BinOp::Mod, var(0), c(7));
        assert_eq!(interval(&s, &m, 1), (0, 6));
    }

    #[test]
    fn a_counter_is_widened_to_its_bound() {
        // UPPAAL's default int range; `x++` from 0 adds one value a layer.
        let mut s = Sets::new([(-32768, 32767)].into_iter(), 0);
        s.reset(&[0]);
        // The reset is the first history entry; growth 1..WIDEN_AFTER-1
        // keeps exact intervals.
        for k in 1..WIDEN_AFTER as u16 {
            assert!(s.insert(0, k as i64, k, 0));
            assert_eq!(s.hull(0, k), (0, k as i64), "layer {k}");
        }
        // The next growth goes to the declared bound, upwards only.
        let k = WIDEN_AFTER as u16;
        assert!(s.insert(0, k as i64, k, 0));
        assert_eq!(s.hull(0, k), (0, 32767));
        assert!(!s.insert(0, 40, k + 1, 0), "nothing new above");
        assert!(s.insert(0, -1, k + 1, 0));
        assert_eq!(s.hull(0, k + 1), (-32768, 32767));
        // Earlier layers keep what they had.
        assert_eq!(s.hull(0, 3), (0, 3));
    }
}
