//! Command-line arguments (clap derive).

use std::path::PathBuf;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};
use zeno::checker::{Enhance, HeuristicKind, Reduce, SearchOrder, Subsume, Ties};

#[derive(Debug, Parser)]
#[command(
    name = "zeno",
    version,
    about = "Directed model checking of timed automata"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Memory budget: a search stops (exit 3, `unknown: memory limit
    /// reached`, with its statistics) when the process's heap reaches SIZE,
    /// in bytes or with K, M, G, T (powers of 1024): `512M`, `8G`. Default:
    /// seven eighths of what the process may use (the smallest of its
    /// address-space and data limits, its cgroup's limit and physical memory).
    #[arg(long, global = true, value_name = "SIZE", value_parser = zeno::memory::parse_size)]
    pub memory: Option<u64>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Decide the checks of model files.
    Check(CheckArgs),
    /// Format model files in place.
    Fmt(FmtArgs),
    /// Translate a UPPAAL (XML, XTA) or TChecker model into zeno text.
    Import(ImportArgs),
    /// Write a model in TChecker's or UPPAAL's XTA format.
    Export(ExportArgs),
    /// Draw the automata (SVG or Graphviz DOT), optionally with a trace's edges numbered.
    Graph(GraphArgs),
    /// Draw a check's error trace (or witness) as a timeline.
    Trace(TraceArgs),
    /// Run a table of models × search configurations and print the figures.
    Bench(BenchArgs),
    /// Simulate a model by hand: take transitions, let time pass, go back,
    /// step through a check's trace (interactive, or JSON lines).
    Simulate(SimulateArgs),
    /// Run the language server on stdin/stdout.
    Lsp(LspArgs),
    /// Run a debug adapter (Debug Adapter Protocol) on stdin/stdout: step
    /// through a check's trace or a simulation in an editor's debugger.
    Dap(DapArgs),
    /// Print a shell completion script (bash, zsh or fish) on stdout.
    Completions(CompletionsArgs),
    /// Print the man page (roff) of zeno, or of one command, on stdout.
    Man(ManArgs),
}

/// `zeno lsp`: the language server speaks over stdin/stdout. Language
/// clients name the transport they want; `--stdio` is the one zeno has
/// (and the default). The others are accepted as arguments only so that
/// asking for them gets a clear error instead of clap's "unexpected
/// argument", which an editor shows as a crash.
/// `zeno dap` takes no arguments: the model and the check come with the
/// client's `launch` request.
#[derive(Debug, Args)]
pub struct DapArgs {}

