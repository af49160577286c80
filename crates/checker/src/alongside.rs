//! The default search ([`Options::take_turns`]): the configured best-first
//! search takes turns on one core with breadth-first search and random
//! depth-first restarts (`restarts.rs`), and the first verdict of any of
//! them decides the check.
//!
//! Best-first search finds a reachable goal after few states where its
//! heuristic leads there, but a property that holds needs the whole zone
//! graph, which breadth-first search covers with fewer states and no
//! heuristic to compute; where the heuristic misleads, random dives with
//! restarts find long traces that neither finds soon. So random restarts
//! start with one dive of [`DIVE`] (their set-up included), and then the
//! three share the time by [`SHARES`], in slices of 12 ms for
//! breadth-first search and 0.5 ms for the others until best-first search
//! has used [`HEAD`] (the head), of 10 ms after it. When the property
//! holds, breadth-first search decides in `sum / bfs share` of its own
//! time plus the dive, so the default's cost grows with the search's own
//! work, not by a fixed start-up cost. A goal that breadth-first search or
//! random restarts find in the head waits for the head's end, and
//! meanwhile best-first search alone takes the turns (the others' work
//! would be spent on a check already answered): if best-first search finds
//! one within its head, it decides, in the states and with the trace it
//! finds alone; after the head it runs at `its share / sum` of its speed.
//! Random restarts decide by a goal (or a model error) only; a run of
//! theirs that covers the whole graph decides only where the others
//! stopped at their limits. Each search's verdict is exact, so whichever
//! decides, the verdict and its trace are what that search alone gives.

use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

use super::config::Config;
use super::turns::{Head, Turns};
use super::{Alongside, Cancel, CheckResult, Limit, Options, Stats, Stop, Task, Verdict};

/// The searches, in the order of [`SHARES`].
const NAMES: [&str; 3] = [
    "best-first search",
    "random restarts",
    "breadth-first search",
];
const BEST_FIRST: usize = 0;
const RESTARTS: usize = 1;
const BREADTH_FIRST: usize = 2;
/// Time shares: best-first search and random restarts 1 each,
/// breadth-first search 24, from the start (so a full exploration costs
/// about 26/24 ≈ 1.08× its own time, plus the dive and the cost of
/// switching between three stores; best-first search and random restarts
/// run at 1/26 of their own speed). Shares of 2 : 1 : 16 in the head cost
/// mutex N=3 (a 0.05 s exploration) 1.21× the CPU time of breadth-first
/// search alone, whole process, mean of 20 runs; these 1.14×
/// (docs/checker.md).
const SHARES: [u32; 3] = [1, 1, 24];
/// The best-first search's head: until it has used this much CPU time, a
/// goal (or model error) that another search finds waits, and best-first
/// search alone takes the turns, so that where its heuristic leads to the
/// goal within its head (the papers' families need milliseconds; the
/// arbiter tree A5 about 21 ms, set-up included), it decides in the states
/// and with the trace it finds alone.
const HEAD: Duration = Duration::from_millis(30);
/// Random restarts' first slice, before the others start: one dive (the
/// set-up of its search included), long enough for the goals of the
/// gossiping-girls models, tens of states deep (0.7 ms on G5, 2.2–2.7 ms on
/// G8), to be found before breadth-first search has explored thousands of
/// states (it went first, and explored 2,271 on G5's girl-0 goal, where
/// breadth-first search alone needs as many).
const DIVE: Duration = Duration::from_millis(3);
/// Slices in the head, times each search's share: short, so that a goal
/// best-first search finds within its head is found soon.
const HEAD_SLICE: Duration = Duration::from_micros(500);

