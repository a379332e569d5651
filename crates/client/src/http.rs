//! Calls one route of the service and sorts the answer into success, a contract error (domain
//! errors arrive with HTTP 200 and an `error` body; transport errors with real statuses) or a
//! connection failure.

use crate::config::Settings;
use crate::exit::{self, CliError, EXIT_CONNECTION, EXIT_OTHER};
use protocol::error::ApiError;
use protocol::routes::{Method, Route};
use serde_json::{Map, Value};
use std::time::Duration;

/// What a call produced.
#[derive(Debug)]
pub enum Answer {
    /// A successful answer's JSON.
    Ok(Value),
    /// The service reported an error (the whole body kept for `--json`).
    Error {
        status: u16,
        error: ApiError,
        body: Value,
    },
}

impl Answer {
    /// The exit code of this answer.
    pub fn exit_code(&self) -> i32 {
        match self {
            Answer::Ok(_) => exit::EXIT_OK,
            Answer::Error { error, status, .. } => {
                if *status == 401 {
                    exit::EXIT_AUTH
                } else {
                    exit::for_code(error.code)
                }
            }
        }
    }
}

/// A blocking HTTP client for the service.
pub struct Api {
    client: reqwest::blocking::Client,
    base: String,
    token: Option<String>,
}

impl Api {
    pub fn new(settings: &Settings) -> Result<Api, CliError> {
        let client = reqwest::blocking::Client::builder()
            .connect_timeout(Duration::from_secs(5))
            // Long enough for `advance` over many days; a dead service fails at connect time.
            .timeout(Duration::from_secs(600))
            .build()
            .map_err(|e| CliError::new(EXIT_OTHER, format!("cannot build the HTTP client: {e}")))?;
        Ok(Api {
            client,
            base: settings.base_url(),
            token: settings.token().map(String::from),
        })
    }

    /// Sends one request: a GET with the body as query parameters, or a POST with a JSON body.
    pub fn call(&self, route: &Route, body: &Map<String, Value>) -> Result<Answer, CliError> {
        self.send(route.method, route.path, body)
    }

    pub fn send(
        &self,
        method: Method,
        path: &str,
        body: &Map<String, Value>,
    ) -> Result<Answer, CliError> {
        let url = format!("{}{}", self.base, path);
        let mut rb = match method {
            Method::Get => {
                let query: Vec<(String, String)> = body
                    .iter()
                    .map(|(k, v)| {
                        let text = match v {
                            Value::String(s) => s.clone(),
                            other => other.to_string(),
                        };
                        (k.clone(), text)
                    })
                    .collect();
                self.client.get(&url).query(&query)
            }
            Method::Post => self
                .client
                .post(&url)
                .header("content-type", "application/json")
                .body(Value::Object(body.clone()).to_string()),
        };
        if let Some(t) = &self.token {
            rb = rb.bearer_auth(t);
        }
        let resp = rb.send().map_err(|e| connection_error(&url, e))?;
        let status = resp.status().as_u16();
        let text = resp.text().map_err(|e| connection_error(&url, e))?;
        classify(status, &text)
    }
}

/// What went wrong reaching the service: "no answer in time", or the innermost cause (e.g.
/// "Connection refused (os error 111)").
pub(crate) fn failure_cause(e: &reqwest::Error) -> String {
    if e.is_timeout() {
        return "no answer in time".to_string();
    }
    let mut cause: &dyn std::error::Error = e;
    while let Some(s) = cause.source() {
        cause = s;
    }
    cause.to_string()
}

fn connection_error(url: &str, e: reqwest::Error) -> CliError {
    let what = failure_cause(&e);
    CliError::new(
        EXIT_CONNECTION,
        format!("cannot reach the service at {url}: {what}"),
    )
}

/// Sorts a response into an answer.
pub fn classify(status: u16, text: &str) -> Result<Answer, CliError> {
    let body: Option<Value> = serde_json::from_str(text).ok();
    if let Some(body) = &body
        && let Some(error) = ApiError::from_body(body)
    {
        return Ok(Answer::Error {
            status,
            error,
            body: body.clone(),
        });
    }
    match (status, body) {
        (200..=299, Some(v)) => Ok(Answer::Ok(v)),
        (200..=299, None) => Err(CliError::new(
            EXIT_OTHER,
            format!("the service answered {status} with a body that is not JSON: {text:.200}"),
        )),
        (401, _) => Err(CliError::new(
            exit::EXIT_AUTH,
            "unauthorized (HTTP 401): give the token with --token, COLONY_TOKEN or auth_token in the config file",
        )),
        (_, _) => Err(CliError::new(
            EXIT_OTHER,
            format!("the service answered HTTP {status}: {text:.200}"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::error::ErrorCode;

    #[test]
    fn domain_errors_come_with_200() {
        let a = classify(
            200,
            r#"{"error":"invalid_param: speed must be 0-3; got 9","got":9}"#,
        )
        .unwrap();
        match &a {
            Answer::Error { error, .. } => assert_eq!(error.code, ErrorCode::InvalidParam),
            _ => panic!(),
        }
        assert_eq!(a.exit_code(), 2);
        let a = classify(409, r#"{"error":"game_not_ready: closed","hint":"x"}"#).unwrap();
        assert_eq!(a.exit_code(), 4);
        let a = classify(401, r#"{"error":"unauthorized: missing token"}"#).unwrap();
        assert_eq!(a.exit_code(), 5);
        assert_eq!(classify(401, "").unwrap_err().code, 5);
        assert_eq!(classify(502, "bad gateway").unwrap_err().code, 1);
        assert!(matches!(
            classify(200, r#"{"speed":1}"#).unwrap(),
            Answer::Ok(_)
        ));
    }
}