#[derive(Debug, Args)]
pub struct LspArgs {
    /// Speak the protocol over stdin/stdout (the default; language clients
    /// such as vscode-languageclient pass it).
    #[arg(long)]
    pub stdio: bool,
    /// The client's process id, as vscode-languageclient passes it to a
    /// Node server; not used (the server ends when its input ends).
    #[arg(long = "clientProcessId", value_name = "PID", hide = true)]
    pub client_process_id: Option<u32>,
    /// Not supported: the socket transport.
    #[arg(long, value_name = "PORT", hide = true)]
    pub socket: Option<String>,
    /// Not supported: the socket transport.
    #[arg(long, value_name = "PORT", hide = true)]
    pub port: Option<String>,
    /// Not supported: the named-pipe transport.
    #[arg(long, value_name = "NAME", hide = true)]
    pub pipe: Option<String>,
    /// Not supported: Node's IPC channel.
    #[arg(long = "node-ipc", hide = true)]
    pub node_ipc: bool,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    #[arg(value_enum)]
    pub shell: Shell,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Shell {
    Bash,
    Zsh,
    Fish,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// A command (`check`, `simulate`, ...) for its own page.
    #[arg(value_name = "COMMAND")]
    pub command: Option<String>,
}

#[derive(Debug, Args)]
pub struct SimulateArgs {
    /// The model (`.zeno`, or any format `zeno import` reads).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Clocks as values with explicit delays (`concrete`), or as zones
    /// (`symbolic`, UPPAAL's symbolic simulator).
    #[arg(long, value_enum, default_value_t = SimMode::Concrete)]
    pub mode: SimMode,
    /// `text`: a session for people (a line editor on a terminal); `json`:
    /// one command per input line, one JSON object per output line.
    #[arg(long, value_enum, default_value_t = SimFormat::Text)]
    pub format: SimFormat,
    /// TChecker labels, when FILE is a TChecker model.
    #[arg(long, value_name = "A,B", value_delimiter = ',')]
    pub labels: Vec<String>,
    /// How `trace CHECK` decides the check; `--seed` also seeds the first
    /// `random` without a seed (each later one takes the next number).
    #[command(flatten)]
    pub search: SearchArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SimMode {
    Concrete,
    Symbolic,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SimFormat {
    Text,
    Json,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Model files (`.zeno`; `.xml`, `.xta` and `.tck` are imported first).
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Generated models, `NAME:SIZES` (repeatable): `fischer:5,10,15`,
    /// `fischer-correct:4..6`, `fischer-atg:5,10,15`, `fischer-scalar:6,8`,
    /// `hanoi:3..6`, `arbiter:2..4`.
    #[arg(long = "family", value_name = "NAME:SIZES")]
    pub families: Vec<String>,
    /// Search configurations, `ORDER[:HEURISTIC][+ENHANCEMENT][+safe][+lifo]`,
    /// comma-separated or repeated: `bfs`, `greedy:hl`, `greedy:hl+ut`,
    /// `astar:hl`, `bfs+ce`, `greedy:hl+lifo` (ties newest first).
    #[arg(long = "config", value_name = "CONFIG", default_value = "bfs")]
    pub configs: Vec<String>,
    /// TChecker labels, for `.tck` files.
    #[arg(long, value_name = "A,B", value_delimiter = ',')]
    pub labels: Vec<String>,
    /// Only run the named checks (repeatable); default: every check.
    #[arg(long = "check", value_name = "NAME")]
    pub checks: Vec<String>,
    /// Stop each run after exploring this many states.
    #[arg(long, value_name = "N")]
    pub max_states: Option<u64>,
    /// Stop each run after this many seconds.
    #[arg(long, value_name = "S")]
    pub timeout: Option<f64>,
    /// Output format on stdout.
    #[arg(long, value_enum, default_value_t = BenchFormat::Markdown)]
    pub format: BenchFormat,
    /// After the rows, summarise them per base search as the thesis'
    /// Table 4.4 does: averages and medians over the instances every
    /// configuration of the group solved, and the instances each solved.
    #[arg(long)]
    pub summary: bool,
    /// Threads of each breadth-first run, and of greedy and A* runs with
    /// dl, du or pdb (the others use one); 1 by default, so that times
    /// compare with earlier tables.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub threads: usize,
    /// Write the generated family models into this directory as
    /// `NAME.zeno` instead of running anything.
    #[arg(long, value_name = "DIR")]
    pub emit: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BenchFormat {
    Markdown,
    Json,
}

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The model (`.xml`, `.xta`, `.tck`; otherwise guessed from the content).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Write the zeno text here instead of stdout.
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// TChecker labels whose joint reachability becomes a `check`.
    #[arg(long, value_name = "A,B", value_delimiter = ',')]
    pub labels: Vec<String>,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Target format.
    #[arg(long, value_enum)]
    pub to: ExportFormat,
    /// The model (`.zeno`, or any format `zeno import` reads).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Write here instead of stdout (for XTA the queries go to OUT with
    /// the extension `.q`).
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// TChecker labels, when FILE is a TChecker model.
    #[arg(long, value_name = "A,B", value_delimiter = ',')]
    pub labels: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    Tchecker,
    Xta,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Model files (`.zeno`; `.xml`, `.xta` and `.tck` are imported first).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// TChecker labels: check whether a state carrying all of them is
    /// reachable (the imported check is named `labels`).
    #[arg(long, value_name = "A,B", value_delimiter = ',')]
    pub labels: Vec<String>,
    /// Only run the named check (repeatable); default: every check.
    #[arg(long = "check", value_name = "NAME")]
    pub checks: Vec<String>,
    /// A UPPAAL query file (`.q`): its queries are added to every model's
    /// checks, named after the one-word comment above them, else `line3`
    /// after their line (repeatable).
    #[arg(long, value_name = "FILE.q")]
    pub queries: Vec<PathBuf>,
    /// Do not read `MODEL.q` beside a UPPAAL model `MODEL.xml`/`.xta`
    /// (read by default, as UPPAAL keeps queries there).
    #[arg(long)]
    pub no_queries_file: bool,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Output format on stdout.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// How much of each trace the text output shows.
    #[arg(long, value_enum, default_value_t = TraceDetail::Short)]
    pub trace: TraceDetail,
    /// Race a portfolio of configurations (`greedy:hu`, `greedy:hl+ut`,
    /// `bfs+ce`, `greedy:hcg+safe`, `rdfs`) on parallel threads; the first
    /// verdict wins. `--search`, `--heuristic` and `--enhance` are ignored;
    /// the limits apply to each configuration.
    #[arg(long)]
    pub portfolio: bool,
    /// Race these configurations instead of the default portfolio (implies
    /// `--portfolio`): comma-separated `ORDER[:HEURISTIC][+ENHANCE][+safe][+lifo]`
    /// (the spelling of `zeno bench`),
    /// e.g. `greedy:hu,greedy:hcg+safe+ut,bfs+ce,rdfs`.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub portfolio_configs: Vec<String>,
    /// Search each check breadth-first on W worker threads that share no
    /// store, on timely-dataflow (with `--hosts`, W in each process): the
    /// same verdicts, counts and traces as `--search bfs --threads 1`.
    #[arg(long, value_name = "W")]
    pub workers: Option<usize>,
    /// Run as one process of a search across processes or hosts: FILE
    /// lists each process's `host:port`, one a line (timely's host file);
    /// start `zeno check … --hosts FILE --process I` once for each line.
    /// Process 0 prints the results, the others only errors.
    #[arg(long, value_name = "FILE", requires = "process")]
    pub hosts: Option<PathBuf>,
    /// This process's line in the `--hosts` file, from 0.
    #[arg(long, value_name = "I", requires = "hosts")]
    pub process: Option<usize>,
    /// Seconds the processes of `--hosts` wait for each other to connect
    /// (then each check is `unknown`).
    #[arg(long, value_name = "S", default_value_t = 30.0)]
    pub connect_timeout: f64,
    /// With --workers or --hosts: write what the workers sent each other,
    /// level by level, to FILE (tab-separated: check, level, states,
    /// successors sent, bytes sent, supersteps).
    #[arg(long, value_name = "FILE")]
    pub traffic: Option<PathBuf>,
}

/// How to search: shared by every command that runs the checker.
#[derive(Debug, Args)]
pub struct SearchArgs {
    /// Order in which the search explores the state space [default: greedy
    /// with hu, taking turns with breadth-first search and random restarts
    /// on one core; the first verdict decides].
    #[arg(long, value_parser = search_order())]
    pub search: Option<SearchOrder>,
    /// Distance heuristic guiding `greedy` and `astar` [default: hu].
    #[arg(long, value_parser = heuristic())]
    pub heuristic: Option<HeuristicKind>,
    /// Stop after exploring this many states (exit 3).
    #[arg(long, value_name = "N")]
    pub max_states: Option<u64>,
    /// Stop each check after this many seconds (exit 3).
    #[arg(long, value_name = "S")]
    pub timeout: Option<f64>,
    /// Transition-based enhancements, comma-separated: at most one of
    /// `ut`, `ce`, `ibp`, `ibi`, optionally with `safe` (safe abstraction).
    #[arg(long, value_parser = enhancement(), value_delimiter = ',', default_value = "none")]
    pub enhance: Vec<String>,
    /// Seed of the random successor order of `rdfs`.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub seed: u64,
    /// Most abstract states of the `pdb` heuristic's pattern database.
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    pub pdb_states: usize,
    /// Seconds the `pdb` heuristic may spend selecting its pattern (it also
    /// stops after enumerating 2,000,000 abstract states).
    #[arg(long, value_name = "S", default_value_t = 0.5)]
    pub pdb_time: f64,
    /// Let the `pdb` heuristic also select a pattern with clocks, whose zone
    /// graph prunes states that cannot reach the goal in time.
    #[arg(long)]
    pub pdb_clocks: bool,
    /// How `greedy` and `astar` break ties between states of equal
    /// priority: first-in first-out, or last-in first-out (newest first, as
    /// the thesis' MCTA appears to).
    #[arg(long, value_parser = ties(), default_value = "fifo")]
    pub ties: Ties,
    /// Liveness checks (`A<>`, `E[]`, `-->`) count only non-Zeno runs:
    /// an infinite run must let time diverge.
    #[arg(long)]
    pub non_zeno: bool,
    /// Threads of a breadth-first search (default: the available cores),
    /// and of greedy and A* with dl, du or pdb (default: one); depth-first
    /// orders, hl, hu, hcg, enhancements and liveness checks use one. A
    /// portfolio divides them (default: the available cores) among its
    /// configurations.
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Keep every clock in every zone: no active-clock reduction (to
    /// compare with it).
    #[arg(long)]
    pub no_active_clocks: bool,
    /// How a stored zone subsumes a new zone of the same discrete state in
    /// reachability checks: `alu`, by inclusion in its aLU abstraction
    /// (never more states than `inclusion`; networks with diagonal
    /// constraints keep inclusion), or `inclusion`.
    #[arg(long, value_parser = subsume(), default_value = "alu")]
    pub subsume: Subsume,
    /// Symmetry reduction over the model's `scalar` sets in reachability
    /// checks: each state stored as a representative of its permutations
    /// (traces are mapped back to the model). It applies where the model
    /// uses its scalar values only as UPPAAL allows (a warning says where
    /// not) and the check names no single value; searched on one thread.
    #[arg(long, value_enum, default_value = "on")]
    pub symmetry: OnOff,
    /// A state-space reduction of reachability checks: `por`, the
    /// local-time zone graph (one clock per process, sync subsumption;
    /// checks and models it does not cover are searched without it, and
    /// the result says why), or `none`.
    #[arg(long, value_parser = reduce(), default_value = "none")]
    pub reduce: Reduce,
}

/// A switch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OnOff {
    /// Enabled.
    On,
    /// Disabled.
    Off,
}

impl SearchArgs {
    /// `--search`, or the default, greedy best-first search.
    pub fn order(&self) -> SearchOrder {
        self.search.unwrap_or(SearchOrder::Greedy)
    }

    /// `--heuristic`, or the default, hU.
    pub fn heuristic(&self) -> HeuristicKind {
        self.heuristic.unwrap_or(HeuristicKind::HU)
    }

    /// No order, heuristic or enhancement named: zeno's default
    /// configuration, which takes turns with breadth-first search and
    /// random restarts (`checker::Options::take_turns`).
    pub fn is_default(&self) -> bool {
        self.search.is_none()
            && self.heuristic.is_none()
            && self.enhance.iter().all(|e| e == "none")
    }
}

/// What `zeno graph` and `zeno trace` share after what they draw: where
/// the picture goes, a TChecker model's labels, how a trace is found.
#[derive(Debug, Args)]
pub struct DrawArgs {
    /// Write here instead of stdout.
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// TChecker labels, when FILE is a TChecker model.
    #[arg(long, value_name = "A,B", value_delimiter = ',')]
    pub labels: Vec<String>,
    #[command(flatten)]
    pub search: SearchArgs,
}

#[derive(Debug, Args)]
pub struct GraphArgs {
    /// The model (`.zeno`, or any format `zeno import` reads).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Draw only this template's instances, or this one process (`Proc(1)`).
    #[arg(long, value_name = "NAME")]
    pub template: Option<String>,
    /// Number and highlight the edges of this check's trace, in order.
    #[arg(long = "trace", value_name = "CHECK")]
    pub trace_check: Option<String>,
    #[arg(long, value_enum, default_value_t = GraphFormat::Svg)]
    pub format: GraphFormat,
    #[command(flatten)]
    pub draw: DrawArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GraphFormat {
    Svg,
    Dot,
}

#[derive(Debug, Args)]
pub struct TraceArgs {
    /// The model (`.zeno`, or any format `zeno import` reads).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The check whose counterexample or witness to show.
    #[arg(long = "check", value_name = "NAME")]
    pub check: String,
    #[arg(long, value_enum, default_value_t = TraceFormat::Svg)]
    pub format: TraceFormat,
    #[command(flatten)]
    pub draw: DrawArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TraceFormat {
    Svg,
    Text,
    Json,
}

#[derive(Debug, Args)]
pub struct FmtArgs {
    /// Do not write; list the files that would change and exit 1 if any.
    #[arg(long)]
    pub check: bool,
    /// Files, or directories to search for `.zeno` files.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}

/// `--search`: the checker's search orders, by their names.
fn search_order() -> impl TypedValueParser<Value = SearchOrder> {
    let values = SearchOrder::ALL.map(|o| PossibleValue::new(o.name()).help(o.description()));
    PossibleValuesParser::new(values).map(|s| s.parse().expect("a listed name"))
}

/// `--heuristic`: the checker's heuristics, by their names.
fn heuristic() -> impl TypedValueParser<Value = HeuristicKind> {
    let values = HeuristicKind::ALL.map(|h| PossibleValue::new(h.name()).help(h.description()));
    PossibleValuesParser::new(values).map(|s| s.parse().expect("a listed name"))
}

/// `--enhance`: the checker's frontier enhancements, `safe`, and `none`.
fn enhancement() -> PossibleValuesParser {
    let ordering = Enhance::ORDERING.iter().map(|e| {
        PossibleValue::new(e.name().expect("an ordering enhancement")).help(e.description())
    });
    PossibleValuesParser::new(
        std::iter::once(PossibleValue::new("none").help("no enhancement"))
            .chain(ordering)
            .chain([PossibleValue::new("safe").help(
                "safe abstraction: search without the safe components, then insert their moves into the trace",
            )]),
    )
}

/// `--ties`: how the best-first orders break ties.
fn subsume() -> impl TypedValueParser<Value = Subsume> {
    PossibleValuesParser::new(Subsume::ALL.map(|s| {
        PossibleValue::new(s.name()).help(match s {
            Subsume::Inclusion => "the new zone is included in the stored one",
            Subsume::Alu => "the new zone is included in the stored one's aLU abstraction",
        })
    }))
    .map(|s| s.parse().expect("a listed value"))
}

/// `--reduce`: the state-space reduction.
fn reduce() -> impl TypedValueParser<Value = Reduce> {
    PossibleValuesParser::new(Reduce::ALL.map(|r| {
        PossibleValue::new(r.name()).help(match r {
            Reduce::None => "the ordinary zone graph",
            Reduce::Por => "the local-time zone graph: independent moves commute",
        })
    }))
    .map(|s| s.parse().expect("a listed value"))
}

fn ties() -> impl TypedValueParser<Value = Ties> {
    PossibleValuesParser::new([
        PossibleValue::new("fifo").help("the state pushed first"),
        PossibleValue::new("lifo").help("the state pushed last"),
    ])
    .map(|s| if s == "lifo" { Ties::Lifo } else { Ties::Fifo })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
    Sarif,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, ValueEnum)]
pub enum TraceDetail {
    None,
    Short,
    Full,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("zeno").chain(args.iter().copied()))
    }

    #[test]
    fn check_defaults_to_directed_search() {
        let Command::Check(a) = parse(&["check", "m.zeno"]).unwrap().command else {
            panic!("expected check");
        };
        assert_eq!(a.search.order(), SearchOrder::Greedy);
        assert_eq!(a.search.heuristic(), HeuristicKind::HU);
        assert!(a.search.is_default());
        assert_eq!(a.format, Format::Text);
        assert_eq!(a.trace, TraceDetail::Short);
        assert_eq!(a.search.max_states, None);
        assert_eq!(a.search.ties, Ties::Fifo);
    }

    #[test]
    fn check_flags_parse() {
        let cli = parse(&[
            "check",
            "a.zeno",
            "b.zeno",
            "--check",
            "mutex",
            "--search",
            "rdfs",
            "--heuristic",
            "dl",
            "--max-states",
            "10",
            "--timeout",
            "1.5",
            "--seed",
            "7",
            "--format",
            "sarif",
            "--trace",
            "full",
            "--ties",
            "lifo",
        ])
        .unwrap();
        let Command::Check(a) = cli.command else {
            panic!("expected check");
        };
        assert_eq!(a.files.len(), 2);
        assert_eq!(a.checks, ["mutex"]);
        assert_eq!(a.search.order(), SearchOrder::RandomDfs);
        assert_eq!(a.search.heuristic(), HeuristicKind::DL);
        assert!(!a.search.is_default());
        assert_eq!(a.search.max_states, Some(10));
        assert_eq!(a.search.timeout, Some(1.5));
        assert_eq!(a.search.seed, 7);
        assert_eq!(a.format, Format::Sarif);
        assert_eq!(a.trace, TraceDetail::Full);
        assert_eq!(a.search.ties, Ties::Lifo);
    }

    #[test]
    fn usage_errors() {
        assert!(parse(&["check"]).is_err());
        assert!(parse(&["check", "m.zeno", "--search", "sideways"]).is_err());
        assert!(parse(&["check", "m.zeno", "--ties", "random"]).is_err());
        assert!(parse(&["check", "m.zeno", "--bogus"]).is_err());
        assert!(parse(&["fmt"]).is_err());
        assert!(parse(&["export", "m.zeno"]).is_err());
        assert!(parse(&["export", "--to", "nusmv", "m.zeno"]).is_err());
    }

    #[test]
    fn bench_flags_parse() {
        let Command::Bench(a) = parse(&["bench", "--family", "hanoi:3..5"]).unwrap().command else {
            panic!("expected bench");
        };
        assert_eq!(a.families, ["hanoi:3..5"]);
        assert_eq!(a.configs, ["bfs"]);
        assert_eq!(a.format, BenchFormat::Markdown);
        assert!(!a.summary);
        let Command::Bench(a) = parse(&[
            "bench",
            "m.zeno",
            "--summary",
            "--family",
            "fischer:5,10",
            "--config",
            "bfs,greedy:hl",
            "--config",
            "astar:hl",
            "--timeout",
            "2.5",
            "--max-states",
            "100",
            "--format",
            "json",
        ])
        .unwrap()
        .command
        else {
            panic!("expected bench");
        };
        // Commas stay inside one value: the family and config parsers split them.
        assert_eq!(a.families, ["fischer:5,10"]);
        assert_eq!(a.configs, ["bfs,greedy:hl", "astar:hl"]);
        assert_eq!(a.files, [PathBuf::from("m.zeno")]);
        assert_eq!((a.timeout, a.max_states), (Some(2.5), Some(100)));
        assert_eq!(a.format, BenchFormat::Json);
        assert!(a.summary);
        assert!(parse(&["bench", "--format", "csv"]).is_err());
    }

    #[test]
    fn import_and_export_flags_parse() {
        let Command::Import(a) = parse(&["import", "m.tck", "--labels", "cs1,cs2", "-o", "m.zeno"])
            .unwrap()
            .command
        else {
            panic!("expected import");
        };
        assert_eq!(a.labels, ["cs1", "cs2"]);
        assert_eq!(a.output, Some(PathBuf::from("m.zeno")));
        let Command::Export(a) = parse(&["export", "--to", "xta", "m.zeno"]).unwrap().command
        else {
            panic!("expected export");
        };
        assert_eq!(a.to, ExportFormat::Xta);
        assert_eq!(a.output, None);
    }
}
