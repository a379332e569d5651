//! Cross-cutting HTTP rules: ping, auth, Host check, CORS, body limit, malformed bodies,
//! unknown endpoints, lenient paths, the ready gate, strict statuses, the start-up guard.

use crate::support::{Opts, Server, code, run_to_exit};
use serde_json::{Value, json};

#[tokio::test]
async fn ping_answers_without_token_or_gate() {
    let s = Server::start_with(Opts {
        settings: json!({"authToken": "s3cret"}),
        ready: false,
        ..Default::default()
    })
    .await;
    let r = s.client.get(s.url("/api/ping")).send().await.unwrap();
    assert_eq!(r.status(), 200);
    let body: serde_json::Value = r.json().await.unwrap();
    assert_eq!(
        body,
        json!({"status": "ok", "ready": true, "openapiVersion": "1.0.0"})
    );
}

#[tokio::test]
async fn bearer_token_is_required_and_checked() {
    let s = Server::start_with(Opts {
        settings: json!({"authToken": "s3cret"}),
        ..Default::default()
    })
    .await;
    for auth in [
        None,
        Some("Bearer wrong"),
        Some("Bearer s3cre"),
        Some("s3cret"),
    ] {
        let mut rb = s.client.get(s.url("/api/time"));
        if let Some(a) = auth {
            rb = rb.header("authorization", a);
        }
        let r = rb.send().await.unwrap();
        assert_eq!(r.status(), 401, "auth {auth:?}");
        assert_eq!(r.headers()["www-authenticate"], "Bearer realm=\"colony\"");
        let body: serde_json::Value = r.json().await.unwrap();
        assert_eq!(code(&body), "unauthorized");
    }
    let (status, body) = s.get("/api/time").await;
    assert_eq!(status, 200);
    assert!(body["dayNumber"].as_u64().is_some());
    // The query token is for WebSocket upgrades only.
    let r = s
        .client
        .get(s.url("/api/time?token=s3cret"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 401);
}

#[tokio::test]
async fn host_header_must_match_the_loopback_bind() {
    let s = Server::start().await;
    for host in ["localhost", "example.com", "127.0.0.2"] {
        let r = s
            .client
            .get(s.url("/api/ping"))
            .header("host", format!("{host}:{}", s.http_port))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 400, "host {host}");
        let body: serde_json::Value = r.json().await.unwrap();
        assert_eq!(code(&body), "invalid_host");
    }
}

