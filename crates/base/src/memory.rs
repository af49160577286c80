//! The process's memory: how much it holds (a counting global allocator that
//! the `zeno` binary installs), the budget searches stay within, and growth
//! of large tables that fails cleanly instead of aborting the process.
//!
//! Rust aborts the process when an allocation fails. zeno avoids reaching
//! that point in three ways:
//!
//! 1. Every search polls [`over_budget`] with its other limits (time,
//!    Ctrl-C) and stops with `unknown: memory limit reached` and its
//!    statistics when the heap exceeds the budget.
//! 2. The big tables (the state store) grow through [`reserve`], inside a
//!    *fallible section* in which the allocator refuses any allocation that
//!    would take the heap past the budget; `try_reserve` then reports the
//!    refusal as an error, which the search turns into the same stop. Outside
//!    fallible sections the budget is never enforced by refusing memory, so
//!    ordinary allocations cannot fail because of it.
//! 3. The default budget ([`default_budget`]) is below what the process may
//!    really use (address-space and data limits, the cgroup's limit, physical
//!    memory), so the polls stop a search before the operating system refuses
//!    memory. If it refuses anyway, the allocator gives back a reserve set
//!    aside at start ([`set_aside_a_reserve`]), retries, and from then on
//!    [`over_budget`] is true, so the search stops at its next poll with its
//!    statistics. A second refusal prints a message and ends the process
//!    with exit code 3 (a limit was hit) instead of an abort.
//!
//! What counts is memory the process really holds. The heap count includes
//! capacity that was reserved but never touched (a table reserved for
//! thousands of zones of 200 clocks, per shard of a parallel search), which
//! the system does not back with memory: counted alone it made searches stop
//! at "6.5 GiB" with 50 MB resident. So the budget is passed only when both
//! the heap count and the resident set ([`resident`], read from `/proc` at
//! most every few milliseconds) pass it, and the peak a check reports is the
//! process's peak resident set ([`peak`]), as `/usr/bin/time` reports it.
//! Where `/proc` is missing, the heap count alone decides.
//!
//! Without the counting allocator (the library used on its own, the test
//! binaries) nothing is counted and no budget applies.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hash};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

/// A global allocator that counts the bytes the process holds. The `zeno`
/// binary installs it with `#[global_allocator]`.
pub struct CountingAllocator;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static INSTALLED: AtomicBool = AtomicBool::new(false);
static BUDGET: AtomicUsize = AtomicUsize::new(usize::MAX);

thread_local! {
    // `const` and without a destructor: reading it never allocates, so the
    // allocator itself may read it.
    static FALLIBLE: Cell<bool> = const { Cell::new(false) };
}

impl CountingAllocator {
    /// Whether an allocation of `size` more bytes must be refused: only in a
    /// fallible section, and only past the budget.
    fn refuses(size: usize) -> bool {
        let budget = BUDGET.load(Ordering::Relaxed);
        FALLIBLE.with(Cell::get)
            && CURRENT.load(Ordering::Relaxed).saturating_add(size) > budget
            && SECTION_RESIDENT
                .load(Ordering::Relaxed)
                .saturating_add(size)
                > budget
    }

    /// An allocation of `size` bytes by `allocate`: refused past the budget
    /// in a fallible section, counted when it succeeds.
    fn counted(size: usize, allocate: impl Fn() -> *mut u8) -> *mut u8 {
        if Self::refuses(size) {
            return std::ptr::null_mut();
        }
        let mut p = allocate();
        if p.is_null() {
            if FALLIBLE.with(Cell::get) {
                return p;
            }
            if !release_the_reserve() {
                Self::refused_by_the_system(size);
            }
            p = allocate();
            if p.is_null() {
                Self::refused_by_the_system(size);
            }
        }
        Self::grew(size);
        p
    }

    fn grew(size: usize) {
        let now = CURRENT.fetch_add(size, Ordering::Relaxed) + size;
        PEAK.fetch_max(now, Ordering::Relaxed);
        if !INSTALLED.load(Ordering::Relaxed) {
            INSTALLED.store(true, Ordering::Relaxed);
        }
    }

