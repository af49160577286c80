//! Whole-network lowering: global declarations, the `system` line with its
//! instances, and the checks.

use rustc_hash::{FxHashMap, FxHashSet};

use super::hir::{self, ExprKind, ItemTree, Quantifier};
use std::sync::Arc;

use super::lower::{Ctx, GlobalScope, MAX_TIME_SCALE, MAX_TOTAL_EXPANSION, Mode, ProcInfo};
use super::resolve::Resolutions;
use super::ty::{MAX_EXPANSION, Sym, Ty};
use zeno_base::diagnostics::{Diagnostic, Severity};
use zeno_ir as ir;
use zeno_ir::ChannelKind;

use zeno_ir::Span;

/// Lowers the whole file. `template_uses` are the global names used by the
/// templates (from their own checks), so unused warnings see every use.
pub fn lower_network(
    tree: &ItemTree,
    template_uses: &FxHashSet<String>,
) -> (ir::Network, Vec<Diagnostic>) {
    // Resolved once, though a refined time unit lowers the file twice.
    let resolved = std::cell::OnceCell::new();
    let resolve = || {
        resolved
            .get_or_init(|| Arc::new(crate::resolve::resolve_file(tree)))
            .clone()
    };
    lower_network_with(tree, template_uses, &resolve, &mut |req| {
        Arc::new(lower_instance(&req))
    })
}

/// The file's names resolved, asked for only when needed (the database
/// passes its memoised [`crate::resolve::resolutions`]).
pub type Resolver<'a> = dyn Fn() -> Arc<Resolutions> + 'a;

/// [`lower_network`] with a custom resolver and instance lowerer (the
/// database passes memoising ones).
pub fn lower_network_with(
    tree: &ItemTree,
    template_uses: &FxHashSet<String>,
    resolve: &Resolver<'_>,
    lower: &mut InstanceLowerer<'_>,
) -> (ir::Network, Vec<Diagnostic>) {
    let ctx = lower_network_in(Ctx::new(Mode::Lower), tree, template_uses, resolve, lower);
    if ctx.needed_scale == 1 || ctx.diags.iter().any(|d| d.severity == Severity::Error) {
        return (ctx.net, ctx.diags);
    }
    // A clock quotient is no integer (`2 >= 5*x`): lowered again with the
    // time unit refined by the lcm of their denominators, as UPPAAL's
    // rational bounds are in effect (docs/language.md, "Time scaling").
    let scale = ctx.needed_scale;
    let mut refined = Ctx::new(Mode::Lower);
    refined.time_scale = scale;
    let mut ctx = lower_network_in(refined, tree, template_uses, resolve, lower);
    ctx.net.time_scale = ir::TimeScale(scale as u32);
    if let Some(at) = tree
        .system_span
        .or_else(|| tree.checks.first().map(|c| c.span))
    {
        ctx.diags.push(Diagnostic::info(
            at,
            format!(
                "time unit refined by {scale}: a clock of the model is compared with a \
                 non-integer quotient, so the search counts in 1/{scale} time units \
                 (delays, clock values and bounds are shown in the model's own)"
            ),
        ));
    }
    (ctx.net, ctx.diags)
}

