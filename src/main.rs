//! The `zeno` command line.

mod cli;

use std::process::ExitCode;

use clap::Parser;

/// Counts the heap so that searches can stop at a memory budget
/// (`zeno::memory`) instead of the process aborting when memory runs out.
#[global_allocator]
static ALLOCATOR: zeno::memory::CountingAllocator = zeno::memory::CountingAllocator;

fn main() -> ExitCode {
    zeno::memory::share_one_arena_under_address_limits();
    zeno::memory::set_aside_a_reserve();
    zeno::memory::set_budget(zeno::memory::default_budget());
    let parsed = match cli::args::Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            // `--help` and `--version` are not errors; everything else is a usage error.
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { cli::exit::ERROR } else { 0 });
        }
    };
    ExitCode::from(cli::run(parsed))
}
