//! Editing one template must not re-run the checks of the others.

use std::sync::{Arc, Mutex};

use zeno::semantics::AnalysisHost;
use zeno::semantics::db::Database;

fn template(name: &str, bound: u32) -> String {
    format!(
        "template {name}() {{\n    clock x;\n    init location a invariant x <= {bound};\n    location b;\n    a -> b when x >= 1 do n = 1;\n    b -> a do x = 0;\n}}\n\n"
    )
}

fn model(bound_b: u32, header: &str) -> String {
    format!(
        "{header}int[0, 3] n;\n\n{}{}{}system A, B, C;\n",
        template("A", 5),
        template("B", bound_b),
        template("C", 5)
    )
}

type Log = Arc<Mutex<Vec<String>>>;

/// A host whose database records every query execution.
fn logging_host() -> (AnalysisHost, Log) {
    let log: Log = Arc::default();
    let l = log.clone();
    let db = Database::with_event_callback(Box::new(move |event| {
        if let salsa::EventKind::WillExecute { database_key } = event.kind
            && let Ok(mut log) = l.lock()
        {
            log.push(format!("{database_key:?}"));
        }
    }));
    (AnalysisHost::with_database(db), log)
}

/// A host counting executions of `check_template`.
fn counting_host() -> (AnalysisHost, Log) {
    logging_host()
}

/// Executions of `query` since the last call (clears the whole log).
fn executions(log: &Log, query: &str) -> usize {
    let log = std::mem::take(&mut *log.lock().unwrap());
    log.iter()
        .filter(|k| k.starts_with(&format!("{query}(")))
        .count()
}

fn take(log: &Log) -> usize {
    executions(log, "check_template")
}

#[test]
fn edit_in_one_template_rechecks_only_that_template() {
    let (mut host, count) = counting_host();
    host.set_text(&model(5, ""));
    assert!(host.diagnostics().is_empty(), "{:?}", host.diagnostics());
    assert_eq!(take(&count), 3);

    // One character inside B.
    host.set_text(&model(6, ""));
    assert!(host.diagnostics().is_empty());
    assert_eq!(take(&count), 1);
    let net = host.network().expect("network");
    assert_eq!(net.processes.len(), 3);
}

#[test]
fn moving_every_template_rechecks_none() {
    let (mut host, count) = counting_host();
    let broken = |header: &str| model(5, header).replacen("b -> a do x = 0", "b -> a do zz = 0", 1);
    host.set_text(&broken(""));
    assert_eq!(host.diagnostics().len(), 1);
    assert_eq!(take(&count), 3);

    // Text inserted before every template shifts them all; their relative
    // HIR is unchanged, so no check re-runs, yet positions stay exact.
    host.set_text(&broken("// a comment\n"));
    let diags = host.diagnostics();
    assert_eq!(take(&count), 0);
    assert_eq!(diags.len(), 1, "{diags:?}");
    let text = host.text().to_string();
    let r = diags[0].range;
    assert_eq!(&text[r.start as usize..r.end as usize], "zz");
}

#[test]
fn changing_a_global_rechecks_every_template() {
    let (mut host, count) = counting_host();
    host.set_text(&model(5, ""));
    host.diagnostics();
    assert_eq!(take(&count), 3);
    host.set_text(&model(5, "").replace("int[0, 3] n;", "int[0, 4] n;"));
    host.diagnostics();
    assert_eq!(take(&count), 3);
}

#[test]
fn diagnostics_inside_a_moved_template_are_shifted() {
    let mut host = AnalysisHost::new();
    let text = model(5, "").replacen("n = 1", "m = 1", 1);
    host.set_text(&text);
    let d = host.diagnostics();
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(
        &text[d[0].range.start as usize..d[0].range.end as usize],
        "m"
    );
    let moved = format!("\n\n\n{text}");
    host.set_text(&moved);
    let d = host.diagnostics();
    assert_eq!(
        &moved[d[0].range.start as usize..d[0].range.end as usize],
        "m"
    );
    assert_eq!(d[0].message, "unknown name `m`; did you mean `n`?");
}

#[test]
fn edit_in_one_template_reparses_and_relowers_only_that_template() {
    let (mut host, log) = logging_host();
    host.set_text(&model(5, ""));
    host.diagnostics();
    host.network().expect("network");
    let first: Vec<String> = log.lock().unwrap().clone();
    let count = |q: &str| {
        first
            .iter()
            .filter(|k| k.starts_with(&format!("{q}(")))
            .count()
    };
    // The header chunk and one chunk per template; one instance each.
    assert_eq!(count("chunk_items"), 4, "{first:#?}");
    assert_eq!(count("lower_instance"), 3);
    log.lock().unwrap().clear();

    host.set_text(&model(6, ""));
    host.diagnostics();
    let net = host.network().expect("network");
    let second: Vec<String> = log.lock().unwrap().clone();
    let count = |q: &str| {
        second
            .iter()
            .filter(|k| k.starts_with(&format!("{q}(")))
            .count()
    };
    assert_eq!(count("chunk_items"), 1, "{second:#?}");
    assert_eq!(count("check_template"), 1);
    assert_eq!(count("lower_instance"), 1);
    // ... and the network has B's new bound: `x <= 6` on B's clock (2).
    let inv = &net.processes[1].locations[0].invariant;
    assert_eq!(inv.len(), 1);
    assert_eq!((inv[0].i, inv[0].j), (2, 0));
    assert_eq!(inv[0].bound, zeno::ir::Expr::Const(6));
    let _ = executions(&log, "");
}

/// An edited chunk is parsed once: the item tree lowers the same memoised
/// parse (`chunk_parse`) that the tools read, instead of parsing again.
#[test]
fn an_edited_chunk_is_parsed_once() {
    use zeno::semantics::parsed::file_syntax;
    let (mut host, log) = logging_host();
    host.set_text(&model(5, ""));
    assert!(host.diagnostics().is_empty());
    let _ = file_syntax(host.db(), host.file());
    let _ = executions(&log, "chunk_parse");

    // One character inside B: its chunk is parsed for the item tree...
    host.set_text(&model(6, ""));
    assert!(host.diagnostics().is_empty());
    assert_eq!(executions(&log, "chunk_parse"), 1);
    // ...and the tools' syntax trees reuse that parse.
    let syntax = file_syntax(host.db(), host.file());
    assert_eq!(syntax.chunks.len(), 4);
    assert_eq!(executions(&log, "chunk_parse"), 0);
}
