//! Client settings: host, port, ws_port and auth_token, each resolved in the contract's order,
//! first match wins: command-line flag, environment variable, config file, built-in default.
//!
//! The config file is TOML with the keys `host`, `port`, `ws_port`, `auth_token`. Its location is
//! `--config FILE`, else `$COLONY_CONFIG`, else `<per-user config dir>/colony/config.toml`
//! (`~/.config/colony/config.toml` on Linux, honouring `XDG_CONFIG_HOME`). The client never
//! reads the server's settings file.

use crate::exit::{CliError, EXIT_BAD_INPUT};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

pub const DEFAULT_HOST: &str = "127.0.0.1";
pub const DEFAULT_PORT: u16 = 8085;
pub const DEFAULT_WS_PORT: u16 = 8086;

/// Values given on the command line.
#[derive(Clone, Debug, Default)]
pub struct Flags {
    pub host: Option<String>,
    pub port: Option<u16>,
    pub ws_port: Option<u16>,
    pub token: Option<String>,
    pub config: Option<PathBuf>,
}

/// Where a resolved value came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    Flag(&'static str),
    Env(&'static str),
    File(PathBuf),
    Default,
}

impl Source {
    pub fn describe(&self) -> String {
        match self {
            Source::Flag(f) => format!("flag {f}"),
            Source::Env(v) => format!("environment {v}"),
            Source::File(p) => format!("config file {}", p.display()),
            Source::Default => "default".into(),
        }
    }
}

/// One resolved setting.
#[derive(Clone, Debug)]
pub struct Resolved<T> {
    pub value: T,
    pub source: Source,
}

/// The resolved client settings.
#[derive(Clone, Debug)]
pub struct Settings {
    pub host: Resolved<String>,
    pub port: Resolved<u16>,
    pub ws_port: Resolved<u16>,
    pub token: Resolved<Option<String>>,
    /// The config file consulted (whether or not it exists).
    pub config_path: Option<PathBuf>,
    pub config_loaded: bool,
}

impl Settings {
    /// The host as it goes into a URL (IPv6 literals in brackets).
    pub fn url_host(&self) -> String {
        let h = &self.host.value;
        if h.contains(':') && !h.starts_with('[') {
            format!("[{h}]")
        } else {
            h.clone()
        }
    }

    pub fn base_url(&self) -> String {
        format!("http://{}:{}", self.url_host(), self.port.value)
    }

    pub fn ws_url(&self) -> String {
        format!("ws://{}:{}/api/ws", self.url_host(), self.ws_port.value)
    }

    pub fn token(&self) -> Option<&str> {
        self.token.value.as_deref()
    }

    /// What `colony config` shows: each value and its source, the token masked.
    pub fn to_json(&self) -> Value {
        let token = match &self.token.value {
            Some(_) => json!("*** (set)"),
            None => json!("(none)"),
        };
        json!({
            "host": {"value": self.host.value, "source": self.host.source.describe()},
            "port": {"value": self.port.value, "source": self.port.source.describe()},
            "ws_port": {"value": self.ws_port.value, "source": self.ws_port.source.describe()},
            "auth_token": {"value": token, "source": self.token.source.describe()},
            "config_file": {
                "path": self.config_path.as_ref().map(|p| p.display().to_string()).unwrap_or_default(),
                "loaded": self.config_loaded,
            },
            "http_url": self.base_url(),
            "ws_url": self.ws_url(),
        })
    }
}

/// Values read from the config file.
#[derive(Debug, Default)]
struct FileValues {
    host: Option<String>,
    port: Option<u16>,
    ws_port: Option<u16>,
    token: Option<String>,
}

/// Parses a port number (1-65535).
pub fn parse_port(s: &str) -> Option<u16> {
    s.trim().parse::<u16>().ok().filter(|p| *p > 0)
}

fn nonempty(s: Option<String>) -> Option<String> {
    s.filter(|v| !v.trim().is_empty())
}

