//! Searches taking turns on one core: each holds the turn for a short
//! slice, and the next turn goes to the one furthest below its share of the
//! time used so far. The turns have two phases: a [`Head`] with its own
//! shares and slices, until search 0 has used a given time, then the
//! shares of [`Turns::new`]. A search notices that its slice is over where it polls
//! its stop condition ([`super::Stop::reason`], at every explored state),
//! so the searches themselves need no change: a search waiting for its turn
//! is blocked in that poll and uses no CPU time.
//!
//! Slices and shares are measured in the holder's CPU time
//! ([`zeno_base::clock`]), not in wall time: on a loaded machine a holder
//! that the operating system does not run keeps its turn, so which search
//! decides (and so the trace reported) does not depend on the load. The
//! poll reads the cheap wall clock; only when that says the slice is over
//! does it read the thread's CPU clock (never ahead of the wall clock), and
//! extends the slice by what the holder did not run.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use zeno_base::clock::thread_cpu_time;

/// How long a search holds the turn before the shares are consulted again:
/// long against a hand-over (a lock, a wake-up: microseconds), short against
/// a check a user waits for.
const SLICE: Duration = Duration::from_millis(10);

/// The first phase of the turns: `first` holds the first turn, for
/// `first_slice`, and until
/// search 0 has used `until` of CPU time (or has finished), and as long as
/// another search with a share in it is below that share of search 0's
/// time, the turns go by `shares`, each search's slices lasting `slice`
/// times its share (so that the turns pass once per round). Search 0 has a
/// share; a search with a share of 0 waits for the second phase (unless no
/// search with a share is left).
#[derive(Clone, Debug)]
pub(crate) struct Head {
    pub first: usize,
    pub first_slice: Duration,
    pub until: Duration,
    pub shares: Vec<u32>,
    pub slice: Duration,
}

impl Head {
    /// Search 0 alone for `d` (of `n` searches).
    #[cfg(test)]
    fn alone(d: Duration, n: usize) -> Head {
        let mut shares = vec![0; n];
        shares[0] = 1;
        Head {
            first: 0,
            first_slice: d.max(SLICE),
            until: d,
            shares,
            slice: d.max(SLICE),
        }
    }
}

/// The holder once a held result ends the turns.
const NOBODY: usize = usize::MAX;

/// The turn and the time each search has used.
pub(crate) struct Turns {
    state: Mutex<Ledger>,
    head: Head,
    changed: Condvar,
    epoch: Instant,
    /// The search holding the turn and when its slice ends (nanoseconds
    /// since `epoch`), read without the lock at every poll.
    holder: AtomicUsize,
    slice_end: AtomicU64,
    /// Set once the race is decided: from then on nobody waits.
    released: AtomicBool,
}

struct Ledger {
    /// Time used with the turn, per search.
    used: Vec<Duration>,
    /// Each search's weight: a search gets `share / sum of shares` of the
    /// time while all run.
    shares: Vec<u32>,
    finished: Vec<bool>,
    /// When the holder's slice began (wall time: the measure where no
    /// thread CPU clock exists).
    since: Instant,
    /// The holder's thread CPU time when its slice began, set by the
    /// holder when it takes the turn; `None` for search 0's first slice,
    /// which counts the thread's whole CPU time.
    slice_cpu_start: Option<Duration>,
    /// The CPU time the current slice lasts.
    slice_len: Duration,
    /// A search holds a result until the head is over
    /// ([`Turns::hold_until_head_ends`]): then nobody gets the turn.
    holding: bool,
}

impl Turns {
    /// Searches with these shares after the `head` phase; `head.first`
    /// holds the first turn (of the head's slice, or of a plain slice where
    /// the head lasts no time), its slice counting its thread's whole CPU
    /// time (so it should run on a thread of its own, started for it). Time
    /// used in the head counts against the shares.
    pub(crate) fn new(shares: &[u32], head: Head) -> Turns {
        let epoch = Instant::now();
        let head_first = head.first;
        let first = if head.until.is_zero() {
            SLICE
        } else {
            head.first_slice
        };
        Turns {
            state: Mutex::new(Ledger {
                used: vec![Duration::ZERO; shares.len()],
                shares: shares.to_vec(),
                finished: vec![false; shares.len()],
                since: epoch,
                slice_cpu_start: None,
                slice_len: first,
                holding: false,
            }),
            head,
            changed: Condvar::new(),
            epoch,
            holder: AtomicUsize::new(head_first),
            slice_end: AtomicU64::new(nanos(first)),
            released: AtomicBool::new(false),
        }
    }

