//! Random runs: a seeded generator picks among the enabled transitions
//! (uniformly) and, in concrete mode, a delay in the chosen transition's
//! window (its least delay, or one strictly inside it).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{SimError, Simulator};

/// What a random run did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RandomRun {
    /// Transitions taken.
    pub taken: usize,
    /// Why it stopped before the number of steps asked for, if it did.
    pub stopped: Option<String>,
}

impl Simulator<'_> {
    /// Takes up to `steps` random transitions (in concrete mode each may be
    /// preceded by a delay), the choices drawn from `seed`: the same seed
    /// from the same state gives the same run. It stops early where no
    /// transition can be taken, or only ones whose updates fail.
    pub fn random(&mut self, steps: usize, seed: u64) -> Result<RandomRun, SimError> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for taken in 0..steps {
            let enabled = match self.enabled() {
                Ok(e) => e,
                Err(e) => return Ok(stopped(taken, e.to_string())),
            };
            let ok: Vec<usize> = (0..enabled.len())
                .filter(|&i| enabled[i].error.is_none())
                .collect();
            if ok.is_empty() {
                let why = if enabled.is_empty() {
                    "no transition is enabled"
                } else {
                    "every enabled transition raises a run-time error"
                };
                return Ok(stopped(taken, why.to_string()));
            }
            let index = ok[rng.random_range(0..ok.len())];
            let pick = &enabled[index];
            if pick.successor.is_none() {
                // Concrete: wait first, then take it without waiting.
                let window = &pick.windows[rng.random_range(0..pick.windows.len())];
                let mut delays = Vec::with_capacity(2);
                delays.extend(window.least());
                delays.extend(window.inner()?);
                let Some(&d) = delays.get(rng.random_range(0..delays.len().max(1))) else {
                    return Ok(stopped(taken, "no delay to choose".to_string()));
                };
                if d != num_rational::Rational64::from_integer(0) {
                    self.delay(d)?;
                }
                let again = self.enabled()?;
                let Some(i) = again
                    .iter()
                    .position(|o| o.transition == pick.transition && o.now())
                else {
                    return Err(SimError::Inconsistent(
                        "a transition chosen at random is not enabled after its delay".to_string(),
                    ));
                };
                self.fire(i + 1)?;
            } else {
                self.fire(index + 1)?;
            }
        }
        Ok(RandomRun {
            taken: steps,
            stopped: None,
        })
    }
}

fn stopped(taken: usize, why: String) -> RandomRun {
    RandomRun {
        taken,
        stopped: Some(why),
    }
}
