//! Exact linear feasibility with strict inequalities: a small two-phase
//! simplex over the rationals (Bland's rule, so it always terminates), in
//! `i128` fractions with every operation checked. Used to confirm the
//! traces of stopwatch models (`stopwatch.rs`), whose systems are small
//! (one variable per delay of a trace) with coefficients 0 and ±1.
//!
//! Strictness: each strict row `a·x < b` becomes `a·x + ε <= b` with one
//! more variable `0 <= ε <= 1`, and `ε` is maximised. The system has a
//! solution with every strict row strict exactly when the maximum is
//! positive, and the optimal vertex is such a solution.

use num_rational::Ratio;
use num_traits::{CheckedAdd, CheckedDiv, CheckedMul, CheckedSub, Zero};

/// An exact rational.
pub type Q = Ratio<i128>;

/// `Σ coef[j]·x[j] < bound` (strict) or `<= bound`.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub coef: Vec<i64>,
    pub strict: bool,
    pub bound: i64,
}

/// What [`solve`] found.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// A solution (`x >= 0`), strict rows strict.
    Feasible(Vec<Q>),
    /// No solution.
    Infeasible,
}

/// The tableau: `rows[i]` holds the coefficients of every column and, last,
/// the right-hand side; `basis[i]` is the column basic in row `i`.
struct Tableau {
    rows: Vec<Vec<Q>>,
    basis: Vec<usize>,
    cols: usize,
}

impl Tableau {
    /// Pivots on `(r, c)`, updating the objective row `obj` too.
    fn pivot(&mut self, obj: &mut [Q], r: usize, c: usize) -> Option<()> {
        let p = self.rows[r][c];
        for v in self.rows[r].iter_mut() {
            *v = v.checked_div(&p)?;
        }
        let pivot_row = self.rows[r].clone();
        let eliminate = |row: &mut [Q]| -> Option<()> {
            let f = row[c];
            if f.is_zero() {
                return Some(());
            }
            for (v, &q) in row.iter_mut().zip(&pivot_row) {
                *v = v.checked_sub(&f.checked_mul(&q)?)?;
            }
            Some(())
        };
        for (i, row) in self.rows.iter_mut().enumerate() {
            if i != r {
                eliminate(row)?;
            }
        }
        eliminate(obj)?;
        self.basis[r] = c;
        Some(())
    }

    /// The objective row of `max c·x` for the current basis: reduced
    /// costs, and minus the objective's value in the last place.
    fn objective(&self, c: &[Q]) -> Option<Vec<Q>> {
        let mut obj: Vec<Q> = c.to_vec();
        obj.push(Q::zero());
        for (row, &b) in self.rows.iter().zip(&self.basis) {
            let cb = c[b];
            if cb.is_zero() {
                continue;
            }
            for (o, &v) in obj.iter_mut().zip(row) {
                *o = o.checked_sub(&cb.checked_mul(&v)?)?;
            }
        }
        Some(obj)
    }

    /// Maximises over the columns `allowed` may enter; `None` on overflow
    /// or an unbounded objective (which the callers' objectives never
    /// are).
    fn maximise(&mut self, obj: &mut [Q], allowed: &dyn Fn(usize) -> bool) -> Option<()> {
        let rhs = self.cols;
        loop {
            let Some(c) = (0..self.cols).find(|&j| allowed(j) && obj[j] > Q::zero()) else {
                return Some(());
            };
            let mut best: Option<(usize, Q)> = None;
            for (i, row) in self.rows.iter().enumerate() {
                if row[c] <= Q::zero() {
                    continue;
                }
                let ratio = row[rhs].checked_div(&row[c])?;
                let better = match &best {
                    None => true,
                    Some((k, q)) => ratio < *q || (ratio == *q && self.basis[i] < self.basis[*k]),
                };
                if better {
                    best = Some((i, ratio));
                }
            }
            let (r, _) = best?;
            self.pivot(obj, r, c)?;
        }
    }
}

