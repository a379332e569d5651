//! The server settings file: the contract's keys with their defaults and rules, our extensions,
//! lenient loading (deprecated keys noted once, unknown keys ignored, a wrong-typed value ignored
//! with a warning while the rest loads; a file that is not a JSON object stops the start-up) and
//! debounced atomic rewrites of run-time changes.

use serde_json::{Map, Value, json};
use std::path::PathBuf;
use std::sync::{Arc, RwLock};
use std::time::Duration;
use tokio::sync::Notify;

/// Upper bounds of numeric settings: past them a value is a mistake (and some would allocate
/// terabytes or stop the game host), so it is refused on the API and replaced by the default,
/// with a warning, in the file.
pub const MAX_WRITE_BUDGET_MS: f64 = 1000.0;
pub const MAX_WRITE_QUEUE: i64 = 65_536;
pub const MAX_AUTOSAVE_DAYS: i64 = 3650;
/// The largest `maxBodyBytes` (64 MiB): one request cannot hold more memory than this.
pub const MAX_BODY_LIMIT: i64 = 64 << 20;
/// The longest `corsOrigin` (an origin is `scheme://host[:port]`; DNS names end at 253).
pub const MAX_CORS_ORIGIN_LEN: usize = 270;

/// Keys the contract retired; present in a file they are ignored with a notice.
pub const DEPRECATED_KEYS: &[&str] = &[
    "terminal",
    "pythonCommand",
    "agentModel",
    "agentEffort",
    "agentCommandTemplate",
    "agentAllowlistEnabled",
    "agentAllowedBinaries",
    "webhooksEnabled",
    "webhookBatchMs",
    "webhookCircuitBreaker",
    "webhookMaxPendingEvents",
    "webhookValidateUrls",
];

/// The range of `httpIdleSeconds`.
pub const MAX_IDLE_SECONDS: i64 = 3600;
/// The range of `httpBodySeconds`.
pub const MAX_BODY_SECONDS: i64 = 3600;
/// The range of `maxConnections` (per listener).
pub const MIN_CONNECTIONS: i64 = 8;
pub const MAX_CONNECTIONS: i64 = 65536;

/// The shortest `authToken` accepted while the service listens beyond loopback.
pub const MIN_NETWORK_TOKEN_CHARS: usize = 16;

/// How long run-time changes wait for more changes before the file is rewritten.
pub const REWRITE_DEBOUNCE: Duration = Duration::from_secs(1);
/// The longest a change waits for the rewrite while more changes keep coming.
pub const REWRITE_MAX_WAIT: Duration = Duration::from_secs(5);

/// Every setting, resolved to its effective value.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub http_port: u16,
    pub ws_port: u16,
    pub ws_enabled: bool,
    pub listen_address: String,
    pub auth_token: String,
    /// 1 to [`MAX_BODY_LIMIT`] bytes.
    pub max_body_bytes: u64,
    pub debug_endpoint_enabled: bool,
    pub write_budget_ms: f64,
    pub cors_origin: String,
    pub action_logging_enabled: bool,
    pub widget_left: Option<String>,
    pub widget_top: Option<String>,
    /// Extension: domain errors get real HTTP statuses instead of 200.
    pub strict_http_status: bool,
    /// Extension: capacity of the game host's write queue (full: 503).
    pub write_queue_capacity: usize,
    /// Extension: in-game days between autosaves; 0 disables autosave.
    pub autosave_days: u32,
    /// Extension: seconds between the server's WebSocket pings (a connection silent for three
    /// intervals is closed).
    pub ws_ping_seconds: u32,
    /// Extension: seconds a connection may take to send a request head, counted from its
    /// opening or from the end of its previous request (slow headers and idle keep-alive).
    pub http_idle_seconds: u32,
    /// Extension: seconds a request's whole body may take to arrive after its head (slow
    /// bodies); a late one is answered 408 `request_timeout` and its connection closed.
    pub http_body_seconds: u32,
    /// Extension: open connections per listener; at the cap a new one evicts the oldest idle one.
    pub max_connections: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            http_port: 8085,
            ws_port: 8086,
            ws_enabled: true,
            listen_address: "127.0.0.1".into(),
            auth_token: String::new(),
            max_body_bytes: 1_048_576,
            debug_endpoint_enabled: false,
            write_budget_ms: 1.0,
            cors_origin: String::new(),
            action_logging_enabled: true,
            widget_left: None,
            widget_top: None,
            strict_http_status: false,
            write_queue_capacity: 256,
            autosave_days: 1,
            ws_ping_seconds: 20,
            http_idle_seconds: 30,
            http_body_seconds: 10,
            max_connections: 512,
        }
    }
}

