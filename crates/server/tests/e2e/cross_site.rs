//! A web page of another origin cannot drive the service: `Origin` checks on state-changing
//! requests and on the WebSocket upgrade, JSON-only POST bodies, and the bearer scheme in any case.

use crate::support::{Opts, Server, code};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;

async fn post_with(s: &Server, path: &str, headers: &[(&str, &str)], body: &str) -> (u16, Value) {
    let mut rb = s.client.post(s.url(path)).body(body.to_string());
    for (k, v) in headers {
        rb = rb.header(*k, *v);
    }
    let r = rb.send().await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

async fn speed(s: &Server) -> Value {
    s.get("/api/speed?format=json").await.1["speed"].clone()
}

#[tokio::test]
async fn a_foreign_origin_cannot_post_and_a_simple_content_type_is_refused() {
    let s = Server::start().await;
    let before = speed(&s).await;
    let body = r#"{"speed": 3}"#;
    let evil = "http://127.0.0.1:9";
    // A cross-site fetch with a JSON body.
    let (status, err) = post_with(
        &s,
        "/api/speed",
        &[("origin", evil), ("content-type", "application/json")],
        body,
    )
    .await;
    assert_eq!((status, code(&err)), (403, "forbidden_origin"), "{err}");
    assert_eq!(err["origin"], evil);
    // A "simple" request: text/plain needs no preflight in a browser.
    let (status, err) = post_with(
        &s,
        "/api/speed",
        &[("content-type", "text/plain;charset=UTF-8")],
        body,
    )
    .await;
    assert_eq!(
        (status, code(&err)),
        (415, "unsupported_media_type"),
        "{err}"
    );
    assert!(err["error"].as_str().unwrap().contains("application/json"));
    let (status, err) = post_with(
        &s,
        "/api/settings",
        &[("content-type", "application/x-www-form-urlencoded")],
        r#"{"corsOrigin":"http://127.0.0.1:9"}"#,
    )
    .await;
    assert_eq!((status, code(&err)), (415, "unsupported_media_type"));
    // Nothing changed.
    assert_eq!(speed(&s).await, before);
    let (_, settings) = s.get("/api/settings?format=json").await;
    assert_eq!(settings["settings"]["corsOrigin"], "");
    // The service's own origin (the dashboard) and clients without an Origin still write.
    let own = s.url("");
    let (status, ok) = post_with(
        &s,
        "/api/speed",
        &[
            ("origin", own.as_str()),
            ("content-type", "application/json"),
        ],
        body,
    )
    .await;
    assert_eq!((status, &ok["speed"]), (200, &json!(3)), "{ok}");
    let (_, ok) = post_with(&s, "/api/speed", &[], r#"{"speed": 2}"#).await;
    assert_eq!(ok["speed"], 2, "{ok}");
    // Reads stay open to any origin (a page cannot read them without CORS headers anyway).
    let r = s
        .client
        .get(s.url("/api/time"))
        .header("origin", evil)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    assert!(r.headers().get("access-control-allow-origin").is_none());
}

#[tokio::test]
async fn cors_origin_admits_its_page() {
    let page = "http://127.0.0.1:9";
    let s = Server::start_with(Opts {
        settings: json!({ "corsOrigin": page }),
        ..Default::default()
    })
    .await;
    let (status, ok) = post_with(
        &s,
        "/api/speed",
        &[("origin", page), ("content-type", "application/json")],
        r#"{"speed": 3}"#,
    )
    .await;
    assert_eq!((status, &ok["speed"]), (200, &json!(3)), "{ok}");
    let (status, err) = post_with(
        &s,
        "/api/speed",
        &[
            ("origin", "http://127.0.0.1:10"),
            ("content-type", "application/json"),
        ],
        r#"{"speed": 1}"#,
    )
    .await;
    assert_eq!((status, code(&err)), (403, "forbidden_origin"));
}

#[tokio::test]
async fn the_websocket_upgrade_checks_the_origin() {
    let s = Server::start().await;
    let upgrade = |origin: &str| {
        let mut req = s.ws_url("").into_client_request().unwrap();
        req.headers_mut()
            .insert("origin", HeaderValue::from_str(origin).unwrap());
        tokio_tungstenite::connect_async(req)
    };
    match upgrade("http://127.0.0.1:9").await {
        Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => {
            assert_eq!(resp.status().as_u16(), 403);
            let body: Value = serde_json::from_slice(resp.body().as_deref().unwrap()).unwrap();
            assert_eq!(code(&body), "forbidden_origin", "{body}");
        }
        other => panic!("a foreign origin must be refused: {:?}", other.map(|_| ())),
    }
    // The dashboard's origin (the HTTP port) opens it.
    let dashboard = s.url("");
    let (mut ws, _) = upgrade(&dashboard)
        .await
        .expect("the dashboard's origin connects");
    let first = crate::support::next_frame(&mut ws).await;
    assert_eq!(first["type"], "state");
}

#[tokio::test]
async fn the_bearer_scheme_is_case_insensitive() {
    let s = Server::start_with(Opts {
        settings: json!({ "authToken": "s3cret" }),
        ..Default::default()
    })
    .await;
    for scheme in ["Bearer", "bearer", "BEARER", "BeArEr"] {
        let r = s
            .client
            .get(s.url("/api/time"))
            .header("authorization", format!("{scheme} s3cret"))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 200, "{scheme}");
    }
    let r = s
        .client
        .get(s.url("/api/time"))
        .header("authorization", "Basic s3cret")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 401);
}

#[tokio::test]
async fn the_dashboard_cannot_be_framed() {
    let s = Server::start().await;
    for path in [
        "/",
        "/dashboard/",
        "/dashboard/index.html",
        "/dashboard/js/app.js",
    ] {
        let r = reqwest::get(s.url(path)).await.unwrap();
        assert_eq!(r.status(), 200, "{path}");
        let h = r.headers();
        assert_eq!(h.get("x-frame-options").unwrap(), "DENY", "{path}");
        let csp = h
            .get("content-security-policy")
            .unwrap_or_else(|| panic!("{path}: no CSP"))
            .to_str()
            .unwrap();
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(
            csp.contains("script-src 'self'") && !csp.contains("unsafe-eval"),
            "{csp}"
        );
    }
}