    /// The operating system refused memory outside a fallible section: end
    /// the process with a message and the exit code of a limit, without
    /// allocating (no formatting machinery, a raw write).
    fn refused_by_the_system(size: usize) -> ! {
        let mut digits = [0u8; 20];
        let mut i = digits.len();
        let mut n = size;
        loop {
            i -= 1;
            digits[i] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        write_stderr(b"zeno: out of memory: the system refused an allocation of ");
        write_stderr(&digits[i..]);
        write_stderr(
            b" bytes outside the memory budget's control; stopping (exit 3). A lower --memory makes searches stop earlier, with their statistics.\n",
        );
        exit_now(3)
    }
}

// SAFETY: every method forwards to `System` with the caller's layout and
// pointer unchanged; the bookkeeping only adds and subtracts sizes.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged.
        Self::counted(layout.size(), || unsafe { System.alloc(layout) })
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged.
        Self::counted(layout.size(), || unsafe { System.alloc_zeroed(layout) })
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged.
        unsafe { System.dealloc(ptr, layout) };
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let old = layout.size();
        if new_size > old && Self::refuses(new_size - old) {
            return std::ptr::null_mut();
        }
        // SAFETY: forwarded unchanged.
        let mut p = unsafe { System.realloc(ptr, layout, new_size) };
        if p.is_null() {
            if FALLIBLE.with(Cell::get) {
                return p;
            }
            if !release_the_reserve() {
                Self::refused_by_the_system(new_size);
            }
            // SAFETY: forwarded unchanged; a failed `realloc` left `ptr` valid.
            p = unsafe { System.realloc(ptr, layout, new_size) };
            if p.is_null() {
                Self::refused_by_the_system(new_size);
            }
        }
        if new_size >= old {
            Self::grew(new_size - old);
        } else {
            CURRENT.fetch_sub(old - new_size, Ordering::Relaxed);
        }
        p
    }
}

/// Bytes set aside at start ([`set_aside_a_reserve`]) and given back to the
/// system the first time it refuses an ordinary allocation, so that the
/// search can notice ([`over_budget`]), stop and print its statistics.
const RESERVE_BYTES: usize = 8 << 20;

/// The reserve's address (0: none held).
static RESERVE: AtomicUsize = AtomicUsize::new(0);
/// Set once the system has refused memory and the reserve was given back.
static RESERVE_SPENT: AtomicBool = AtomicBool::new(false);

/// Maps [`RESERVE_BYTES`] of address space that the process does not use,
/// to be unmapped the first time the system refuses an allocation outside a
/// fallible section: under an address-space limit (`ulimit -v`), the budget
/// cannot see every mapping (code, thread stacks, the allocator's arenas),
/// and a refusal may come first. The `zeno` binary calls this at start.
pub fn set_aside_a_reserve() {
    #[cfg(unix)]
    {
        // SAFETY: an anonymous private mapping of fresh pages; its address
        // is only ever passed to `munmap` with the same length.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                RESERVE_BYTES,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if p != libc::MAP_FAILED {
            RESERVE.store(p as usize, Ordering::Relaxed);
        }
    }
}

/// Gives the reserve back to the system and marks the budget as exceeded;
/// `false` if there was no reserve left to give. Never allocates.
fn release_the_reserve() -> bool {
    let p = RESERVE.swap(0, Ordering::Relaxed);
    if p == 0 {
        return false;
    }
    #[cfg(unix)]
    // SAFETY: `p` came from `mmap` with this length and is unmapped once
    // (the swap above took it).
    unsafe {
        libc::munmap(p as *mut libc::c_void, RESERVE_BYTES);
    }
    RESERVE_SPENT.store(true, Ordering::Relaxed);
    true
}

#[cfg(unix)]
fn write_stderr(bytes: &[u8]) {
    // SAFETY: writes a valid buffer to file descriptor 2.
    unsafe {
        libc::write(2, bytes.as_ptr().cast(), bytes.len());
    }
}

#[cfg(not(unix))]
fn write_stderr(bytes: &[u8]) {
    use std::io::Write;
    let _ = std::io::stderr().write_all(bytes);
}

#[cfg(unix)]
fn exit_now(code: i32) -> ! {
    // SAFETY: `_exit` ends the process without running handlers that might
    // allocate.
    unsafe { libc::_exit(code) }
}

#[cfg(not(unix))]
fn exit_now(code: i32) -> ! {
    std::process::exit(code)
}

