//! No setting can stop the game or open the service: range-checked settings on the API and in
//! the file, the host alive after them, the token guard at run time, a settings file that does
//! not parse refusing the start-up instead of being replaced.

use crate::support::{Opts, Server, code};
use serde_json::json;

#[tokio::test]
async fn out_of_range_settings_are_refused_and_the_game_keeps_running() {
    let s = Server::start().await;
    for (key, value, needle) in [
        ("writeBudgetMs", json!(1e300), "1000"),
        ("writeQueueCapacity", json!(1e13), "1-65536"),
        ("autosaveDays", json!(4294967296u64), "0-3650"),
        ("listenAddress", json!("x"), "not an IP address"),
        ("authToken", json!("ab\u{0}cd"), "control characters"),
        ("maxBodyBytes", json!(1u64 << 40), "64 MiB"),
        // 0 meant unlimited: one request could hold a gigabyte.
        ("maxBodyBytes", json!(0), "64 MiB"),
        // Echoed in a header: a newline would split it, 70,000 characters break clients.
        (
            "corsOrigin",
            json!("http://a.example\r\nX-Evil: 1"),
            "scheme://host[:port]",
        ),
        (
            "corsOrigin",
            json!(format!("http://{}.example", "a".repeat(70_000))),
            "scheme://host[:port]",
        ),
        ("corsOrigin", json!("http://a.example/path"), "no path"),
        ("wsPingSeconds", json!(0x7fff_ffff), "1-3600"),
    ] {
        let (_, body) = s.post("/api/settings", json!({ key: value })).await;
        assert_eq!(code(&body), "invalid_param", "{key}: {body}");
        assert!(
            body["error"].as_str().unwrap().contains(needle),
            "{key}: {body}"
        );
    }
    let (_, view) = s.get("/api/settings?format=json").await;
    assert_eq!(view["settings"]["writeBudgetMs"], 1.0, "{view}");
    assert_eq!(
        view["settings"]["corsOrigin"], "",
        "nothing changed: {view}"
    );
    assert_eq!(view["settings"]["maxBodyBytes"], 1_048_576, "{view}");
    // The host is alive: writes apply and the clock moves.
    let (_, sp) = s.post("/api/speed", json!({"speed": 3})).await;
    assert_eq!(sp["speed"], 3);
    let (_, t1) = s.get("/api/time").await;
    let mut moved = false;
    for _ in 0..200 {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        let (_, t2) = s.get("/api/time").await;
        if t2["ticks"].as_u64() > t1["ticks"].as_u64() {
            moved = true;
            break;
        }
    }
    assert!(moved, "the clock moves: the host is ticking");
    let (status, ping) = s.get("/api/ping").await;
    assert_eq!((status, &ping["status"]), (200, &json!("ok")));
}

#[tokio::test]
async fn a_settings_file_with_out_of_range_values_starts_with_the_defaults() {
    let s = Server::start_with(Opts {
        settings: json!({"writeBudgetMs": 1e300, "writeQueueCapacity": 1e13, "autosaveDays": 4294967296u64}),
        ..Default::default()
    })
    .await;
    let (_, view) = s.get("/api/settings?format=json").await;
    let v = &view["settings"];
    assert_eq!(
        (
            &v["writeBudgetMs"],
            &v["writeQueueCapacity"],
            &v["autosaveDays"]
        ),
        (&json!(1.0), &json!(256), &json!(1)),
        "{view}"
    );
    let (_, sp) = s.post("/api/speed", json!({"speed": 2})).await;
    assert_eq!(sp["speed"], 2, "writes apply");
}

#[tokio::test]
async fn a_settings_file_with_a_bad_cors_origin_or_unlimited_body_loads_the_rest() {
    let s = Server::start_with(Opts {
        settings: json!({
            "corsOrigin": "http://a.example\r\nX-Evil: 1",
            "maxBodyBytes": 0,
            "writeBudgetMs": 2.5,
        }),
        ..Default::default()
    })
    .await;
    let r = reqwest::get(s.url("/api/time")).await.unwrap();
    assert_eq!(r.status(), 200);
    assert!(
        r.headers().get("access-control-allow-origin").is_none()
            && r.headers().get("x-evil").is_none(),
        "{:?}",
        r.headers()
    );
    let (_, view) = s.get("/api/settings?format=json").await;
    let v = &view["settings"];
    assert_eq!(
        (&v["corsOrigin"], &v["maxBodyBytes"], &v["writeBudgetMs"]),
        (&json!(""), &json!(1_048_576), &json!(2.5)),
        "{view}"
    );
}

