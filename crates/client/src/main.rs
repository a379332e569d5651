//! `colony`: the command-line client and agent connector of the Colony service.
//!
//! Route commands come from the route catalogue in `protocol::routes`; the client's own commands
//! are `help`, `config`, `events`, `connect`, `build`, `map`, `top`, `eval` and `mcp`. See
//! `crates/client/README.md`.

mod args;
mod build;
mod config;
mod connector;
mod events;
mod exit;
mod http;
mod map;
mod mcp;
mod output;
mod top;
mod ws;

use args::{Arg, Cli};
use exit::{CliError, EXIT_OK};
use protocol::routes::{self, Route};
use std::time::Duration;

/// The client's own commands (not routes), with a one-line summary.
const LOCAL_COMMANDS: &[(&str, &str, &str)] = &[
    (
        "config",
        "",
        "Show the resolved host, ports and token (masked) and where each came from",
    ),
    (
        "events",
        "[FILTER...] [--count N]",
        "Stream game events, one line each; FILTER keeps names containing it (e.g. drought.)",
    ),
    (
        "connect",
        "--agent 'COMMAND' [--pause SECS]",
        "Run the agent connector: run COMMAND for each prompt (and each autonomous turn)",
    ),
    (
        "build",
        "PREFAB [x:N y:N] [radius:N] [orientation:O] [path:false] [cut:true] [plant:CROP] [good:GOOD]",
        "Find a spot for PREFAB near a point (default: the district center), place it, join it by path",
    ),
    (
        "map",
        "X1 Y1 X2 Y2 [--no-beavers]",
        "Draw a region as text: terrain heights, water, trees, crops, bushes, ruins, paths, buildings, beavers",
    ),
    (
        "top",
        "[--interval SECS] [--once]",
        "Live view of the colony (time, weather, population, stocks, wellbeing, alerts, agent, events), redrawn in place",
    ),
    (
        "eval",
        "--scenario ID --agent 'COMMAND' [--seeds 1..10] [--parallel P] [--out DIR] | --list | compare A B [--json] | leaderboard DIR... [--out FILE.md|FILE.html]",
        "Evaluate an agent on scenarios (each episode its own colonyd), compare two runs, rank runs; `colony eval [compare|leaderboard] --help` for every flag",
    ),
    (
        "replay",
        "OUT/episodes/ID [--port P] [--keep DIR] | --check OUT/episodes/ID | --export OUT/episodes/ID --out FILE.gif [--scale N] [--frame-ms MS]",
        "Rebuild an episode of `colony eval` from its recorded writes, checking the state hash after every turn: watch it in the dashboard (a timeline of turns), only check it, or write a GIF of the map turn by turn",
    ),
    (
        "mcp",
        "[--tools core|all|NAME,...] [--http PORT]",
        "Serve the colony to LLM agents over MCP (stdio; --http PORT for Streamable HTTP)",
    ),
    (
        "help",
        "[COMMAND]",
        "Show the commands, or one command's parameters",
    ),
];

const GLOBAL_OPTIONS: &str = "\
Options (anywhere on the line):
  --host HOST       service host (env COLONY_HOST, config host; default 127.0.0.1)
  --port N          HTTP port (env COLONY_PORT, config port; default 8085)
  --ws-port N       WebSocket port (env COLONY_WS_PORT, config ws_port; default 8086)
  --token TOKEN     bearer token (env COLONY_TOKEN, config auth_token; default none)
  --config FILE     config file (env COLONY_CONFIG; default ~/.config/colony/config.toml)
  --json            print the service's JSON instead of TOON text
  -h, --help        help; -V, --version: version";

const EXIT_CODES: &str = "\
Exit codes: 0 ok, 1 other error, 2 bad input, 3 not found / unknown endpoint,
4 not ready or busy (game_not_ready, game_loading, queue_full), 5 unauthorized, 6 connection failure.";

/// The value of `colony eval --tools` (`--tools X` or `--tools=X`), if given.
fn eval_tools(args: &[String]) -> Option<&str> {
    args.iter().enumerate().find_map(|(i, a)| {
        if a == "--tools" {
            args.get(i + 1).map(String::as_str)
        } else {
            a.strip_prefix("--tools=")
        }
    })
}