/// [`lower_network_with`] in a context the caller made (the agreement test
/// of `resolve` records the names it looks up), returned with the network
/// and the diagnostics in it.
pub(crate) fn lower_network_in(
    mut ctx: Ctx,
    tree: &ItemTree,
    template_uses: &FxHashSet<String>,
    resolve: &Resolver<'_>,
    lower: &mut InstanceLowerer<'_>,
) -> Ctx {
    ctx.declare(&tree.globals, "");
    let scope = Arc::new(ctx.global_scope());
    let mut sink = Sink { scope, lower };

    let mut templates: FxHashMap<&str, &hir::TemplateItem> = FxHashMap::default();
    for t in &tree.templates {
        let name = &t.data.name;
        let abs = shift(name.span, t.offset);
        if let Some(first) = templates.get(name.text.as_str()) {
            let d = Diagnostic::error(abs, format!("template `{}` is already defined", name.text))
                .with_related(
                    shift(first.data.name.span, first.offset),
                    "first defined here",
                );
            ctx.diags.push(d);
            continue;
        }
        if ctx.global_entries().iter().any(|(n, _, _)| *n == name.text) {
            ctx.diags.push(Diagnostic::error(
                abs,
                format!("`{}` is already a global name", name.text),
            ));
        }
        templates.insert(&name.text, t);
    }

    let mut instances: FxHashMap<&str, &hir::InstanceDecl> = FxHashMap::default();
    for inst in &tree.instances {
        if let Some(first) = instances.get(inst.name.text.as_str()) {
            let d = Diagnostic::error(
                inst.name.span,
                format!("instance `{}` is already defined", inst.name.text),
            )
            .with_related(first.name.span, "first defined here");
            ctx.diags.push(d);
            continue;
        }
        if !templates.contains_key(inst.template.text.as_str()) {
            ctx.diags.push(Diagnostic::error(
                inst.template.span,
                format!("unknown template `{}`", inst.template.text),
            ));
        }
        instances.insert(&inst.name.text, inst);
    }

    // The processes, in `system` order.
    let mut seen: FxHashMap<&str, Span> = FxHashMap::default();
    let mut used_templates: FxHashSet<&str> = FxHashSet::default();
    let mut used_instances: FxHashSet<&str> = FxHashSet::default();
    // The priority level of each process, from its `system` entry (the
    // processes an entry makes are added before the next entry is read).
    let mut process_levels: Vec<u32> = Vec::new();
    let mut level = 0;
    for (k, entry) in tree.system.iter().enumerate() {
        process_levels.resize(ctx.net.processes.len(), level);
        level = tree.system_levels.get(k).copied().unwrap_or(0);
        if let Some(first) = seen.get(entry.text.as_str()) {
            let d = Diagnostic::error(
                entry.span,
                format!("`{}` is already in the system", entry.text),
            )
            .with_related(*first, "first listed here");
            ctx.diags.push(d);
            continue;
        }
        seen.insert(&entry.text, entry.span);
        if let Some(inst) = instances.get(entry.text.as_str()) {
            used_instances.insert(&inst.name.text);
            let Some(t) = templates.get(inst.template.text.as_str()) else {
                continue;
            };
            used_templates.insert(&t.data.name.text);
            if !inst.params.is_empty() {
                partial(&mut ctx, &mut sink, t, inst);
            } else if let Some(bound) = bind_args(&mut ctx, t, inst) {
                let place = Placement {
                    name: &inst.name.text,
                    args: Vec::new(),
                    at: inst.span,
                    defined_by: inst.name.span,
                };
                instantiate(&mut ctx, &mut sink, t, &bound, place);
            }
        } else if let Some(t) = templates.get(entry.text.as_str()) {
            used_templates.insert(&t.data.name.text);
            expand(&mut ctx, &mut sink, t, entry);
        } else {
            ctx.diags.push(Diagnostic::error(
                entry.span,
                format!("unknown template or instance `{}`", entry.text),
            ));
        }
    }
    process_levels.resize(ctx.net.processes.len(), level);
    if tree.system.is_empty() && !tree.templates.is_empty() {
        let at = tree.templates[0].data.name.span;
        ctx.diags.push(Diagnostic::error(
            shift(at, tree.templates[0].offset),
            "the model has no `system` line",
        ));
    }
    for t in &tree.templates {
        if !used_templates.contains(t.data.name.text.as_str()) {
            ctx.diags.push(Diagnostic::warning(
                shift(t.data.name.span, t.offset),
                format!("template `{}` is never instantiated", t.data.name.text),
            ));
        }
    }
    for inst in &tree.instances {
        if !used_instances.contains(inst.name.text.as_str()) {
            ctx.diags.push(Diagnostic::warning(
                inst.name.span,
                format!("instance `{}` is not in the system", inst.name.text),
            ));
        }
    }

    // Vectors and checks name processes; the resolver says which
    // definition each name denotes.
    if !tree.vectors.is_empty() || !tree.checks.is_empty() {
        ctx.set_resolutions(resolve());
    }
    ctx.vectors(&tree.vectors);
    ctx.priorities(&tree.priorities, process_levels, tree.system_span);

    // Checks.
    let mut check_names: FxHashMap<&str, Span> = FxHashMap::default();
    for (k, c) in tree.checks.iter().enumerate() {
        if c.name.text.is_empty() {
            // Unnamed: no duplicates to report.
        } else if let Some(first) = check_names.get(c.name.text.as_str()) {
            let d = Diagnostic::error(
                c.name.span,
                format!("check `{}` is already defined", c.name.text),
            )
            .with_related(*first, "first defined here");
            ctx.diags.push(d);
        } else {
            check_names.insert(&c.name.text, c.name.span);
        }
        let phi = ctx.formula(&c.formula);
        let kind = match c.quantifier {
            Quantifier::Always => ir::CheckKind::Invariant(phi),
            Quantifier::Eventually => ir::CheckKind::Reachable(phi),
            Quantifier::Inevitably => ir::CheckKind::Inevitable(phi),
            Quantifier::Potentially => ir::CheckKind::Potentially(phi),
            Quantifier::LeadsTo => {
                let target = c
                    .target
                    .as_ref()
                    .map_or(ir::Formula::True, |q| ctx.formula(q));
                ir::CheckKind::LeadsTo(phi, target)
            }
            Quantifier::Sup | Quantifier::Inf => ir::CheckKind::Bound(ir::BoundQuery {
                extremum: if c.quantifier == Quantifier::Sup {
                    ir::Extremum::Sup
                } else {
                    ir::Extremum::Inf
                },
                pred: phi,
                terms: c.terms.iter().filter_map(|t| ctx.bound_term(t)).collect(),
            }),
        };
        ctx.net.checks.push(ir::Check {
            name: if c.name.text.is_empty() {
                format!("check{}", k + 1)
            } else {
                c.name.text.clone()
            },
            kind,
            span: c.span,
            name_span: c.name.span,
        });
    }

    let symmetry = super::symmetry::analyse(tree, resolve, &sink.scope, &ctx.procs, &mut ctx.net);
    ctx.diags.extend(symmetry);

    for (name, span, kind) in ctx.global_entries() {
        if !ctx.used_globals.contains(&name) && !template_uses.contains(&name) {
            ctx.diags.push(Diagnostic::warning(
                span,
                format!("{kind} `{name}` is never used"),
            ));
        }
    }
    ctx
}

