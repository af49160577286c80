//! `zeno graph` and `zeno trace`: the automata and the error traces as pictures.

use zeno::checker::{self, Cancel, Trace};
use zeno::import::Format;
use zeno::ir::{CheckId, Network};
use zeno::pictures;

use super::args::{GraphArgs, GraphFormat, SearchArgs, TraceArgs, TraceFormat};
use super::check::{NoSuchCheck, options};
use super::diag;
use super::exit;
use super::import::write_output;
use super::load::load_network;

pub fn run_graph(args: &GraphArgs) -> u8 {
    let (model, network) = match load_network(&args.file, &args.draw.labels) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let trace = match &args.trace_check {
        None => None,
        Some(name) => {
            let Some(check) = check_named(&network, name) else {
                return exit::ERROR;
            };
            match find_trace(&network, check, &args.draw.search) {
                Ok(trace) => Some(trace),
                Err(code) => return code,
            }
        }
    };
    let template = args.template.as_deref();
    let drawn = match args.format {
        GraphFormat::Dot => pictures::graph_dot(&network, template, trace.as_ref()),
        // A UPPAAL file's own drawing, where it has one.
        GraphFormat::Svg => match &model.original {
            Some((original, Format::UppaalXml)) => {
                let drawings = zeno::import::uppaal_layout(&original.text);
                pictures::graph_svg_drawn(&network, template, trace.as_ref(), &drawings)
            }
            _ => pictures::graph_svg(&network, template, trace.as_ref()),
        },
    };
    match drawn {
        Ok(text) => write_output(args.draw.output.as_deref(), &text),
        Err(e) => {
            diag::error(&e);
            exit::ERROR
        }
    }
}

pub fn run_trace(args: &TraceArgs) -> u8 {
    let (_model, network) = match load_network(&args.file, &args.draw.labels) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let Some(check) = check_named(&network, &args.check) else {
        return exit::ERROR;
    };
    let trace = match find_trace(&network, check, &args.draw.search) {
        Ok(trace) => trace,
        Err(code) => return code,
    };
    let text = match args.format {
        TraceFormat::Svg => pictures::trace_svg(&network, check, &trace),
        TraceFormat::Text => pictures::trace_text(&network, check, &trace),
        TraceFormat::Json => {
            let json = pictures::trace_json(&network, check, &trace);
            serde_json::to_string_pretty(&json).unwrap_or_default() + "\n"
        }
    };
    write_output(args.draw.output.as_deref(), &text)
}

/// The check called `name`, or an error listing the checks.
fn check_named(network: &Network, name: &str) -> Option<CheckId> {
    let found = network.check_named(name);
    if found.is_none() {
        diag::error(NoSuchCheck::new(network, name));
    }
    found
}

/// Decides the check and returns its counterexample or witness; when there
/// is none (the invariant holds, no witness exists, a limit was hit) says why.
fn find_trace(network: &Network, check: CheckId, search: &SearchArgs) -> Result<Trace, u8> {
    let name = &network.check(check).name;
    let options = options(search).map_err(|e| {
        diag::error(&e);
        exit::ERROR
    })?;
    let options = options.for_check(network, check);
    let result = checker::check(
        network,
        check,
        &options,
        &Cancel::new(),
        &mut checker::no_progress,
    );
    // In the words `zeno check` uses: `holds`, `fails — no reachable state
    // satisfies it`, `unknown: time limit reached`, `violated — no trace: …`.
    let summary = zeno::report::summary(network, network.check(check), &result);
    match (result.trace, &result.verdict) {
        (Some(trace), _) => Ok(trace),
        (None, checker::Verdict::Unknown(_)) => {
            diag::error(format!("check `{name}`: {summary}, so no trace to draw"));
            Err(exit::LIMIT)
        }
        (None, _) => {
            diag::error(format!("check `{name}` has no trace to draw: {summary}"));
            Err(exit::FAILS)
        }
    }
}
