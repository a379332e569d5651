//! The MCP server's connection to colonyd: asynchronous HTTP requests (reqwest) with the
//! client's resolved host, port and token, sorted into answers by the same rules as the CLI
//! (`crate::http::classify`: domain errors arrive with HTTP 200 and an `error` body). A POST
//! whose connection breaks while its body is sent is checked against the service's
//! `maxBodyBytes`: colonyd drains a body over it up to 8 MiB before answering 413, but closes the
//! connection on a larger one unread, which loses the answer; the failure then says the body was
//! too large.

use crate::config::Settings;
use crate::http::{Answer, classify};
use protocol::routes::Method;
use serde_json::{Map, Value};
use std::time::Duration;

/// A failure to get a usable answer from the service (connection refused, time-out, a body that
/// is not JSON, a body too large for it): `code` names it in the service's style
/// (`unreachable`, `body_too_large`, ...), `message` says what happened and what to do.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    pub code: &'static str,
    pub message: String,
}

impl Failure {
    pub fn new(code: &'static str, message: impl Into<String>) -> Failure {
        Failure {
            code,
            message: message.into(),
        }
    }
}

/// An asynchronous HTTP client for the service.
#[derive(Clone)]
pub struct Api {
    client: reqwest::Client,
    base: String,
    token: Option<String>,
}

impl Api {
    pub fn new(settings: &Settings) -> Result<Api, Failure> {
        let client = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(5))
            // `advance` over many days takes a while; a dead service fails at connect time.
            .timeout(Duration::from_secs(600))
            .build()
            .map_err(|e| {
                Failure::new(
                    "internal_error",
                    format!("cannot build the HTTP client: {e}"),
                )
            })?;
        Ok(Api {
            client,
            base: settings.base_url(),
            token: settings.token().map(String::from),
        })
    }

    /// Sends one request: a GET with `params` as the query, or a POST with them as the JSON
    /// body. `json` asks for the service's nested JSON shape (`format=json` in the query).
    pub async fn send(
        &self,
        method: Method,
        path: &str,
        params: &Map<String, Value>,
        json: bool,
    ) -> Result<Answer, Failure> {
        let url = format!("{}{}", self.base, path);
        let mut query: Vec<(String, String)> = Vec::new();
        if json {
            query.push(("format".into(), "json".into()));
        }
        let mut body = None;
        let mut rb = match method {
            Method::Get => {
                query.extend(params.iter().map(|(k, v)| {
                    let text = match v {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    };
                    (k.clone(), text)
                }));
                self.client.get(&url)
            }
            Method::Post => {
                let text = Value::Object(params.clone()).to_string();
                body = Some(text.len());
                self.client
                    .post(&url)
                    .header("content-type", "application/json")
                    .body(text)
            }
        };
        if !query.is_empty() {
            rb = rb.query(&query);
        }
        if let Some(t) = &self.token {
            rb = rb.bearer_auth(t);
        }
        let resp = match rb.send().await {
            Ok(resp) => resp,
            Err(e) => {
                if let Some(len) = body
                    && !e.is_connect()
                    && !e.is_timeout()
                    && let Some(f) = self.too_large(path, len).await
                {
                    return Err(f);
                }
                return Err(unreachable(&url, &e));
            }
        };
        let status = resp.status().as_u16();
        let text = resp.text().await.map_err(|e| unreachable(&url, &e))?;
        classify(status, &text).map_err(|e| {
            let code = match status {
                401 => "unauthorized",
                413 => "body_too_large",
                _ => "unreachable",
            };
            Failure::new(code, e.message)
        })
    }

    /// After a POST of `len` bytes lost its connection: the failure to report if the body was
    /// larger than the service's `maxBodyBytes` (read from `GET /api/settings`).
    async fn too_large(&self, path: &str, len: usize) -> Option<Failure> {
        let mut rb = self
            .client
            .get(format!("{}/api/settings", self.base))
            .query(&[("format", "json")]);
        if let Some(t) = &self.token {
            rb = rb.bearer_auth(t);
        }
        let v: Value = rb.send().await.ok()?.json().await.ok()?;
        let limit = v["settings"]["maxBodyBytes"].as_u64()?;
        (len as u64 > limit).then(|| {
            Failure::new(
                "body_too_large",
                format!(
                    "POST {path}: the request body is {len} bytes, more than the service takes \
                     (limit {limit} bytes, its maxBodyBytes setting); it refused the request \
                     (HTTP 413) and nothing was applied: send less (a shorter text, a smaller \
                     area), or raise maxBodyBytes"
                ),
            )
        })
    }

    /// A GET in the nested JSON shape whose error answer is turned into a failure: for the
    /// composite tools, which need the value to go on.
    pub async fn get_json(
        &self,
        path: &str,
        params: Vec<(&'static str, Value)>,
    ) -> Result<Value, Failure> {
        let params: Map<String, Value> =
            params.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
        match self.send(Method::Get, path, &params, true).await? {
            Answer::Ok(v) => Ok(v),
            Answer::Error { error, .. } => Err(Failure::new(
                super::answer::code_of(&error),
                format!(
                    "GET {path}: {}",
                    crate::output::error_text(&error).trim_start_matches("error: ")
                ),
            )),
        }
    }
}

fn unreachable(url: &str, e: &reqwest::Error) -> Failure {
    let what = crate::http::failure_cause(e);
    Failure::new(
        "unreachable",
        format!(
            "cannot reach the Colony service at {url}: {what} (is colonyd running? `colony mcp` \
         takes --host/--port, COLONY_HOST/COLONY_PORT or the config file)"
        ),
    )
}
