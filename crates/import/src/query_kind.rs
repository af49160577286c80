//! Which of UPPAAL's engines a query is for. zeno decides symbolic queries
//! (`A[]`, `E<>`, `A<>`, `E[]`, `-->`); the others (statistical, controller
//! synthesis, learning and strategy queries, docs.uppaal.org "Query
//! Syntax") are listed as not checked, by kind, rather than reported as
//! errors: the model and its symbolic queries are unaffected, as in
//! UPPAAL's symbolic verifier.

/// A query for another engine than the symbolic verifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OtherEngine {
    /// `statistical query`, `controller synthesis query`, `learning query`
    /// or `strategy query`.
    pub kind: &'static str,
    /// The construct that tells (`Pr`, `simulate`, `control:`, `minE`, …).
    pub construct: &'static str,
}

/// The engine `text` (a query, comments removed) is for, when it is not
/// the symbolic verifier; `None` for a symbolic query (or text that is no
/// query at all, which the symbolic reader then reports).
pub fn other_engine(text: &str) -> Option<OtherEngine> {
    let t = text.trim_start();
    let word_at = |s: &str, w: &str| {
        s.strip_prefix(w)
            .is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
    };
    let starts = |w: &str| word_at(t, w);
    let has_word = |w: &str| {
        t.match_indices(w).any(|(at, _)| {
            let before = t[..at].chars().next_back();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_') && word_at(&t[at..], w)
        })
    };
    let found = |kind, construct| Some(OtherEngine { kind, construct });
    const STATISTICAL: &str = "statistical query";
    const STRATEGY: &str = "strategy query";
    const LEARNING: &str = "learning query";
    if starts("simulate") {
        return found(STATISTICAL, "simulate");
    }
    if starts("Pr") {
        return found(STATISTICAL, "Pr");
    }
    // `E[<=10; 100](max: x)`, `E[x<=10](min: c)`, `E[#<=5](...)`: value
    // estimation. `E[]` (and `E [ ]`) is the symbolic `E[] phi`.
    if let Some(rest) = t.strip_prefix('E').map(str::trim_start)
        && let Some(inside) = rest.strip_prefix('[')
        && !inside.trim_start().starts_with(']')
    {
        return found(STATISTICAL, "E[<=…]");
    }
    for w in ["minE", "maxE", "minPr", "maxPr"] {
        if starts(w) {
            return found(LEARNING, w);
        }
    }
    if starts("strategy") {
        return found(STRATEGY, "strategy");
    }
    for w in ["saveStrategy", "loadStrategy"] {
        if starts(w) {
            return found(STRATEGY, w);
        }
    }
    // `control: A<> goal`, `E<> control: goal`, `control_t*(u, g): ...`
    // (UPPAAL TIGA's time-optimal and robust forms).
    if has_word("control") || has_word("control_t") {
        return found("controller synthesis query", "control:");
    }
    if has_word("under") {
        return found(STRATEGY, "under");
    }
    if t.contains('#') {
        return found(STATISTICAL, "#");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(q: &str) -> Option<(&'static str, &'static str)> {
        other_engine(q).map(|o| (o.kind, o.construct))
    }

    #[test]
    fn every_engine_of_the_query_syntax_is_told_apart() {
        let statistical = "statistical query";
        assert_eq!(kind("Pr[<=100](<> P.done)"), Some((statistical, "Pr")));
        assert_eq!(
            kind("Pr[<=10](<> a) >= Pr[<=10](<> b)"),
            Some((statistical, "Pr"))
        );
        assert_eq!(
            kind("simulate[<=100]{x, y}"),
            Some((statistical, "simulate"))
        );
        assert_eq!(
            kind("E[<=200; 500](max: P.cost)"),
            Some((statistical, "E[<=…]"))
        );
        assert_eq!(kind("E[#<=5](min: n)"), Some((statistical, "E[<=…]")));
        assert_eq!(
            kind("control: A<> Train(0).Cross"),
            Some(("controller synthesis query", "control:"))
        );
        assert_eq!(
            kind("E<> control: goal"),
            Some(("controller synthesis query", "control:"))
        );
        assert_eq!(
            kind("strategy Safe = A[] safe"),
            Some(("strategy query", "strategy"))
        );
        assert_eq!(
            kind("A[] good under Safe"),
            Some(("strategy query", "under"))
        );
        assert_eq!(
            kind("saveStrategy(\"s.json\", Safe)"),
            Some(("strategy query", "saveStrategy"))
        );
        assert_eq!(
            kind("minE(cost)[<=10]: <> goal"),
            Some(("learning query", "minE"))
        );
        // Symbolic queries, and names that merely contain the words.
        for symbolic in [
            "E[] P.idle",
            "E [ ] P.idle",
            "A[] !(P(1).cs && P(2).cs)",
            "E<> Probe.done",
            "A[] controller.ok && undercount < 3",
            "P.req --> P.cs",
            "sup: x",
        ] {
            assert_eq!(kind(symbolic), None, "{symbolic}");
        }
    }
}