fn shift(span: Span, offset: u32) -> Span {
    span.shifted(offset)
}

/// The symbols a named instance's arguments bind its parameters to.
fn bind_args(ctx: &mut Ctx, t: &hir::TemplateItem, inst: &hir::InstanceDecl) -> Option<Vec<Sym>> {
    let params = &t.data.params;
    if params.len() != inst.args.len() {
        ctx.diags.push(Diagnostic::error(
            inst.span,
            format!(
                "template `{}` takes {} argument(s), but {} were given",
                t.data.name.text,
                params.len(),
                inst.args.len()
            ),
        ));
        return None;
    }
    let mut bound = Vec::new();
    let mut ok = true;
    for (p, arg) in params.iter().zip(&inst.args) {
        // Parameter types are written inside the template but resolved in
        // the global scope, where every typedef they may use lives.
        let ty = ctx.param_type_at(p, t.offset);
        if p.is_ref
            && let &Ty::Chan { kind, urgent } = ty.scalar_part()
        {
            // `chan &c`, `chan &c[3]`: a global channel, a channel array or a
            // part of one with constant indices (`go[1]`), of the same shape
            // and kind.
            match ctx.reference_argument(arg, &p.name.text) {
                Some(Sym::Chan {
                    base,
                    shape,
                    kind: k,
                    urgent: u,
                }) if shape == ty && k == kind && u == urgent => {
                    bound.push(Sym::Chan {
                        base,
                        shape,
                        kind,
                        urgent,
                    });
                }
                Some(sym) => {
                    // The types print without the channel kind: say it.
                    let kinded = |t: &Ty, k: ChannelKind, u: bool| {
                        let urgent = if u { "urgent " } else { "" };
                        let broadcast = if k == ChannelKind::Broadcast {
                            "broadcast "
                        } else {
                            ""
                        };
                        format!("{urgent}{broadcast}{}", t.describe())
                    };
                    let what = match &sym {
                        Sym::Chan {
                            shape,
                            kind: k,
                            urgent: u,
                            ..
                        } => kinded(shape, *k, *u),
                        other => format!("a {}", other.kind_name()),
                    };
                    ctx.diags.push(Diagnostic::error(
                        arg.span,
                        format!(
                            "`{}` expects {}, but this is {what}",
                            p.name.text,
                            kinded(&ty, kind, urgent)
                        ),
                    ));
                    ok = false;
                }
                None => ok = false,
            }
            continue;
        }
        // A constant reference bound to a constant (`const int &max` with
        // `K[1]`, as UPPAAL allows) is that constant: it can neither be
        // written through nor alias a variable that changes.
        let binds_constant = p.is_const
            && p.array.is_empty()
            && ty.bounds().is_some()
            && !matches!(&arg.kind, ExprKind::Name(n) if matches!(ctx.lookup_global(n, arg.span), Some(Sym::Var { .. })));
        if p.is_ref && !binds_constant {
            // A global variable or clock, or a part of a variable (`v[i]`,
            // `r.f`) or an element of a clock array (`x[i]`) whose indices
            // are constants once the instance is known: a partial
            // instantiation's parameter (`P(const id_t i) = T(v[i])`), as
            // UPPAAL allows. The reference names that one place for the run.
            match ctx.reference_argument(arg, &p.name.text) {
                Some(Sym::Var { base, ty: vty }) if !matches!(ty, Ty::Clock) => {
                    if !compatible(&ty, &vty) {
                        let what = match &arg.kind {
                            ExprKind::Name(n) => format!("`{n}`"),
                            _ => "this".to_string(),
                        };
                        ctx.diags.push(Diagnostic::error(
                            arg.span,
                            format!(
                                "{what} has type {}, but `{}` expects {}",
                                vty.describe(),
                                p.name.text,
                                ty.describe()
                            ),
                        ));
                        ok = false;
                    }
                    bound.push(Sym::Var { base, ty: vty });
                }
                Some(Sym::Clock { id }) if matches!(ty, Ty::Clock) => {
                    bound.push(Sym::Clock { id });
                }
                Some(sym) => {
                    ctx.diags.push(Diagnostic::error(
                        arg.span,
                        format!(
                            "`{}` expects {}, but this is a {}",
                            p.name.text,
                            ty.describe(),
                            sym.kind_name()
                        ),
                    ));
                    ok = false;
                }
                None => ok = false,
            }
        } else if ty.is_aggregate() {
            // An array or record taken by value: a constant one's values.
            match ctx.const_data(arg, &ty, &p.name.text) {
                Some(values) => bound.push(Sym::ConstData {
                    values: Some(values),
                    ty,
                }),
                None => ok = false,
            }
        } else {
            match ctx.const_eval(arg) {
                Some(v) => {
                    if let Some((lo, hi)) = ty.bounds()
                        && (v < lo || v > hi)
                    {
                        ctx.diags.push(Diagnostic::error(
                            arg.span,
                            format!(
                                "argument {v} is outside the range [{lo}, {hi}] of `{}`",
                                p.name.text
                            ),
                        ));
                        ok = false;
                    }
                    bound.push(Sym::Const { value: Some(v), ty });
                }
                None => ok = false,
            }
        }
    }
    ok.then_some(bound)
}

