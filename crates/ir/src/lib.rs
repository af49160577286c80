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
#![warn(missing_docs)]

mod call;
mod eval;
pub mod interval;
pub mod print;
mod sites;
pub mod symmetry;
#[cfg(test)]
mod test_exprs;

pub use call::{Call, FRAME, MAX_LOOP_STEPS, Stmt, footprint, is_frame_slot, reset_summary};
pub use eval::{ErrorKind, EvalError, FnSite, apply_binary, apply_unary};
pub use interval::{Interval, Range};
use num_rational::Rational64;
use num_traits::CheckedDiv;
pub use sites::{shift_local_calls, shift_local_calls_in};

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
pub use zeno_base::text::Span;

/// The largest magnitude of a constant a clock may be compared with or reset
/// to: zones keep `2c + 1` in 32 bits with room for sums of two bounds.
/// UPPAAL's own limit is higher; zeno refuses larger constants (a warning
/// where the constant is written, `unknown` for the checks) rather than
/// compare with a wrong bound.
pub const MAX_CLOCK_CONSTANT: i32 = (1 << 28) - 1;

/// A network of timed automata with its checks.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Network {
    /// Every integer slot, in slot order (arrays and records flattened).
    pub variables: Vec<Variable>,
    /// `clocks[0]` is the reference clock.
    pub clocks: Vec<Clock>,
    /// Every channel (arrays flattened), in declaration order.
    pub channels: Vec<Channel>,
    /// The processes, in `system` order.
    pub processes: Vec<Process>,
    /// Synchronisation vectors over edge labels (`sync P.a, Q.b?;`).
    pub vectors: Vec<SyncVector>,
    /// Channel and process priorities (none by default).
    pub priorities: Priorities,
    /// The checks, in text order.
    pub checks: Vec<Check>,
    /// The lines of the model text, so that messages can name lines
    /// without the text (`report` does, for run-time errors inside
    /// functions); `None` when not known.
    pub lines: Option<zeno_base::line_index::LineIndex>,
    /// The scalar sets the network is symmetric in (none: no reduction).
    pub symmetry: symmetry::Symmetry,
    /// How many of the network's time units make one of the model's: every
    /// clock constant of the text (bounds, reset values) is multiplied by it
    /// so that a quotient like `2 >= 5*x` (`x <= 2/5`) becomes an integer
    /// bound (docs/language.md, "Time scaling"). Delays, clock values and
    /// clock bounds the network gives are divided by it before a user sees
    /// them ([`TimeScale::user_value`]).
    pub time_scale: TimeScale,
}

/// The refinement of the model's time unit (see [`Network::time_scale`]):
/// 1 unless a clock comparison has a non-integer quotient.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TimeScale(pub u32);

impl Default for TimeScale {
    fn default() -> Self {
        TimeScale(1)
    }
}

impl TimeScale {
    /// Whether the model's time unit is kept as written.
    pub fn is_unit(self) -> bool {
        self.0 <= 1
    }

    /// A delay, clock value or clock bound of the network in the model's
    /// own time unit; `None` where the quotient leaves `Rational64`.
    pub fn user_value(self, v: Rational64) -> Option<Rational64> {
        v.checked_div(&Rational64::from_integer(i64::from(self.0.max(1))))
    }

    /// [`Self::user_value`] as exact text (`2/5`, `3`), computed without
    /// overflow whatever the value.
    pub fn user_text(self, v: Rational64) -> String {
        let n = i128::from(*v.numer());
        let d = i128::from(*v.denom()) * i128::from(self.0.max(1));
        let (mut a, mut b) = (n.abs(), d);
        while b != 0 {
            (a, b) = (b, a % b);
        }
        let g = a.max(1);
        let (n, d) = (n / g, d / g);
        if d == 1 {
            n.to_string()
        } else {
            format!("{n}/{d}")
        }
    }
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
    /// The `priority` declaration, for messages.
    pub channel_span: Option<Span>,
    /// The `system` line's priorities, for messages.
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
    /// The processes that move together, each with its label.
    pub participants: Vec<Participant>,
    /// The `sync` declaration.
    pub span: Span,
}

/// One process of a synchronisation vector.
#[derive(Debug, Clone, PartialEq)]
pub struct Participant {
    /// The process.
    pub process: ProcId,
    /// The edge label (`sync cd` on the process's edges).
    pub label: String,
    /// Whether the process takes part only when it can (`?`).
    pub weak: bool,
    /// The participant in the declaration.
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
    /// Inclusive upper end of the range.
    pub hi: i32,
    /// The initial value.
    pub init: i32,
    /// Declared `bool` (values 0 and 1, printed `false`/`true`).
    pub is_bool: bool,
    /// Compile-time constants are folded away and never become variables, so
    /// every variable may change at run time.
    pub span: Span,
}

