//! Command-line parsing: global flags anywhere on the line, the command, then its arguments as
//! `key:value`, `--key value`, `--key=value` or bare values, turned into a typed JSON body using
//! the route catalogue.

use crate::config::{Flags, parse_port};
use crate::exit::CliError;
use protocol::routes::{Method, Param, ParamType, Route};
use serde_json::{Map, Number, Value};
use std::path::PathBuf;

/// The parsed command line.
#[derive(Debug, Default)]
pub struct Cli {
    pub flags: Flags,
    pub json: bool,
    pub help: bool,
    pub version: bool,
    /// The command name, if any.
    pub command: Option<String>,
    /// Everything after the command that was not a global flag.
    pub args: Vec<Arg>,
}

/// One argument of a command.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// `key:value`, `--key value` or `--key=value` (value `None`: a bare `--key`).
    Named(String, Option<String>),
    /// A bare value.
    Positional(String),
}

fn takes_value<'a>(
    name: &str,
    inline: Option<&'a str>,
    it: &mut std::slice::Iter<'a, String>,
) -> Result<&'a str, CliError> {
    match inline {
        Some(v) => Ok(v),
        None => it
            .next()
            .map(String::as_str)
            .ok_or_else(|| CliError::usage(format!("{name} needs a value"))),
    }
}

fn port_flag(name: &str, v: &str) -> Result<u16, CliError> {
    parse_port(v)
        .ok_or_else(|| CliError::usage(format!("{name} must be a port number 1-65535; got {v:?}")))
}

/// Is this `key:value` with an identifier key?
fn split_key_value(s: &str) -> Option<(&str, &str)> {
    let (k, v) = s.split_once(':')?;
    let mut chars = k.chars();
    let first = chars.next()?;
    (first.is_ascii_alphabetic() || first == '_')
        .then_some(())
        .filter(|_| chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .map(|_| (k, v))
}

/// Splits the command line into global flags, the command and its arguments.
pub fn parse(argv: &[String]) -> Result<Cli, CliError> {
    let mut cli = Cli::default();
    let mut it = argv.iter();
    let mut rest_positional = false;
    while let Some(tok) = it.next() {
        if rest_positional {
            push(&mut cli, Arg::Positional(tok.clone()));
            continue;
        }
        if tok == "--" {
            rest_positional = true;
            continue;
        }
        if tok == "-h" {
            cli.help = true;
            continue;
        }
        if tok == "-V" {
            cli.version = true;
            continue;
        }
        if let Some(long) = tok.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (long, None),
            };
            match name {
                "host" => cli.flags.host = Some(takes_value("--host", inline, &mut it)?.into()),
                "port" => {
                    cli.flags.port = Some(port_flag(
                        "--port",
                        takes_value("--port", inline, &mut it)?,
                    )?)
                }
                "ws-port" => {
                    cli.flags.ws_port = Some(port_flag(
                        "--ws-port",
                        takes_value("--ws-port", inline, &mut it)?,
                    )?)
                }
                "token" => cli.flags.token = Some(takes_value("--token", inline, &mut it)?.into()),
                "config" => {
                    cli.flags.config =
                        Some(PathBuf::from(takes_value("--config", inline, &mut it)?))
                }
                "json" => cli.json = true,
                "help" => cli.help = true,
                "version" => cli.version = true,
                _ if cli.command.is_none() => {
                    return Err(CliError::usage(format!(
                        "unknown option --{name}; run `colony` for the commands and options"
                    )));
                }
                _ => {
                    // A command argument. `--key value` takes the next token unless it is
                    // another option; the command decides what a bare `--key` means.
                    let value = match inline {
                        Some(v) => Some(v.to_string()),
                        None => match it.as_slice().first() {
                            Some(next) if !next.starts_with("--") => {
                                it.next().map(|s| s.to_string())
                            }
                            _ => None,
                        },
                    };
                    cli.args.push(Arg::Named(name.to_string(), value));
                }
            }
            continue;
        }
        if cli.command.is_none() {
            cli.command = Some(tok.clone());
            continue;
        }
        match split_key_value(tok) {
            Some((k, v)) => cli
                .args
                .push(Arg::Named(k.to_string(), Some(v.to_string()))),
            None => cli.args.push(Arg::Positional(tok.clone())),
        }
    }
    Ok(cli)
}

fn push(cli: &mut Cli, arg: Arg) {
    match arg {
        Arg::Positional(s) if cli.command.is_none() => cli.command = Some(s),
        a => cli.args.push(a),
    }
}