/// Resolves the settings. `env` looks up an environment variable; `user_config_dir` is the
/// per-user config folder; warnings (malformed values that were skipped) go to `warn`.
pub fn resolve(
    flags: &Flags,
    env: &dyn Fn(&str) -> Option<String>,
    user_config_dir: Option<PathBuf>,
    warn: &mut dyn FnMut(String),
) -> Result<Settings, CliError> {
    // The config file: an explicitly named one must exist; the default one may be missing.
    let (config_path, explicit) = match (&flags.config, nonempty(env("COLONY_CONFIG"))) {
        (Some(p), _) => (Some(p.clone()), true),
        (None, Some(p)) => (Some(PathBuf::from(p)), true),
        (None, None) => (
            user_config_dir.map(|d| d.join("colony").join("config.toml")),
            false,
        ),
    };
    let mut file = FileValues::default();
    let mut config_loaded = false;
    if let Some(path) = &config_path {
        match std::fs::read_to_string(path) {
            Ok(text) => {
                file = parse_file(path, &text, warn)?;
                config_loaded = true;
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && !explicit => {}
            Err(e) => {
                return Err(CliError::new(
                    EXIT_BAD_INPUT,
                    format!("cannot read config file {}: {e}", path.display()),
                ));
            }
        }
    }
    let file_src = || Source::File(config_path.clone().unwrap_or_default());

    let env_port = |var: &'static str, warn: &mut dyn FnMut(String)| -> Option<u16> {
        let raw = nonempty(env(var))?;
        match parse_port(&raw) {
            Some(p) => Some(p),
            None => {
                warn(format!(
                    "ignoring {var}={raw:?}: not a port number (1-65535)"
                ));
                None
            }
        }
    };

    let host = if let Some(h) = nonempty(flags.host.clone()) {
        Resolved {
            value: h,
            source: Source::Flag("--host"),
        }
    } else if let Some(h) = nonempty(env("COLONY_HOST")) {
        Resolved {
            value: h,
            source: Source::Env("COLONY_HOST"),
        }
    } else if let Some(h) = file.host.clone() {
        Resolved {
            value: h,
            source: file_src(),
        }
    } else {
        Resolved {
            value: DEFAULT_HOST.into(),
            source: Source::Default,
        }
    };

    let mut port_of = |flag: Option<u16>,
                       flag_name: &'static str,
                       var: &'static str,
                       from_file: Option<u16>,
                       default: u16| {
        if let Some(p) = flag {
            Resolved {
                value: p,
                source: Source::Flag(flag_name),
            }
        } else if let Some(p) = env_port(var, warn) {
            Resolved {
                value: p,
                source: Source::Env(var),
            }
        } else if let Some(p) = from_file {
            Resolved {
                value: p,
                source: file_src(),
            }
        } else {
            Resolved {
                value: default,
                source: Source::Default,
            }
        }
    };
    let port = port_of(flags.port, "--port", "COLONY_PORT", file.port, DEFAULT_PORT);
    let ws_port = port_of(
        flags.ws_port,
        "--ws-port",
        "COLONY_WS_PORT",
        file.ws_port,
        DEFAULT_WS_PORT,
    );

    let token = if let Some(t) = nonempty(flags.token.clone()) {
        Resolved {
            value: Some(t),
            source: Source::Flag("--token"),
        }
    } else if let Some(t) = nonempty(env("COLONY_TOKEN")) {
        Resolved {
            value: Some(t),
            source: Source::Env("COLONY_TOKEN"),
        }
    } else if let Some(t) = file.token.clone() {
        Resolved {
            value: Some(t),
            source: file_src(),
        }
    } else {
        Resolved {
            value: None,
            source: Source::Default,
        }
    };

    Ok(Settings {
        host,
        port,
        ws_port,
        token,
        config_path,
        config_loaded,
    })
}