/// The resident set read when the current fallible section began (the
/// allocator cannot read `/proc` itself); `usize::MAX` where it cannot be
/// read, so that the heap count alone decides.
static SECTION_RESIDENT: AtomicUsize = AtomicUsize::new(usize::MAX);

/// The process's resident set in bytes now (Linux: `/proc/self/statm`),
/// read without allocating.
pub fn resident() -> Option<u64> {
    read_proc_number(c"/proc/self/statm", b"", 1).map(|pages| pages * page_size())
}

/// The process's peak resident set in bytes (Linux: `VmHWM` in
/// `/proc/self/status`, what `/usr/bin/time -f %M` reports), since the
/// start or the last [`reset_peak`].
fn peak_resident() -> Option<u64> {
    read_proc_number(c"/proc/self/status", b"VmHWM:", 0).map(|kib| kib * 1024)
}

#[cfg(unix)]
fn page_size() -> u64 {
    // SAFETY: `sysconf` only reads a system parameter.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    u64::try_from(size).unwrap_or(4096)
}

#[cfg(not(unix))]
fn page_size() -> u64 {
    4096
}

/// The `field`th whitespace-separated number after `label` (at the start of
/// a line; empty: the file's start) in the small file at `path`, read into
/// a buffer on the stack.
#[cfg(target_os = "linux")]
fn read_proc_number(path: &std::ffi::CStr, label: &[u8], field: usize) -> Option<u64> {
    let mut buf = [0u8; 4096];
    // SAFETY: `open`/`read`/`close` on a NUL-terminated path and a buffer
    // of the length passed.
    let n = unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC);
        if fd < 0 {
            return None;
        }
        let n = libc::read(fd, buf.as_mut_ptr().cast(), buf.len());
        libc::close(fd);
        usize::try_from(n).ok()?
    };
    let text = &buf[..n];
    let start = if label.is_empty() {
        0
    } else {
        text.windows(label.len() + 1)
            .position(|w| w[0] == b'\n' && &w[1..] == label)?
            + 1
            + label.len()
    };
    text[start..]
        .split(|b| b.is_ascii_whitespace())
        .filter(|w| !w.is_empty())
        .nth(field)
        .and_then(|w| std::str::from_utf8(w).ok()?.parse().ok())
}

#[cfg(not(target_os = "linux"))]
fn read_proc_number(_: &std::ffi::CStr, _: &[u8], _: usize) -> Option<u64> {
    None
}

/// The resident set, read again only when [`RESIDENT_EVERY`] has passed
/// since the last reading (searches poll the budget at every state).
fn resident_recently() -> Option<u64> {
    use std::sync::OnceLock;
    use std::time::Instant;
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    static READ_AT: AtomicU64 = AtomicU64::new(0);
    static LAST: AtomicU64 = AtomicU64::new(u64::MAX);
    let now = EPOCH.get_or_init(Instant::now).elapsed().as_nanos() as u64 + 1;
    let last = LAST.load(Ordering::Relaxed);
    if last != u64::MAX && now.saturating_sub(READ_AT.load(Ordering::Relaxed)) < RESIDENT_EVERY {
        return Some(last);
    }
    let r = resident()?;
    LAST.store(r, Ordering::Relaxed);
    READ_AT.store(now, Ordering::Relaxed);
    Some(r)
}

/// How often (in nanoseconds) [`over_budget`] reads the resident set again.
const RESIDENT_EVERY: u64 = 5_000_000;

/// Bytes the process's heap holds now, when the counting allocator is
/// installed.
pub fn current() -> Option<u64> {
    INSTALLED
        .load(Ordering::Relaxed)
        .then(|| CURRENT.load(Ordering::Relaxed) as u64)
}

/// The most memory the process has held since [`reset_peak`], when the
/// counting allocator is installed: its peak resident set where the system
/// says (Linux), else the most bytes the heap has held.
pub fn peak() -> Option<u64> {
    if !INSTALLED.load(Ordering::Relaxed) {
        return None;
    }
    Some(peak_resident().unwrap_or(PEAK.load(Ordering::Relaxed) as u64))
}

/// Starts a new peak: from now on [`peak`] reports the most held since this
/// call (Linux: writing 5 to `/proc/self/clear_refs` sets the peak resident
/// set to the current one).
pub fn reset_peak() {
    PEAK.store(CURRENT.load(Ordering::Relaxed), Ordering::Relaxed);
    #[cfg(target_os = "linux")]
    {
        // A failed reset leaves the peak since the process started.
        let _ = std::fs::write("/proc/self/clear_refs", "5");
    }
}