#[tokio::test]
async fn the_token_cannot_be_cleared_while_the_service_listens_beyond_loopback() {
    let s = Server::start_with(Opts {
        settings: json!({"listenAddress": "0.0.0.0", "authToken": "sesame-sesame-sesame"}),
        ..Default::default()
    })
    .await;
    for token in ["", "   ", "x", "fifteen-chars15"] {
        let (_, body) = s.post("/api/settings", json!({"authToken": token})).await;
        assert_eq!(code(&body), "invalid_param", "{token:?}: {body}");
        assert!(
            body["error"].as_str().unwrap().contains("0.0.0.0"),
            "{body}"
        );
    }
    // Still protected: a request without the token is refused.
    let r = reqwest::get(s.url("/api/time")).await.unwrap();
    assert_eq!(r.status(), 401);
    // Moving to loopback does not help while the running listener is on every interface.
    let (_, body) = s
        .post(
            "/api/settings",
            json!({"listenAddress": "127.0.0.1", "authToken": ""}),
        )
        .await;
    assert_eq!(code(&body), "invalid_param", "{body}");
}

#[tokio::test]
async fn a_whitespace_token_is_no_token_and_the_start_up_guard_refuses_it() {
    let (ok, stderr) =
        crate::support::run_to_exit(json!({"listenAddress": "0.0.0.0", "authToken": "   "}));
    assert!(!ok);
    assert!(stderr.contains("refusing to start"), "{stderr}");
}

#[tokio::test]
async fn a_short_token_is_refused_beyond_loopback() {
    let (ok, stderr) =
        crate::support::run_to_exit(json!({"listenAddress": "0.0.0.0", "authToken": "x"}));
    assert!(!ok, "{stderr}");
    assert!(
        stderr.contains("refusing to start") && stderr.contains("at least 16 characters"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("authToken is x"),
        "the token is not echoed: {stderr}"
    );
}

#[tokio::test]
async fn agent_texts_have_size_caps() {
    let s = Server::start().await;
    let long = "x".repeat(5000);
    let (_, err) = s
        .post("/api/agent/message", json!({ "message": long }))
        .await;
    assert_eq!(code(&err), "invalid_param", "{err}");
    assert_eq!(err["limit"], 4096);
    let (_, log) = s.get("/api/agent/log?format=json").await;
    assert_eq!(log.as_array().map(Vec::len), Some(0), "{log}");
    let (_, ok) = s
        .post("/api/agent/message", json!({ "message": "x".repeat(4096) }))
        .await;
    assert_eq!(ok["message"].as_str().map(str::len), Some(4096));
    let (_, err) = s.post("/api/agent/config", json!({ "goal": long })).await;
    assert_eq!(code(&err), "invalid_param", "{err}");
    let (_, err) = s
        .post(
            "/api/agent/request",
            json!({ "prompt": "p".repeat(70_000) }),
        )
        .await;
    assert_eq!(code(&err), "invalid_prompt", "{err}");
    let (_, agent) = s.get("/api/agent?format=json").await;
    assert!(agent["pendingRequest"].is_null(), "{agent}");
    assert_ne!(agent["goal"].as_str().map(str::len), Some(5000));
}

#[tokio::test]
async fn a_settings_file_that_does_not_parse_refuses_the_start_and_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.json");
    // A missing comma on line 3: the token, corsOrigin and the user's own key must survive.
    let text = "{\n  \"authToken\": \"sesame\",\n  \"corsOrigin\": \"http://mine\"\n  \"myOwnKey\": 1\n}\n";
    std::fs::write(&path, text).unwrap();
    let run = crate::support::run_in_to_exit(dir.path(), std::time::Duration::from_secs(10));
    let Some((ok, stderr)) = run else {
        panic!(
            "colonyd started (and served without the token) on a settings file that does not parse"
        );
    };
    assert!(!ok, "{stderr}");
    assert!(
        stderr.contains("refusing to start")
            && stderr.contains(&path.display().to_string())
            && stderr.contains("line 4 column 3"),
        "names the file, line and column: {stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        text,
        "the file is left as it was"
    );
    // Not an object either.
    std::fs::write(&path, "[\"authToken\", \"sesame\"]").unwrap();
    let (ok, stderr) =
        crate::support::run_in_to_exit(dir.path(), std::time::Duration::from_secs(10))
            .expect("refused");
    assert!(!ok && stderr.contains("not a JSON object"), "{stderr}");
}