/// Reference parameters need the same shape; integer ranges may differ.
fn compatible(param: &Ty, arg: &Ty) -> bool {
    param.same_shape(arg)
}

/// Whether expanding `what` (as the message names it) over the parameter
/// `ranges` stays within [`MAX_EXPANSION`] processes and the model's budget;
/// reports at `span` when it does not.
fn within_limits<T>(ctx: &mut Ctx, ranges: &[(i64, i64, T)], what: &str, span: Span) -> bool {
    let count = ranges
        .iter()
        .fold(1i64, |acc, (lo, hi, _)| acc.saturating_mul(hi - lo + 1));
    if count > MAX_EXPANSION {
        ctx.diags.push(Diagnostic::error(
            span,
            format!("`{what}` would make {count} processes, more than the {MAX_EXPANSION} allowed"),
        ));
        return false;
    }
    ctx.spend(count, span)
}

/// Every combination of one value from each of `ranges`, the last varying
/// fastest (`P(1, 1)`, `P(1, 2)`, …).
fn combinations<T>(ranges: &[(i64, i64, T)]) -> Vec<Vec<i64>> {
    let mut combos: Vec<Vec<i64>> = vec![Vec::new()];
    for &(lo, hi, _) in ranges {
        combos = combos
            .into_iter()
            .flat_map(|c| {
                (lo..=hi).map(move |v| {
                    let mut c = c.clone();
                    c.push(v);
                    c
                })
            })
            .collect();
    }
    combos
}

