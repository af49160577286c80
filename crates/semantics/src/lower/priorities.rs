//! Priorities: the channel levels of a `priority` declaration and the
//! process levels of the `system` line, resolved into `ir::Priorities`.

use super::Ctx;
use super::data::Store;
use crate::hir::{self, PriorityEntry};
use crate::ty::Sym;
use zeno_base::diagnostics::Diagnostic;
use zeno_ir as ir;

impl Ctx {
    /// Lowers the channel priorities into `self.net.priorities` (the
    /// channels must be declared); `process_levels` has one level per
    /// lowered process, from the `system` line.
    pub fn priorities(
        &mut self,
        decls: &[hir::PriorityDecl],
        process_levels: Vec<u32>,
        system_span: Option<ir::Span>,
    ) {
        if process_levels.iter().any(|&l| l > 0) {
            self.net.priorities.process = process_levels;
            self.net.priorities.process_span = system_span;
        }
        let Some(decl) = decls.first() else {
            return;
        };
        for extra in &decls[1..] {
            let d = Diagnostic::error(
                extra.span,
                "a model has at most one channel priority declaration",
            )
            .with_related(decl.span, "the first one");
            self.diags.push(d);
        }
        let nchan = self.net.channels.len();
        // Each channel's level and the entry that set it.
        let mut level: Vec<Option<(u32, ir::Span)>> = vec![None; nchan];
        let mut default: Option<(u32, ir::Span)> = None;
        for (entry, l) in &decl.entries {
            match entry {
                PriorityEntry::Default(span) => {
                    if let Some((_, first)) = default {
                        let d = Diagnostic::error(*span, "`default` is listed twice")
                            .with_related(first, "first listed here");
                        self.diags.push(d);
                    } else {
                        default = Some((*l, *span));
                    }
                }
                PriorityEntry::Channel(e) => {
                    let Some(range) = self.priority_channels(e) else {
                        continue;
                    };
                    for c in range {
                        let Some(slot) = level.get_mut(c as usize) else {
                            continue;
                        };
                        if let Some((_, first)) = slot {
                            let d = Diagnostic::error(
                                e.span,
                                format!(
                                    "channel `{}` already has a priority",
                                    self.net.channels[c as usize].name
                                ),
                            )
                            .with_related(*first, "given here");
                            self.diags.push(d);
                            break;
                        }
                        *slot = Some((*l, e.span));
                    }
                }
            }
        }
        // Unlisted channels and internal transitions are at `default`'s
        // level; without `default` it is the first level, that of the
        // channels listed first (as UPPAAL's type checker numbers them).
        let default = default.map_or(0, |(l, _)| l);
        let p = &mut self.net.priorities;
        p.default_channel = default;
        p.channel = level
            .iter()
            .map(|l| l.map_or(default, |(l, _)| l))
            .collect();
        p.channel_span = Some(decl.span);
    }

    /// The channels an entry names: a channel, a whole channel array, or a
    /// part of one chosen by constant indices.
    fn priority_channels(&mut self, e: &hir::Expr) -> Option<std::ops::Range<ir::ChanId>> {
        if !matches!(
            e.kind,
            hir::ExprKind::Name(_) | hir::ExprKind::Index(..) | hir::ExprKind::Missing
        ) {
            self.error(
                e.span,
                "expected a channel, a channel array or an element of one",
            );
            return None;
        }
        // The named variable must be a channel (a clock or an integer would
        // otherwise get the messages of data expressions).
        let mut root = e;
        while let hir::ExprKind::Index(a, _) = &root.kind {
            root = a;
        }
        if let hir::ExprKind::Name(name) = &root.kind {
            match self.lookup_or_error(name, root.span)? {
                Sym::Chan { .. } => {}
                sym => {
                    self.error(
                        root.span,
                        format!("`{name}` is a {}, not a channel", sym.kind_name()),
                    );
                    return None;
                }
            }
        }
        let p = self.place(e)?;
        let Store::Chan { base, .. } = p.store else {
            self.error(e.span, "expected a channel");
            return None;
        };
        if !p.terms.is_empty() {
            self.error(
                e.span,
                "the index of a channel in a priority declaration must be a constant",
            );
            return None;
        }
        let first = base + p.offset;
        let n = p.ty.slots()?;
        Some(first..first + n)
    }
}