/// Reads the TOML config file. A syntax error is fatal (exit 2); a key with a wrong type or an
/// unknown key is skipped with a warning.
fn parse_file(
    path: &Path,
    text: &str,
    warn: &mut dyn FnMut(String),
) -> Result<FileValues, CliError> {
    let table: toml::Table = text.parse().map_err(|e| {
        CliError::new(
            EXIT_BAD_INPUT,
            format!("config file {} is not valid TOML: {e}", path.display()),
        )
    })?;
    let mut out = FileValues::default();
    for (key, value) in &table {
        let bad = |what: &str| {
            format!(
                "config file {}: ignoring {key} = {value:?}: {what}",
                path.display()
            )
        };
        match key.as_str() {
            "host" => match value.as_str() {
                Some(s) if !s.trim().is_empty() => out.host = Some(s.trim().to_string()),
                _ => warn(bad("expected a non-empty string")),
            },
            "port" | "ws_port" => {
                let port = value
                    .as_integer()
                    .and_then(|i| u16::try_from(i).ok())
                    .filter(|p| *p > 0);
                match port {
                    Some(p) if key == "port" => out.port = Some(p),
                    Some(p) => out.ws_port = Some(p),
                    None => warn(bad("expected a port number 1-65535")),
                }
            }
            "auth_token" => match value.as_str() {
                Some(s) if !s.is_empty() => out.token = Some(s.to_string()),
                Some(_) => {}
                None => warn(bad("expected a string")),
            },
            _ => warn(format!(
                "config file {}: ignoring unknown key {key} (known: host, port, ws_port, auth_token)",
                path.display()
            )),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn run(
        flags: Flags,
        env: &[(&str, &str)],
        file: Option<&str>,
    ) -> (Result<Settings, CliError>, Vec<String>) {
        let dir = tempfile::tempdir().unwrap();
        if let Some(text) = file {
            std::fs::create_dir_all(dir.path().join("colony")).unwrap();
            std::fs::write(dir.path().join("colony/config.toml"), text).unwrap();
        }
        let env: HashMap<String, String> = env
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let mut warnings = Vec::new();
        let s = resolve(
            &flags,
            &|k| env.get(k).cloned(),
            Some(dir.path().to_path_buf()),
            &mut |w| warnings.push(w),
        );
        (s, warnings)
    }

    #[test]
    fn defaults_without_anything() {
        let (s, w) = run(Flags::default(), &[], None);
        let s = s.unwrap();
        assert_eq!(s.host.value, "127.0.0.1");
        assert_eq!(s.port.value, 8085);
        assert_eq!(s.ws_port.value, 8086);
        assert_eq!(s.token.value, None);
        assert_eq!(s.port.source, Source::Default);
        assert!(w.is_empty());
    }

    #[test]
    fn flag_beats_env_beats_file_beats_default() {
        let file = "host = \"file\"\nport = 1001\nws_port = 1002\nauth_token = \"ft\"\n";
        let env = [
            ("COLONY_HOST", "env"),
            ("COLONY_PORT", "2001"),
            ("COLONY_TOKEN", "et"),
        ];
        let flags = Flags {
            host: Some("flag".into()),
            ..Default::default()
        };
        let s = run(flags, &env, Some(file)).0.unwrap();
        assert_eq!(s.host.value, "flag");
        assert_eq!(s.port.value, 2001);
        assert_eq!(s.port.source, Source::Env("COLONY_PORT"));
        assert_eq!(s.ws_port.value, 1002);
        assert!(matches!(s.ws_port.source, Source::File(_)));
        assert_eq!(s.token.value.as_deref(), Some("et"));
    }

    #[test]
    fn malformed_env_integer_is_ignored_with_a_warning() {
        let (s, w) = run(
            Flags::default(),
            &[("COLONY_PORT", "80x"), ("COLONY_WS_PORT", "70000")],
            Some("port = 1001\n"),
        );
        let s = s.unwrap();
        assert_eq!(s.port.value, 1001);
        assert_eq!(s.ws_port.value, 8086);
        assert_eq!(w.len(), 2, "{w:?}");
        assert!(w[0].contains("COLONY_PORT"));
    }

    #[test]
    fn bad_file_values_are_skipped_and_bad_toml_is_an_error() {
        let (s, w) = run(
            Flags::default(),
            &[],
            Some("port = \"x\"\nhost = \"h\"\ncolour = 1\n"),
        );
        let s = s.unwrap();
        assert_eq!(s.host.value, "h");
        assert_eq!(s.port.value, 8085);
        assert_eq!(w.len(), 2);
        let (s, _) = run(Flags::default(), &[], Some("port = = 3"));
        assert_eq!(s.unwrap_err().code, EXIT_BAD_INPUT);
    }

    #[test]
    fn an_explicit_missing_config_file_is_an_error() {
        let (s, _) = run(
            Flags::default(),
            &[("COLONY_CONFIG", "/nonexistent/colony.toml")],
            None,
        );
        assert_eq!(s.unwrap_err().code, EXIT_BAD_INPUT);
    }

    #[test]
    fn ipv6_hosts_are_bracketed() {
        let flags = Flags {
            host: Some("::1".into()),
            ..Default::default()
        };
        let s = run(flags, &[], None).0.unwrap();
        assert_eq!(s.base_url(), "http://[::1]:8085");
    }
}