/// A clock (an element of a clock array is a clock of its own).
#[derive(Debug, Clone, PartialEq)]
pub struct Clock {
    /// Display name, qualified for locals: `x`, `P1.x`. The reference clock is `0`.
    pub name: String,
    /// The declaration.
    pub span: Span,
}

/// How many receivers a send reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChannelKind {
    /// One sender and one receiver (handshake).
    Binary,
    /// One sender and every receiver that can take part (`broadcast chan`).
    Broadcast,
}

/// A channel (an element of a channel array is a channel of its own).
#[derive(Debug, Clone, PartialEq)]
pub struct Channel {
    /// Display name: `c`, `go[2]`.
    pub name: String,
    /// Handshake or broadcast.
    pub kind: ChannelKind,
    /// No delay is allowed while a synchronisation on an urgent channel is enabled.
    pub urgent: bool,
    /// The declaration.
    pub span: Span,
}

/// One process: an instance of a template with its parameters substituted.
#[derive(Debug, Clone, PartialEq)]
pub struct Process {
    /// `P1`, or `Proc(1)` for instances made by `system Proc;`.
    pub name: String,
    /// The template it instantiates.
    pub template: String,
    /// Its locations; `LocId` indexes them.
    pub locations: Vec<Location>,
    /// Its edges; `EdgeId` indexes them.
    pub edges: Vec<Edge>,
    /// The initial location.
    pub initial: LocId,
    /// The instance (or the `system` entry that made it).
    pub span: Span,
}

/// What a location allows time to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LocationKind {
    /// Time may pass (within the invariant).
    Normal,
    /// Time may not pass while a process is here.
    Urgent,
    /// Time may not pass, and the next transition must involve a committed process.
    Committed,
}

/// A location of a process.
#[derive(Debug, Clone, PartialEq)]
pub struct Location {
    /// The location's name in its template.
    pub name: String,
    /// Normal, urgent or committed.
    pub kind: LocationKind,
    /// Conjunction of clock constraints that must hold while the process is here.
    pub invariant: Vec<ClockConstraint>,
    /// The condition on data of the invariant (`None`: true). A discrete
    /// state where it is false does not exist: a transition into it is not
    /// enabled.
    pub data_invariant: Option<Expr>,
    /// Clocks stopped here (`x' == 0` in the invariant: a stopwatch); every
    /// other clock runs at rate 1. A clock is stopped in a state when one
    /// process's location stops it.
    pub stopped: Vec<ClockId>,
    /// Clocks the invariant says run (`x' == 1`, the default, written
    /// out): where another process's location stops one of them, the two
    /// invariants together allow no delay.
    pub running: Vec<ClockId>,
    /// Rates given by data (`x' == b`, `b` not a constant): in a discrete
    /// state the expression is 0 (the clock is stopped, as in `stopped`) or
    /// 1 (it runs, as in `running`); any other value is a run-time error
    /// ([`ErrorKind::ClockRate`]) of the transitions entering the state.
    pub data_rates: Vec<(ClockId, Expr)>,
    /// The declaration.
    pub span: Span,
}

/// An edge of one process. `select` is already expanded: a template edge with
/// `select i : int[0, 2]` becomes three edges, each with its binding in `selects`.
#[derive(Debug, Clone, PartialEq)]
pub struct Edge {
    /// The location the edge leaves.
    pub source: LocId,
    /// The location the edge enters.
    pub target: LocId,
    /// Data part of the guard (non-zero means enabled); `None` is `true`.
    pub guard: Option<Expr>,
    /// Clock part of the guard, a conjunction.
    pub clock_guard: Vec<ClockConstraint>,
    /// The channel the edge sends or receives on, if any.
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
    /// The DBM index of the left clock (`0`: the reference clock).
    pub i: ClockId,
    /// The DBM index of the right clock (`0`: the reference clock).
    pub j: ClockId,
    /// `<` rather than `<=`.
    pub strict: bool,
    /// Usually a constant; may read variables (`x <= delay[id]`).
    pub bound: Expr,
}

/// The direction of a synchronisation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SyncDir {
    /// `c!`
    Send,
    /// `c?`
    Receive,
}

/// A synchronisation label: a channel and a direction.
#[derive(Debug, Clone, PartialEq)]
pub struct Sync {
    /// The channel.
    pub channel: ChanRef,
    /// Send or receive.
    pub dir: SyncDir,
}

/// A channel, or an element of a channel array chosen by an index expression.
#[derive(Debug, Clone, PartialEq)]
pub struct ChanRef {
    /// The first channel of the array (the channel itself without `index`).
    pub base: ChanId,
    /// Number of elements when `index` is set (1 otherwise).
    pub len: u32,
    /// The element, `0..len`; out of range is a model error.
    pub index: Option<Expr>,
}