/// The result of reading a settings file: the settings and the notices to log.
#[derive(Debug)]
pub struct Loaded {
    pub settings: Settings,
    /// One line per deprecated key.
    pub notices: Vec<String>,
    /// One line per ignored wrong-typed value (or an unreadable file).
    pub warnings: Vec<String>,
    /// The file's members as read, so a rewrite keeps keys this version does not know.
    pub raw: Map<String, Value>,
}

fn type_warning(key: &str, expected: &str, got: &Value) -> String {
    format!("settings: {key} must be {expected}, got {got}; ignored, using the default")
}

/// Applies the members of `raw` over the defaults, following the contract's rules.
pub fn resolve(raw: &Map<String, Value>) -> Loaded {
    let mut s = Settings::default();
    let mut notices = Vec::new();
    let mut warnings = Vec::new();
    for (key, value) in raw {
        if DEPRECATED_KEYS.contains(&key.as_str()) {
            notices.push(format!("settings: {key} is deprecated and ignored"));
            continue;
        }
        let int = || {
            value.as_i64().or_else(|| {
                value
                    .as_f64()
                    .filter(|f| f.fract() == 0.0)
                    .map(|f| f as i64)
            })
        };
        let mut bad = |expected: &str| warnings.push(type_warning(key, expected, value));
        match key.as_str() {
            "httpPort" | "wsPort" => match int() {
                Some(p) => {
                    let port = if p <= 0 {
                        None
                    } else if p > 65535 {
                        warnings.push(format!(
                            "settings: {key} {p} is above 65535; using the default"
                        ));
                        None
                    } else {
                        Some(p as u16)
                    };
                    if let Some(port) = port {
                        if key == "httpPort" {
                            s.http_port = port;
                        } else {
                            s.ws_port = port;
                        }
                    }
                }
                None => bad("an integer port"),
            },
            "wsEnabled" => match value.as_bool() {
                Some(b) => s.ws_enabled = b,
                None => bad("true or false"),
            },
            "listenAddress" => match value.as_str() {
                Some(a) if crate::bind_addr(a.trim(), 0).is_ok() => {
                    s.listen_address = a.trim().to_string()
                }
                Some(a) if a.trim().is_empty() => {}
                Some(a) => warnings.push(format!(
                    "settings: listenAddress {a:?} is not an IP address; use 127.0.0.1 (loopback), \
                     0.0.0.0 or + (every interface, needs authToken); ignored, using the default"
                )),
                None => bad("a string address"),
            },
            "authToken" => match value.as_str() {
                Some(t) if t.chars().any(char::is_control) => warnings.push(
                    "settings: authToken must not contain control characters (NUL, newlines); \
                     ignored, using the default"
                        .to_string(),
                ),
                // A token of only spaces is no token.
                Some(t) => s.auth_token = t.trim().to_string(),
                None => bad("a string"),
            },
            "maxBodyBytes" => match int() {
                Some(n) if n > MAX_BODY_LIMIT || n == 0 => warnings.push(format!(
                    "settings: maxBodyBytes {n} must be 1-{MAX_BODY_LIMIT} (64 MiB; 0 no longer means unlimited); \
                     ignored, using the default"
                )),
                Some(n) if n > 0 => s.max_body_bytes = n as u64,
                Some(_) => {}
                None => bad("an integer byte count"),
            },
            "debugEndpointEnabled" => match value.as_bool() {
                Some(b) => s.debug_endpoint_enabled = b,
                None => bad("true or false"),
            },
            "writeBudgetMs" => match value.as_f64() {
                Some(f) if f > MAX_WRITE_BUDGET_MS || !f.is_finite() => warnings.push(format!(
                    "settings: writeBudgetMs {f} is above {MAX_WRITE_BUDGET_MS} ms per frame; \
                     ignored, using the default"
                )),
                Some(f) if f > 0.0 => s.write_budget_ms = f,
                Some(_) => {}
                None => bad("a number of milliseconds"),
            },
            "corsOrigin" => match value.as_str() {
                Some(o) if valid_origin(o) => s.cors_origin = o.to_string(),
                Some(o) => {
                    let shown: String = o.chars().take(80).collect();
                    let more = if shown.len() < o.len() { "..." } else { "" };
                    warnings.push(format!(
                        "settings: corsOrigin {shown:?}{more} ({} characters) is not an origin; \
                         use scheme://host[:port] with http or https and no path (e.g. \
                         http://localhost:3000), at most {MAX_CORS_ORIGIN_LEN} characters, * for any \
                         page, or empty for none; ignored, using the default",
                        o.chars().count()
                    ))
                }
                None => bad("a string"),
            },
            "actionLoggingEnabled" => match value.as_bool() {
                Some(b) => s.action_logging_enabled = b,
                None => bad("true or false"),
            },
            "widgetLeft" | "widgetTop" => match value {
                Value::String(v) => {
                    if key == "widgetLeft" {
                        s.widget_left = Some(v.clone());
                    } else {
                        s.widget_top = Some(v.clone());
                    }
                }
                Value::Null => {}
                _ => bad("a string"),
            },
            "strictHttpStatus" => match value.as_bool() {
                Some(b) => s.strict_http_status = b,
                None => bad("true or false"),
            },
            "writeQueueCapacity" => match int() {
                Some(n) if (1..=MAX_WRITE_QUEUE).contains(&n) => s.write_queue_capacity = n as usize,
                Some(n) => warnings.push(format!(
                    "settings: writeQueueCapacity {n} must be 1-{MAX_WRITE_QUEUE}; ignored, using the default"
                )),
                None => bad("a positive integer"),
            },
            "wsPingSeconds" => match int() {
                Some(n) if n > 0 && n <= 3600 => s.ws_ping_seconds = n as u32,
                Some(n) => warnings.push(format!(
                    "settings: wsPingSeconds {n} must be 1-3600; ignored, using the default"
                )),
                None => bad("a whole number of seconds"),
            },
            "httpIdleSeconds" => match int() {
                Some(n) if (1..=MAX_IDLE_SECONDS).contains(&n) => s.http_idle_seconds = n as u32,
                Some(n) => warnings.push(format!(
                    "settings: httpIdleSeconds {n} must be 1-{MAX_IDLE_SECONDS}; ignored, using the default"
                )),
                None => bad("a whole number of seconds"),
            },
            "httpBodySeconds" => match int() {
                Some(n) if (1..=MAX_BODY_SECONDS).contains(&n) => s.http_body_seconds = n as u32,
                Some(n) => warnings.push(format!(
                    "settings: httpBodySeconds {n} must be 1-{MAX_BODY_SECONDS}; ignored, using the default"
                )),
                None => bad("a whole number of seconds"),
            },
            "maxConnections" => match int() {
                Some(n) if (MIN_CONNECTIONS..=MAX_CONNECTIONS).contains(&n) => {
                    s.max_connections = n as usize
                }
                Some(n) => warnings.push(format!(
                    "settings: maxConnections {n} must be {MIN_CONNECTIONS}-{MAX_CONNECTIONS}; ignored, using the default"
                )),
                None => bad("a positive integer"),
            },
            "autosaveDays" => match int() {
                Some(n) if (0..=MAX_AUTOSAVE_DAYS).contains(&n) => s.autosave_days = n as u32,
                Some(n) => warnings.push(format!(
                    "settings: autosaveDays {n} must be 0-{MAX_AUTOSAVE_DAYS} (0 turns autosave off); \
                     ignored, using the default"
                )),
                None => bad("a non-negative integer"),
            },
            _ => {} // Unknown keys are ignored silently.
        }
    }
    Loaded {
        settings: s,
        notices,
        warnings,
        raw: raw.clone(),
    }
}

