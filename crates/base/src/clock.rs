//! The calling thread's CPU time. Searches that share one core by taking
//! turns measure their slices in it, so that a thread the operating system
//! did not run (a loaded machine) is not charged for the wait, and what a
//! search does in its turn does not depend on the machine's load.

use std::time::Duration;

/// CPU time the calling thread has used since it started; `None` where the
/// platform has no per-thread clock (callers fall back to wall time).
pub fn thread_cpu_time() -> Option<Duration> {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid, writable timespec; the call only writes it.
        let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        if rc != 0 {
            return None;
        }
        let secs = u64::try_from(ts.tv_sec).ok()?;
        let nanos = u32::try_from(ts.tv_nsec).ok()?;
        Some(Duration::new(secs, nanos))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sleeping costs no CPU time; spinning does.
    #[test]
    #[cfg(unix)]
    fn sleeping_is_not_counted_and_spinning_is() {
        let start = thread_cpu_time().expect("a thread clock on unix");
        std::thread::sleep(Duration::from_millis(50));
        let slept = thread_cpu_time().unwrap() - start;
        assert!(slept < Duration::from_millis(20), "{slept:?}");
        let spin_from = thread_cpu_time().unwrap();
        while thread_cpu_time().unwrap() - spin_from < Duration::from_millis(5) {}
        assert!(thread_cpu_time().unwrap() - start >= Duration::from_millis(5));
    }
}
