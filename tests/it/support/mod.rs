//! Helpers shared by the integration tests (`mod support;`).
#![allow(dead_code, clippy::new_without_default)]

pub mod cli;
pub mod expect;
pub mod lsp_client;
pub mod lsp_stdout;
pub mod net;
pub mod random_net;
pub mod simulator;

/// The error messages of a model, each with the text it is located on.
pub fn errors(text: &str) -> Vec<(String, String)> {
    zeno::semantics::analyze(text)
        .diagnostics
        .into_iter()
        .filter(|d| d.severity == zeno::diagnostics::Severity::Error)
        .map(|d| {
            let at = text[d.range.start as usize..d.range.end as usize].to_string();
            (d.message, at)
        })
        .collect()
}

/// The warnings of a model, each with the text it is located on.
pub fn warnings(text: &str) -> Vec<(String, String)> {
    zeno::semantics::analyze(text)
        .diagnostics
        .into_iter()
        .filter(|d| d.severity == zeno::diagnostics::Severity::Warning)
        .map(|d| {
            let at = text[d.range.start as usize..d.range.end as usize].to_string();
            (d.message, at)
        })
        .collect()
}

/// The verdict of every check of an imported model, by name, under the
/// default options; the model must analyse without errors.
pub fn imported_verdicts(
    imported: &zeno::import::Imported,
) -> Vec<(String, zeno::checker::Verdict)> {
    use zeno::checker::{Cancel, Options, check};
    let analysis = zeno::semantics::analyze(&imported.zeno);
    let errors: Vec<_> = analysis
        .diagnostics
        .iter()
        .filter(|d| d.severity == zeno::diagnostics::Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:?}\n{}", imported.zeno);
    let network = analysis.network.expect("a network");
    network
        .check_ids()
        .map(|id| {
            let r = check(
                &network,
                id,
                &Options::default(),
                &Cancel::new(),
                &mut zeno::checker::no_progress,
            );
            (network.check(id).name.clone(), r.verdict)
        })
        .collect()
}

/// Check `k` of `net` under `order`, otherwise the default options.
pub fn check_in_order(
    net: &zeno::ir::Network,
    k: usize,
    order: zeno::checker::SearchOrder,
) -> zeno::checker::CheckResult {
    use zeno::checker::{Cancel, Options, check};
    let options = Options {
        config: zeno::checker::config::Config {
            search: order,
            ..Default::default()
        },
        ..Options::default()
    };
    check(
        net,
        net.check_at(k).unwrap(),
        &options,
        &Cancel::new(),
        &mut zeno::checker::no_progress,
    )
}

/// Checks every check of `text` under every search order: each gives its
/// expected verdict, and each trace replays in the independent simulator.
/// Returns breadth-first search's result per check (its trace, when there
/// is one, is a shortest one).
pub fn every_order(
    text: &str,
    expected: &[zeno::checker::Verdict],
) -> Vec<zeno::checker::CheckResult> {
    use zeno::checker::SearchOrder;
    let net = zeno::semantics::analyze(text)
        .network
        .unwrap_or_else(|| panic!("{text}"));
    let mut bfs = Vec::new();
    for (k, verdict) in expected.iter().enumerate() {
        for order in SearchOrder::ALL {
            let r = check_in_order(&net, k, order);
            assert_eq!(r.verdict, *verdict, "check {k}, {order:?}\n{text}");
            if let Some(t) = &r.trace {
                simulator::replay(&net, k, t)
                    .unwrap_or_else(|e| panic!("check {k}, {order:?}: {e}"));
            }
            if order == SearchOrder::Bfs {
                bfs.push(r);
            }
        }
    }
    bfs
}