/// Whether `o` may be `corsOrigin`: empty, `*`, or `http(s)://host[:port]` (a DNS name, an IPv4
/// address or a bracketed IPv6 address; no path, no user, no control characters), at most
/// [`MAX_CORS_ORIGIN_LEN`] characters. It is echoed in a response header, so anything else (a
/// newline, 70,000 characters) would break the answers.
pub fn valid_origin(o: &str) -> bool {
    if o.is_empty() || o == "*" {
        return true;
    }
    if o.len() > MAX_CORS_ORIGIN_LEN {
        return false;
    }
    let Some(rest) = o
        .strip_prefix("http://")
        .or_else(|| o.strip_prefix("https://"))
    else {
        return false;
    };
    let (host, port) = if let Some(v6) = rest.strip_prefix('[') {
        let Some((addr, after)) = v6.split_once(']') else {
            return false;
        };
        if addr.parse::<std::net::Ipv6Addr>().is_err() {
            return false;
        }
        match after {
            "" => ("v6", None),
            p => match p.strip_prefix(':') {
                Some(p) => ("v6", Some(p)),
                None => return false,
            },
        }
    } else {
        match rest.split_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (rest, None),
        }
    };
    let host_ok = !host.is_empty()
        && host.len() <= 253
        && host.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        });
    let port_ok = port.is_none_or(|p| {
        !p.is_empty()
            && p.len() <= 5
            && p.chars().all(|c| c.is_ascii_digit())
            && p.parse::<u32>().is_ok_and(|n| (1..=65535).contains(&n))
    });
    host_ok && port_ok
}

