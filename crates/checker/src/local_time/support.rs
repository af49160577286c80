//! Which networks the local-time zone graph decides exactly, and how their
//! clocks and synchronisations map onto reference clocks.
//!
//! The local-time semantics lets each process run on its own clock, so a
//! process may only read what no other process changes behind its back:
//! every clock belongs to one process (the only one that reads or resets
//! it), and a variable that some process writes is read and written by that
//! process alone (TChecker's `concur19` refuses shared variables the same
//! way). Whatever else the construction below does not cover is refused
//! with the reason, and the caller searches the ordinary zone graph.

use crate::enhance::Footprints;
use crate::semantics::Model;
use zeno_ir::{ChannelKind, ClockId, Formula, Network, ProcId, SyncDir};

/// The reference clocks, offsets and synchronisation groups of a network
/// the local-time graph supports.
pub struct Layout {
    /// Processes, which are also the reference clocks `0..nproc`.
    pub nproc: usize,
    /// Dimension of a zone: reference clocks, then one offset per clock.
    pub dim: usize,
    /// `owner[c]`: the process whose reference clock clock `c` runs on
    /// (process 0 for a clock no process reads; index 0 unused).
    pub owner: Vec<usize>,
    /// Per broadcast channel: every process with an edge that may receive
    /// on it. A broadcast synchronises them all: whether a receiver takes
    /// part depends on where it is at the sender's time.
    pub broadcast_group: Vec<Vec<ProcId>>,
    /// Per synchronisation vector: its participants (weak ones included,
    /// for the same reason).
    pub vector_group: Vec<Vec<ProcId>>,
}

impl Layout {
    /// The offset variable of clock `c` (`c >= 1`).
    pub fn offset(&self, c: ClockId) -> usize {
        self.nproc + c as usize - 1
    }

    /// The zone indices `(i, j)` of an ordinary constraint `x_i - x_j`,
    /// with clock 0 read as the reference clock of the other clock's owner.
    pub fn translate(&self, i: ClockId, j: ClockId) -> (usize, usize) {
        match (i, j) {
            (0, j) => (self.owner[j as usize], self.offset(j)),
            (i, 0) => (self.offset(i), self.owner[i as usize]),
            (i, j) => (self.offset(i), self.offset(j)),
        }
    }

    /// The layout of `net` for a search of `goal`, or why the local-time
    /// graph does not decide it exactly.
    pub fn new(net: &Network, model: &Model, goal: &Formula) -> Result<Layout, String> {
        refuse_features(net, model, goal)?;
        let nproc = net.processes.len();
        if nproc == 0 {
            return Err("the network has no process".into());
        }
        let fp = Footprints::new(net);
        let nvars = fp.nvars;
        // Per slot (variables, then clocks): the processes touching it and
        // whether some process writes it.
        let mut touched: Vec<Vec<usize>> = vec![Vec::new(); nvars + fp.nclocks];
        let mut written = vec![false; nvars + fp.nclocks];
        let mut touch = |slot: u32, p: usize, write: bool, touched: &mut Vec<Vec<usize>>| {
            let s = slot as usize;
            if s < touched.len() {
                if !touched[s].contains(&p) {
                    touched[s].push(p);
                }
                written[s] |= write;
            }
        };
        for (k, &(p, _)) in fp.edges.iter().enumerate() {
            for &s in &fp.reads[k] {
                touch(s, p as usize, false, &mut touched);
            }
            for &s in &fp.writes[k] {
                touch(s, p as usize, true, &mut touched);
            }
        }
        for (p, proc_) in net.processes.iter().enumerate() {
            for loc in &proc_.locations {
                let mut reads = Vec::new();
                if let Some(d) = &loc.data_invariant {
                    crate::enhance::expr_reads(d, &mut reads);
                }
                for c in &loc.invariant {
                    crate::enhance::clock_reads(c, nvars, &mut reads);
                }
                for s in reads {
                    touch(s, p, false, &mut touched);
                }
            }
        }
        for (s, procs) in touched.iter().enumerate() {
            if s < nvars {
                if written[s] && procs.len() > 1 {
                    let names = process_names(net, procs);
                    return Err(format!(
                        "variable `{}` is shared by {names} (the local-time graph needs every \
                         variable a process writes to be that process's alone)",
                        net.variables[s].name
                    ));
                }
            } else if procs.len() > 1 {
                let names = process_names(net, procs);
                return Err(format!(
                    "clock `{}` is read or reset by {names} (the local-time graph needs every \
                     clock to belong to one process)",
                    net.clocks[s - nvars].name
                ));
            }
        }
        let mut owner = vec![0; net.clocks.len()];
        for c in 1..net.clocks.len() {
            owner[c] = touched[nvars + c].first().copied().unwrap_or(0);
        }
        let mut broadcast_group = vec![Vec::new(); net.channels.len()];
        for (p, proc_) in net.processes.iter().enumerate() {
            for e in &proc_.edges {
                let Some(s) = &e.sync else { continue };
                if s.dir != SyncDir::Receive {
                    continue;
                }
                let r = &s.channel;
                for c in r.base..r.base + r.len.max(1) {
                    if let Some(g) = broadcast_group.get_mut(c as usize)
                        && !g.contains(&(p as ProcId))
                    {
                        g.push(p as ProcId);
                    }
                }
            }
        }
        for (c, g) in broadcast_group.iter_mut().enumerate() {
            if net.channels[c].kind != ChannelKind::Broadcast {
                g.clear();
            }
        }
        let vector_group = net
            .vectors
            .iter()
            .map(|v| v.participants.iter().map(|p| p.process).collect())
            .collect();
        Ok(Layout {
            nproc,
            dim: nproc + net.clocks.len() - 1,
            owner,
            broadcast_group,
            vector_group,
        })
    }
}

fn process_names(net: &Network, procs: &[usize]) -> String {
    let names: Vec<&str> = procs
        .iter()
        .map(|&p| net.processes[p].name.as_str())
        .collect();
    names.join(" and ")
}

/// The features the construction does not cover, each refused by name.
fn refuse_features(net: &Network, model: &Model, goal: &Formula) -> Result<(), String> {
    if net.has_stopwatches() {
        return Err("stopwatches are not supported by the local-time graph".into());
    }
    if model.alu_bounds().is_none() {
        return Err("diagonal clock constraints are not supported by the local-time graph".into());
    }
    if goal.mentions_deadlock() {
        return Err("`deadlock` is not supported by the local-time graph".into());
    }
    if !net.priorities.is_empty() {
        return Err("priorities are not supported by the local-time graph".into());
    }
    if net.channels.iter().any(|c| c.urgent) {
        return Err("urgent channels are not supported by the local-time graph".into());
    }
    if net.has_clocked_broadcast_receiver() {
        return Err(
            "clock guards on broadcast receivers are not supported by the local-time graph".into(),
        );
    }
    Ok(())
}
