//! Synchronisation vectors (`sync Bus.cd, Station(1).cd?;`): resolving the
//! participants against the lowered processes and the rules that keep a
//! vector meaningful.

use rustc_hash::{FxHashMap, FxHashSet};

use super::Ctx;
use crate::hir;
use zeno_base::diagnostics::Diagnostic;
use zeno_ir as ir;

impl Ctx {
    /// Lowers the vectors into `self.net.vectors`; the processes must be
    /// lowered already.
    pub fn vectors(&mut self, decls: &[hir::VectorDecl]) {
        for decl in decls {
            let mut participants: Vec<ir::Participant> = Vec::new();
            let mut first_at: FxHashMap<ir::ProcId, ir::Span> = FxHashMap::default();
            let mut ok = true;
            for p in &decl.participants {
                let Some(pid) = self.resolve_process(&p.process) else {
                    ok = false;
                    continue;
                };
                let pid = pid as ir::ProcId;
                if let Some(first) = first_at.get(&pid) {
                    let name = &self.net.processes[pid as usize].name;
                    let d = Diagnostic::error(
                        p.span,
                        format!("`{name}` takes part twice in this synchronisation vector"),
                    )
                    .with_related(*first, "first here");
                    self.diags.push(d);
                    ok = false;
                    continue;
                }
                first_at.insert(pid, p.span);
                if !self.label_checks(pid, p) {
                    ok = false;
                    continue;
                }
                participants.push(ir::Participant {
                    process: pid,
                    label: p.label.text.clone(),
                    weak: p.weak,
                    span: p.span,
                });
            }
            if !decl.participants.is_empty() && decl.participants.iter().all(|p| p.weak) {
                self.diags.push(Diagnostic::error(
                    decl.span,
                    "a synchronisation vector needs a participant without `?` \
                     (one that must take part)",
                ));
                ok = false;
            }
            if ok && !participants.is_empty() {
                self.net.vectors.push(ir::SyncVector {
                    participants,
                    span: decl.span,
                });
            }
        }
        self.unsynchronised_labels();
    }

    /// The label must be carried by some edge of the process, and a weak
    /// participant's edges cannot have clock guards (whether it takes part
    /// would then depend on the clocks, as for broadcast receivers).
    fn label_checks(&mut self, pid: ir::ProcId, p: &hir::ParticipantDecl) -> bool {
        let proc_ = &self.net.processes[pid as usize];
        let labelled: Vec<&ir::Edge> = proc_
            .edges
            .iter()
            .filter(|e| e.label.as_deref() == Some(p.label.text.as_str()))
            .collect();
        if labelled.is_empty() {
            // Legal, as in TChecker: a strong participant without the label
            // keeps the vector from ever firing (and the others' edges
            // labelled so from moving alone); a weak one never takes part.
            let effect = if p.weak {
                format!("`{}` never takes part in this vector", proc_.name)
            } else {
                "this vector never fires".to_string()
            };
            let msg = format!(
                "process `{}` has no edge labelled `{}` (`sync {}` on an edge): {effect}",
                proc_.name, p.label.text, p.label.text
            );
            self.diags.push(Diagnostic::warning(p.label.span, msg));
            return true;
        }
        if p.weak
            && let Some(e) = labelled.iter().find(|e| !e.clock_guard.is_empty())
        {
            let d = Diagnostic::error(
                e.span,
                format!(
                    "edges labelled `{}` cannot have clock guards: `{}` takes part weakly \
                     in a synchronisation vector",
                    p.label.text, proc_.name
                ),
            )
            .with_related(p.span, "weak participant here");
            self.diags.push(d);
            return false;
        }
        true
    }

    /// Warns about labelled edges that no vector names: they move alone.
    fn unsynchronised_labels(&mut self) {
        let used: FxHashSet<(&str, &str)> = self
            .net
            .vectors
            .iter()
            .flat_map(|v| &v.participants)
            .map(|p| {
                (
                    self.net.processes[p.process as usize].template.as_str(),
                    p.label.as_str(),
                )
            })
            .collect();
        let mut warned: FxHashSet<ir::Span> = FxHashSet::default();
        let mut warnings = Vec::new();
        for proc_ in &self.net.processes {
            for e in &proc_.edges {
                let Some(label) = &e.label else { continue };
                if !used.contains(&(proc_.template.as_str(), label.as_str()))
                    && warned.insert(e.span)
                {
                    warnings.push(Diagnostic::warning(
                        e.span,
                        format!(
                            "label `{label}` is in no synchronisation vector: \
                             the edge moves on its own"
                        ),
                    ));
                }
            }
        }
        self.diags.extend(warnings);
    }
}
