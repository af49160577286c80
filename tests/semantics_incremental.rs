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

/// A host whose database records every execution of `check_template`.
fn counting_host() -> (AnalysisHost, Arc<Mutex<usize>>) {
    let count = Arc::new(Mutex::new(0));
    let c = count.clone();
    let db = Database::with_event_callback(Box::new(move |event| {
        if let salsa::EventKind::WillExecute { database_key } = event.kind
            && format!("{database_key:?}").contains("check_template")
            && let Ok(mut n) = c.lock()
        {
            *n += 1;
        }
    }));
    (AnalysisHost::with_database(db), count)
}

fn take(count: &Arc<Mutex<usize>>) -> usize {
    std::mem::take(&mut *count.lock().unwrap())
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
    assert_eq!(d[0].message, "unknown name `m`");
}