/// A variable slot, or an element of an array chosen by an index expression.
#[derive(Debug, Clone, PartialEq)]
pub struct LValue {
    /// The first slot of the array (the slot itself without `index`).
    pub base: VarId,
    /// Number of elements when `index` is set (1 otherwise).
    pub len: u32,
    /// The element, `0..len`; out of range is a model error.
    pub index: Option<Expr>,
}

impl LValue {
    /// The expression that reads the slot or element this lvalue names (the
    /// old value of `v += e` and `v++`).
    pub fn read(&self) -> Expr {
        match &self.index {
            None => Expr::Var(self.base),
            Some(i) => Expr::Index {
                base: self.base,
                len: self.len,
                index: Box::new(i.clone()),
            },
        }
    }
}

/// One effect of an edge, applied in order.
#[derive(Debug, Clone, PartialEq)]
pub enum Update {
    /// `v = e`, `a[i] = e`; `v += e` and `v++` are lowered to this.
    Assign {
        /// The slot written.
        target: LValue,
        /// The value written.
        value: Expr,
    },
    /// `x = c` with a non-negative constant `c`.
    ResetClock {
        /// The clock reset.
        clock: ClockId,
        /// Its new value.
        value: i32,
    },
    /// A function called for its effects (`do enqueue(id)`), or updates
    /// that call functions with effects: run by [`Call::run`]. A function's
    /// constant top-level clock resets are separate `ResetClock` updates
    /// after it; other resets ([`Stmt::ResetClock`]: under `if`, in a loop,
    /// at an index or to a value that depends on the state, and an edge's
    /// `x = d` with `d` not constant) run inside it
    /// ([`Call::run_resetting`]).
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

    /// Calls `f` on every clock the update may reset (an over-approximation
    /// for a call: see [`Call::may_reset`]).
    pub fn for_each_may_reset(&self, f: &mut impl FnMut(ClockId)) {
        match self {
            Update::Assign { .. } => {}
            Update::ResetClock { clock, .. } => f(*clock),
            Update::Call(c) => c.may_reset.iter().copied().for_each(f),
        }
    }

    /// Calls `f` on every clock the update resets whenever it runs, with its
    /// value when that is a known constant (an under-approximation for a
    /// call: see [`Call::must_reset`]).
    pub fn for_each_must_reset(&self, f: &mut impl FnMut(ClockId, Option<i32>)) {
        match self {
            Update::Assign { .. } => {}
            Update::ResetClock { clock, value } => f(*clock, Some(*value)),
            Update::Call(c) => c.must_reset.iter().for_each(|&(x, v)| f(x, v)),
        }
    }

    /// Whether the update may reset `clock`.
    pub fn may_reset(&self, clock: ClockId) -> bool {
        let mut hit = false;
        self.for_each_may_reset(&mut |x| hit |= x == clock);
        hit
    }

    /// Whether the update resets `clock` whenever it runs.
    pub fn must_reset(&self, clock: ClockId) -> bool {
        let mut hit = false;
        self.for_each_must_reset(&mut |x, _| hit |= x == clock);
        hit
    }

    /// Calls `f` on every variable slot the update may read (the index of
    /// its target included).
    pub fn for_each_read(&self, f: &mut impl FnMut(VarId)) {
        match self {
            Update::Call(c) => c.reads.iter().copied().for_each(f),
            _ => self.operands().for_each(|e| e.for_each_read(f)),
        }
    }

    /// What an assignment evaluates, in order: its target's index, if any,
    /// then its value; nothing for a clock reset or a call.
    pub fn operands(&self) -> impl Iterator<Item = &Expr> {
        let (index, value) = match self {
            Update::Assign { target, value } => (target.index.as_ref(), Some(value)),
            Update::ResetClock { .. } | Update::Call(_) => (None, None),
        };
        index.into_iter().chain(value)
    }
}

/// A unary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// Negation (overflow is a model error).
    Neg,
    /// Logical not: 1 if the operand is 0, else 0.
    Not,
    /// Bitwise complement.
    BitNot,
}

/// A binary operator: the one operator set of the language
/// (`zeno_base::operators`, which also holds each one's spelling and
/// precedence). What each evaluates to is `eval.rs`'s: comparisons and the
/// logical operators give 0 or 1, `&&`, `||` and `imply` short-circuit,
/// and arithmetic that leaves `i32` (a shift losing a significant bit, a
/// negative or too large shift or exponent, a division by zero) is a model
/// error. Lowering writes `imply` as `!a || b`, but the ir evaluates it too.
pub use zeno_base::operators::BinaryOp as BinOp;

