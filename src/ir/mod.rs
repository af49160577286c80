//! The checker's model: a flat, indexed network of timed automata.
//!
//! The frontend lowers a resolved, type-checked model into an [`Network`]:
//! instances are expanded, `select` bindings enumerated, constants folded and
//! every name replaced by an index. The checker reads nothing else, so it never
//! sees syntax, and everything here is owned data that can be sent to a worker
//! thread. Every element keeps a [`Span`] back into the model text so that
//! results can be shown where they come from.
//!
//! Conventions the checker relies on:
//! - `clocks[0]` is the reference clock (always 0); real clocks are `1..`, so a
//!   [`ClockId`] is directly a DBM index.
//! - Integer and boolean variables are flattened into slots; an array of length
//!   `n` occupies `n` consecutive slots. Booleans are slots with range `[0, 1]`.
//! - Channel arrays are flattened the same way.
//! - Multi-dimensional arrays and records are flattened too, in C's order
//!   (the last index varies fastest, fields in declaration order); each
//!   index of a multi-dimensional access is checked against its own
//!   dimension ([`Expr::Checked`]).

mod call;
mod eval;
pub mod interval;
pub mod print;
#[cfg(test)]
mod test_exprs;

pub use call::{Call, FRAME, MAX_LOOP_STEPS, Stmt, footprint, is_frame_slot};
pub use eval::{EvalError, apply_binary, apply_unary};
pub use interval::{Interval, Range};

/// Index of a variable slot in [`Network::variables`].
pub type VarId = u32;
/// Index of a clock in [`Network::clocks`]; 0 is the reference clock.
pub type ClockId = u32;
/// Index of a channel in [`Network::channels`].
pub type ChanId = u32;
/// Index of a process in [`Network::processes`].
pub type ProcId = u32;
/// Index of a location in [`Process::locations`].
pub type LocId = u32;
/// Index of an edge in [`Process::edges`].
pub type EdgeId = u32;

/// Every ir element keeps the byte range of the model text it comes from.
pub use crate::text::Span;

/// A network of timed automata with its checks.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Network {
    pub variables: Vec<Variable>,
    /// `clocks[0]` is the reference clock.
    pub clocks: Vec<Clock>,
    pub channels: Vec<Channel>,
    pub processes: Vec<Process>,
    /// Synchronisation vectors over edge labels (`sync P.a, Q.b?;`).
    pub vectors: Vec<SyncVector>,
    /// Channel and process priorities (none by default).
    pub priorities: Priorities,
    pub checks: Vec<Check>,
}

/// UPPAAL's priorities (docs/language.md, "Priorities"). A transition's
/// priority is the pair (its channel's level, the highest level of the
/// processes taking part), compared channel first; at a time point a
/// transition is enabled only if no transition of a higher priority is.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Priorities {
    /// The level of each channel (indexed like `Network::channels`); empty
    /// without a `priority` declaration.
    pub channel: Vec<u32>,
    /// The level of `default`: internal transitions, synchronisation
    /// vectors and the channels the declaration does not list.
    pub default_channel: u32,
    /// The level of each process; empty when the `system` line has no `<`.
    pub process: Vec<u32>,
    /// The `priority` declaration and the `system` line, for messages.
    pub channel_span: Option<Span>,
    pub process_span: Option<Span>,
}

impl Priorities {
    /// No priorities: every transition has the same.
    pub fn is_empty(&self) -> bool {
        self.channel.is_empty() && self.process.is_empty()
    }

    /// The priority of a transition on `channel` (`None`: internal or a
    /// synchronisation vector) by `processes`.
    pub fn of(
        &self,
        channel: Option<ChanId>,
        processes: impl Iterator<Item = ProcId>,
    ) -> (u32, u32) {
        let c = channel
            .and_then(|c| self.channel.get(c as usize).copied())
            .unwrap_or(self.default_channel);
        let p = processes
            .map(|p| self.process.get(p as usize).copied().unwrap_or(0))
            .max()
            .unwrap_or(0);
        (c, p)
    }
}

