//! `zeno check --workers W` and `--hosts FILE --process I`: the checks
//! decided by the distributed breadth-first search (crates/distributed),
//! on worker threads of this process and, with `--hosts`, of the other
//! processes, which run the same command.

use std::hash::{Hash, Hasher};
use std::sync::Arc;
use std::time::Duration;

use zeno::checker::{self, Cancel, CheckResult, Limit, Options, SearchOrder, Stats, Verdict};
use zeno::distributed::{Cluster, ClusterError, Hosts, Plan, hosts};
use zeno::ir::{CheckId, Network};

use super::args::CheckArgs;
use super::check::{FlagError, seconds};
use super::diag;

/// The distributed run `args` ask for (`None`: none), or why the flags
/// do not make one.
pub fn plan(args: &CheckArgs) -> Result<Option<Plan>, String> {
    if args.workers.is_none() && args.hosts.is_none() {
        if args.traffic.is_some() {
            return Err("--traffic is written by --workers or --hosts only".to_string());
        }
        return Ok(None);
    }
    let workers = match args.workers {
        Some(0) => return Err(FlagError::Zero("workers").to_string()),
        Some(w) => w,
        None => 1,
    };
    let what = if args.hosts.is_some() {
        "--hosts"
    } else {
        "--workers"
    };
    if args.portfolio || !args.portfolio_configs.is_empty() {
        return Err(format!("{what} cannot be combined with a portfolio"));
    }
    if args.search.threads.is_some() {
        return Err(format!(
            "{what} cannot be combined with --threads (the workers are the threads)"
        ));
    }
    if args.search.search.is_some_and(|s| s != SearchOrder::Bfs)
        || args.search.enhance.iter().any(|e| e != "none")
    {
        return Err(format!(
            "{what} searches breadth-first only (`--search bfs`, no --enhance)"
        ));
    }
    let hosts = match (&args.hosts, args.process) {
        (Some(path), Some(process)) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read --hosts {}: {e}", path.display()))?;
            let addresses = hosts::parse(&text)
                .map_err(|e| format!("{}:{}: {}", path.display(), e.line, e.message))?;
            if process >= addresses.len() {
                return Err(format!(
                    "--process {process}: {} lists {} processes (0 to {})",
                    path.display(),
                    addresses.len(),
                    addresses.len() - 1
                ));
            }
            for a in &addresses {
                hosts::resolves(a).map_err(|e| format!("{}: {e}", path.display()))?;
            }
            let connect_timeout =
                seconds("connect-timeout", args.connect_timeout).map_err(|e| e.to_string())?;
            Some(Hosts {
                addresses,
                process,
                connect_timeout,
            })
        }
        _ => None,
    };
    Ok(Some(Plan { workers, hosts }))
}

/// The options of a distributed search: `options` as breadth-first search
/// with nothing alongside (the flags were checked by [`plan`]).
pub fn options(options: Options) -> Options {
    Options {
        config: checker::config::Config::default(),
        threads: 1,
        fallback_threads: 1,
        take_turns: false,
        breadth_first_after: None,
        ..options
    }
}

/// What the distributed search answered for a check.
pub enum Decided {
    /// The result (on process 0).
    Result(Box<CheckResult>),
    /// Decided, and reported by process 0.
    Elsewhere,
    /// The run lost a peer (this process reports no result; the error is
    /// printed).
    Lost,
    /// Not a check the distributed search decides: a usage error.
    Refused(String),
}

/// The workers, started at the first check and kept for the others.
pub struct Runner {
    plan: Plan,
    cluster: Option<Result<Cluster, ClusterError>>,
    /// The run's failure: every later check is `unknown` for it.
    lost: Option<String>,
    /// The `--traffic` table's lines so far.
    pub traffic: String,
}

impl Runner {
    pub fn new(plan: Plan) -> Runner {
        Runner {
            plan,
            cluster: None,
            lost: None,
            traffic: String::new(),
        }
    }

    /// Whether this process prints the results.
    pub fn prints(plan: Option<&Plan>) -> bool {
        plan.and_then(|p| p.hosts.as_ref())
            .is_none_or(|h| h.process == 0)
    }

    /// Decides `check` of `net`; `text` is the model's text, which every
    /// process must have alike (it is part of the fingerprint compared).
    pub fn decide(
        &mut self,
        net: &Arc<Network>,
        check: CheckId,
        options: &Options,
        cancel: &Cancel,
        text: &str,
    ) -> Decided {
        if let Some(why) = checker::distributed::refusal(net, check, options) {
            return Decided::Refused(format!("check `{}`: {why}", net.check(check).name));
        }
        if self.lost.is_some() {
            return self.unknown();
        }
        let cluster = self
            .cluster
            .get_or_insert_with(|| Cluster::start(&self.plan));
        let cluster = match cluster {
            Ok(c) => c,
            Err(e) => {
                let why = format!("distributed search: {e}");
                diag::error(&why);
                self.lost = Some(why);
                return self.unknown();
            }
        };
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (text, &net.check(check).name, format!("{options:?}")).hash(&mut h);
        match cluster.check(net, check, options, cancel, h.finish()) {
            Ok(Some((result, traffic))) => {
                let name = &net.check(check).name;
                for (level, t) in traffic.iter().enumerate() {
                    self.traffic.push_str(&format!(
                        "{name}\t{level}\t{}\t{}\t{}\t{}\n",
                        t.states, t.sent_states, t.sent_bytes, t.supersteps
                    ));
                }
                Decided::Result(Box::new(result))
            }
            Ok(None) => Decided::Elsewhere,
            Err(ClusterError::Mismatch(m)) => Decided::Refused(format!(
                "check `{}`: the processes differ: {m}",
                net.check(check).name
            )),
            Err(ClusterError::Lost { why, stats }) => {
                let why = format!("distributed search: {why}");
                diag::error(&why);
                self.lost = Some(why);
                match self.unknown() {
                    Decided::Result(mut r) => {
                        r.stats = stats.map(|s| *s).unwrap_or_default();
                        Decided::Result(r)
                    }
                    other => other,
                }
            }
            Err(e) => {
                let why = format!("distributed search: {e}");
                diag::error(&why);
                self.lost = Some(why);
                self.unknown()
            }
        }
    }

    /// `unknown` for a lost peer, on process 0; nothing elsewhere.
    fn unknown(&self) -> Decided {
        if !Runner::prints(Some(&self.plan)) {
            return Decided::Lost;
        }
        Decided::Result(Box::new(CheckResult {
            verdict: Verdict::Unknown(Limit::Peer),
            stats: Stats::default(),
            trace: None,
        }))
    }

    /// Ends the workers (after the last check of every process). After a
    /// lost peer (its error printed already) the workers have given up
    /// their rounds and are joined; the process ends after at most
    /// `LOST_JOIN` whatever the other processes do.
    pub fn finish(mut self) {
        const LOST_JOIN: Duration = Duration::from_secs(5);
        match self.cluster.take() {
            Some(Ok(cluster)) if self.lost.is_none() => {
                if let Err(e) = cluster.finish(Duration::from_secs(30)) {
                    diag::error(format!("distributed search: {e}"));
                }
            }
            Some(Ok(cluster)) => {
                let _ = cluster.finish(LOST_JOIN);
            }
            _ => {}
        }
    }
}