/// Reads a settings file. A missing or empty file gives the defaults. A file that cannot be read,
/// is not JSON or is not a JSON object is an error naming the file (and, for bad JSON, the line
/// and column): colonyd refuses to start rather than run without what the user wrote there (the
/// token above all) and overwrite it with defaults at the next change.
pub fn load(path: &std::path::Path) -> Result<Loaded, String> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(resolve(&Map::new())),
        Err(e) => {
            return Err(format!(
                "cannot read the settings file {}: {e}; make it readable, or move it away to start with the defaults",
                path.display()
            ));
        }
    };
    // A byte-order mark (some editors write one) is not part of the JSON.
    let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    if text.iter().all(u8::is_ascii_whitespace) {
        return Ok(resolve(&Map::new()));
    }
    match serde_json::from_slice::<Value>(text) {
        Ok(Value::Object(map)) => Ok(resolve(&map)),
        Ok(other) => Err(format!(
            "the settings file {} holds {}, not a JSON object; write it as {{\"key\": value, ...}}, or move it away to start with the defaults",
            path.display(),
            match other {
                Value::Array(_) => "an array",
                Value::String(_) => "a string",
                Value::Number(_) => "a number",
                Value::Bool(_) => "a boolean",
                _ => "null",
            }
        )),
        Err(e) => Err(format!(
            "the settings file {} is not valid JSON: {} at line {} column {}; fix it there (nothing was changed), or move it away to start with the defaults",
            path.display(),
            syntax_message(&e),
            e.line(),
            e.column()
        )),
    }
}

/// serde_json's message without its own " at line L column C" (the caller says where).
fn syntax_message(e: &serde_json::Error) -> String {
    let full = e.to_string();
    match full.rfind(" at line ") {
        Some(i) => full[..i].to_string(),
        None => full,
    }
}

impl Settings {
    /// The settings as the file stores them (contract key names).
    pub fn to_json(&self) -> Map<String, Value> {
        let v = json!({
            "httpPort": self.http_port,
            "wsPort": self.ws_port,
            "wsEnabled": self.ws_enabled,
            "listenAddress": self.listen_address,
            "authToken": self.auth_token,
            "maxBodyBytes": self.max_body_bytes,
            "debugEndpointEnabled": self.debug_endpoint_enabled,
            "writeBudgetMs": self.write_budget_ms,
            "corsOrigin": self.cors_origin,
            "actionLoggingEnabled": self.action_logging_enabled,
            "widgetLeft": self.widget_left,
            "widgetTop": self.widget_top,
            "strictHttpStatus": self.strict_http_status,
            "writeQueueCapacity": self.write_queue_capacity,
            "autosaveDays": self.autosave_days,
            "wsPingSeconds": self.ws_ping_seconds,
            "httpIdleSeconds": self.http_idle_seconds,
            "httpBodySeconds": self.http_body_seconds,
            "maxConnections": self.max_connections,
        });
        match v {
            Value::Object(m) => m,
            _ => unreachable!("a json! object literal"),
        }
    }

    /// Keys whose change only takes effect after a restart.
    pub const RESTART_KEYS: &'static [&'static str] = &[
        "httpPort",
        "wsPort",
        "wsEnabled",
        "listenAddress",
        "authToken",
        "writeQueueCapacity",
    ];
}

mod store;
pub use store::SettingsStore;

#[cfg(test)]
mod tests;