/// `sync Bus.cd, Station(1).cd, Station(2).cd?;`: the listed processes move
/// together, each along one enabled edge carrying its label. A strong
/// participant must take part; a weak one (`?`) takes part when it has an
/// enabled edge with the label. Updates run in participant order.
#[derive(Debug, Clone, PartialEq)]
pub struct SyncVector {
    pub participants: Vec<Participant>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Participant {
    pub process: ProcId,
    /// The edge label (`sync cd` on the process's edges).
    pub label: String,
    pub weak: bool,
    pub span: Span,
}

/// One integer slot (a scalar variable, or one element of an array).
#[derive(Debug, Clone, PartialEq)]
pub struct Variable {
    /// Display name, qualified for locals and indexed for array elements:
    /// `id`, `P1.count`, `a[2]`.
    pub name: String,
    /// Inclusive range; assigning a value outside it is a model error.
    pub lo: i32,
    pub hi: i32,
    pub init: i32,
    pub is_bool: bool,
    /// Compile-time constants are folded away and never become variables, so
    /// every variable may change at run time.
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Clock {
    /// Display name, qualified for locals: `x`, `P1.x`. The reference clock is `0`.
    pub name: String,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChannelKind {
    Binary,
    Broadcast,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Channel {
    pub name: String,
    pub kind: ChannelKind,
    /// No delay is allowed while a synchronisation on an urgent channel is enabled.
    pub urgent: bool,
    pub span: Span,
}

/// One process: an instance of a template with its parameters substituted.
#[derive(Debug, Clone, PartialEq)]
pub struct Process {
    /// `P1`, or `Proc(1)` for instances made by `system Proc;`.
    pub name: String,
    pub template: String,
    pub locations: Vec<Location>,
    pub edges: Vec<Edge>,
    pub initial: LocId,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LocationKind {
    Normal,
    /// Time may not pass while a process is here.
    Urgent,
    /// Time may not pass, and the next transition must involve a committed process.
    Committed,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Location {
    pub name: String,
    pub kind: LocationKind,
    /// Conjunction of clock constraints that must hold while the process is here.
    pub invariant: Vec<ClockConstraint>,
    pub span: Span,
}

/// An edge of one process. `select` is already expanded: a template edge with
/// `select i : int[0, 2]` becomes three edges, each with its binding in `selects`.
#[derive(Debug, Clone, PartialEq)]
pub struct Edge {
    pub source: LocId,
    pub target: LocId,
    /// Data part of the guard (non-zero means enabled); `None` is `true`.
    pub guard: Option<Expr>,
    /// Clock part of the guard, a conjunction.
    pub clock_guard: Vec<ClockConstraint>,
    pub sync: Option<Sync>,
    /// An action label (`sync cd`, no `!`/`?`): the edge moves in the
    /// synchronisation vectors that name this label for its process, or
    /// alone when none does. Never set together with `sync`.
    pub label: Option<String>,
    /// Executed left to right.
    pub updates: Vec<Update>,
    /// The `select` values this edge was made for, for display: `[("i", 2)]`.
    pub selects: Vec<(String, i32)>,
    /// The whole edge declaration in the text (shared by all select copies and instances).
    pub span: Span,
}

/// `x_i - x_j < bound` (strict) or `x_i - x_j <= bound`, with DBM indices
/// (`0` is the reference clock, so `x <= 5` is `i = x, j = 0, bound = 5` and
/// `x >= 5` is `i = 0, j = x, bound = -5`). An equality is two constraints.
#[derive(Debug, Clone, PartialEq)]
pub struct ClockConstraint {
    pub i: ClockId,
    pub j: ClockId,
    pub strict: bool,
    /// Usually a constant; may read variables (`x <= delay[id]`).
    pub bound: Expr,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SyncDir {
    Send,
    Receive,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Sync {
    pub channel: ChanRef,
    pub dir: SyncDir,
}

/// A channel, or an element of a channel array chosen by an index expression.
#[derive(Debug, Clone, PartialEq)]
pub struct ChanRef {
    pub base: ChanId,
    /// Number of elements when `index` is set (1 otherwise).
    pub len: u32,
    pub index: Option<Expr>,
}

/// A variable slot, or an element of an array chosen by an index expression.
#[derive(Debug, Clone, PartialEq)]
pub struct LValue {
    pub base: VarId,
    /// Number of elements when `index` is set (1 otherwise).
    pub len: u32,
    pub index: Option<Expr>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Update {
    /// `v = e`, `a[i] = e`; `v += e` and `v++` are lowered to this.
    Assign { target: LValue, value: Expr },
    /// `x = c` with a non-negative constant `c`.
    ResetClock { clock: ClockId, value: i32 },
    /// A function called for its effects (`do enqueue(id)`), or updates
    /// that call functions with effects: run by [`Call::run`]. A function's
    /// clock resets are separate `ResetClock` updates after it.
    Call(std::sync::Arc<Call>),
}

impl Update {
    /// Calls `f` on every variable slot the update may write.
    pub fn for_each_write(&self, f: &mut impl FnMut(VarId)) {
        match self {
            Update::Assign { target, .. } => match target.index {
                None => f(target.base),
                Some(_) => (target.base..target.base + target.len).for_each(f),
            },
            Update::ResetClock { .. } => {}
            Update::Call(c) => c.writes.iter().copied().for_each(f),
        }
    }

    /// Calls `f` on every variable slot the update may read (the index of
    /// its target included).
    pub fn for_each_read(&self, f: &mut impl FnMut(VarId)) {
        match self {
            Update::Assign { target, value } => {
                if let Some(i) = &target.index {
                    i.for_each_read(f);
                }
                value.for_each_read(f);
            }
            Update::ResetClock { .. } => {}
            Update::Call(c) => c.reads.iter().copied().for_each(f),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnOp {
    Neg,
    /// Logical not: 1 if the operand is 0, else 0.
    Not,
    BitNot,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    /// Truncating division; by zero is a model error.
    Div,
    /// Remainder with the sign of the dividend (as C); by zero is a model error.
    Mod,
    Lt,
    Le,
    Eq,
    Ne,
    Ge,
    Gt,
    /// Short-circuit logical and/or on non-zero values; the result is 0 or 1.
    And,
    Or,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
    Min,
    Max,
}

/// An integer expression over variable slots. Booleans are 0 and 1.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Const(i32),
    Var(VarId),
    /// Element `index` of the array stored in slots `base .. base + len`;
    /// an index outside `0..len` is a model error.
    Index {
        base: VarId,
        len: u32,
        index: Box<Expr>,
    },
    /// An array index checked against its own dimension: the value of
    /// `index`, which must lie in `0..len` (otherwise a model error, as for
    /// [`Expr::Index`]). `a[i][j]` in an `int a[N][M]` reads slot
    /// `Checked(i, N) * M + Checked(j, M)`, so that `j == M` is an error
    /// and never a read of the next row.
    Checked {
        index: Box<Expr>,
        len: u32,
    },
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `c ? a : b`
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// A function call, inlined at this call site: its value. Calls in
    /// guards, invariants and checks have no effects (lowering ensures it).
    Call(std::sync::Arc<Call>),
}

/// A property to decide.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    pub name: String,
    pub kind: CheckKind,
    /// The whole `check` declaration.
    pub span: Span,
    /// The check's name, where diagnostics about it point.
    pub name_span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum CheckKind {
    /// `A[] phi`: violated by a reachable state satisfying `!phi`.
    /// `A[] !deadlock` is `Invariant(Not(Deadlock))`.
    Invariant(Formula),
    /// `E<> phi`: witnessed by a reachable state satisfying `phi`.
    Reachable(Formula),
    /// `A<> phi`: every maximal run reaches a state satisfying `phi`;
    /// violated by a maximal run that never does (`not E[] not phi`).
    Inevitable(Formula),
    /// `E[] phi`: some maximal run satisfies `phi` in every state.
    Potentially(Formula),
    /// `p --> q`: from every reachable state satisfying `p`, every maximal
    /// run reaches `q` (`A[] (p imply A<> q)`).
    LeadsTo(Formula, Formula),
}

impl CheckKind {
    /// The states the search looks for: `!phi` for `A[]`, `phi` for `E<>`;
    /// for the liveness forms, the states a counterexample or witness runs
    /// through: `!phi` for `A<>`, `phi` for `E[]`, `p && !q` for `-->`.
    pub fn goal(&self) -> Formula {
        match self {
            CheckKind::Invariant(phi) | CheckKind::Inevitable(phi) => {
                Formula::Not(Box::new(phi.clone()))
            }
            CheckKind::Reachable(phi) | CheckKind::Potentially(phi) => phi.clone(),
            CheckKind::LeadsTo(p, q) => {
                Formula::And(vec![p.clone(), Formula::Not(Box::new(q.clone()))])
            }
        }
    }

    /// Whether the check is about all runs (`A[]`, `A<>`, `-->`: a trace
    /// is a counterexample) rather than some run (`E<>`, `E[]`: a trace is a
    /// witness).
    pub fn is_universal(&self) -> bool {
        matches!(
            self,
            CheckKind::Invariant(_) | CheckKind::Inevitable(_) | CheckKind::LeadsTo(..)
        )
    }

    /// Whether the check is about maximal runs (`A<>`, `E[]`, `-->`) rather
    /// than reachable states.
    pub fn is_liveness(&self) -> bool {
        matches!(
            self,
            CheckKind::Inevitable(_) | CheckKind::Potentially(_) | CheckKind::LeadsTo(..)
        )
    }
}

/// A state formula. Quantifiers over bounded types are expanded by lowering.
#[derive(Debug, Clone, PartialEq)]
pub enum Formula {
    True,
    False,
    /// The process is in the location.
    At {
        process: ProcId,
        location: LocId,
    },
    /// A data expression, true when non-zero.
    Data(Expr),
    Clock(ClockConstraint),
    /// No action transition is possible now or after any delay.
    Deadlock,
    Not(Box<Formula>),
    And(Vec<Formula>),
    Or(Vec<Formula>),
}

impl Formula {
    /// Whether `deadlock` occurs in the formula.
    pub fn mentions_deadlock(&self) -> bool {
        match self {
            Formula::Deadlock => true,
            Formula::Not(g) => g.mentions_deadlock(),
            Formula::And(gs) | Formula::Or(gs) => gs.iter().any(Formula::mentions_deadlock),
            _ => false,
        }
    }
}

impl Network {
    /// Whether some edge receiving on a broadcast channel has a clock guard:
    /// whether such a receiver takes part then depends on the clocks, so a
    /// broadcast splits zones (docs/checker.md, "Semantics").
    pub fn has_clocked_broadcast_receiver(&self) -> bool {
        self.processes.iter().flat_map(|p| &p.edges).any(|e| {
            !e.clock_guard.is_empty()
                && e.sync.as_ref().is_some_and(|s| {
                    s.dir == SyncDir::Receive
                        && (s.channel.base..s.channel.base + s.channel.len.max(1)).any(|c| {
                            self.channels
                                .get(c as usize)
                                .is_some_and(|c| c.kind == ChannelKind::Broadcast)
                        })
                })
        })
    }

    /// Dimension of a DBM for this network (the reference clock included).
    pub fn dbm_dim(&self) -> usize {
        self.clocks.len()
    }

    /// Initial values of all variable slots.
    pub fn initial_variables(&self) -> Vec<i32> {
        self.variables.iter().map(|v| v.init).collect()
    }

    /// Initial location of every process.
    pub fn initial_locations(&self) -> Vec<LocId> {
        self.processes.iter().map(|p| p.initial).collect()
    }

    /// Every check of the network, in declaration order.
    pub fn check_ids(&self) -> impl ExactSizeIterator<Item = CheckId> + use<> {
        (0..self.checks.len()).map(CheckId)
    }

    /// The check at `index` in [`Network::checks`], if there is one.
    pub fn check_at(&self, index: usize) -> Option<CheckId> {
        (index < self.checks.len()).then_some(CheckId(index))
    }

    /// The check named `name`.
    pub fn check_named(&self, name: &str) -> Option<CheckId> {
        self.checks.iter().position(|c| c.name == name).map(CheckId)
    }

    /// The check `id` stands for.
    ///
    /// # Panics
    /// When `id` was taken from a network with more checks: a programming
    /// error, like an index out of bounds. Networks derived from this one
    /// (safe abstraction's reduced networks) keep every check in place.
    pub fn check(&self, id: CheckId) -> &Check {
        self.checks.get(id.0).unwrap_or_else(|| {
            panic!(
                "check #{} does not exist: the network has {} checks",
                id.0,
                self.checks.len()
            )
        })
    }
}

/// A check of a [`Network`], as the network hands it out
/// ([`Network::check_ids`], [`Network::check_named`],
/// [`Network::check_at`]): the checker's entry points take one instead of a
/// bare index, so a position that names no check cannot be passed in by
/// mistake.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CheckId(usize);

impl CheckId {
    /// The `index`-th check of whatever network a unit test builds.
    #[cfg(test)]
    pub(crate) fn nth(index: usize) -> CheckId {
        CheckId(index)
    }

    /// The position of the check in [`Network::checks`].
    pub fn index(self) -> usize {
        self.0
    }
}
