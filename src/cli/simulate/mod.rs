//! `zeno simulate FILE`: an interactive simulation session in the terminal
//! (a line editor with history and completion of commands) or, with
//! `--format json`, one JSON object per command line for scripts and
//! editors. Commands: `command.rs`; applying them: `session.rs`; output:
//! `render.rs`.

mod command;
mod render;
mod session;

use std::io::{BufRead, IsTerminal};

use rustyline::completion::{Completer, Pair};
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::validate::Validator;
use rustyline::{Context, Helper};
use zeno::simulate::{Mode, Simulator};

use super::args::{SimFormat, SimMode, SimulateArgs};
use super::check::options;
use super::load::load_network;
use super::{diag, exit, out};
use session::{Outcome, Session, SessionError};

pub fn run(args: &SimulateArgs) -> u8 {
    if args.file.as_os_str() == "-" {
        diag::error(
            "`zeno simulate -`: the commands come on standard input, so the model must be a file",
        );
        return exit::ERROR;
    }
    let (model, network) = match load_network(&args.file, &args.labels) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let Some(options) = diag::ok(options(&args.search)) else {
        return exit::ERROR;
    };
    let mode = match args.mode {
        SimMode::Concrete => Mode::Concrete,
        SimMode::Symbolic => Mode::Symbolic,
    };
    let sim = match Simulator::for_user(&network, mode) {
        Ok(s) => s,
        Err(e) => {
            diag::error(format!("cannot simulate `{}`: {e}", model.display_path()));
            return exit::ERROR;
        }
    };
    let mut session = Session::new(sim, options);
    let source = &model.source;
    let checks: Vec<String> = network.checks.iter().map(|c| c.name.clone()).collect();
    let interactive = args.format == SimFormat::Text && std::io::stdin().is_terminal();
    let mut lines: Box<dyn Iterator<Item = String>> = if interactive {
        match editor(checks) {
            Ok(ed) => Box::new(ed),
            Err(e) => {
                diag::error(format!("cannot start the line editor: {e}"));
                return exit::ERROR;
            }
        }
    } else {
        // A pipe or a file: plain lines, no prompt. A line that is not
        // UTF-8 ends the input with a message.
        Box::new(std::io::stdin().lock().lines().map_while(|l| match l {
            Ok(l) => Some(l),
            Err(e) => {
                diag::error(format!("reading the commands: {e}"));
                None
            }
        }))
    };
    match args.format {
        SimFormat::Text => {
            out::print(render::text(&render::view(source, &session)));
            if interactive {
                out::println("(`help` lists the commands)");
            }
        }
        // The initial state before any command, as a line of its own.
        SimFormat::Json => out::println(json_line(
            source,
            &session,
            None,
            Ok(Outcome::State { note: None }),
        )),
    }
    for line in &mut lines {
        let line = line.trim();
        // Blank lines and `#` comments are not commands.
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let result = session.execute(line);
        let quit = matches!(result, Ok(Outcome::Quit));
        match args.format {
            SimFormat::Json => out::println(json_line(source, &session, Some(line), result)),
            SimFormat::Text => out::print(text_reply(source, &session, result)),
        }
        if quit || !out::open() {
            break;
        }
    }
    exit::OK
}

/// The reply to one command in text mode.
fn text_reply(
    source: &super::source::Source,
    session: &Session,
    result: Result<Outcome, SessionError>,
) -> String {
    match result {
        Err(e) => format!("error: {e}\n"),
        Ok(Outcome::Quit) => String::new(),
        Ok(Outcome::Help) => format!("{}\n", command::HELP),
        Ok(Outcome::State { note }) => {
            let mut s = String::new();
            if let Some(n) = &note {
                s.push_str(&render::note_text(n));
                s.push('\n');
            }
            s.push_str(&render::text(&render::view(source, session)));
            s
        }
    }
}

/// The JSON object answering one command line.
fn json_line(
    source: &super::source::Source,
    session: &Session,
    line: Option<&str>,
    result: Result<Outcome, SessionError>,
) -> String {
    let mut reply = render::JsonLine {
        command: line,
        ok: true,
        error: None,
        random: None,
        trace: None,
        help: None,
        state: None,
    };
    match result {
        Err(e) => {
            reply.ok = false;
            reply.error = Some(e.to_string());
        }
        Ok(Outcome::Help) => reply.help = Some(command::HELP),
        Ok(Outcome::Quit) => reply.state = Some(render::view(source, session)),
        Ok(Outcome::State { note }) => {
            (reply.random, reply.trace) = render::note_json(note.as_ref());
            reply.state = Some(render::view(source, session));
        }
    }
    // Plain structs of strings and numbers always serialize.
    serde_json::to_string(&reply).unwrap_or_default()
}

/// Completes the command word, and check names after `trace`.
struct Complete {
    checks: Vec<String>,
}

impl Completer for Complete {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let before = &line[..pos];
        let start = before.rfind(char::is_whitespace).map_or(0, |i| i + 1);
        let word = &before[start..];
        let head = before[..start].trim();
        let options: Vec<&str> = match head {
            "" => command::WORDS.to_vec(),
            "trace" => self.checks.iter().map(String::as_str).collect(),
            _ => Vec::new(),
        };
        let pairs = options
            .into_iter()
            .filter(|o| o.starts_with(word))
            .map(|o| Pair {
                display: o.to_string(),
                replacement: o.to_string(),
            })
            .collect();
        Ok((start, pairs))
    }
}

impl Hinter for Complete {
    type Hint = String;
}
impl Highlighter for Complete {}
impl Validator for Complete {}
impl Helper for Complete {}

/// The terminal's lines, read with rustyline (history, completion); ends
/// at Ctrl-D, and at Ctrl-C on an empty line.
struct Lines {
    editor: rustyline::Editor<Complete, rustyline::history::DefaultHistory>,
}

fn editor(checks: Vec<String>) -> rustyline::Result<Lines> {
    let mut editor = rustyline::Editor::new()?;
    editor.set_helper(Some(Complete { checks }));
    Ok(Lines { editor })
}

impl Iterator for Lines {
    type Item = String;

    fn next(&mut self) -> Option<String> {
        let mut interrupted = false;
        loop {
            match self.editor.readline("zeno> ") {
                Ok(line) => {
                    let _ = self.editor.add_history_entry(line.as_str());
                    return Some(line);
                }
                // Ctrl-C abandons the line being typed; a second one ends.
                Err(rustyline::error::ReadlineError::Interrupted) if !interrupted => {
                    eprintln!("(Ctrl-C again or Ctrl-D to quit)");
                    interrupted = true;
                }
                Err(_) => return None,
            }
        }
    }
}