/// Decides the `task`'s reachability check with the three searches taking
/// turns. The result is the deciding search's, with the states the others
/// explored meanwhile in [`Stats::alongside`]. Each search stops at
/// `options.max_states` on its own; the deadline is the check's.
pub(crate) fn run(task: Task, progress: &mut dyn FnMut(&Stats)) -> CheckResult {
    let started = Instant::now();
    let turns = Turns::new(
        &SHARES,
        Head {
            first: RESTARTS,
            first_slice: DIVE,
            until: HEAD,
            shares: SHARES.to_vec(),
            slice: HEAD_SLICE,
        },
    );
    let race = Cancel::new();
    let winner: Mutex<Option<usize>> = Mutex::new(None);
    let base = Options {
        take_turns: false,
        breadth_first_after: None,
        ..task.options.clone()
    };
    // Breadth-first search on the threads the caller gave the best-first
    // one (the CLI: one, unless `--threads`): time-sliced, the parallel
    // search's workers ran little at once (docs/checker.md).
    let breadth_first = Options {
        config: Config::default(),
        ..base.clone()
    };
    // A search is done: a verdict ends the race (the first one wins).
    let done = |me: usize, result: &CheckResult| {
        if !matches!(result.verdict, Verdict::Unknown(_)) {
            let mut w = winner.lock().unwrap_or_else(|e| e.into_inner());
            w.get_or_insert(me);
            race.cancel();
            turns.release();
        }
    };
    let finished = std::sync::atomic::AtomicBool::new(false);
    // What the threads need of the task (its stop condition stays here).
    let (net, check, deadline, cancel) =
        (task.net, task.check, task.stop.deadline, task.stop.cancel);
    let (found_verdict, _) = Verdict::of_reachability(&net.check(check).kind);
    let stop_at = |me: usize| Stop::taking_turns(&race, deadline, turns.gate(me));
    // A goal (or model error) that breadth-first search or random restarts
    // find in the head waits for the head's end: best-first search decides
    // if it finds one within its head, as it did when the head was its
    // start alone (turns.rs: meanwhile it alone takes the turns).
    let found =
        |r: &CheckResult| r.verdict == found_verdict || matches!(r.verdict, Verdict::ModelError(_));
    let hold_if_found = |me: usize, r: &CheckResult| {
        if found(r) {
            turns.hold_until_head_ends(me);
        }
    };
    // A search starts at its first turn, and not at all when the race was
    // decided before (so that a goal found in its first slice is reported
    // alone, as the best-first search alone reports it).
    let first_turn = |me: usize| {
        turns.gate(me).poll();
        !race.is_cancelled()
    };
    let mut results: [Option<CheckResult>; 3] = [None, None, None];
    // Random restarts hold the first turn (a dive, on their own thread);
    // breadth-first search runs on this one.
    thread::scope(|s| {
        let best = s.spawn(|| {
            let _turn = Finish(&turns, BEST_FIRST);
            let stop = stop_at(BEST_FIRST);
            let task = Task {
                net,
                check,
                options: &base,
                stop: &stop,
            };
            let r = if first_turn(BEST_FIRST) {
                super::reach_until(task, &mut |_| {})
            } else {
                not_started()
            };
            done(BEST_FIRST, &r);
            r
        });
        let restarts = s.spawn(|| {
            let _turn = Finish(&turns, RESTARTS);
            let stop = stop_at(RESTARTS);
            let task = Task {
                net,
                check,
                options: &base,
                stop: &stop,
            };
            let r = if first_turn(RESTARTS) {
                super::restarts::run(task, &mut |_| {})
            } else {
                not_started()
            };
            // Random restarts decide by a goal (or model error) only: a run
            // that covered the whole graph is left to breadth-first search,
            // which covers it in fewer states (with the figures a user
            // compares), and decides only if nobody else does (below).
            if found(&r) {
                hold_if_found(RESTARTS, &r);
                done(RESTARTS, &r);
            }
            r
        });
        // The caller's cancel flag stops the race too (woken at the end,
        // so that the race does not wait out its sleep).
        let watcher = s.spawn(|| {
            while !finished.load(std::sync::atomic::Ordering::Acquire) {
                if cancel.is_cancelled() {
                    race.cancel();
                    turns.release();
                    return;
                }
                thread::park_timeout(Duration::from_millis(20));
            }
        });
        let turn = Finish(&turns, BREADTH_FIRST);
        let stop = stop_at(BREADTH_FIRST);
        let r = if first_turn(BREADTH_FIRST) {
            super::reach_until(
                Task {
                    options: &breadth_first,
                    stop: &stop,
                    ..task
                },
                progress,
            )
        } else {
            not_started()
        };
        hold_if_found(BREADTH_FIRST, &r);
        done(BREADTH_FIRST, &r);
        drop(turn);
        results[BREADTH_FIRST] = Some(r);
        results[BEST_FIRST] = best.join().ok();
        results[RESTARTS] = restarts.join().ok();
        finished.store(true, std::sync::atomic::Ordering::Release);
        watcher.thread().unpark();
    });
    let mut winner = *winner.lock().unwrap_or_else(|e| e.into_inner());
    let exhausted = |r: &Option<CheckResult>| {
        r.as_ref()
            .is_some_and(|r| !matches!(r.verdict, Verdict::Unknown(_)))
    };
    if winner.is_none() && exhausted(&results[RESTARTS]) {
        // The others stopped at their limits; a restart covered the graph.
        winner = Some(RESTARTS);
    }
    let decided_by = winner.unwrap_or(BREADTH_FIRST);
    let explored = |i: usize| results[i].as_ref().map_or(0, |r| r.stats.explored);
    let others_explored = (0..3).filter(|&i| i != decided_by).map(explored).sum();
    // `None`: the search panicked, nothing to report but that it stopped.
    let mut result = results[decided_by].take().unwrap_or_else(not_started);
    if winner.is_none() && task.stop.cancel.is_cancelled() {
        result.verdict = Verdict::Unknown(Limit::Cancelled);
    }
    result.stats.elapsed = started.elapsed();
    result.stats.alongside = Some(Alongside {
        decided_by: NAMES[decided_by],
        others_explored,
    });
    result
}

/// The result of a search that never ran (the race was decided first).
fn not_started() -> CheckResult {
    CheckResult {
        verdict: Verdict::Unknown(Limit::Cancelled),
        stats: Stats::default(),
        trace: None,
    }
}

/// Takes a search out of the turns when it ends, also by a panic (the
/// others would wait for a turn it never hands on).
struct Finish<'t>(&'t Turns, usize);

impl Drop for Finish<'_> {
    fn drop(&mut self) {
        self.0.finish(self.1);
    }
}