fn main() {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    // `colony eval` has flags of its own (the evaluation harness, crates/eval).
    if argv.first().is_some_and(|a| a == "eval") {
        // `--tools` goes to each episode's `colony mcp`: refuse a bad one before any episode.
        if let Some(spec) = eval_tools(&argv[1..])
            && let Err(e) = mcp::check_tools(spec)
        {
            eprintln!("colony eval: {e}");
            std::process::exit(2);
        }
        std::process::exit(eval::main(argv[1..].to_vec()));
    }
    // `colony replay` checks a recorded episode (crates/eval/src/replay.rs).
    if argv.first().is_some_and(|a| a == "replay") {
        std::process::exit(eval::replay::main(argv[1..].to_vec()));
    }
    let code = match run(&argv) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("colony: {}", e.message);
            e.code
        }
    };
    std::process::exit(code);
}

fn run(argv: &[String]) -> Result<i32, CliError> {
    let cli = args::parse(argv)?;
    if cli.version {
        println!("colony {}", env!("CARGO_PKG_VERSION"));
        return Ok(EXIT_OK);
    }
    // `colony mcp` serves a protocol on stdio (or HTTP) and has flags of its own.
    if cli.command.as_deref() == Some("mcp") && !cli.help {
        return mcp::run(&cli);
    }
    // A closed pipe (`colony ... | head`) ends the program quietly, as it does other command-line
    // tools, instead of a panic on the failed write. Not for `connect` (nor `eval`, dispatched
    // before this): they write prompts into agents' stdin, which an agent may close early.
    if cli.command.as_deref() != Some("connect") {
        // SAFETY: restoring the default SIGPIPE disposition, before any thread is started.
        #[cfg(unix)]
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        }
    }
    let Some(command) = cli.command.clone() else {
        print!("{}", usage());
        return Ok(EXIT_OK);
    };
    if command == "help" {
        return help(&cli);
    }
    if cli.help {
        println!("{}", command_help(&command)?);
        return Ok(EXIT_OK);
    }
    match command.as_str() {
        "config" => {
            no_args(&cli, "config")?;
            let settings = settings(&cli)?;
            output::print_value(&settings.to_json(), cli.json);
            Ok(EXIT_OK)
        }
        "events" => events(&cli),
        "connect" => connect(&cli),
        "build" => build::run(&cli),
        "map" => draw_map(&cli),
        "top" => top(&cli),
        _ => route_command(&cli, &command),
    }
}

/// Resolves the settings, printing warnings to stderr.
fn settings(cli: &Cli) -> Result<config::Settings, CliError> {
    config::resolve(
        &cli.flags,
        &|k| std::env::var(k).ok(),
        dirs::config_dir(),
        &mut |w| eprintln!("colony: warning: {w}"),
    )
}

fn no_args(cli: &Cli, command: &str) -> Result<(), CliError> {
    match cli.args.first() {
        None => Ok(()),
        Some(a) => Err(CliError::usage(format!(
            "`{command}` takes no arguments; got {}",
            show_arg(a)
        ))),
    }
}

fn show_arg(a: &Arg) -> String {
    match a {
        Arg::Named(k, Some(v)) => format!("{k}:{v}"),
        Arg::Named(k, None) => format!("--{k}"),
        Arg::Positional(v) => format!("{v:?}"),
    }
}

fn route_command(cli: &Cli, command: &str) -> Result<i32, CliError> {
    let candidates = routes::by_command(command);
    if candidates.is_empty() {
        return Err(CliError::usage(format!(
            "unknown command {command:?}; run `colony` for the list"
        )));
    }
    let route = args::pick_route(&candidates, !cli.args.is_empty());
    let mut body = args::build_body(route, &cli.args)?;
    // `--json` asks for the service's nested json shape, not the flat toon rows: reads take it
    // as a parameter, writes in the query (the service reads `format` from the query string).
    let get = route.method == protocol::routes::Method::Get;
    if cli.json && get && !body.contains_key("format") {
        body.insert("format".into(), "json".into());
    }
    let settings = settings(cli)?;
    let api = http::Api::new(&settings)?;
    let mut answer = if cli.json && !get {
        api.send(route.method, &format!("{}?format=json", route.path), &body)?
    } else {
        api.call(route, &body)?
    };
    if let (false, http::Answer::Ok(v)) = (cli.json, &mut answer) {
        output::readable(route.path, v);
    }
    Ok(output::print_answer(&answer, cli.json))
}

