//! zeno's breadth-first search across worker threads, processes and hosts
//! on timely-dataflow (docs/checker.md, "Across machines").
//!
//! The search itself is the checker's (`zeno_checker::distributed`,
//! written against an abstract all-to-all exchange); this crate gives it
//! the transport: a [`Cluster`] of timely workers, started once, that
//! decides checks one after another. Only this crate depends on timely.
//!
//! A run fails rather than hangs: connecting has a deadline
//! ([`connect::sockets`]), and a peer that dies (its connection ends) or a
//! worker that panics is noticed by the thread that waits for the result,
//! which then answers [`ClusterError::Peer`].

pub mod connect;
pub mod hosts;
mod transport;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, Once};
use std::time::{Duration, Instant};

use timely_communication::allocator::{AllocatorBuilder, ProcessBuilder};
use timely_communication::initialize::WorkerGuards;
use zeno_checker::distributed::{self, LevelTraffic, Mismatch};
use zeno_checker::{Cancel, CheckResult, Options, Stats};
use zeno_ir::{CheckId, Network};

/// Where the workers run.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Worker threads in this process (at least 1).
    pub workers: usize,
    /// With `--hosts`: every process's address and this one's index.
    pub hosts: Option<Hosts>,
}

/// The processes of a multi-process run.
#[derive(Debug, Clone)]
pub struct Hosts {
    /// `host:port` of each process, in order.
    pub addresses: Vec<String>,
    /// This process's index in `addresses`.
    pub process: usize,
    /// How long to wait for the other processes to connect.
    pub connect_timeout: Duration,
}

/// Why a run ended without a result.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ClusterError {
    /// A process never connected, or the workers could not start or end.
    #[error("{0}")]
    Peer(String),
    /// A process was lost (or a worker failed) during a check: why, and
    /// on the process of worker 0 the figures the workers had agreed on
    /// at the last superstep (the stores' are not known).
    #[error("{why}")]
    Lost {
        why: String,
        stats: Option<Box<Stats>>,
    },
    /// The processes do not run the same search.
    #[error("{0}")]
    Mismatch(#[from] Mismatch),
}

/// A check for the workers.
struct Job {
    net: Arc<Network>,
    check: CheckId,
    options: Options,
    cancel: Cancel,
    fingerprint: u64,
}

/// A check's result with the traffic of each of its levels.
pub type Decided = (CheckResult, Vec<LevelTraffic>);

/// What a local worker answers a job with.
type Answer = Result<Option<Decided>, Mismatch>;

/// Running workers of this process, connected to those of the others.
pub struct Cluster {
    jobs: Vec<Sender<Job>>,
    answers: Receiver<Answer>,
    guards: Option<WorkerGuards<()>>,
    /// Total bytes the workers of this process sent to other workers.
    sent: Arc<Mutex<u64>>,
}

/// The first failure of a timely thread in this process (a lost
/// connection panics its receiving thread), set by the panic hook.
static FAILURE: Mutex<Option<String>> = Mutex::new(None);
/// Whether [`FAILURE`] is set (read by waiting workers without a lock).
static FAILED: AtomicBool = AtomicBool::new(false);

/// How long the local workers have, after a failure, to notice it and
/// answer with their figures (each looks every `transport::WAKE`).
const LOST_GRACE: Duration = Duration::from_secs(2);

/// Installs (once) a panic hook that records the panics of timely's
/// threads as the run's failure instead of printing them; other panics go
/// to the hook there was.
fn watch_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let thread = std::thread::current();
            let name = thread.name().unwrap_or("");
            if name.starts_with("timely") {
                let what = info
                    .payload()
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| info.payload().downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "a panic".to_string());
                let mut failure = FAILURE.lock().unwrap_or_else(|e| e.into_inner());
                failure.get_or_insert(format!("{name}: {what}"));
                FAILED.store(true, Ordering::Release);
            } else {
                previous(info);
            }
        }));
    });
}