/// The value range and type of each parameter of `params` (types read at
/// `offset`), or `None` after reporting `not_bounded` for the first that is
/// not a bounded integer taken by value.
fn param_ranges(
    ctx: &mut Ctx,
    params: &[hir::Param],
    offset: u32,
    not_bounded: impl FnOnce(&hir::Param) -> Diagnostic,
) -> Option<Vec<(i64, i64, Ty)>> {
    let mut ranges = Vec::new();
    for p in params {
        let ty = ctx.param_type_at(p, offset);
        match ty.bounds() {
            Some((lo, hi)) if !p.is_ref => ranges.push((lo, hi, ty)),
            _ => {
                ctx.diags.push(not_bounded(p));
                return None;
            }
        }
    }
    Some(ranges)
}

/// `system Proc;`: one instance per combination of parameter values.
fn expand(ctx: &mut Ctx, sink: &mut Sink<'_, '_>, t: &hir::TemplateItem, entry: &hir::Name) {
    let Some(ranges) = param_ranges(ctx, &t.data.params, t.offset, |p| {
        Diagnostic::error(
            entry.span,
            format!(
                "`system {}` needs every parameter to be a bounded integer; `{}` is not",
                t.data.name.text, p.name.text
            ),
        )
    }) else {
        return;
    };
    if !within_limits(
        ctx,
        &ranges,
        &format!("system {}", t.data.name.text),
        entry.span,
    ) {
        return;
    }
    for values in combinations(&ranges) {
        let name = if values.is_empty() {
            t.data.name.text.clone()
        } else {
            let args: Vec<String> = values.iter().map(|v| v.to_string()).collect();
            format!("{}({})", t.data.name.text, args.join(", "))
        };
        let bound: Vec<Sym> = values
            .iter()
            .zip(&ranges)
            .map(|(v, (_, _, ty))| Sym::Const {
                value: Some(*v),
                ty: ty.clone(),
            })
            .collect();
        let place = Placement {
            name: &name,
            args: values,
            at: entry.span,
            defined_by: shift(t.data.name.span, t.offset),
        };
        instantiate(ctx, sink, t, &bound, place);
    }
}

