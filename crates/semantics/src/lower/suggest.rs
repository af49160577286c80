//! "Did you mean …?": the name in scope closest to one that is not, for the
//! message of an unknown name (`unknown name `lenght`; did you mean
//! `length`?`). Editors offer the suggestion as a quick fix: they read it
//! from the message's last words, ``; did you mean `NAME`?``.

/// The candidate nearest to `name` in edits (insert, delete, replace, swap
/// two neighbours), when it is near enough to be a typo: one edit for names
/// of up to four characters, two for longer ones; on a tie the first in
/// alphabetical order. `None` when nothing is that near.
pub(super) fn closest<'a>(
    name: &str,
    candidates: impl Iterator<Item = &'a str>,
) -> Option<&'a str> {
    let n = name.chars().count();
    let most = if n <= 4 { 1 } else { 2 };
    candidates
        .filter(|c| *c != name && !c.is_empty())
        .filter_map(|c| {
            let d = distance(name, c);
            (d <= most).then_some((d, c))
        })
        .min()
        .map(|(_, c)| c)
}

/// The optimal-string-alignment distance of `a` and `b` (Levenshtein with
/// swaps of neighbours), by characters.
fn distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        d[i * w] = i;
    }
    for (j, slot) in d.iter_mut().enumerate().take(w) {
        *slot = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[(i - 1) * w + j] + 1)
                .min(d[i * w + j - 1] + 1)
                .min(d[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = v;
        }
    }
    d[a.len() * w + b.len()]
}

/// ``; did you mean `NAME`?`` after a message, when there is a suggestion.
pub(super) fn did_you_mean(suggestion: Option<&str>) -> String {
    suggestion.map_or(String::new(), |s| format!("; did you mean `{s}`?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_find_their_name_and_strangers_none() {
        let names = ["length", "len", "list", "go", "leave"];
        assert_eq!(closest("lenght", names.into_iter()), Some("length"));
        assert_eq!(closest("lst", names.into_iter()), Some("list"));
        assert_eq!(closest("leav", names.into_iter()), Some("leave"));
        // Too far, or the name itself.
        assert_eq!(closest("xyz", names.into_iter()), None);
        assert_eq!(closest("go", ["go"].into_iter()), None);
        // A tie: the first alphabetically (`len` before `lex`).
        assert_eq!(closest("lev", ["lex", "len"].into_iter()), Some("len"));
        assert_eq!(distance("ab", "ba"), 1);
        assert_eq!(did_you_mean(Some("x")), "; did you mean `x`?");
        assert_eq!(did_you_mean(None), "");
    }
}