/// Parameter names match ignoring case, `-` and `_` (`endHours`, `end-hours`, `end_hours`).
fn norm(s: &str) -> String {
    s.chars()
        .filter(|c| *c != '-' && *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

fn bad_value(param: &Param, got: &str, want: &str) -> CliError {
    CliError::usage(format!(
        "{}: expected {want}; got {got:?} ({})",
        param.name, param.help
    ))
}

/// Parses one value by its catalogue type.
pub fn typed_value(param: &Param, raw: &str) -> Result<Value, CliError> {
    let s = raw.trim();
    match param.ty {
        ParamType::Int => s
            .parse::<i64>()
            .map(Value::from)
            .or_else(|_| s.parse::<u64>().map(Value::from))
            .map_err(|_| bad_value(param, raw, "an integer")),
        ParamType::Float => s
            .parse::<f64>()
            .ok()
            .filter(|f| f.is_finite())
            .and_then(|f| {
                // Keep integers integers (`2` stays 2), so the body reads as typed.
                match s.parse::<i64>() {
                    Ok(i) => Some(Value::from(i)),
                    Err(_) => Number::from_f64(f).map(Value::Number),
                }
            })
            .ok_or_else(|| bad_value(param, raw, "a number")),
        ParamType::Bool => match s.to_ascii_lowercase().as_str() {
            "true" | "yes" | "on" | "1" => Ok(Value::Bool(true)),
            "false" | "no" | "off" | "0" => Ok(Value::Bool(false)),
            _ => Err(bad_value(param, raw, "true or false")),
        },
        ParamType::String => Ok(Value::String(raw.to_string())),
        ParamType::Null => match s {
            "null" => Ok(Value::Null),
            _ => Err(bad_value(param, raw, "null")),
        },
        ParamType::List => {
            if s.starts_with('[') {
                match serde_json::from_str::<Vec<String>>(s) {
                    Ok(v) => Ok(Value::from(v)),
                    Err(_) => Err(bad_value(param, raw, "a JSON array of strings")),
                }
            } else {
                Ok(Value::from(
                    s.split(',')
                        .map(str::trim)
                        .filter(|x| !x.is_empty())
                        .map(String::from)
                        .collect::<Vec<_>>(),
                ))
            }
        }
        ParamType::Json => {
            serde_json::from_str(s).map_err(|_| bad_value(param, raw, "a JSON value"))
        }
    }
}

/// A value for a free-form member (open routes): JSON if it parses, else the text.
fn open_value(raw: &str) -> Value {
    serde_json::from_str(raw.trim()).unwrap_or_else(|_| Value::String(raw.to_string()))
}

/// Picks the route of a command: with arguments the POST (if the command has one), else the GET.
pub fn pick_route(routes: &[&'static Route], has_args: bool) -> &'static Route {
    if has_args {
        routes
            .iter()
            .find(|r| r.method == Method::Post)
            .unwrap_or(&routes[0])
    } else {
        routes
            .iter()
            .find(|r| r.method == Method::Get)
            .unwrap_or(&routes[0])
    }
}

/// Builds the body of a route from the command's arguments, checking every value against the
/// catalogue before anything is sent.
pub fn build_body(route: &Route, args: &[Arg]) -> Result<Map<String, Value>, CliError> {
    let mut body = Map::new();
    let mut positionals = Vec::new();
    for arg in args {
        match arg {
            Arg::Named(key, value) => {
                let param = route.params.iter().find(|p| norm(p.name) == norm(key));
                let (name, value) = match (param, value) {
                    (Some(p), Some(v)) => (p.name.to_string(), typed_value(p, v)?),
                    (Some(p), None) if p.ty == ParamType::Bool => {
                        (p.name.to_string(), Value::Bool(true))
                    }
                    (Some(p), None) => {
                        return Err(CliError::usage(format!(
                            "{} needs a value: {}:VALUE ({})",
                            p.name, p.name, p.help
                        )));
                    }
                    (None, Some(v)) if route.open => (key.clone(), open_value(v)),
                    (None, None) if route.open => (key.clone(), Value::Bool(true)),
                    (None, _) => return Err(unknown_param(route, key)),
                };
                if body.insert(name.clone(), value).is_some() {
                    return Err(CliError::usage(format!("{name} is given twice")));
                }
            }
            Arg::Positional(v) => positionals.push(v.as_str()),
        }
    }
    // Bare values fill the required parameters in order; a route with one parameter takes it.
    if !positionals.is_empty() {
        let mut slots: Vec<&Param> = route.params.iter().filter(|p| p.required).collect();
        if slots.is_empty() && route.params.len() == 1 {
            slots.push(&route.params[0]);
        }
        let free: Vec<&Param> = slots
            .into_iter()
            .filter(|p| !body.contains_key(p.name))
            .collect();
        if positionals.len() > free.len() {
            let extra = positionals[free.len()];
            return Err(CliError::usage(if route.params.is_empty() && !route.open {
                format!("`{}` takes no parameters; got {extra:?}", route.command)
            } else {
                format!(
                    "unexpected value {extra:?}; give parameters as key:value (see `colony help {}`)",
                    route.command
                )
            }));
        }
        for (p, v) in free.into_iter().zip(positionals) {
            body.insert(p.name.to_string(), typed_value(p, v)?);
        }
    }
    for p in route.params.iter().filter(|p| p.required) {
        if !body.contains_key(p.name) {
            return Err(CliError::usage(format!(
                "missing required parameter {}: {}:{} ({}); see `colony help {}`",
                p.name,
                p.name,
                p.ty.as_str().to_uppercase(),
                p.help,
                route.command
            )));
        }
    }
    Ok(body)
}

fn unknown_param(route: &Route, key: &str) -> CliError {
    let known: Vec<&str> = route.params.iter().map(|p| p.name).collect();
    CliError::usage(if known.is_empty() {
        format!(
            "`{}` ({} {}) takes no parameters; got {key}",
            route.command,
            route.method.as_str(),
            route.path
        )
    } else {
        format!(
            "unknown parameter {key} for `{}`; its parameters: {} (text containing ':' goes in a named parameter, e.g. {}:'a: b')",
            route.command,
            known.join(", "),
            known[0]
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::routes::{by_command, find};
    use serde_json::json;

    fn argv(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    fn body(cmd: &str, args: &[&str]) -> Result<Value, CliError> {
        let cli = parse(&argv(&[&[cmd], args].concat()))?;
        let route = pick_route(&by_command(cmd), !cli.args.is_empty());
        build_body(route, &cli.args).map(Value::Object)
    }

    #[test]
    fn global_flags_go_anywhere() {
        let cli = parse(&argv(&[
            "--port", "9000", "speed", "--json", "speed:2", "--host=h",
        ]))
        .unwrap();
        assert_eq!(cli.flags.port, Some(9000));
        assert_eq!(cli.flags.host.as_deref(), Some("h"));
        assert!(cli.json);
        assert_eq!(cli.command.as_deref(), Some("speed"));
        assert_eq!(cli.args, vec![Arg::Named("speed".into(), Some("2".into()))]);
        assert!(parse(&argv(&["--port", "x", "time"])).is_err());
    }

    #[test]
    fn values_are_typed_by_the_catalogue() {
        assert_eq!(body("speed", &["speed:2"]).unwrap(), json!({"speed": 2}));
        assert_eq!(
            body("speed", &["--speed", "3"]).unwrap(),
            json!({"speed": 3})
        );
        assert_eq!(body("speed", &["1"]).unwrap(), json!({"speed": 1}));
        assert!(body("speed", &["speed:fast"]).is_err());
        assert_eq!(
            body("workhours", &["end-hours:16"]).unwrap(),
            json!({"endHours": 16})
        );
        assert_eq!(
            body("ready", &["ready:yes"]).unwrap(),
            json!({"ready": true})
        );
        assert!(body("ready", &["ready:maybe"]).is_err());
        assert!(body("ready", &[]).is_err(), "ready is required");
        assert_eq!(
            body("advance", &["days:1.5"]).unwrap(),
            json!({"days": 1.5})
        );
        assert_eq!(body("advance", &["hours:6"]).unwrap(), json!({"hours": 6}));
        assert_eq!(
            body("agent-config", &["lastError:null"]).unwrap(),
            json!({"lastError": null})
        );
        assert!(body("agent-config", &["lastError:x"]).is_err());
        assert_eq!(
            body("benchmark", &["routes:/api/time,/api/ping"]).unwrap(),
            json!({"routes": ["/api/time", "/api/ping"]})
        );
        assert_eq!(
            body("request", &["hello: world", "--replace"])
                .unwrap_err()
                .code,
            2,
            "an identifier before ':' must be a known parameter"
        );
        assert_eq!(
            body("request", &["prompt:hello: world", "--replace"]).unwrap(),
            json!({"prompt": "hello: world", "replace": true})
        );
        assert_eq!(
            body("request", &["build a pump"]).unwrap(),
            json!({"prompt": "build a pump"})
        );
        assert!(body("time", &["x"]).is_err());
        assert!(body("speed", &["speed:1", "speed:2"]).is_err());
    }

    #[test]
    fn open_routes_take_any_key_with_json_values() {
        let b = body(
            "settings",
            &[
                "corsOrigin:http://x:1",
                "maxBodyBytes:2048",
                "debugEndpointEnabled:true",
            ],
        )
        .unwrap();
        assert_eq!(
            b,
            json!({"corsOrigin": "http://x:1", "maxBodyBytes": 2048, "debugEndpointEnabled": true})
        );
    }

    #[test]
    fn no_args_pick_the_get() {
        let r = pick_route(&by_command("speed"), false);
        assert_eq!(r, find(Method::Get, "/api/speed").unwrap());
        let r = pick_route(&by_command("save"), false);
        assert_eq!(r.method, Method::Post);
    }
}