/// `P(const id_t i) = T(i, 1);` listed in `system`: one process per value
/// of the free parameters, named `P(0)`, `P(1)`, …, each an instance of `T`
/// with the arguments evaluated with those values.
fn partial(
    ctx: &mut Ctx,
    sink: &mut Sink<'_, '_>,
    t: &hir::TemplateItem,
    inst: &hir::InstanceDecl,
) {
    let Some(ranges) = param_ranges(ctx, &inst.params, 0, |p| {
        Diagnostic::error(
            p.span,
            format!(
                "a parameter of a partial instantiation needs a bounded integer type; `{}` has none",
                p.name.text
            ),
        )
    }) else {
        return;
    };
    if !within_limits(ctx, &ranges, &inst.name.text, inst.span) {
        return;
    }
    for values in combinations(&ranges) {
        let binds: Vec<(String, Span, Sym)> = inst
            .params
            .iter()
            .zip(&values)
            .zip(&ranges)
            .map(|((p, v), (_, _, ty))| {
                let sym = Sym::Const {
                    value: Some(*v),
                    ty: ty.clone(),
                };
                (p.name.text.clone(), p.name.span, sym)
            })
            .collect();
        // An error in the arguments stops the expansion, so it is reported
        // once, not once per combination.
        let Some(bound) = ctx.with_bindings(&binds, |ctx| bind_args(ctx, t, inst)) else {
            return;
        };
        let args: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        let name = format!("{}({})", inst.name.text, args.join(", "));
        let place = Placement {
            name: &name,
            args: values,
            at: inst.span,
            defined_by: inst.name.span,
        };
        instantiate(ctx, sink, t, &bound, place);
        // Checks name these processes `P(1)`: by the instance, not the template.
        if let Some(info) = ctx.procs.last_mut() {
            info.template = inst.name.text.clone();
        }
    }
}

/// One instance to lower: a template with its parameters bound.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct InstanceRequest {
    /// The template to instantiate.
    pub template: Arc<hir::Template>,
    /// The global scope it sees.
    pub scope: Arc<GlobalScope>,
    /// What each parameter stands for, in order: a constant, or the
    /// variable or channel a reference parameter names.
    pub params: Vec<Sym>,
    /// The process's name (`P1`, `P(1)`).
    pub name: String,
    /// The parameter values that name the process (`1` in `P(1)`); empty for
    /// a named instance.
    pub args: Vec<i64>,
    /// First variable, clock and channel index of the instance's locals.
    pub bases: (u32, u32, u32),
    /// The refinement of the time unit in force ([`Ctx::time_scale`]).
    pub time_scale: i64,
}

/// A lowered instance, spans relative to its template's start.
#[derive(Debug, Clone, PartialEq)]
pub struct InstanceLowered {
    /// The process.
    pub process: ir::Process,
    /// What checks see of the process.
    pub info: ProcInfo,
    /// The instance's local variables.
    pub variables: Vec<ir::Variable>,
    /// The instance's local clocks.
    pub clocks: Vec<ir::Clock>,
    /// The instance's local channels.
    pub channels: Vec<ir::Channel>,
    /// What lowering the instance reports.
    pub diagnostics: Vec<Diagnostic>,
    /// The expansion budget the instance used (select copies, quantifier
    /// values …), charged to the whole model.
    pub spent: i64,
    /// Global names the instance reads or writes, sorted.
    pub used_globals: Vec<String>,
    /// The refinement of the time unit its clock quotients need
    /// ([`Ctx::needed_scale`]).
    pub needed_scale: i64,
}

/// Lowers one instance on its own, resolving its template's names first.
pub fn lower_instance(req: &InstanceRequest) -> InstanceLowered {
    lower_instance_resolved(req, &crate::resolve::resolve_template(&req.template))
}

/// Lowers one instance on its own with its template's names already
/// resolved (the salsa query memoises this, and the resolution per
/// template).
pub fn lower_instance_resolved(
    req: &InstanceRequest,
    names: &crate::resolve::TemplateNames,
) -> InstanceLowered {
    let mut ctx = Ctx::for_instance(&req.scope, req.bases);
    ctx.time_scale = req.time_scale;
    let (process, mut info) = ctx.template(&req.template, names, Some(&req.params), &req.name, 0);
    info.args = req.args.clone();
    let spent = MAX_TOTAL_EXPANSION - ctx.budget_left();
    let mut used_globals: Vec<String> = ctx.used_globals.iter().cloned().collect();
    used_globals.sort();
    InstanceLowered {
        used_globals,
        process,
        info,
        variables: ctx.net.variables,
        clocks: ctx.net.clocks,
        channels: ctx.net.channels,
        diagnostics: ctx.diags,
        spent,
        needed_scale: ctx.needed_scale,
    }
}