fn top(cli: &Cli) -> Result<i32, CliError> {
    let mut interval = Duration::from_secs(1);
    let mut once = false;
    for a in &cli.args {
        match a {
            Arg::Named(k, None) if k == "once" => once = true,
            Arg::Named(k, Some(v)) if k == "interval" => {
                interval = v
                    .parse::<f64>()
                    .ok()
                    .filter(|s| s.is_finite() && *s >= 0.2)
                    .map(Duration::from_secs_f64)
                    .ok_or_else(|| {
                        CliError::usage(format!("--interval needs seconds >= 0.2; got {v:?}"))
                    })?
            }
            a => {
                return Err(CliError::usage(format!(
                    "unknown argument {} for `top`; usage: colony top [--interval SECS] [--once]",
                    show_arg(a)
                )));
            }
        }
    }
    let settings = settings(cli)?;
    top::run(&settings, interval, once)
}

fn draw_map(cli: &Cli) -> Result<i32, CliError> {
    // `--no-beavers` hides the beaver layer. A bare value after it is a coordinate that the
    // parser took as the flag's value (`colony map --no-beavers 0 0 9 9`), so it goes back.
    let mut beavers = true;
    let mut args = Vec::new();
    for a in &cli.args {
        match a {
            Arg::Named(k, v) if k == "no-beavers" || k == "no_beavers" => {
                beavers = false;
                match v.as_deref() {
                    None | Some("true") => {}
                    Some("false") => beavers = true,
                    Some(v) => args.push(Arg::Positional(v.to_owned())),
                }
            }
            a => args.push(a.clone()),
        }
    }
    let route =
        routes::find(routes::Method::Get, "/api/tiles").expect("the catalogue has /api/tiles");
    let mut body = args::build_body(route, &args)?;
    body.insert("format".into(), "json".into());
    let settings = settings(cli)?;
    let api = http::Api::new(&settings)?;
    let answer = api.call(route, &body)?;
    let http::Answer::Ok(tiles) = &answer else {
        return Ok(output::print_answer(&answer, cli.json));
    };
    if cli.json {
        return Ok(output::print_answer(&answer, cli.json));
    }
    let walkers = if beavers {
        let query: serde_json::Map<String, serde_json::Value> =
            [("limit", "0"), ("format", "json")]
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v.into()))
                .collect();
        match api.send(routes::Method::Get, "/api/beavers", &query)? {
            http::Answer::Ok(v) => Some(map::walkers(&v)),
            other => return Ok(output::print_answer(&other, false)),
        }
    } else {
        None
    };
    use std::io::IsTerminal;
    let colour = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    print!("{}", map::render(tiles, walkers.as_deref(), colour));
    Ok(EXIT_OK)
}

fn events(cli: &Cli) -> Result<i32, CliError> {
    let mut filters = Vec::new();
    let mut count = None;
    for a in &cli.args {
        match a {
            Arg::Positional(f) => filters.push(f.clone()),
            Arg::Named(k, Some(v)) if k == "count" => {
                count = Some(v.parse::<u64>().map_err(|_| {
                    CliError::usage(format!("--count needs a whole number; got {v:?}"))
                })?)
            }
            a => {
                return Err(CliError::usage(format!(
                    "unknown argument {} for `events`; see `colony help events`",
                    show_arg(a)
                )));
            }
        }
    }
    let settings = settings(cli)?;
    Ok(events::run(
        &settings,
        &events::EventsOpts {
            filters,
            json: cli.json,
            count,
        },
    ))
}