    /// The gate search `me` polls.
    pub(crate) fn gate(&self, me: usize) -> Gate<'_> {
        Gate { turns: self, me }
    }

    /// Ends the turns: every search runs freely from now on (the race is
    /// decided or cancelled, and the others only have to notice it).
    pub(crate) fn release(&self) {
        let _ledger = self.lock();
        self.released.store(true, Ordering::Release);
        self.changed.notify_all();
    }

    /// Search `me` is done: it takes no more turns, and hands on the turn
    /// if it held it.
    pub(crate) fn finish(&self, me: usize) {
        let mut ledger = self.lock();
        self.finish_locked(&mut ledger, me);
    }

    fn finish_locked(&self, ledger: &mut Ledger, me: usize) {
        ledger.finished[me] = true;
        if self.holder.load(Ordering::Acquire) == me {
            self.hand_on(ledger, me);
        }
        // Search 0's end ends the head, which a holder may wait for.
        self.changed.notify_all();
    }

    /// Search `me` is done, with a result that must wait for the head:
    /// search 0 alone takes the turns until it has used the head's time
    /// (or finished, or the turns were released); then nobody gets the
    /// turn, and this returns.
    pub(crate) fn hold_until_head_ends(&self, me: usize) {
        let mut ledger = self.lock();
        ledger.holding = true;
        self.finish_locked(&mut ledger, me);
        while !self.released.load(Ordering::Acquire) && self.in_head(&ledger) {
            ledger = self.changed.wait(ledger).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Whether the head phase lasts. While a result is held only search 0
    /// runs, so the others' shares no longer keep the head going.
    fn in_head(&self, ledger: &Ledger) -> bool {
        let share = |i: usize| ledger.used[i].as_secs_f64() / f64::from(self.head.shares[i]);
        let behind = (1..ledger.used.len())
            .any(|i| !ledger.finished[i] && self.head.shares[i] > 0 && share(i) < share(0));
        !ledger.finished[0] && (ledger.used[0] < self.head.until || (!ledger.holding && behind))
    }

    fn lock(&self) -> MutexGuard<'_, Ledger> {
        // A search that panicked while holding the lock left the ledger
        // consistent (every update is one assignment).
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn now(&self) -> u64 {
        nanos(self.epoch.elapsed())
    }

    /// Blocks search `me` until it holds the turn (handing the turn on
    /// first if its slice is over).
    fn wait_for_turn(&self, me: usize) {
        let mut ledger = self.lock();
        if self.holder.load(Ordering::Acquire) == me {
            self.hand_on(&mut ledger, me);
        }
        while !self.released.load(Ordering::Acquire) && self.holder.load(Ordering::Acquire) != me {
            ledger = self.changed.wait(ledger).unwrap_or_else(|e| e.into_inner());
        }
        if self.holder.load(Ordering::Acquire) == me {
            ledger.slice_cpu_start = thread_cpu_time();
        }
    }

    /// The wall clock says the slice of holder `me` is over; whether its
    /// CPU time says so too. If not (the thread was not run for a while),
    /// the slice is extended by the CPU time it still has.
    fn slice_lasts(&self, me: usize) -> bool {
        let Some(cpu) = thread_cpu_time() else {
            return false;
        };
        let ledger = self.lock();
        if self.released.load(Ordering::Acquire) || self.holder.load(Ordering::Acquire) != me {
            return false;
        }
        let spent = cpu.saturating_sub(ledger.slice_cpu_start.unwrap_or_default());
        if spent >= ledger.slice_len {
            return false;
        }
        self.slice_end.store(
            self.now() + nanos(ledger.slice_len - spent),
            Ordering::Release,
        );
        true
    }

    /// Charges the holder `me` for its slice and gives the next one to the
    /// unfinished search furthest below its share (`me` again if that is
    /// still `me`).
    fn hand_on(&self, ledger: &mut Ledger, me: usize) {
        let now = Instant::now();
        // Called on the holder's own thread (its poll, or its `finish`).
        let spent = match thread_cpu_time() {
            Some(cpu) => cpu.saturating_sub(ledger.slice_cpu_start.unwrap_or_default()),
            None => now.saturating_duration_since(ledger.since),
        };
        ledger.used[me] += spent;
        let in_head = self.in_head(ledger);
        if ledger.holding && !in_head {
            // A result waited for the head's end: the turns are over.
            self.holder.store(NOBODY, Ordering::Release);
            self.changed.notify_all();
            return;
        }
        // Between searches equally far below their shares (at the start:
        // none has used any time), the larger share goes first.
        let furthest_below = |shares: &[u32]| {
            (0..ledger.used.len())
                .filter(|&i| !ledger.finished[i] && shares[i] > 0)
                .min_by(|&a, &b| {
                    let share = |i: usize| ledger.used[i].as_secs_f64() / f64::from(shares[i]);
                    share(a)
                        .total_cmp(&share(b))
                        .then(shares[b].cmp(&shares[a]))
                })
        };
        // While a result is held, the head goes on for search 0 alone: it
        // still decides if it finds a result in its head, and the others'
        // work would be spent on a check already answered.
        let head_next = || {
            if ledger.holding {
                Some(0)
            } else {
                furthest_below(&self.head.shares)
            }
        };
        let (next, slice) = match in_head.then(head_next) {
            Some(Some(next)) => (next, self.head.slice * self.head.shares[next]),
            // After the head, or nobody with a share in it is left.
            _ => match furthest_below(&ledger.shares) {
                Some(next) => (next, SLICE),
                None => return,
            },
        };
        ledger.since = now;
        ledger.slice_cpu_start = None;
        ledger.slice_len = slice;
        self.slice_end
            .store(self.now() + nanos(slice), Ordering::Release);
        self.holder.store(next, Ordering::Release);
        if next != me {
            self.changed.notify_all();
        }
    }

    /// The time each search has used with the turn so far.
    #[cfg(test)]
    fn used(&self) -> Vec<Duration> {
        self.lock().used.clone()
    }
}

fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

/// What one search polls: returns at once while it holds the turn and its
/// slice lasts (an atomic load and a clock read), else waits for its turn.
#[derive(Clone, Copy)]
pub(crate) struct Gate<'a> {
    turns: &'a Turns,
    me: usize,
}

