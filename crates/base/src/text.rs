//! Positions in a model text, the ground every layer stands on: the syntax
//! tree, diagnostics, the checker's ir and the front ends all locate things
//! with a [`Span`], so this module depends on nothing else in the crate.

/// A byte range `[start, end)` in a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// The first byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// The span `[start, end)`.
    pub fn new(start: u32, end: u32) -> Span {
        Span { start, end }
    }

    /// The span moved `by` bytes later: a span relative to a part of a text
    /// (a template) made relative to the whole (saturating, so a bad offset
    /// cannot wrap around).
    pub fn shifted(self, by: u32) -> Span {
        Span {
            start: self.start.saturating_add(by),
            end: self.end.saturating_add(by),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifting_saturates() {
        let s = Span::new(3, 7);
        assert_eq!(s.shifted(10), Span::new(13, 17));
        assert_eq!(
            Span::new(u32::MAX - 1, u32::MAX).shifted(5),
            Span::new(u32::MAX, u32::MAX)
        );
    }
}
