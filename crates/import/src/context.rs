//! What one import decides about its file as a whole, which every part of
//! the reader consults: the zeno name of each keyword the file uses as a
//! name, and whether the file defines its own `abs`. An import makes one
//! [`Context`] from its text and passes it down explicitly; nothing carries
//! over to the next file read (in the same thread or another).

use std::cell::Cell;
use std::collections::{HashMap, HashSet};

/// Words that are keywords in zeno but may be ordinary names in UPPAAL or
/// TChecker files; such names get a trailing `_` (more than one where the
/// file has that name too: see [`Renaming::of`]).
const ZENO_KEYWORDS: &[&str] = &[
    "template",
    "location",
    "init",
    "committed",
    "urgent",
    "invariant",
    "when",
    "sync",
    "do",
    "select",
    "check",
    "system",
    "typedef",
    "const",
    "clock",
    "chan",
    "broadcast",
    "int",
    "bool",
    "forall",
    "exists",
    "sum",
    "imply",
    "and",
    "or",
    "not",
    "priority",
    "default",
];

/// The zeno name of each keyword a model's file uses as a name. A query
/// file is read with the renaming of the model it belongs to, so that its
/// names are the model's.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Renaming {
    renamed: HashMap<&'static str, String>,
}

impl Renaming {
    /// The renaming of the file `text`: each keyword used as a name gets the
    /// first of `init_`, `init__`, … that no word of the file spells, so
    /// that a renamed name never meets another (a file with both `init` and
    /// `init_` gets `init__` and `init_`). Names without a keyword stay as
    /// they are, so zeno's own exported text imports unchanged.
    pub fn of(text: &str) -> Renaming {
        let words: HashSet<&str> = text
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .collect();
        let renamed = ZENO_KEYWORDS
            .iter()
            .filter(|k| words.contains(**k))
            .map(|k| {
                let mut name = format!("{k}_");
                while words.contains(name.as_str()) {
                    name.push('_');
                }
                (*k, name)
            })
            .collect();
        Renaming { renamed }
    }

    /// The zeno name of the file's name `name`: itself unless it is a zeno
    /// keyword (then `name_`, or the longer name [`Renaming::of`] chose).
    pub fn name(&self, name: &str) -> String {
        match ZENO_KEYWORDS.iter().find(|k| **k == name) {
            Some(k) => self
                .renamed
                .get(k)
                .cloned()
                .unwrap_or_else(|| format!("{name}_")),
            None => name.to_string(),
        }
    }
}

/// The context of one import.
#[derive(Debug, Default)]
pub(crate) struct Context {
    renaming: Renaming,
    /// Whether the model defines a function `abs` of its own (UPPAAL 4
    /// allowed it; UPPAAL 5 made `abs` a built-in). Set by the declaration
    /// reader, which sees a function before its calls.
    user_abs: Cell<bool>,
}

impl Context {
    /// The context for importing the file `text`.
    pub(crate) fn new(text: &str) -> Context {
        Context::with_renaming(Renaming::of(text))
    }

    /// The context for reading with a known renaming (a query file's,
    /// which is its model's).
    pub(crate) fn with_renaming(renaming: Renaming) -> Context {
        Context {
            renaming,
            user_abs: Cell::new(false),
        }
    }

    /// See [`Renaming::name`].
    pub(crate) fn name(&self, name: &str) -> String {
        self.renaming.name(name)
    }

    pub(crate) fn renaming(&self) -> &Renaming {
        &self.renaming
    }

    /// Notes that the model defines its own `abs`: its calls stay calls.
    pub(crate) fn note_user_abs(&self) {
        self.user_abs.set(true);
    }

    pub(crate) fn user_abs(&self) -> bool {
        self.user_abs.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keyword_names_are_renamed_apart() {
        let none = Renaming::default();
        assert_eq!(none.name("init"), "init_");
        assert_eq!(none.name("location"), "location_");
        assert_eq!(none.name("x"), "x");
        // The renaming keeps distinct names distinct.
        let r = Renaming::of("when + when_ + when__");
        assert_eq!(
            ["when", "when_", "when__"].map(|n| r.name(n)),
            ["when___", "when_", "when__"]
        );
    }

    #[test]
    fn abs_is_the_builtin_until_the_model_defines_one() {
        let cx = Context::new("int abs(int v) { return v; }");
        assert!(!cx.user_abs());
        cx.note_user_abs();
        assert!(cx.user_abs());
        assert!(!Context::new("").user_abs());
    }
}