/// Sets the budget in bytes (`None`: no budget).
pub fn set_budget(bytes: Option<u64>) {
    let b = bytes.map_or(usize::MAX, |b| usize::try_from(b).unwrap_or(usize::MAX));
    BUDGET.store(b, Ordering::Relaxed);
}

/// The budget in bytes, if one is set.
pub fn budget() -> Option<u64> {
    let b = BUDGET.load(Ordering::Relaxed);
    (b != usize::MAX).then_some(b as u64)
}

/// Whether the heap holds more than the budget, or the system has already
/// refused memory once (always `false` without the counting allocator).
pub fn over_budget() -> bool {
    if !INSTALLED.load(Ordering::Relaxed) {
        return false;
    }
    if RESERVE_SPENT.load(Ordering::Relaxed) {
        return true;
    }
    let budget = BUDGET.load(Ordering::Relaxed);
    // The heap count first (an atomic load); only past it, the resident set.
    CURRENT.load(Ordering::Relaxed) > budget
        && resident_recently().is_none_or(|r| r > budget as u64)
}

/// Growing a table would take the heap past the budget (or the system
/// refused the memory).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("out of memory: the memory budget does not allow the table to grow")]
pub struct OutOfMemory;

/// Runs `f` in a fallible section: allocations past the budget fail (return
/// null) instead of succeeding, so `try_reserve` inside reports them.
fn fallible<R>(f: impl FnOnce() -> R) -> R {
    struct Reset(bool);
    impl Drop for Reset {
        fn drop(&mut self) {
            FALLIBLE.with(|c| c.set(self.0));
        }
    }
    let resident = resident().map_or(usize::MAX, |r| usize::try_from(r).unwrap_or(usize::MAX));
    SECTION_RESIDENT.store(resident, Ordering::Relaxed);
    let _reset = Reset(FALLIBLE.with(|c| c.replace(true)));
    f()
}

/// Makes room for `additional` more elements in `v`, growing it (amortised,
/// as `push` does) only within the budget.
pub fn reserve<T>(v: &mut Vec<T>, additional: usize) -> Result<(), OutOfMemory> {
    if v.capacity() - v.len() >= additional {
        return Ok(());
    }
    fallible(|| v.try_reserve(additional)).map_err(|_| OutOfMemory)
}

/// [`reserve`] for a hash map.
pub fn reserve_map<K: Eq + Hash, V, S: BuildHasher>(
    m: &mut HashMap<K, V, S>,
    additional: usize,
) -> Result<(), OutOfMemory> {
    if m.capacity() - m.len() >= additional {
        return Ok(());
    }
    fallible(|| m.try_reserve(additional)).map_err(|_| OutOfMemory)
}

/// Why a text is not a size.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SizeError {
    /// The suffix is none of the units.
    #[error("`{0}`: unknown unit (use K, M, G or T)")]
    UnknownUnit(String),
    /// The number does not parse.
    #[error("`{0}` is not a size (e.g. 512M, 1.5G, 2GiB)")]
    NotANumber(String),
    /// Zero (or less than a byte).
    #[error("`{0}`: a size must be at least 1 byte")]
    TooSmall(String),
    /// More bytes than a 64-bit count holds (16 EiB).
    #[error("`{0}` is too large: a size is at most 16777215T")]
    TooLarge(String),
}

/// Parses a size: bytes, or a number with `K`, `M`, `G` or `T` (powers of
/// 1024, optionally followed by `i`, `B` or `iB`, any case): `512M`, `1.5G`,
/// `2GiB`.
pub fn parse_size(text: &str) -> Result<u64, SizeError> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let unit = unit.trim().to_ascii_lowercase();
    let unit = unit
        .strip_suffix("ib")
        .or_else(|| unit.strip_suffix('b'))
        .unwrap_or(&unit);
    let unit = unit.strip_suffix('i').unwrap_or(unit);
    let scale: u64 = match unit {
        "" => 1,
        "k" => 1 << 10,
        "m" => 1 << 20,
        "g" => 1 << 30,
        "t" => 1 << 40,
        _ => return Err(SizeError::UnknownUnit(text.to_string())),
    };
    let value: f64 = number
        .parse()
        .map_err(|_| SizeError::NotANumber(text.to_string()))?;
    let bytes = value * scale as f64;
    if bytes >= u64::MAX as f64 {
        return Err(SizeError::TooLarge(text.to_string()));
    }
    // `value` is no NaN (it parsed from digits and dots), so `< 1` is all.
    if bytes < 1.0 {
        return Err(SizeError::TooSmall(text.to_string()));
    }
    Ok(bytes as u64)
}