impl Gate<'_> {
    pub(crate) fn poll(&self) {
        let t = self.turns;
        if t.released.load(Ordering::Acquire)
            || (t.holder.load(Ordering::Acquire) == self.me
                && t.now() < t.slice_end.load(Ordering::Acquire))
        {
            return;
        }
        if t.holder.load(Ordering::Acquire) == self.me && t.slice_lasts(self.me) {
            return;
        }
        t.wait_for_turn(self.me);
    }
}

impl std::fmt::Debug for Gate<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Gate({})", self.me)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Busy work of `d` with the gate polled all along.
    fn work(gate: Gate, d: Duration) {
        let start = Instant::now();
        while start.elapsed() < d {
            gate.poll();
        }
    }

    /// Work of `d` CPU time (wall time where no thread clock exists).
    fn spin_cpu(d: Duration) {
        let wall = Instant::now();
        let cpu = thread_cpu_time();
        loop {
            let spent = match (cpu, thread_cpu_time()) {
                (Some(a), Some(b)) => b.saturating_sub(a),
                _ => wall.elapsed(),
            };
            if spent >= d {
                return;
            }
        }
    }

    /// A holder that was not run (here: asleep) past its slice's end in
    /// wall time keeps the turn until it has used its slice's CPU time, so
    /// a loaded machine does not change which search runs when.
    #[test]
    #[cfg(unix)]
    fn a_holder_that_did_not_run_keeps_its_turn() {
        let turns = Turns::new(&[1, 1], Head::alone(Duration::from_millis(30), 2));
        let other_ran = AtomicBool::new(false);
        std::thread::scope(|s| {
            s.spawn(|| {
                turns.gate(1).poll();
                other_ran.store(true, Ordering::SeqCst);
                turns.finish(1);
            });
            let gate0 = turns.gate(0);
            gate0.poll();
            std::thread::sleep(Duration::from_millis(60));
            gate0.poll();
            assert!(
                !other_ran.load(Ordering::SeqCst),
                "the turn went on after a sleep"
            );
            // Once it has used its CPU time, the turn goes on.
            spin_cpu(Duration::from_millis(35));
            gate0.poll();
            turns.finish(0);
        });
        assert!(other_ran.load(Ordering::SeqCst));
    }

    /// Two searches with shares 1 and 3, each polling until it has worked
    /// a while: one runs at a time, and the time they used splits as the
    /// shares say (within a slice or two: each finishes at its own pace).
    #[test]
    fn searches_take_turns_by_their_shares() {
        let turns = Turns::new(&[1, 3], Head::alone(Duration::ZERO, 2));
        let running = AtomicUsize::new(0);
        let most = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for me in 0..2 {
                let (turns, running, most) = (&turns, &running, &most);
                s.spawn(move || {
                    let gate = turns.gate(me);
                    gate.poll();
                    for _ in 0..20 {
                        let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        spin_cpu(Duration::from_millis(2));
                        running.fetch_sub(1, Ordering::SeqCst);
                        gate.poll();
                    }
                    turns.finish(me);
                });
            }
        });
        assert_eq!(most.load(Ordering::SeqCst), 1, "two searches ran at once");
        let used = turns.used();
        // 40 ms of work each: while both run, search 1 gets three slices for
        // one of search 0, so search 0 cannot be done first.
        assert!(used[0] >= Duration::from_millis(35), "{used:?}");
        assert!(used[1] >= Duration::from_millis(35), "{used:?}");
    }

    /// A head of 10 ms of search 0's time, in 1 ms slices times `shares`.
    fn ten_ms_head(first: usize, shares: Vec<u32>) -> Head {
        Head {
            first,
            first_slice: Duration::from_millis(shares[first].into()),
            until: Duration::from_millis(10),
            shares,
            slice: Duration::from_millis(1),
        }
    }

    /// The first holder keeps the turn for its first slice (here 6 ms,
    /// six times its slices in the head), and then the turn goes to the
    /// search with the larger share, search 2 (8 ms), before search 0,
    /// though neither has used any time: the order of the first turns is
    /// 1, 2, 0.
    #[test]
    fn the_first_slice_and_then_the_larger_share() {
        let turns = Turns::new(
            &[1, 1, 1],
            Head {
                first: 1,
                first_slice: Duration::from_millis(6),
                ..ten_ms_head(1, vec![1, 1, 8])
            },
        );
        let first_turns = Mutex::new(Vec::new());
        std::thread::scope(|s| {
            for me in 0..3 {
                let (turns, first_turns) = (&turns, &first_turns);
                s.spawn(move || {
                    let gate = turns.gate(me);
                    gate.poll();
                    first_turns.lock().unwrap().push((me, turns.used()));
                    for _ in 0..50 {
                        spin_cpu(Duration::from_micros(200));
                        gate.poll();
                    }
                    turns.finish(me);
                });
            }
        });
        let first_turns = first_turns.into_inner().unwrap();
        let order: Vec<usize> = first_turns.iter().map(|(me, _)| *me).collect();
        assert_eq!(order, [1, 2, 0], "{first_turns:?}");
        // Search 1 had its whole first slice before search 2's first turn.
        let at_2 = &first_turns[1].1;
        assert!(at_2[1] >= Duration::from_millis(6), "{first_turns:?}");
    }

    /// The head phase: search 1 (share 0 in the head) waits until search 0
    /// has used the head's time, while search 2 gets four times search 0's
    /// time meanwhile; then search 1 takes its turns.
    #[test]
    fn the_head_phase_has_its_own_shares() {
        let turns = Turns::new(&[1, 1, 1], ten_ms_head(0, vec![1, 0, 4]));
        let at_first_turn_of_1 = Mutex::new(None);
        std::thread::scope(|s| {
            for me in 0..3 {
                let (turns, seen) = (&turns, &at_first_turn_of_1);
                s.spawn(move || {
                    let gate = turns.gate(me);
                    gate.poll();
                    if me == 1 {
                        *seen.lock().unwrap() = Some(turns.used());
                    }
                    let chunks = if me == 1 { 5 } else { 250 };
                    for _ in 0..chunks {
                        spin_cpu(Duration::from_micros(200));
                        gate.poll();
                    }
                    turns.finish(me);
                });
            }
        });
        let used = at_first_turn_of_1.lock().unwrap().clone().unwrap();
        assert!(used[0] >= Duration::from_millis(10), "{used:?}");
        // Search 2 caught up with four times search 0's time before each of
        // search 0's slices (of 1 ms, overrun by at most a chunk).
        assert!(
            used[2] >= (used[0] - Duration::from_millis(2)) * 4,
            "{used:?}"
        );
        assert!(
            used[2] <= (used[0] + Duration::from_millis(2)) * 4,
            "{used:?}"
        );
    }

    /// A result held in the head: its search waits until search 0 has used
    /// the head's time; search 1 (no share in the head) never runs, and
    /// then nobody holds the turn. (With a share in the head it would not
    /// run either once the result is held: `a_held_result_stops_the_others`.)
    #[test]
    fn a_held_result_waits_for_the_head_and_ends_the_turns() {
        let turns = Turns::new(&[1, 1, 1], ten_ms_head(0, vec![1, 0, 4]));
        let ran = [AtomicBool::new(false), AtomicBool::new(false)];
        let used_when_released = Mutex::new(None);
        std::thread::scope(|s| {
            for me in 0..2 {
                let (turns, ran) = (&turns, &ran);
                s.spawn(move || {
                    let gate = turns.gate(me);
                    gate.poll();
                    ran[me].store(true, Ordering::SeqCst);
                    // Works until the turns are released.
                    while !turns.released.load(Ordering::SeqCst) {
                        spin_cpu(Duration::from_micros(200));
                        gate.poll();
                    }
                    turns.finish(me);
                });
            }
            let gate = turns.gate(2);
            gate.poll();
            spin_cpu(Duration::from_millis(2));
            turns.hold_until_head_ends(2);
            *used_when_released.lock().unwrap() =
                Some((turns.used(), ran[1].load(Ordering::SeqCst)));
            assert_eq!(turns.holder.load(Ordering::SeqCst), NOBODY);
            turns.release();
        });
        let (used, ran1) = used_when_released.lock().unwrap().clone().unwrap();
        assert!(used[0] >= Duration::from_millis(10), "{used:?}");
        assert!(ran[0].load(Ordering::SeqCst));
        assert!(!ran1, "search 1 ran before the held result was released");
    }

    /// Searches 1 and 2 have shares in the head; 2 holds a result after
    /// its first slice: from then on search 0 alone takes the turns until
    /// it has used the head's time, though search 1 is far below its
    /// share, and search 1 does no work meanwhile.
    #[test]
    fn a_held_result_stops_the_others() {
        let turns = Turns::new(&[1, 1, 1], ten_ms_head(2, vec![1, 1, 4]));
        let polls_of_1_while_held = AtomicU64::new(0);
        let holding = AtomicBool::new(false);
        let seen = Mutex::new(None);
        std::thread::scope(|s| {
            for me in 0..2 {
                let (turns, polls, holding) = (&turns, &polls_of_1_while_held, &holding);
                s.spawn(move || {
                    let gate = turns.gate(me);
                    gate.poll();
                    while !turns.released.load(Ordering::SeqCst) {
                        spin_cpu(Duration::from_micros(200));
                        if me == 1 && holding.load(Ordering::SeqCst) {
                            polls.fetch_add(1, Ordering::SeqCst);
                        }
                        gate.poll();
                    }
                    turns.finish(me);
                });
            }
            let gate = turns.gate(2);
            gate.poll();
            spin_cpu(Duration::from_millis(4));
            // Search 2's slice (4 ms) is over: this poll hands the turn to
            // 0 and 1 and returns at 2's next turn, where it holds a result.
            gate.poll();
            holding.store(true, Ordering::SeqCst);
            let used_before = turns.used();
            turns.hold_until_head_ends(2);
            *seen.lock().unwrap() = Some((used_before, turns.used()));
            assert_eq!(turns.holder.load(Ordering::SeqCst), NOBODY);
            turns.release();
        });
        let (before, after) = seen.lock().unwrap().clone().unwrap();
        assert!(after[0] >= Duration::from_millis(10), "{after:?}");
        // Search 1 may finish the slice it held when 2 began to hold (one
        // slice, 1 ms), no more.
        assert!(
            after[1] <= before[1] + Duration::from_millis(3),
            "{before:?} {after:?}"
        );
        assert!(polls_of_1_while_held.load(Ordering::SeqCst) <= 15);
    }

    /// The head start goes to search 0; after `release` nobody waits.
    #[test]
    fn the_first_search_starts_and_release_frees_all() {
        let turns = Turns::new(&[1, 1], Head::alone(Duration::from_millis(50), 2));
        let gate0 = turns.gate(0);
        work(gate0, Duration::from_millis(20));
        // Less CPU time than the head start: search 0 still holds the turn
        // (also where the machine's load stretched the 20 ms of wall time
        // past the head start's 50: then the turn went on, to a search that
        // never polls, and this test hung).
        assert_eq!(turns.holder.load(Ordering::Acquire), 0);
        turns.release();
        // Search 1 never held the turn, and does not wait for it.
        work(turns.gate(1), Duration::from_millis(1));
        work(gate0, Duration::from_millis(1));
    }

    /// A finished search hands the turn on at once.
    #[test]
    fn finishing_hands_on_the_turn() {
        let turns = Turns::new(&[1, 1], Head::alone(Duration::from_secs(3600), 2));
        std::thread::scope(|s| {
            s.spawn(|| work(turns.gate(1), Duration::from_millis(5)));
            std::thread::sleep(Duration::from_millis(5));
            turns.finish(0);
        });
    }
}
