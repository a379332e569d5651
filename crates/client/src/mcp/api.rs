//! The MCP server's connection to colonyd: asynchronous HTTP requests (reqwest) with the
//! client's resolved host, port and token, sorted into answers by the same rules as the CLI
//! (`crate::http::classify`: domain errors arrive with HTTP 200 and an `error` body).

use crate::config::Settings;
use crate::http::{Answer, classify};
use protocol::routes::Method;
use serde_json::{Map, Value};
use std::time::Duration;

/// A failure to get any answer from the service (connection refused, time-out, a body that is
/// not JSON, a 401 without an error body): the text says what happened and what to do.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure(pub String);

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
            .map_err(|e| Failure(format!("cannot build the HTTP client: {e}")))?;
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
            Method::Post => self
                .client
                .post(&url)
                .header("content-type", "application/json")
                .body(Value::Object(params.clone()).to_string()),
        };
        if !query.is_empty() {
            rb = rb.query(&query);
        }
        if let Some(t) = &self.token {
            rb = rb.bearer_auth(t);
        }
        let resp = rb.send().await.map_err(|e| unreachable(&url, &e))?;
        let status = resp.status().as_u16();
        let text = resp.text().await.map_err(|e| unreachable(&url, &e))?;
        classify(status, &text).map_err(|e| Failure(e.message))
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
            Answer::Error { error, .. } => Err(Failure(format!(
                "GET {path}: {}",
                crate::output::error_text(&error).trim_start_matches("error: ")
            ))),
        }
    }
}

fn unreachable(url: &str, e: &reqwest::Error) -> Failure {
    let what = crate::http::failure_cause(e);
    Failure(format!(
        "cannot reach the Colony service at {url}: {what} (is colonyd running? `colony mcp` \
         takes --host/--port, COLONY_HOST/COLONY_PORT or the config file)"
    ))
}
