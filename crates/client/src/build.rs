//! `colony build PREFAB [x:N y:N] [radius:N] [orientation:O] [path:false] [cut:true]
//! [plant:CROP] [good:GOOD]`: the MCP tool `build` (`mcp::build`, the same code) on the command
//! line, so a walk-through's commands work on any seed. Prints the answer as TOON text (`--json`: JSON);
//! errors and exit codes as the route commands'.

use crate::args::{Arg, Cli};
use crate::exit::{self, CliError, EXIT_CONNECTION, EXIT_OK, EXIT_OTHER};
use crate::mcp::api::Api;
use crate::mcp::build::{self, Stop};
use crate::mcp::schema::check_args;
use crate::output;
use protocol::error::ErrorCode;
use serde_json::{Map, Value};

/// `colony help build`.
pub const HELP: &str = "\n  Finds valid spots for PREFAB within radius tiles (default 10, at most 30) of x, y (default:\n  \
     the district center's entrance), places the best one (pumps: the deepest water; flags and\n  \
     farmhouses: the most trees, bushes or soil in reach; facing orientation if given) and routes\n  \
     a path from its entrance to the nearest district center (path:false: none). cut:true marks\n  \
     the trees of its work range for cutting (a lumberjack flag); plant:CROP marks the moist free\n  \
     soil of its range for CROP (a farmhouse; a tree species for a forester); good:GOOD has a\n  \
     storage building take only GOOD (a pile for Log, a warehouse for Berries). Prints the building\n  \
     (id, position, entrance, inReach) and the path placed; a path that could not be completed\n  \
     is reported in path.errors, with a warning. The MCP tool build does the same.\n  \
     Example: colony build WaterPump.Folktails radius:20\n";

/// The command's arguments as the tool's: `key:value` pairs, a bare value for `prefab`, a bare
/// `--key` for `key:true`; checked and typed against the tool's schema.
fn arguments(args: &[Arg]) -> Result<Map<String, Value>, CliError> {
    let mut map = Map::new();
    for a in args {
        let (k, v) = match a {
            Arg::Named(k, Some(v)) => (k.clone(), v.clone()),
            Arg::Named(k, None) => (k.clone(), "true".to_owned()),
            Arg::Positional(v) => ("prefab".to_owned(), v.clone()),
        };
        if map.insert(k.clone(), Value::String(v)).is_some() {
            return Err(CliError::usage(format!("{k} is given twice")));
        }
    }
    check_args(&build::schema(), map)
        .map_err(|e| CliError::usage(format!("build: {e} (see `colony help build`)")))
}

/// Runs `colony build`.
pub fn run(cli: &Cli) -> Result<i32, CliError> {
    let args = arguments(&cli.args)?;
    let settings = crate::settings(cli)?;
    let api = Api::new(&settings).map_err(|f| CliError::new(EXIT_OTHER, f.message))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::new(EXIT_OTHER, format!("cannot start the runtime: {e}")))?;
    match runtime.block_on(build::run(&api, &args)) {
        Ok(v) => {
            output::print_value(&v, cli.json);
            if let Some(note) = v["path"]["note"].as_str() {
                eprintln!("colony: warning: {note}");
            }
            Ok(EXIT_OK)
        }
        Err(Stop::Service(status, error)) => {
            if cli.json {
                output::print_value(&error.to_body(), true);
            }
            eprintln!("{}", output::error_text(&error));
            Ok(if status == 401 {
                exit::EXIT_AUTH
            } else {
                exit::for_code(error.code)
            })
        }
        Err(Stop::Own(f)) => {
            let code = match ErrorCode::parse(f.code) {
                Some(c) => exit::for_code(c),
                None if f.code == "unreachable" => EXIT_CONNECTION,
                None => EXIT_OTHER,
            };
            if cli.json {
                let body = serde_json::json!({"error": format!("{}: {}", f.code, f.message)});
                output::print_value(&body, true);
            }
            eprintln!("error: {}: {}", f.code, f.message);
            Ok(code)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_are_typed_by_the_tool_schema() {
        let args = [
            Arg::Positional("LumberjackFlag.Folktails".into()),
            Arg::Named("radius".into(), Some("20".into())),
            Arg::Named("cut".into(), None),
            Arg::Named("path".into(), Some("false".into())),
        ];
        let m = arguments(&args).unwrap();
        assert_eq!(m["prefab"], "LumberjackFlag.Folktails");
        assert_eq!(m["radius"], 20);
        assert_eq!(m["cut"], true);
        assert_eq!(m["path"], false);
        let bad = arguments(&[Arg::Named("radius".into(), Some("far".into()))]);
        assert_eq!(bad.unwrap_err().code, 2);
        let unknown = arguments(&[
            Arg::Positional("Lodge.Folktails".into()),
            Arg::Named("size".into(), Some("2".into())),
        ]);
        assert!(unknown.unwrap_err().message.contains("unknown parameter"));
        let missing = arguments(&[Arg::Named("x".into(), Some("3".into()))]);
        assert!(missing.unwrap_err().message.contains("prefab"));
    }
}
