//! `zeno completions SHELL` and `zeno man [COMMAND]`: shell completions
//! and man pages generated from the clap definition of the command line,
//! so they never drift from it.

use clap::CommandFactory;

use super::args::{Cli, CompletionsArgs, ManArgs, Shell};
use super::{diag, exit, out};

pub fn completions(args: &CompletionsArgs) -> u8 {
    let shell = match args.shell {
        Shell::Bash => clap_complete::Shell::Bash,
        Shell::Zsh => clap_complete::Shell::Zsh,
        Shell::Fish => clap_complete::Shell::Fish,
    };
    // Into a buffer first: `generate` panics when its writer fails.
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "zeno", &mut script);
    out::print(String::from_utf8_lossy(&script));
    exit::OK
}

pub fn man(args: &ManArgs) -> u8 {
    let mut command = Cli::command();
    // Subcommands' pages need their names qualified and the global flags.
    command.build();
    let page = match &args.command {
        None => clap_mangen::Man::new(command),
        Some(name) => match command.find_subcommand(name) {
            Some(sub) => clap_mangen::Man::new(sub.clone()).title(format!("zeno-{name}")),
            None => {
                let names: Vec<&str> = command.get_subcommands().map(|c| c.get_name()).collect();
                diag::error(format!(
                    "no command named `{name}`; the commands: {}",
                    names.join(", ")
                ));
                return exit::ERROR;
            }
        },
    };
    out::with_stdout(|w| page.render(w));
    exit::OK
}