fn failure() -> Option<String> {
    FAILURE.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

fn failed() -> bool {
    FAILED.load(Ordering::Acquire)
}

impl Cluster {
    /// Starts the workers of `plan` (with hosts: connects to the other
    /// processes first, within the timeout).
    pub fn start(plan: &Plan) -> Result<Cluster, ClusterError> {
        watch_panics();
        let threads = plan.workers.max(1);
        let builders = ProcessBuilder::new_typed_vector(
            threads,
            timely_communication::Hooks::default().refill,
            None,
        );
        let (builders, others): (Vec<AllocatorBuilder>, Box<dyn std::any::Any + Send>) = match &plan
            .hosts
        {
            None => (
                builders
                    .into_iter()
                    .map(AllocatorBuilder::Process)
                    .collect(),
                Box::new(()),
            ),
            Some(h) => {
                let sockets = connect::sockets(&h.addresses, h.process, h.connect_timeout)
                    .map_err(ClusterError::Peer)?;
                let (tcp, guard) =
                        timely_communication::allocator::zero_copy::initialize::initialize_networking_from_sockets(
                            builders,
                            sockets,
                            h.process,
                            threads,
                            timely_communication::Hooks::default(),
                        )
                        .map_err(|e| ClusterError::Peer(format!("starting the network: {e}")))?;
                (
                    tcp.into_iter().map(AllocatorBuilder::Tcp).collect(),
                    Box::new(guard),
                )
            }
        };
        let (job_senders, job_receivers): (Vec<_>, Vec<_>) =
            (0..threads).map(|_| mpsc::channel::<Job>()).unzip();
        let job_receivers: Arc<Vec<Mutex<Option<Receiver<Job>>>>> = Arc::new(
            job_receivers
                .into_iter()
                .map(|r| Mutex::new(Some(r)))
                .collect(),
        );
        let (answer_sender, answers) = mpsc::channel::<Answer>();
        let answer_sender = Mutex::new(answer_sender);
        let sent = Arc::new(Mutex::new(0u64));
        let sent_by_workers = Arc::clone(&sent);
        let guards = timely::execute::execute_from(
            builders,
            others,
            timely::WorkerConfig::default(),
            move |worker| {
                let local = worker.index() % threads;
                let jobs = job_receivers[local]
                    .lock()
                    .ok()
                    .and_then(|mut r| r.take())
                    .expect("each worker takes its own job queue");
                let answers = answer_sender.lock().map(|s| s.clone());
                let mut transport = transport::Transport::new(worker);
                while let Ok(job) = jobs.recv() {
                    let answer = distributed::check(
                        &job.net,
                        job.check,
                        &job.options,
                        &job.cancel,
                        job.fingerprint,
                        &mut transport,
                    );
                    if let Ok(a) = &answers {
                        let _ = a.send(answer);
                    }
                }
                if let Ok(mut s) = sent_by_workers.lock() {
                    *s += transport.sent_bytes;
                }
                drop(transport);
                if failed() {
                    // Its rounds can never complete without the lost
                    // process, and timely keeps a worker stepping until
                    // its dataflows complete: dropping them lets the
                    // thread end, to be joined.
                    for id in worker.installed_dataflows() {
                        worker.drop_dataflow(id);
                    }
                }
            },
        )
        .map_err(|e| ClusterError::Peer(format!("starting the workers: {e}")))?;
        Ok(Cluster {
            jobs: job_senders,
            answers,
            guards: Some(guards),
            sent,
        })
    }

    /// Decides `check` of `net` on every worker: the result (with each
    /// level's traffic) on the process holding worker 0, `None` on the
    /// others. Every process must
    /// ask for the same checks in the same order (`fingerprint`, the
    /// caller's digest of the model, check and flags, is compared).
    pub fn check(
        &self,
        net: &Arc<Network>,
        check: CheckId,
        options: &Options,
        cancel: &Cancel,
        fingerprint: u64,
    ) -> Result<Option<Decided>, ClusterError> {
        for jobs in &self.jobs {
            let job = Job {
                net: Arc::clone(net),
                check,
                options: options.clone(),
                cancel: cancel.clone(),
                fingerprint,
            };
            if jobs.send(job).is_err() {
                return Err(ClusterError::Peer(
                    failure().unwrap_or_else(|| "a worker ended".to_string()),
                ));
            }
        }
        let mut result = None;
        for answered in 0..self.jobs.len() {
            let answer = loop {
                if let Some(f) = failure() {
                    return Err(self.lost(f, result, self.jobs.len() - answered));
                }
                match self.answers.recv_timeout(Duration::from_millis(50)) {
                    Ok(answer) => break answer,
                    Err(RecvTimeoutError::Timeout) => {}
                    Err(RecvTimeoutError::Disconnected) => {
                        return Err(ClusterError::Peer(
                            failure().unwrap_or_else(|| "a worker ended".to_string()),
                        ));
                    }
                }
            };
            if let Some(r) = answer? {
                result = Some(r);
            }
        }
        // The workers answer as soon as they notice a failure: it may have
        // come in with their answers.
        if let Some(f) = failure() {
            return Err(self.lost(f, result, 0));
        }
        Ok(result)
    }

    /// The error of a check during which `why` happened: with the figures
    /// of worker 0's answer (`result`, or among the `waiting` answers still
    /// to come, which the workers give once they notice the failure).
    fn lost(&self, why: String, mut result: Option<Decided>, waiting: usize) -> ClusterError {
        let deadline = Instant::now() + LOST_GRACE;
        for _ in 0..waiting {
            match self
                .answers
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            {
                Ok(Ok(Some(decided))) => result = Some(decided),
                Ok(_) => {}
                Err(_) => break,
            }
        }
        ClusterError::Lost {
            why,
            stats: result.map(|(r, _)| Box::new(r.stats)),
        }
    }

    /// Ends the workers once every process has asked for its last check,
    /// waiting at most `timeout`, or after a failure (the threads are
    /// joined then too); returns the bytes this process's workers sent to
    /// other workers.
    pub fn finish(mut self, timeout: Duration) -> Result<u64, ClusterError> {
        self.jobs.clear();
        let guards = self.guards.take();
        let (done, ended) = mpsc::channel();
        // Joining the workers then joins timely's network threads, and
        // after a lost process timely's guard panics on the thread that
        // read from it ("Recv thread panic"): named as timely's threads
        // are, this one's panic is recorded by the hook, not printed, and
        // the network threads after it in the guard's list are left to
        // end with their connections.
        let joiner = std::thread::Builder::new()
            .name("timely:join".to_string())
            .spawn(move || {
                let joined = guards.map(|g| g.join());
                let _ = done.send(joined);
            });
        if let Err(e) = joiner {
            return Err(ClusterError::Peer(format!("ending the workers: {e}")));
        }
        let waited = Instant::now();
        loop {
            match ended.recv_timeout(Duration::from_millis(50)) {
                Ok(_) => break,
                Err(RecvTimeoutError::Timeout) if waited.elapsed() < timeout => {}
                // The joining thread panicked (a failure recorded below).
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(ClusterError::Peer(failure().unwrap_or_else(|| {
                        "the other processes did not end their run".to_string()
                    })));
                }
            }
        }
        if let Some(f) = failure() {
            return Err(ClusterError::Peer(f));
        }
        Ok(self.sent.lock().map(|s| *s).unwrap_or(0))
    }
}