/// An integer expression over variable slots. Booleans are 0 and 1.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// A constant.
    Const(i32),
    /// The value of a variable slot.
    Var(VarId),
    /// Element `index` of the array stored in slots `base .. base + len`;
    /// an index outside `0..len` is a model error.
    Index {
        /// The first slot of the array.
        base: VarId,
        /// The number of elements.
        len: u32,
        /// The element, read at run time.
        index: Box<Expr>,
    },
    /// An array index checked against its own dimension: the value of
    /// `index`, which must lie in `0..len` (otherwise a model error, as for
    /// [`Expr::Index`]). `a[i][j]` in an `int a[N][M]` reads slot
    /// `Checked(i, N) * M + Checked(j, M)`, so that `j == M` is an error
    /// and never a read of the next row.
    Checked {
        /// The index.
        index: Box<Expr>,
        /// The dimension it must lie within.
        len: u32,
    },
    /// A unary operation.
    Unary(UnOp, Box<Expr>),
    /// A binary operation.
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
    /// The check's name (unique in the model).
    pub name: String,
    /// What is checked.
    pub kind: CheckKind,
    /// The whole `check` declaration.
    pub span: Span,
    /// The check's name, where diagnostics about it point.
    pub name_span: Span,
}

/// The forms of a check.
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
    /// `sup{pred}: e1, e2` / `inf{pred}: …`: not a property but a question
    /// about values, answered over the reachable states satisfying `pred`
    /// (`checker::bounds`).
    Bound(BoundQuery),
}

/// A `sup:` or `inf:` query (UPPAAL's symbolic value queries).
#[derive(Debug, Clone, PartialEq)]
pub struct BoundQuery {
    /// Which extremum is asked for.
    pub extremum: Extremum,
    /// The states it is taken over (`True` without `{pred}`).
    pub pred: Formula,
    /// The expressions whose extremum is asked for, in text order.
    pub terms: Vec<BoundTerm>,
}

/// `sup` or `inf`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extremum {
    /// The least upper bound.
    Sup,
    /// The greatest lower bound.
    Inf,
}

/// One expression of a [`BoundQuery`].
#[derive(Debug, Clone, PartialEq)]
pub struct BoundTerm {
    /// Where it is written (front ends show its text).
    pub span: Span,
    /// What it reads.
    pub value: BoundValue,
}

/// What a [`BoundTerm`] reads.
#[derive(Debug, Clone, PartialEq)]
pub enum BoundValue {
    /// A clock: its bound in the zones.
    Clock(ClockId),
    /// An integer expression over the discrete state.
    Data(Expr),
}

impl CheckKind {
    /// The check's formulas, in text order (`p` then `q` for `p --> q`).
    pub fn formulas(&self) -> impl Iterator<Item = &Formula> {
        let (first, second) = match self {
            CheckKind::Invariant(f)
            | CheckKind::Reachable(f)
            | CheckKind::Inevitable(f)
            | CheckKind::Potentially(f) => (f, None),
            CheckKind::LeadsTo(p, q) => (p, Some(q)),
            CheckKind::Bound(b) => (&b.pred, None),
        };
        std::iter::once(first).chain(second)
    }

    /// The states the search looks for: `!phi` for `A[]`, `phi` for `E<>`;
    /// for the liveness forms, the states a counterexample or witness runs
    /// through: `!phi` for `A<>`, `phi` for `E[]`, `p && !q` for `-->`; for
    /// `sup`/`inf`, the states the values are taken over.
    pub fn goal(&self) -> Formula {
        match self {
            CheckKind::Invariant(phi) | CheckKind::Inevitable(phi) => {
                Formula::Not(Box::new(phi.clone()))
            }
            CheckKind::Reachable(phi) | CheckKind::Potentially(phi) => phi.clone(),
            CheckKind::Bound(b) => b.pred.clone(),
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
    /// Every state.
    True,
    /// No state.
    False,
    /// The process is in the location.
    At {
        /// The process.
        process: ProcId,
        /// The location.
        location: LocId,
    },
    /// A data expression, true when non-zero.
    Data(Expr),
    /// A clock constraint.
    Clock(ClockConstraint),
    /// No action transition is possible now or after any delay.
    Deadlock,
    /// Negation.
    Not(Box<Formula>),
    /// Conjunction.
    And(Vec<Formula>),
    /// Disjunction.
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
    /// Whether some location stops a clock (`x' == 0`): the zone graph
    /// then over-approximates (docs/checker.md, "Stopwatches").
    pub fn has_stopwatches(&self) -> bool {
        self.processes
            .iter()
            .flat_map(|p| &p.locations)
            .any(|l| !l.stopped.is_empty() || !l.data_rates.is_empty())
    }

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
    /// The `index`-th check of whatever network a unit test builds (the
    /// checker's unit tests too).
    #[doc(hidden)]
    pub fn nth(index: usize) -> CheckId {
        CheckId(index)
    }

    /// The position of the check in [`Network::checks`].
    pub fn index(self) -> usize {
        self.0
    }
}