/// What the process may use, in bytes: the smallest of the address-space
/// and data-segment limits, the cgroup's memory limit and physical memory
/// (each where the platform has it); `None` when none is known.
pub fn available() -> Option<u64> {
    [rlimit_bytes(), cgroup_limit(), physical_memory()]
        .into_iter()
        .flatten()
        .min()
}

/// The default budget: seven eighths of [`available`], leaving room for
/// what the heap count does not see (code, thread stacks, the allocator's
/// own overhead) so that searches stop before the system refuses memory.
pub fn default_budget() -> Option<u64> {
    available().map(|a| a / 8 * 7)
}

/// Keeps the threads of a search from reserving address space the budget
/// cannot see. glibc gives every thread that allocates an arena of its own,
/// reserving 64 MiB of address space each: under an address-space or data
/// limit (`ulimit -v`, `ulimit -d`) a parallel search then runs out of
/// address space while its heap is far below the budget, and fails an
/// ordinary allocation instead of stopping with its statistics. With such a
/// limit, every thread shares one arena. The `zeno` binary calls this at
/// start; elsewhere it does nothing.
pub fn share_one_arena_under_address_limits() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if rlimit_bytes().is_some() {
        // SAFETY: `mallopt` only sets a parameter of glibc's allocator; it
        // is called before any thread other than the main one exists.
        unsafe {
            libc::mallopt(libc::M_ARENA_MAX, 1);
        }
    }
}

#[cfg(unix)]
fn rlimit_bytes() -> Option<u64> {
    let get = |resource| {
        let mut r = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: `getrlimit` fills the struct it is given.
        let ok = unsafe { libc::getrlimit(resource, &mut r) } == 0;
        // `rlim_t` is not `u64` on every unix.
        #[allow(clippy::unnecessary_cast)]
        (ok && r.rlim_cur != libc::RLIM_INFINITY).then_some(r.rlim_cur as u64)
    };
    [get(libc::RLIMIT_AS), get(libc::RLIMIT_DATA)]
        .into_iter()
        .flatten()
        .min()
}

#[cfg(not(unix))]
fn rlimit_bytes() -> Option<u64> {
    None
}

fn cgroup_limit() -> Option<u64> {
    [
        "/sys/fs/cgroup/memory.max",
        "/sys/fs/cgroup/memory/memory.limit_in_bytes",
    ]
    .iter()
    .filter_map(|p| std::fs::read_to_string(p).ok())
    // "max" (v2) or a huge number (v1) mean no limit.
    .filter_map(|s| s.trim().parse::<u64>().ok())
    .filter(|&b| b < 1 << 60)
    .min()
}

fn physical_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("1024"), Ok(1024));
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("2GiB"), Ok(2 << 30));
        assert_eq!(parse_size("1.5g"), Ok(3 << 29));
        assert_eq!(parse_size("8 KB"), Ok(8 << 10));
        assert!(parse_size("0").is_err());
        assert!(parse_size("12 parsecs").is_err());
        assert!(parse_size("-1G").is_err());
        assert!(parse_size("").is_err());
        // The limits say which side was crossed.
        assert_eq!(
            parse_size("99999999T"),
            Err(SizeError::TooLarge("99999999T".into()))
        );
        assert_eq!(parse_size("0.1"), Err(SizeError::TooSmall("0.1".into())));
        assert_eq!(parse_size("16777215T"), Ok(16_777_215 << 40));
    }

    #[test]
    fn reserve_grows_without_a_budget() {
        // The test binary has no counting allocator: nothing is refused.
        let mut v: Vec<u64> = Vec::new();
        assert_eq!(reserve(&mut v, 1000), Ok(()));
        assert!(v.capacity() >= 1000);
        let mut m: HashMap<u32, u32> = HashMap::new();
        assert_eq!(reserve_map(&mut m, 10), Ok(()));
        assert!(m.capacity() >= 10);
        assert!(!over_budget());
    }
}