fn connect(cli: &Cli) -> Result<i32, CliError> {
    let mut agent = None;
    let mut pause = Duration::from_secs(1);
    for a in &cli.args {
        match a {
            Arg::Named(k, Some(v)) if k == "agent" => agent = Some(v.clone()),
            Arg::Named(k, Some(v)) if k == "pause" => {
                pause = v
                    .parse::<f64>()
                    .ok()
                    .filter(|s| s.is_finite() && *s >= 0.0)
                    .map(Duration::from_secs_f64)
                    .ok_or_else(|| {
                        CliError::usage(format!("--pause needs seconds (e.g. 1.5); got {v:?}"))
                    })?
            }
            a => {
                return Err(CliError::usage(format!(
                    "unknown argument {} for `connect`; usage: colony connect --agent 'COMMAND'",
                    show_arg(a)
                )));
            }
        }
    }
    let agent = agent
        .filter(|a| !a.trim().is_empty())
        .ok_or_else(|| CliError::usage("usage: colony connect --agent 'COMMAND'"))?;
    let settings = settings(cli)?;
    Ok(connector::run(
        &settings,
        &connector::ConnectOpts {
            agent,
            turn_pause: pause,
        },
    ))
}

fn help(cli: &Cli) -> Result<i32, CliError> {
    match cli.args.first() {
        None => print!("{}", usage()),
        Some(Arg::Positional(c)) => println!("{}", command_help(c)?),
        Some(a) => {
            return Err(CliError::usage(format!(
                "usage: colony help [COMMAND]; got {}",
                show_arg(a)
            )));
        }
    }
    Ok(EXIT_OK)
}

/// The command list: one line per command.
fn usage() -> String {
    let mut out = String::from(
        "colony: command-line client and agent connector of the Colony service\n\n\
         Usage: colony [OPTIONS] COMMAND [key:value | --key value ...]\n\n\
         Commands (`colony help COMMAND` shows the parameters):\n",
    );
    // Columns as wide as their longest entry, so long names and paths keep the table aligned.
    let rows: Vec<(String, String, String, String)> = routes::commands()
        .into_iter()
        .map(|c| {
            let rs = routes::by_command(c);
            let methods: Vec<&str> = rs.iter().map(|r| r.method.as_str()).collect();
            let summary: Vec<&str> = rs.iter().map(|r| r.summary).collect();
            (
                c.to_owned(),
                methods.join("|"),
                rs[0].path.to_owned(),
                summary.join("; "),
            )
        })
        .chain(LOCAL_COMMANDS.iter().map(|(name, _, summary)| {
            (
                (*name).to_owned(),
                "(client)".to_owned(),
                String::new(),
                (*summary).to_owned(),
            )
        }))
        .collect();
    let width = |f: fn(&(String, String, String, String)) -> usize| {
        rows.iter().map(f).max().unwrap_or(0) + 2
    };
    let (w0, w1, w2) = (
        width(|r| r.0.len()),
        width(|r| r.1.len()),
        width(|r| r.2.len()),
    );
    for (c, m, p, s) in &rows {
        out.push_str(&format!("  {c:<w0$}{m:<w1$}{p:<w2$}{s}\n"));
    }
    out.push('\n');
    out.push_str(GLOBAL_OPTIONS);
    out.push_str("\n\n");
    out.push_str(EXIT_CODES);
    out.push('\n');
    out
}