/// Decides `rows` over `x_0..x_{n-1} >= 0`; `None` when the arithmetic
/// would overflow (the caller then knows nothing).
pub fn solve(n: usize, rows: &[Row]) -> Option<Answer> {
    // Columns: the n variables, ε, one slack per row, then the artificial
    // variables of the rows whose right-hand side is negative.
    let eps = n;
    let m = rows.len() + 1; // and `ε <= 1`
    let slack = n + 1;
    let negative: Vec<usize> = (0..rows.len()).filter(|&i| rows[i].bound < 0).collect();
    let art = slack + m;
    let cols = art + negative.len();
    let mut t = Tableau {
        rows: Vec::with_capacity(m),
        basis: Vec::with_capacity(m),
        cols,
    };
    for (i, r) in rows.iter().enumerate() {
        let mut row = vec![Q::zero(); cols + 1];
        for (j, &a) in r.coef.iter().enumerate() {
            row[j] = Q::from_integer(a as i128);
        }
        if r.strict {
            row[eps] = Q::from_integer(1);
        }
        row[slack + i] = Q::from_integer(1);
        row[cols] = Q::from_integer(r.bound as i128);
        match negative.iter().position(|&k| k == i) {
            Some(a) => {
                for v in row.iter_mut() {
                    *v = -*v;
                }
                row[art + a] = Q::from_integer(1);
                t.basis.push(art + a);
            }
            None => t.basis.push(slack + i),
        }
        t.rows.push(row);
    }
    let mut cap = vec![Q::zero(); cols + 1];
    cap[eps] = Q::from_integer(1);
    cap[slack + rows.len()] = Q::from_integer(1);
    cap[cols] = Q::from_integer(1);
    t.rows.push(cap);
    t.basis.push(slack + rows.len());

    // Phase 1: minimise the artificial variables.
    if !negative.is_empty() {
        let mut c = vec![Q::zero(); cols];
        for v in &mut c[art..] {
            *v = Q::from_integer(-1);
        }
        let mut obj = t.objective(&c)?;
        t.maximise(&mut obj, &|_| true)?;
        if !obj[cols].is_zero() {
            return Some(Answer::Infeasible);
        }
        // Artificial variables left in the basis are 0: pivot them out, or
        // drop their row when it is a combination of the others.
        let mut i = 0;
        while i < t.rows.len() {
            if t.basis[i] >= art {
                match (0..art).find(|&j| !t.rows[i][j].is_zero()) {
                    Some(j) => t.pivot(&mut obj, i, j)?,
                    None => {
                        t.rows.remove(i);
                        t.basis.remove(i);
                        continue;
                    }
                }
            }
            i += 1;
        }
    }

    // Phase 2: maximise ε.
    let mut c = vec![Q::zero(); cols];
    c[eps] = Q::from_integer(1);
    let mut obj = t.objective(&c)?;
    t.maximise(&mut obj, &|j| j < art)?;
    let mut x = vec![Q::zero(); n + 1];
    for (row, &b) in t.rows.iter().zip(&t.basis) {
        if b <= n {
            x[b] = row[cols];
        }
    }
    let strict = rows.iter().any(|r| r.strict);
    if strict && x[eps] <= Q::zero() {
        return Some(Answer::Infeasible);
    }
    x.truncate(n);
    // A last check of the solution against the rows, exactly.
    let holds = rows.iter().all(|r| {
        let lhs = r.coef.iter().zip(&x).try_fold(Q::zero(), |s, (&a, v)| {
            s.checked_add(&Q::from_integer(a as i128).checked_mul(v)?)
        });
        let b = Q::from_integer(r.bound as i128);
        lhs.is_some_and(|l| if r.strict { l < b } else { l <= b })
    });
    (holds && x.iter().all(|v| *v >= Q::zero())).then_some(Answer::Feasible(x))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(coef: &[i64], strict: bool, bound: i64) -> Row {
        Row {
            coef: coef.to_vec(),
            strict,
            bound,
        }
    }

    fn q(n: i128, d: i128) -> Q {
        Q::new(n, d)
    }

    #[test]
    fn a_point_inside_open_bounds() {
        // 1 < x < 2: some x strictly between.
        let a = solve(1, &[row(&[-1], true, -1), row(&[1], true, 2)]).unwrap();
        let Answer::Feasible(x) = a else {
            panic!("feasible")
        };
        assert!(x[0] > q(1, 1) && x[0] < q(2, 1), "{x:?}");
    }

    #[test]
    fn an_open_interval_that_is_empty() {
        // 1 < x < 1 and 1 < x <= 1.
        assert_eq!(
            solve(1, &[row(&[-1], true, -1), row(&[1], true, 1)]),
            Some(Answer::Infeasible)
        );
        assert_eq!(
            solve(1, &[row(&[-1], true, -1), row(&[1], false, 1)]),
            Some(Answer::Infeasible)
        );
        // 1 <= x <= 1 is the point 1.
        assert_eq!(
            solve(1, &[row(&[-1], false, -1), row(&[1], false, 1)]),
            Some(Answer::Feasible(vec![q(1, 1)]))
        );
    }

    /// Not difference constraints: `x + y >= 3`, `x <= 1`, `y <= 1` has no
    /// solution; with `y <= 2` it has exactly `x = 1, y = 2`.
    #[test]
    fn sums_of_variables() {
        let base = [row(&[-1, -1], false, -3), row(&[1, 0], false, 1)];
        let mut rows = base.to_vec();
        rows.push(row(&[0, 1], false, 1));
        assert_eq!(solve(2, &rows), Some(Answer::Infeasible));
        let mut rows = base.to_vec();
        rows.push(row(&[0, 1], false, 2));
        assert_eq!(
            solve(2, &rows),
            Some(Answer::Feasible(vec![q(1, 1), q(2, 1)]))
        );
        // And strictly: x + y > 3 with x <= 1, y <= 2 is empty.
        let mut rows = vec![row(&[-1, -1], true, -3), row(&[1, 0], false, 1)];
        rows.push(row(&[0, 1], false, 2));
        assert_eq!(solve(2, &rows), Some(Answer::Infeasible));
    }

    /// Redundant equalities (the same row twice, negated) leave an
    /// artificial variable in the basis at 0.
    #[test]
    fn repeated_equalities() {
        let rows = [
            row(&[1, 1], false, 2),
            row(&[-1, -1], false, -2),
            row(&[1, 1], false, 2),
            row(&[-1, -1], false, -2),
            row(&[1, -1], true, 0),
        ];
        let Some(Answer::Feasible(x)) = solve(2, &rows) else {
            panic!("feasible")
        };
        assert_eq!(x[0] + x[1], q(2, 1));
        assert!(x[0] < x[1]);
    }
}