#[tokio::test]
async fn cors_follows_the_setting() {
    let s = Server::start().await;
    let r = s
        .client
        .get(s.url("/api/time"))
        .header("origin", "http://x")
        .send()
        .await
        .unwrap();
    assert!(r.headers().get("access-control-allow-origin").is_none());
    let r = s
        .client
        .request(reqwest::Method::OPTIONS, s.url("/api/speed"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 204);
    assert!(r.headers().get("access-control-allow-origin").is_none());

    let s = Server::start_with(Opts {
        settings: json!({"corsOrigin": "http://dash", "authToken": "t"}),
        ..Default::default()
    })
    .await;
    let r = s
        .client
        .request(reqwest::Method::OPTIONS, s.url("/api/speed"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 204, "preflight needs no token");
    assert_eq!(r.headers()["access-control-allow-origin"], "http://dash");
    let (_, _) = s.get("/api/time").await;
    let r = s
        .client
        .get(s.url("/api/time"))
        .bearer_auth("t")
        .send()
        .await
        .unwrap();
    assert_eq!(r.headers()["access-control-allow-origin"], "http://dash");
    let r = s.client.get(s.url("/api/time")).send().await.unwrap();
    assert_eq!(r.status(), 401);
    assert_eq!(
        r.headers()["access-control-allow-origin"],
        "http://dash",
        "errors carry CORS too"
    );
}

#[tokio::test]
async fn oversize_bodies_get_413_and_change_nothing() {
    let s = Server::start_with(Opts {
        settings: json!({"maxBodyBytes": 64}),
        ..Default::default()
    })
    .await;
    let big = json!({"speed": 2, "pad": "x".repeat(200)}).to_string();
    let (status, body) = s.post_raw("/api/speed", big).await;
    assert_eq!(status, 413);
    assert_eq!(
        body["error"],
        "body_too_large: limit 64 bytes; send a smaller body (the limit is the maxBodyBytes setting)"
    );
    assert_eq!(s.get("/api/speed").await.1["speed"], 1);
    // A large body is read and thrown away before the answer, so a client still sending it
    // gets the 413 and its reason, not a broken connection.
    for _ in 0..4 {
        let r = s
            .client
            .post(s.url("/api/speed"))
            .header("content-type", "application/json")
            .body(vec![b' '; 7 << 20])
            .send()
            .await
            .expect("the 413 arrives, not a reset");
        assert_eq!(r.status(), 413);
        let body: Value = r.json().await.unwrap();
        assert_eq!(code(&body), "body_too_large");
    }
    // Chunked (no Content-Length) bodies are cut at the limit too, and drained so a sender
    // still sending reads the 413.
    let chunks: Vec<Result<Vec<u8>, std::io::Error>> =
        (0..48).map(|_| Ok(vec![b' '; 64 << 10])).collect();
    let r = s
        .client
        .post(s.url("/api/speed"))
        .body(reqwest::Body::wrap_stream(futures_util::stream::iter(
            chunks,
        )))
        .send()
        .await
        .expect("the 413 arrives, not a reset");
    assert_eq!(r.status(), 413);
    let stream = futures_util::stream::iter(vec![Ok::<_, std::io::Error>(vec![b' '; 100])]);
    let r = s
        .client
        .post(s.url("/api/speed"))
        .body(reqwest::Body::wrap_stream(stream))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 413);
}

#[tokio::test]
async fn malformed_json_and_wrong_shapes() {
    let s = Server::start().await;
    let (status, body) = s.post_raw("/api/speed", "{speed: 2".into()).await;
    assert_eq!(status, 400);
    assert_eq!(code(&body), "invalid_body");
    assert!(
        body["error"].as_str().unwrap().contains("{\"speed\": 1}"),
        "states the expected format: {body}"
    );
    let (status, body) = s.post_raw("/api/speed", "[2]".into()).await;
    assert_eq!((status, code(&body)), (400, "invalid_body"));
    // Missing field: refused, never a silent default (the original paused the game).
    let (status, body) = s.post("/api/speed", json!({})).await;
    assert_eq!((status, code(&body)), (200, "invalid_param"));
    assert!(body["error"].as_str().unwrap().contains("speed"));
    assert_eq!(s.get("/api/speed").await.1["speed"], 1);
    let (_, body) = s.post("/api/speed", json!({"speed": "fast"})).await;
    assert_eq!(code(&body), "invalid_param");
    assert_eq!(body["got"], "fast");
    let (_, body) = s.post("/api/speed", json!({"speed": 9})).await;
    assert_eq!(code(&body), "invalid_param");
    assert_eq!(body["got"], 9);
}

#[tokio::test]
async fn unknown_endpoints_list_the_routes_and_paths_are_lenient() {
    let s = Server::start().await;
    let (status, body) = s.get("/api/nope").await;
    assert_eq!((status, code(&body)), (200, "unknown_endpoint"));
    let gets: Vec<&str> = body["get_endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let posts: Vec<&str> = body["post_endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(gets.contains(&"/api/time") && gets.contains(&"/api/agent/state"));
    assert!(posts.contains(&"/api/speed") && posts.contains(&"/api/game/advance"));
    // Wrong method on a known path.
    let (_, body) = s.post("/api/time", json!({})).await;
    assert_eq!(code(&body), "unknown_endpoint");
    // Case and trailing slash do not matter.
    let (status, body) = s.get("/API/Time/").await;
    assert_eq!(status, 200);
    assert!(body["dayNumber"].is_number());
}

#[tokio::test]
async fn strict_http_status_maps_domain_errors() {
    let s = Server::start_with(Opts {
        settings: json!({"strictHttpStatus": true}),
        ..Default::default()
    })
    .await;
    assert_eq!(s.post("/api/speed", json!({"speed": 9})).await.0, 400);
    assert_eq!(s.get("/api/nope").await.0, 404);
    assert_eq!(s.post("/api/benchmark", json!({})).await.0, 403);
}

#[tokio::test]
async fn the_gate_blocks_everything_but_the_exempt_routes() {
    let s = Server::start_with(Opts {
        ready: false,
        ..Default::default()
    })
    .await;
    for path in [
        "/api/time",
        "/api/speed",
        "/api/settlement",
        "/api/nope",
        "/api/game/saves",
    ] {
        let (status, body) = s.get(path).await;
        assert_eq!((status, code(&body)), (409, "game_not_ready"), "{path}");
        assert!(body["hint"].as_str().unwrap().contains("/api/ready"));
    }
    let (status, _) = s.post("/api/speed", json!({"speed": 0})).await;
    assert_eq!(status, 409);
    assert_eq!(s.get("/api/agent/state").await.0, 200);
    assert_eq!(s.get("/api/agent/log").await.0, 200);
    let (status, body) = s.post("/api/ready", json!({"ready": true})).await;
    assert_eq!((status, body), (200, json!({"ready": true})));
    assert_eq!(s.get("/api/time").await.0, 200);
    s.post("/api/ready", json!({"ready": false})).await;
    assert_eq!(s.get("/api/time").await.0, 409);
    let (_, body) = s.post("/api/ready", json!({"ready": "yes"})).await;
    assert_eq!(code(&body), "invalid_ready");
    let (_, body) = s.post("/api/ready", json!({})).await;
    assert_eq!(code(&body), "invalid_ready");
}

#[tokio::test]
async fn start_up_guard_refuses_non_loopback_without_token() {
    let (ok, stderr) = run_to_exit(json!({"listenAddress": "0.0.0.0"}));
    assert!(!ok);
    let lines: Vec<&str> = stderr.lines().filter(|l| l.contains("refusing")).collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(lines[0].contains("authToken"));
}

#[tokio::test]
async fn ws_disabled_opens_no_listener() {
    let s = Server::start_with(Opts {
        settings: json!({"wsEnabled": false}),
        ..Default::default()
    })
    .await;
    assert!(
        tokio_tungstenite::connect_async(s.ws_url(""))
            .await
            .is_err()
    );
    assert_eq!(s.get("/api/agent/state").await.0, 200);
}

/// Full entity lists and pages asked for as TOON text (the server writes them straight from
/// their rows, or lays out the page) read as the `toon-format` crate encodes the same answer's
/// flat JSON; an empty list too.
#[tokio::test]
async fn full_lists_and_pages_as_toon_text_are_the_crates_text() {
    let s = Server::start().await;
    let options = toon_format::EncodeOptions::default();
    for route in ["/api/buildings", "/api/beavers", "/api/trees"] {
        for q in [
            "detail=full&limit=0",
            "detail=full&limit=3&offset=1",
            "detail=full",
            "limit=2",
            "detail=full&name=zzzz",
            "detail=full&name=zzzz&limit=0",
        ] {
            let (status, json) = s.get(&format!("{route}?{q}&format=toon")).await;
            assert_eq!(status, 200, "{route}?{q}");
            let expected = match json {
                v @ Value::Object(_) => toon_format::encode_object(v, &options),
                v => toon_format::encode_array(v, &options),
            }
            .unwrap()
                + "\n";
            let r = s
                .client
                .get(s.url(&format!("{route}?{q}")))
                .header("accept", "text/toon")
                .send()
                .await
                .unwrap();
            assert_eq!(r.headers()["content-type"], "text/toon; charset=utf-8");
            assert_eq!(r.text().await.unwrap(), expected, "{route}?{q}");
        }
    }
}

#[tokio::test]
async fn toon_text_on_request_and_format_is_checked() {
    let s = Server::start().await;
    let r = s
        .client
        .get(s.url("/api/weather"))
        .header("accept", "text/toon")
        .send()
        .await
        .unwrap();
    assert_eq!(r.headers()["content-type"], "text/toon; charset=utf-8");
    let text = r.text().await.unwrap();
    assert!(text.lines().any(|l| l == "cycle: 1"), "{text}");
    assert!(text.lines().any(|l| l == "isHazardous: false"), "{text}");
    let r = s
        .client
        .get(s.url("/api/agent/log?format=toon-text"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.headers()["content-type"], "text/toon; charset=utf-8");
    let (_, body) = s.get("/api/time?format=xml").await;
    assert_eq!(code(&body), "invalid_param");
    assert_eq!(body["got"], "xml");
    let (status, body) = s.get("/api/time?format=json").await;
    assert_eq!(status, 200);
    assert!(body["dayNumber"].is_number());
}
