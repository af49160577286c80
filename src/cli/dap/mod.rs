//! `zeno dap`: a Debug Adapter Protocol server on stdin/stdout that steps
//! through a check's counterexample or witness, or a simulation, as a
//! debug session (docs/cli.md, "zeno dap"; editors/README.md).
//!
//! Processes are threads, each process's location its stack frame (with
//! the edge that brought it there below it); the Variables view shows the
//! variables, the clocks (value and zone bounds) and each process's locals.
//! Stepping moves one transition forward or back; `continue` and
//! `reverseContinue` run to a breakpoint (a location, an edge, a condition)
//! or the run's end. Modules: `wire` (framing), `session` (the states and
//! moving among them, all from the simulator), `view` (threads, frames,
//! scopes, variables), `watch` (expressions), `place` (source positions).
//!
//! The messages are JSON built and read here with the specification's
//! field names. The DAP crates on crates.io were weighed and left out:
//! `dap` 0.4.1-alpha1 is a pre-release whose reader fails on a header
//! other than `Content-Length` and loses a malformed request's `seq` (so
//! it cannot be answered), and brings `thiserror` 1 beside the project's 2;
//! `debug_types` 1.0.0 (a single 2022 release) and `dap-types` 0.0.1 are
//! types only. The adapter uses a score of messages.
//!
//! Only protocol messages go to stdout. Every request gets a response: a
//! malformed message, an unknown request and a request before `launch`
//! get error responses, and a panic in a handler becomes an error response
//! for that request.

mod place;
mod session;
mod view;
mod watch;
mod wire;