/// How [`lower_network`] lowers an instance: directly, or through a cache.
pub type InstanceLowerer<'a> = dyn FnMut(InstanceRequest) -> Arc<InstanceLowered> + 'a;

/// Where instances go: the network's context, and how to lower them.
struct Sink<'a, 'b> {
    scope: Arc<GlobalScope>,
    lower: &'a mut InstanceLowerer<'b>,
}

/// Which process an instance becomes in the network.
struct Placement<'a> {
    /// The process's name (`P1`, `P(1)`).
    name: &'a str,
    /// The parameter values in the name; empty for a named instance.
    args: Vec<i64>,
    /// Where the expansion work is charged.
    at: Span,
    /// [`ProcInfo::defined_by`].
    defined_by: Span,
}

fn instantiate(
    ctx: &mut Ctx,
    sink: &mut Sink<'_, '_>,
    t: &hir::TemplateItem,
    bound: &[Sym],
    place: Placement<'_>,
) {
    let Placement {
        name,
        args,
        at,
        defined_by,
    } = place;
    let size = (t.data.edges.len() + t.data.locations.len() + 1) as i64;
    if !ctx.spend(size, at) {
        return;
    }
    let bases = (
        ctx.net.variables.len() as u32,
        ctx.net.clocks.len() as u32,
        ctx.net.channels.len() as u32,
    );
    let lowered = (sink.lower)(InstanceRequest {
        template: t.data.clone(),
        scope: sink.scope.clone(),
        params: bound.to_vec(),
        name: name.to_string(),
        args,
        bases,
        time_scale: ctx.time_scale,
    });
    if lowered.spent > 0 && !ctx.spend(lowered.spent, at) {
        return;
    }
    ctx.merge_needed_scale(lowered.needed_scale, at);
    let d = t.offset;
    let mv = |s: Span| shift(s, d);
    ctx.net
        .variables
        .extend(lowered.variables.iter().map(|v| ir::Variable {
            span: mv(v.span),
            ..v.clone()
        }));
    ctx.net
        .clocks
        .extend(lowered.clocks.iter().map(|c| ir::Clock {
            span: mv(c.span),
            ..c.clone()
        }));
    ctx.net
        .channels
        .extend(lowered.channels.iter().map(|c| ir::Channel {
            span: mv(c.span),
            ..c.clone()
        }));
    let mut process = lowered.process.clone();
    process.span = mv(process.span);
    for l in &mut process.locations {
        l.span = mv(l.span);
    }
    for e in &mut process.edges {
        e.span = mv(e.span);
    }
    ir::shift_local_calls(&mut process, d);
    ctx.net.processes.push(process);
    ctx.procs.push(ProcInfo {
        offset: d,
        defined_by,
        ..lowered.info.clone()
    });
    ctx.used_globals
        .extend(lowered.used_globals.iter().cloned());
    ctx.diags.extend(lowered.diagnostics.iter().map(|x| {
        let mut x = x.clone();
        x.range = mv(x.range);
        for r in &mut x.related {
            r.range = mv(r.range);
        }
        x
    }));
}

impl Ctx {
    /// Takes in an instance's needed refinement of the time unit: the lcm
    /// with the others (an error at `at` beyond [`MAX_TIME_SCALE`]).
    fn merge_needed_scale(&mut self, needed: i64, at: Span) {
        let (mut a, mut b) = (self.needed_scale, needed);
        while b != 0 {
            (a, b) = (b, a % b);
        }
        match (self.needed_scale / a).checked_mul(needed) {
            Some(l) if l <= MAX_TIME_SCALE => self.needed_scale = l,
            _ => self.diags.push(Diagnostic::error(
                at,
                format!(
                    "the clock quotients of this instance and of the others need the time unit \
                     refined by more than {MAX_TIME_SCALE}: multiply the model's time \
                     constants instead"
                ),
            )),
        }
    }

    fn param_type_at(&mut self, p: &hir::Param, offset: u32) -> Ty {
        let saved = self.set_offset(offset);
        let ty = self.param_type(p);
        self.set_offset(saved);
        ty
    }
}
