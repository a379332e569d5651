//! `colony mcp --http` under abuse, over raw HTTP: sessions are capped (a new one closes the least
//! recently used) and expire when unused, so thousands of `initialize` calls do not grow its
//! memory; malformed JSON-RPC gets a 400 with a JSON-RPC error saying what is wrong (not 415); a
//! tool call whose body colonyd refuses as too large says so, with the limit, instead of
//! "unreachable".

use crate::mcp::{McpHttp, mcp_http_with};
use crate::support::Server;
use reqwest::blocking::{Client, Response};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

fn initialize() -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "e2e", "version": "1"}}})
}

/// POSTs one JSON-RPC message (raw `body`), in the session `session` if any.
fn post(http: &Client, mcp: &McpHttp, session: Option<&str>, body: String) -> Response {
    let mut rb = http
        .post(&mcp.url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(body);
    if let Some(id) = session {
        rb = rb
            .header("mcp-session-id", id)
            .header("mcp-protocol-version", "2025-06-18");
    }
    rb.send().unwrap()
}

/// The JSON-RPC messages of an answer (a JSON body, or the `data:` lines of an event stream).
fn messages(resp: Response) -> Vec<Value> {
    let text = resp.text().unwrap();
    if let Ok(v) = serde_json::from_str::<Value>(&text) {
        return vec![v];
    }
    text.lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
        .collect()
}

/// A new, initialized session's id.
fn open_session(http: &Client, mcp: &McpHttp) -> String {
    let resp = post(http, mcp, None, initialize().to_string());
    assert_eq!(resp.status(), 200);
    let id = resp.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let _ = messages(resp);
    let done = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(post(http, mcp, Some(&id), done.to_string()).status(), 202);
    id
}

/// The status of a `ping` in the session `id` (404 once the session is gone).
fn ping(http: &Client, mcp: &McpHttp, id: &str) -> u16 {
    let resp = post(
        http,
        mcp,
        Some(id),
        json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}).to_string(),
    );
    let status = resp.status().as_u16();
    let _ = resp.text();
    status
}

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
fn mcp_http_sessions_are_capped_and_unused_ones_expire() {
    let server = Server::start();
    let home = tempfile::tempdir().unwrap();
    let mcp = mcp_http_with(
        &server,
        home.path(),
        &["--max-sessions", "5", "--session-idle", "2"],
    );
    let http = Client::new();
    let ids: Vec<String> = (0..8).map(|_| open_session(&http, &mcp)).collect();
    // The three used least recently were closed to make room for the last three.
    let statuses: Vec<u16> = ids.iter().map(|id| ping(&http, &mcp, id)).collect();
    assert_eq!(statuses, [404, 404, 404, 200, 200, 200, 200, 200]);
    // Used again, the fourth session is not the next to go: the fifth is.
    assert_eq!(ping(&http, &mcp, &ids[3]), 200);
    let extra = open_session(&http, &mcp);
    assert_eq!(ping(&http, &mcp, &ids[3]), 200);
    assert_eq!(ping(&http, &mcp, &ids[4]), 404);
    assert_eq!(ping(&http, &mcp, &extra), 200);
    // Unused for 2 s, every session is closed.
    std::thread::sleep(Duration::from_millis(3500));
    for id in ids[3..].iter().chain([&extra]) {
        assert_eq!(ping(&http, &mcp, id), 404, "session {id}");
    }
    assert_eq!(ping(&http, &mcp, &open_session(&http, &mcp)), 200);
}

/// 10,000 `initialize` calls took `colony mcp --http` from 8 to 594 MB before sessions were
/// capped; 2,000 now leave its memory where 100 sessions (the default cap) put it.
#[test]
fn thousands_of_initialize_calls_do_not_grow_the_memory() {
    let server = Server::start();
    let home = tempfile::tempdir().unwrap();
    let mcp = mcp_http_with(&server, home.path(), &[]);
    let http = Client::new();
    let open = |n: usize| {
        for _ in 0..n {
            let resp = post(&http, &mcp, None, initialize().to_string());
            assert_eq!(resp.status(), 200);
            let _ = resp.text();
        }
    };
    open(150);
    let before = rss_kib(mcp.pid());
    let start = Instant::now();
    open(2000);
    let after = rss_kib(mcp.pid());
    println!(
        "2000 initialize calls in {:?}: RSS {before} KiB -> {after} KiB",
        start.elapsed()
    );
    assert!(
        after < before + 20 * 1024,
        "RSS grew from {before} KiB to {after} KiB"
    );
}

#[test]
fn malformed_json_rpc_gets_a_400_with_a_json_rpc_error_saying_what_is_wrong() {
    let server = Server::start();
    let home = tempfile::tempdir().unwrap();
    let mcp = mcp_http_with(&server, home.path(), &[]);
    let http = Client::new();
    let resp = post(
        &http,
        &mcp,
        None,
        "{\"jsonrpc\": \"2.0\", \"id\": 1,".into(),
    );
    assert_eq!(resp.status(), 400);
    let v = &messages(resp)[0];
    assert_eq!(v["error"]["code"], -32700, "{v}");
    assert_eq!(v["id"], Value::Null, "{v}");
    let text = v["error"]["message"].as_str().unwrap();
    assert!(
        text.starts_with("Parse error: the body is not JSON"),
        "{text}"
    );
    let resp = post(
        &http,
        &mcp,
        None,
        r#"{"id": 4, "method": "initialize"}"#.into(),
    );
    assert_eq!(resp.status(), 400);
    let v = &messages(resp)[0];
    assert_eq!(
        (v["error"]["code"].as_i64(), v["id"].as_i64()),
        (Some(-32600), Some(4))
    );
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("\"jsonrpc\": \"2.0\""),
        "{v}"
    );
    // A body that is not JSON by its media type is still 415, and a good one is served.
    let resp = http
        .post(&mcp.url)
        .header("content-type", "text/plain")
        .header("accept", "application/json, text/event-stream")
        .body(initialize().to_string())
        .send()
        .unwrap();
    assert_eq!(resp.status(), 415);
    open_session(&http, &mcp);
}

#[test]
fn a_body_colonyd_refuses_as_too_large_is_reported_so_with_the_limit() {
    let server = Server::start();
    let home = tempfile::tempdir().unwrap();
    let mcp = mcp_http_with(&server, home.path(), &[]);
    let http = Client::new();
    let id = open_session(&http, &mcp);
    // 4.1 MB: within what `colony mcp` takes (4 MiB), over colonyd's maxBodyBytes (1 MiB).
    // colonyd answers 413 without reading such a body and closes the connection; about half the
    // time the connection's reset loses that answer, which was reported as "unreachable".
    let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
        "name": "log_message", "arguments": {"message": "x".repeat(4_100_000)}}})
    .to_string();
    let mut lost = 0;
    for _ in 0..12 {
        let resp = post(&http, &mcp, Some(&id), call.clone());
        assert_eq!(resp.status(), 200);
        let answer = messages(resp)
            .into_iter()
            .find(|m| m["id"] == 3)
            .expect("the call's answer");
        let result = &answer["result"];
        assert_eq!(result["isError"], true, "{answer:.400}");
        let text = result["content"][0]["text"].as_str().unwrap();
        assert_eq!(
            result["structuredContent"]["code"], "body_too_large",
            "{text}"
        );
        assert!(text.contains("limit 1048576 bytes"), "{text}");
        assert!(!text.contains("cannot reach"), "{text}");
        lost += usize::from(text.contains("the request body is 4100"));
    }
    println!("colonyd's 413 lost with its connection in {lost} of 12 calls");
}