use std::io::{BufReader, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use serde_json::{Value, json};
use zeno::checker::Options;
use zeno::diagnostics::Severity;
use zeno::ir::CheckId;

use super::args::DapArgs;
use super::exit;
use place::Places;
use session::{Debuggee, Halt};
use wire::Incoming;

/// How many transitions `continue` takes in a simulation before it pauses
/// without a breakpoint hit (the `maxSteps` launch argument).
const DEFAULT_MAX_STEPS: usize = 1000;

pub fn run(_: &DapArgs) -> u8 {
    let mut input = BufReader::new(std::io::stdin().lock());
    let mut output = std::io::stdout().lock();
    let mut server = Server::default();
    loop {
        let message = match wire::read(&mut input) {
            Ok(Incoming::End) => break,
            Ok(Incoming::Message(m)) => m,
            Ok(Incoming::Malformed(why)) => {
                server.send(
                    &mut output,
                    error_response(0, "", &format!("malformed message: {why}")),
                );
                continue;
            }
            Err(e) => {
                eprintln!("zeno dap: reading the input: {e}");
                return exit::ERROR;
            }
        };
        let replies = server.handle(&message);
        for reply in replies {
            server.send(&mut output, reply);
        }
        if server.done {
            break;
        }
    }
    exit::OK
}

/// The adapter's state between requests.
#[derive(Default)]
struct Server {
    /// The sequence number of the last message sent.
    seq: i64,
    /// The client counts lines and columns from 0 (`linesStartAt1` false).
    lines_from_0: bool,
    columns_from_0: bool,
    debuggee: Option<Debuggee>,
    /// `configurationDone` arrived (the entry stop is sent once both it
    /// and `launch` have).
    configured: bool,
    /// Breakpoint ids handed out.
    next_breakpoint: i64,
    /// `disconnect` or `terminate` was answered.
    done: bool,
}

/// A reply: a response or an event, numbered when sent.
type Reply = Value;

impl Server {
    fn send(&mut self, output: &mut impl Write, mut reply: Reply) {
        self.seq += 1;
        reply["seq"] = json!(self.seq);
        if let Err(e) = wire::write(output, &reply) {
            eprintln!("zeno dap: writing the output: {e}");
            self.done = true;
        }
    }

    /// The replies to one message.
    fn handle(&mut self, message: &Value) -> Vec<Reply> {
        let seq = message["seq"].as_i64().unwrap_or(0);
        let command = message["command"].as_str().unwrap_or("");
        match message["type"].as_str() {
            Some("request") if !command.is_empty() => {}
            Some("response" | "event") => {
                // The adapter sends no reverse requests: nothing to match.
                eprintln!("zeno dap: ignored a {} from the client", message["type"]);
                return Vec::new();
            }
            _ => {
                return vec![error_response(
                    seq,
                    command,
                    "malformed message: a request needs \"type\": \"request\" and a \"command\"",
                )];
            }
        }
        let arguments = message.get("arguments").cloned().unwrap_or(json!({}));
        if !arguments.is_object() {
            return vec![error_response(
                seq,
                command,
                "malformed request: \"arguments\" must be an object",
            )];
        }
        let handled = catch_unwind(AssertUnwindSafe(|| self.request(command, &arguments)));
        match handled {
            Ok(Ok((body, mut events))) => {
                let mut replies = vec![json!({
                    "type": "response", "request_seq": seq, "success": true,
                    "command": command, "body": body,
                })];
                replies.append(&mut events);
                replies
            }
            Ok(Err(message)) => vec![error_response(seq, command, &message)],
            Err(panic) => {
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                vec![error_response(
                    seq,
                    command,
                    &format!("internal error: {what}"),
                )]
            }
        }
    }

    /// The body of the response to a request, and the events after it.
    fn request(&mut self, command: &str, args: &Value) -> Result<(Value, Vec<Reply>), String> {
        let none = Vec::new();
        match command {
            "initialize" => {
                self.lines_from_0 = args["linesStartAt1"] == json!(false);
                self.columns_from_0 = args["columnsStartAt1"] == json!(false);
                Ok((capabilities(), Vec::new()))
            }
            "launch" => self.launch(args),
            "configurationDone" => {
                self.configured = true;
                Ok((json!({}), self.entry_stop()))
            }
            "setBreakpoints" => self.set_breakpoints(args).map(|b| (b, none)),
            "setExceptionBreakpoints" | "setFunctionBreakpoints" => {
                Ok((json!({"breakpoints": []}), none))
            }
            "threads" => Ok((json!({"threads": self.threads()}), none)),
            "stackTrace" => {
                let d = self.debuggee()?;
                let thread = args["threadId"].as_i64().unwrap_or(0);
                let frames = view::frames(d, thread, &self.bases())?;
                let total = frames.len();
                Ok((json!({"stackFrames": frames, "totalFrames": total}), none))
            }
            "scopes" => {
                let d = self.debuggee()?;
                let frame = args["frameId"].as_i64().unwrap_or(0);
                Ok((json!({"scopes": view::scopes(d, frame)?}), none))
            }
            "variables" => {
                let d = self.debuggee()?;
                let reference = args["variablesReference"].as_i64().unwrap_or(0);
                Ok((json!({"variables": view::variables(d, reference)?}), none))
            }
            "evaluate" => {
                let d = self.debuggee()?;
                let mut expression = args["expression"].as_str().unwrap_or("").to_string();
                // In a frame (a hover, a watch with a frame selected), the
                // frame's process's own names are its.
                if let Some(frame) = args["frameId"].as_i64() {
                    let p = view::process_of(d, (frame + 1) / 2)?;
                    let process = &d.net.processes[p as usize].name;
                    expression = watch::in_process(d.places.zeno(), process, &expression);
                }
                let w = watch::parse(d.places.zeno(), &expression)?;
                let value = d.evaluate(&w)?;
                Ok((
                    json!({"result": value.to_string(), "variablesReference": 0}),
                    none,
                ))
            }
            "next" | "stepIn" | "stepOut" => self.step(|d| d.forward()),
            "stepBack" => self.step(|d| d.back()),
            "continue" => self.run(true),
            "reverseContinue" => self.run(false),
            "gotoTargets" => {
                let d = self.debuggee()?;
                let line = args["line"].as_i64().unwrap_or(0) - i64::from(!self.lines_from_0);
                let targets = view::goto_targets(d, u32::try_from(line).unwrap_or(u32::MAX));
                Ok((json!({"targets": targets}), none))
            }
            "goto" => {
                let d = self.debuggee_mut()?;
                let target = args["targetId"].as_i64().unwrap_or(0);
                let k = usize::try_from(target - 1).map_err(|_| "no such goto target")?;
                d.goto(k)?;
                let d = self.debuggee()?;
                Ok((json!({}), vec![view::stopped(d, "goto", None)]))
            }
            "pause" => {
                // Every request runs to its end before the next is read:
                // there is never anything running to pause.
                Ok((json!({}), none))
            }
            "disconnect" | "terminate" => {
                self.done = true;
                Ok((json!({}), vec![event("terminated", json!({}))]))
            }
            other => Err(format!("zeno dap does not support the request `{other}`")),
        }
    }

    fn bases(&self) -> view::Bases {
        view::Bases {
            line: u32::from(!self.lines_from_0),
            column: u32::from(!self.columns_from_0),
        }
    }

    fn debuggee(&self) -> Result<&Debuggee, String> {
        self.debuggee
            .as_ref()
            .ok_or_else(|| "no model is launched yet (send `launch` first)".to_string())
    }

    fn debuggee_mut(&mut self) -> Result<&mut Debuggee, String> {
        self.debuggee
            .as_mut()
            .ok_or_else(|| "no model is launched yet (send `launch` first)".to_string())
    }

    fn threads(&self) -> Vec<Value> {
        self.debuggee.as_ref().map_or(Vec::new(), |d| {
            d.net
                .processes
                .iter()
                .enumerate()
                .map(|(p, process)| json!({"id": p + 1, "name": process.name}))
                .collect()
        })
    }

    /// The entry stop, once the model is launched and configured.
    fn entry_stop(&self) -> Vec<Reply> {
        match (&self.debuggee, self.configured) {
            (Some(d), true) => vec![view::stopped(d, "entry", None)],
            _ => Vec::new(),
        }
    }

    fn launch(&mut self, args: &Value) -> Result<(Value, Vec<Reply>), String> {
        if self.debuggee.is_some() {
            return Err("a model is already launched in this session".to_string());
        }
        let program = args["program"]
            .as_str()
            .ok_or("launch needs \"program\": the model file")?;
        let text = std::fs::read_to_string(program)
            .map_err(|e| format!("cannot read `{program}`: {e}"))?;
        let labels: Vec<String> = match &args["labels"] {
            Value::Null => Vec::new(),
            Value::Array(a) => a
                .iter()
                .map(|l| l.as_str().map(str::to_string))
                .collect::<Option<_>>()
                .ok_or("\"labels\" must be a list of strings")?,
            _ => return Err("\"labels\" must be a list of strings".to_string()),
        };
        let loaded = zeno::load::load(program, &text, &labels).map_err(|e| match e {
            zeno::load::LoadError::Import {
                ref diagnostics, ..
            } => first_errors(&e.to_string(), program, &text, diagnostics),
            other => other.to_string(),
        })?;
        let analysis = loaded.analyze();
        let errors: Vec<_> = analysis
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .cloned()
            .collect();
        let network = match analysis.network {
            Some(n) if errors.is_empty() => n,
            _ => {
                let shown = if loaded.imported_from().is_some() {
                    format!("{program} (imported)")
                } else {
                    program.to_string()
                };
                return Err(first_errors(
                    "the model has errors",
                    &shown,
                    &loaded.zeno,
                    &errors,
                ));
            }
        };
        let check = match &args["check"] {
            Value::Null => None,
            Value::String(name) => Some(network.check_named(name).ok_or_else(|| {
                let names: Vec<&str> = network.checks.iter().map(|c| c.name.as_str()).collect();
                if names.is_empty() {
                    format!("no check named `{name}`: the model has no checks")
                } else {
                    format!(
                        "no check named `{name}`: the model's checks are {}",
                        names.join(", ")
                    )
                }
            })?),
            Value::Number(n) => Some(check_at(&network, n.as_u64())?),
            _ => return Err("\"check\" is a check's name or its index (from 0)".to_string()),
        };
        let mut options = Options::default();
        if let Some(seed) = args.get("seed").filter(|s| !s.is_null()) {
            options.seed = seed
                .as_u64()
                .ok_or("\"seed\" must be a non-negative integer")?;
        }
        if let Some(search) = args["search"].as_str() {
            options.config.search = search.parse().map_err(|e| format!("\"search\": {e}"))?;
        }
        let max_steps = match args.get("maxSteps").filter(|s| !s.is_null()) {
            None => DEFAULT_MAX_STEPS,
            Some(n) => n
                .as_u64()
                .filter(|&n| n > 0)
                .and_then(|n| usize::try_from(n).ok())
                .ok_or("\"maxSteps\" must be a positive integer")?,
        };
        let imported = loaded.imported_from().is_some();
        let places = Places::new(
            program.to_string(),
            text,
            loaded.zeno.clone(),
            imported,
            loaded.source_map.clone(),
        );
        let d = Debuggee::new(network, places, check, &options, max_steps)?;
        let what = match (check, d.trace_len()) {
            (Some(k), Some(n)) => format!(
                "the trace of check `{}`: {}\n",
                d.net.check(k).name,
                zeno::report::steps(n)
            ),
            _ => "a simulation from the initial state (each step takes a random transition)\n"
                .to_string(),
        };
        self.debuggee = Some(d);
        // Configuration (breakpoints) is asked for once the model is
        // known, so that each breakpoint is checked against it.
        let mut events = vec![
            event(
                "output",
                json!({"category": "console", "output": format!("zeno: debugging {what}")}),
            ),
            event("initialized", json!({})),
        ];
        events.extend(self.entry_stop());
        Ok((json!({}), events))
    }

    fn set_breakpoints(&mut self, args: &Value) -> Result<Value, String> {
        let lines_from_0 = self.lines_from_0;
        let mut next_id = self.next_breakpoint;
        let d = self
            .debuggee
            .as_mut()
            .ok_or("no model is launched yet (send `launch` first)")?;
        let path = args["source"]["path"].as_str().unwrap_or("");
        let same = same_file(path, &d.places.path);
        let asked = args["breakpoints"].as_array().cloned().unwrap_or_default();
        let mut answered = Vec::new();
        let mut kept = Vec::new();
        for b in &asked {
            let line = b["line"].as_i64().unwrap_or(0);
            let line0 = u32::try_from(line - i64::from(!lines_from_0)).ok();
            let targets = match (same, line0) {
                (true, Some(l)) => d.places.on_line(d.net, l),
                _ => Vec::new(),
            };
            let condition_text = b["condition"]
                .as_str()
                .filter(|c| !c.trim().is_empty())
                .map(str::to_string);
            let condition = condition_text
                .as_deref()
                .map(|c| watch::parse(d.places.zeno(), c))
                .transpose();
            next_id += 1;
            let mut reply = json!({"id": next_id, "line": line});
            let problem = if !same {
                Some("breakpoints go in the launched model's file".to_string())
            } else if targets.is_empty() {
                Some("no location or edge on this line".to_string())
            } else {
                condition.as_ref().err().map(|e| format!("condition: {e}"))
            };
            match problem {
                Some(message) => {
                    reply["verified"] = json!(false);
                    reply["message"] = json!(message);
                }
                None => {
                    reply["verified"] = json!(true);
                    kept.push(session::Breakpoint {
                        id: next_id,
                        targets,
                        condition: condition.ok().flatten(),
                        condition_text,
                    });
                }
            }
            answered.push(reply);
        }
        if same {
            d.breakpoints = kept;
        }
        self.next_breakpoint = next_id;
        Ok(json!({"breakpoints": answered}))
    }

    /// One step: the response, then the stop (with why the step could not
    /// be taken, where it could not).
    fn step(
        &mut self,
        f: impl FnOnce(&mut Debuggee) -> Result<(), String>,
    ) -> Result<(Value, Vec<Reply>), String> {
        let d = self.debuggee_mut()?;
        let moved = f(d);
        let d = self.debuggee()?;
        let note = moved.err();
        Ok((json!({}), vec![view::stopped(d, "step", note)]))
    }

    fn run(&mut self, forward: bool) -> Result<(Value, Vec<Reply>), String> {
        let d = self.debuggee_mut()?;
        let halt = d.run(forward);
        let d = self.debuggee()?;
        let stop = match halt {
            Halt::Breakpoint(i) => {
                let mut stop = view::stopped(d, "breakpoint", None);
                stop["body"]["hitBreakpointIds"] = json!([d.breakpoints[i].id]);
                stop
            }
            Halt::ConditionError(e) => view::stopped(d, "breakpoint", Some(e)),
            Halt::Edge => view::stopped(d, "step", None),
            Halt::Stuck(why) => view::stopped(d, "step", Some(why)),
            Halt::Paused(n) => view::stopped(
                d,
                "pause",
                Some(format!(
                    "{} without a breakpoint hit (maxSteps)",
                    zeno::report::steps(n)
                )),
            ),
        };
        Ok((json!({"allThreadsContinued": true}), vec![stop]))
    }
}

fn capabilities() -> Value {
    json!({
        "supportsConfigurationDoneRequest": true,
        "supportsStepBack": true,
        "supportsGotoTargetsRequest": true,
        "supportsConditionalBreakpoints": true,
        "supportsEvaluateForHovers": true,
        "supportsTerminateRequest": true,
    })
}

/// An event to send.
fn event(name: &str, body: Value) -> Reply {
    json!({"type": "event", "event": name, "body": body})
}

/// The error response to request `seq`; the message is shown to the user.
fn error_response(seq: i64, command: &str, message: &str) -> Reply {
    json!({
        "type": "response", "request_seq": seq, "success": false,
        "command": command, "message": message,
        "body": {"error": {"id": 1, "format": message, "showUser": false}},
    })
}

/// `check` given as an index.
fn check_at(network: &zeno::ir::Network, index: Option<u64>) -> Result<CheckId, String> {
    let count = network.checks.len();
    index
        .and_then(|i| usize::try_from(i).ok())
        .and_then(|i| network.check_at(i))
        .ok_or_else(|| {
            format!("no check at that index: the model has {count} checks, numbered from 0")
        })
}

/// A message with the first errors, each with its line and column.
fn first_errors(
    head: &str,
    name: &str,
    text: &str,
    diagnostics: &[zeno::diagnostics::Diagnostic],
) -> String {
    let places = Places::new(
        name.to_string(),
        text.to_string(),
        text.to_string(),
        false,
        None,
    );
    let mut out = head.to_string();
    for d in diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .take(3)
    {
        let at = places.place(d.range);
        let (line, column) = at.map_or((0, 0), |p| (p.line + 1, p.column + 1));
        out.push_str(&format!("\n{name}:{line}:{column}: {}", d.message));
    }
    out
}

/// Whether two paths name the same file (as the client and the launch
/// arguments wrote them).
fn same_file(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    match (
        std::fs::canonicalize(Path::new(a)),
        std::fs::canonicalize(Path::new(b)),
    ) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}
