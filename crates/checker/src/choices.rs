//! One enumeration of the joint choices of a synchronisation: each
//! participant picks one of its options (an edge, or staying out), and every
//! combination is one transition. The successor semantics, the abstract
//! transition graph and the pattern database projection all enumerate these
//! products; each keeps its own meaning of the digits (which option is
//! "stay out", whether a participant with no option blocks), only the
//! counting is here.

/// The combinations of digits `digits[g] < radices[g]`, counted as a
/// mixed-radix number whose first digit moves fastest (so successors come in
/// the same order as before the enumeration was shared). No radices: one
/// empty combination. A radix of 0: no combination at all.
///
/// Not an [`Iterator`]: each combination borrows the counter, so none is
/// allocated.
pub(crate) struct Choices {
    radices: Vec<usize>,
    digits: Vec<usize>,
    started: bool,
    done: bool,
}

impl Choices {
    pub(crate) fn new(radices: impl IntoIterator<Item = usize>) -> Self {
        let radices: Vec<usize> = radices.into_iter().collect();
        let done = radices.contains(&0);
        Choices {
            digits: vec![0; radices.len()],
            radices,
            started: false,
            done,
        }
    }

    /// How many combinations there are; `None` if more than `usize::MAX`.
    pub(crate) fn count(&self) -> Option<usize> {
        self.radices
            .iter()
            .try_fold(1usize, |n, &r| n.checked_mul(r))
    }

    /// The next combination, or `None` after the last.
    pub(crate) fn next_choice(&mut self) -> Option<&[usize]> {
        if self.done {
            return None;
        }
        if self.started {
            let mut g = 0;
            loop {
                let Some(&radix) = self.radices.get(g) else {
                    self.done = true;
                    return None;
                };
                self.digits[g] += 1;
                if self.digits[g] < radix {
                    break;
                }
                self.digits[g] = 0;
                g += 1;
            }
        }
        self.started = true;
        Some(&self.digits)
    }
}

#[cfg(test)]
mod tests {
    use super::Choices;

    fn all(radices: &[usize]) -> Vec<Vec<usize>> {
        let mut choices = Choices::new(radices.iter().copied());
        let mut out = Vec::new();
        while let Some(c) = choices.next_choice() {
            out.push(c.to_vec());
        }
        out
    }

    #[test]
    fn first_digit_moves_fastest() {
        assert_eq!(
            all(&[2, 3]),
            [[0, 0], [1, 0], [0, 1], [1, 1], [0, 2], [1, 2]]
        );
        assert_eq!(Choices::new([2, 3]).count(), Some(6));
    }

    #[test]
    fn empty_and_zero_radices() {
        assert_eq!(all(&[]), [Vec::<usize>::new()]);
        assert_eq!(Choices::new([]).count(), Some(1));
        assert!(all(&[3, 0, 2]).is_empty());
        assert_eq!(Choices::new([3, 0]).count(), Some(0));
        assert_eq!(all(&[1, 1]), [[0, 0]]);
    }

    #[test]
    fn count_overflow_is_none() {
        assert_eq!(Choices::new([usize::MAX, 2]).count(), None);
    }
}
