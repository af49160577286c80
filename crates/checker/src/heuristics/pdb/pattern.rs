//! A pattern: the processes and variable slots an abstraction keeps.

use zeno_ir::Network;

/// One element a pattern can keep or drop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Element {
    Process(u32),
    Variable(u32),
}

/// The kept processes and variable slots (a clock pattern's clocks are in
/// `zones::ClockSet`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Pattern {
    pub(crate) procs: Vec<bool>,
    pub(crate) vars: Vec<bool>,
}

impl Pattern {
    /// Every process and every variable.
    pub(crate) fn full(net: &Network) -> Pattern {
        Pattern {
            procs: vec![true; net.processes.len()],
            vars: vec![true; net.variables.len()],
        }
    }

    pub(crate) fn has_proc(&self, p: u32) -> bool {
        self.procs.get(p as usize).copied().unwrap_or(false)
    }

    pub(crate) fn has_var(&self, v: u32) -> bool {
        self.vars.get(v as usize).copied().unwrap_or(false)
    }

    /// The kept elements, processes first, in index order.
    pub(crate) fn elements(&self) -> Vec<Element> {
        let procs = (0..self.procs.len() as u32)
            .filter(|&p| self.procs[p as usize])
            .map(Element::Process);
        let vars = (0..self.vars.len() as u32)
            .filter(|&v| self.vars[v as usize])
            .map(Element::Variable);
        procs.chain(vars).collect()
    }

    pub(crate) fn without(&self, e: Element) -> Pattern {
        let mut p = self.clone();
        match e {
            Element::Process(i) => p.procs[i as usize] = false,
            Element::Variable(i) => p.vars[i as usize] = false,
        }
        p
    }

    /// The number of values a key component can take, multiplied over the
    /// pattern: an upper bound on the abstract state space (saturating).
    pub(crate) fn size_bound(&self, net: &Network) -> u64 {
        let procs = net
            .processes
            .iter()
            .enumerate()
            .filter(|(p, _)| self.procs[*p])
            .map(|(_, p)| p.locations.len().max(1) as u64);
        let vars = net
            .variables
            .iter()
            .enumerate()
            .filter(|(v, _)| self.vars[*v])
            .map(|(_, v)| (v.hi as i64 - v.lo as i64 + 1).max(1) as u64);
        procs.chain(vars).fold(1u64, |a, b| a.saturating_mul(b))
    }

    /// The abstract key of a concrete discrete state: the kept locations, then
    /// the kept variable values.
    pub(crate) fn project_into(&self, locations: &[u32], variables: &[i32], key: &mut Vec<i32>) {
        key.clear();
        for (p, &keep) in self.procs.iter().enumerate() {
            if keep {
                key.push(locations.get(p).copied().unwrap_or(0) as i32);
            }
        }
        for (v, &keep) in self.vars.iter().enumerate() {
            if keep {
                key.push(variables.get(v).copied().unwrap_or(0));
            }
        }
    }

    /// Kept processes and kept variable slots.
    pub(crate) fn counts(&self) -> (usize, usize) {
        let procs = self.procs.iter().filter(|&&b| b).count();
        (procs, self.vars.iter().filter(|&&b| b).count())
    }
}
