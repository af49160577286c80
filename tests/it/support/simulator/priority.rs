//! Priorities, decided on the concrete state: a transition may fire only if
//! no transition of a higher priority could fire from the same valuation.
//! The candidates are enumerated here, on their own (every internal edge,
//! every sender with every receiver, every broadcast with each choice of
//! receiving edges, every vector combination), and each is tried with the
//! plain firing rule, whose success means enabled (guards, the committed
//! rule, the invariants on arrival); one whose updates fail is enabled too.

use super::*;

impl Sim<'_> {
    /// Takes `tr` in `s` (already delayed), after checking that no enabled
    /// transition has a higher priority.
    pub(super) fn fire(
        &self,
        s: &ConcreteState,
        tr: &Transition,
    ) -> Result<Result<ConcreteState, EvalError>, String> {
        let result = self.fire_unprioritised(s, tr)?;
        if self.net.priorities.is_empty() {
            return Ok(result);
        }
        let mine = self.priority(s, &tr.edges)?;
        for other in self.candidates(s)? {
            let t = Transition {
                edges: other.clone(),
            };
            if self.fire_unprioritised(s, &t).is_err() {
                continue; // not enabled
            }
            let theirs = self.priority(s, &other)?;
            if theirs > mine {
                return Err(format!(
                    "the transition (priority {mine:?}) is blocked by {other:?} (priority {theirs:?}), enabled at clocks {:?}",
                    s.clocks
                ));
            }
        }
        Ok(result)
    }

    /// (channel level, highest process level), the channel's compared first.
    fn priority(&self, s: &ConcreteState, edges: &[(ProcId, u32)]) -> Result<(u32, u32), String> {
        let pr = &self.net.priorities;
        let &(p, e) = edges.first().ok_or("a transition without edges")?;
        let first = &self.net.processes[p as usize].edges[e as usize];
        let channel_level = match &first.sync {
            Some(sync) if sync.dir == SyncDir::Send => {
                let c = channel(&sync.channel, &s.variables)?;
                pr.channel
                    .get(c as usize)
                    .copied()
                    .unwrap_or(pr.default_channel)
            }
            _ => pr.default_channel,
        };
        let mut process_level = 0;
        for &(q, _) in edges {
            process_level = process_level.max(pr.process.get(q as usize).copied().unwrap_or(0));
        }
        Ok((channel_level, process_level))
    }

    /// Every transition the network's structure allows in `s` whose guards
    /// hold (enabledness otherwise is left to the firing rule).
    fn candidates(&self, s: &ConcreteState) -> Result<Vec<Vec<(ProcId, u32)>>, String> {
        let net = self.net;
        let mut out = self.vector_combinations(s)?;
        let here = |p: usize| {
            net.processes[p]
                .edges
                .iter()
                .enumerate()
                .filter(move |(_, e)| e.source == s.locations[p])
        };
        for p in 0..net.processes.len() {
            for (ei, e) in here(p) {
                if !self.edge_enabled(p as ProcId, e, s)? {
                    continue;
                }
                let Some(sync) = &e.sync else {
                    if !e
                        .label
                        .as_deref()
                        .is_some_and(|l| self.labelled(p as ProcId, l))
                    {
                        out.push(vec![(p as ProcId, ei as u32)]);
                    }
                    continue;
                };
                if sync.dir != SyncDir::Send {
                    continue;
                }
                let c = channel(&sync.channel, &s.variables)?;
                // Per other process, its enabled edges receiving on `c`.
                let mut receivers: Vec<Vec<(ProcId, u32)>> = Vec::new();
                for r in (0..net.processes.len()).filter(|&r| r != p) {
                    let mut mine = Vec::new();
                    for (fi, f) in here(r) {
                        let on_c = f.sync.as_ref().is_some_and(|x| {
                            x.dir == SyncDir::Receive
                                && channel(&x.channel, &s.variables).ok() == Some(c)
                        });
                        if on_c && self.edge_enabled(r as ProcId, f, s)? {
                            mine.push((r as ProcId, fi as u32));
                        }
                    }
                    if !mine.is_empty() {
                        receivers.push(mine);
                    }
                }
                let sender = (p as ProcId, ei as u32);
                match net.channels[c as usize].kind {
                    ChannelKind::Binary => {
                        for r in receivers.iter().flatten() {
                            out.push(vec![sender, *r]);
                        }
                    }
                    ChannelKind::Broadcast => {
                        // One receiving edge from every process that has one.
                        let mut combos = vec![vec![sender]];
                        for options in &receivers {
                            combos = combos
                                .into_iter()
                                .flat_map(|c| {
                                    options.iter().map(move |&o| {
                                        let mut c = c.clone();
                                        c.push(o);
                                        c
                                    })
                                })
                                .collect();
                        }
                        out.extend(combos);
                    }
                }
            }
        }
        Ok(out)
    }
}