/// One command's help: its routes and parameters.
fn command_help(command: &str) -> Result<String, CliError> {
    if let Some((name, usage, summary)) = LOCAL_COMMANDS.iter().find(|(n, _, _)| *n == command) {
        let mut out = format!("colony {name} {usage}\n  {summary}\n");
        match *name {
            "events" => out.push_str(
                "\n  Prints `day N  EVENT  DATA` per event (--json: the event payload as one JSON line).\n  \
                 Reconnects with backoff (1 s doubling to 30 s, ±20% jitter) when the connection drops.\n  \
                 Example: colony events drought. cycle.\n",
            ),
            "connect" => out.push_str(
                "\n  Runs COMMAND with `sh -c` for each pending prompt (once each) and, in autonomous mode\n  \
                 while the ready gate is open, for the goal again and again (--pause SECS between turns,\n  \
                 default 1). The prompt comes on stdin and in COLONY_PROMPT; also COLONY_GOAL,\n  \
                 COLONY_REQUEST_ID, COLONY_MODE (request or autonomous), COLONY_EPOCH, COLONY_HOST,\n  \
                 COLONY_PORT, COLONY_WS_PORT and COLONY_TOKEN (when set).\n  \
                 Example: colony connect --agent 'my-agent --stdin'\n",
            ),
            "map" => out.push_str(&format!(
                "\n  One character per tile, north up, the x of every tenth column on top and y on the left.\n  \
                 Legend: {}  @ beaver  r bot\n  \
                 Beavers and bots (from /api/beavers) draw over the tiles; --no-beavers hides them.\n  \
                 --json prints the /api/tiles answer. Colour only on a terminal (and NO_COLOR unset).\n  \
                 Example: colony map 20 10 50 35\n",
                map::LEGEND
            )),
            "top" => out.push_str(
                "\n  Lines: time and speed; weather; population (adults, children, bots, homeless, unemployed,\n  \
                 beds, workers); stocks with days left (Water, food, Log, Plank, Gear, then other goods);\n  \
                 wellbeing (average, miserable, critical); alerts by type and the first three; science;\n  \
                 the agent; recent events from the WebSocket. --once prints one frame and exits.\n  \
                 Example: colony top --once\n",
            ),
            "mcp" => out.push_str(mcp::HELP),
            "build" => out.push_str(build::HELP),
            "config" => out.push_str(
                "\n  Order: flag, environment, config file, default. Config file: --config FILE, else\n  \
                 $COLONY_CONFIG, else <user config dir>/colony/config.toml (TOML keys host, port,\n  \
                 ws_port, auth_token).\n",
            ),
            _ => {}
        }
        return Ok(out.trim_end().to_string());
    }
    let rs = routes::by_command(command);
    if rs.is_empty() {
        return Err(CliError::usage(format!(
            "unknown command {command:?}; run `colony` for the list"
        )));
    }
    let mut out = String::new();
    for r in &rs {
        out.push_str(&route_help(r, rs.len() > 1));
    }
    Ok(out.trim_end().to_string())
}

fn route_help(r: &Route, shared: bool) -> String {
    let mut out = format!(
        "{} {}  (colony {})\n  {}\n",
        r.method.as_str(),
        r.path,
        r.command,
        r.summary
    );
    if shared && r.params.is_empty() && !r.open {
        out.push_str("  Sent when no parameter is given.\n");
    }
    for p in r.params {
        out.push_str(&format!(
            "  {:<24}{}{}\n",
            format!("{}:{}", p.name, p.ty.as_str()),
            if p.required { "(required) " } else { "" },
            p.help
        ));
    }
    if r.open {
        out.push_str(
            "  KEY:VALUE ...           any keys; values are read as JSON when they parse (2048, true),\n                          \
             else as text\n",
        );
    }
    let example: Vec<String> = r
        .params
        .iter()
        .filter(|p| p.required)
        .map(|p| format!("{}:{}", p.name, p.ty.as_str().to_uppercase()))
        .collect();
    if r.method == routes::Method::Post {
        out.push_str(&format!(
            "  Example: colony {}{}{}\n",
            r.command,
            if example.is_empty() { "" } else { " " },
            example.join(" ")
        ));
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::routes::ROUTES;

    #[test]
    fn every_route_command_has_help_and_a_line() {
        let u = usage();
        for r in ROUTES {
            assert!(u.contains(&format!("  {} ", r.command)), "{}", r.command);
            assert!(command_help(r.command).unwrap().contains(r.path));
        }
        for (name, _, _) in LOCAL_COMMANDS {
            assert!(command_help(name).is_ok());
        }
        assert!(command_help("nope").is_err());
    }

    #[test]
    fn the_command_table_stays_aligned_whatever_the_longest_name_and_path() {
        let u = usage();
        let table: Vec<&str> = u
            .lines()
            .skip_while(|l| !l.starts_with("Commands"))
            .skip(1)
            .take_while(|l| !l.is_empty())
            .collect();
        assert!(table.len() > 40);
        // The summary column starts at the same place on every line: two spaces after the widest
        // path column, so no name or path runs into the next column.
        let col = |l: &str| {
            let p = l.find("/api/").or_else(|| l.find("(client)")).unwrap();
            let after = p + l[p..].find(' ').unwrap();
            after + l[after..].len() - l[after..].trim_start().len()
        };
        let first = col(table[0]);
        for l in &table {
            if l.contains("/api/") {
                assert_eq!(col(l), first, "{l}");
            }
            let name = l.split_whitespace().next().unwrap();
            assert!(l.starts_with(&format!("  {name}  ")), "name column: {l}");
        }
    }
}
