//! Agent state over HTTP: config, the pending slot, the action log, persistence across a restart.

use crate::support::{Opts, Server, code};
use serde_json::json;

#[tokio::test]
async fn agent_state_has_every_field() {
    let s = Server::start_with(Opts {
        ready: false,
        ..Default::default()
    })
    .await;
    let (status, st) = s.get("/api/agent/state").await;
    assert_eq!(status, 200);
    assert_eq!(st["mode"], "request");
    assert_eq!(st["goal"], "");
    assert_eq!(st["ready"], false);
    assert!(
        st.as_object().unwrap().contains_key("pendingRequest") && st["pendingRequest"].is_null()
    );
    assert_eq!(st["agentStatus"], "");
    assert!(st["lastError"].is_null());
    assert!(st["epoch"].as_str().unwrap().parse::<u64>().is_ok());
}

#[tokio::test]
async fn config_validates_and_leaves_omitted_fields() {
    let s = Server::start().await;
    let (_, st) = s
        .post(
            "/api/agent/config",
            json!({"mode": "autonomous", "goal": "50 beavers"}),
        )
        .await;
    assert_eq!(
        (st["mode"].as_str(), st["goal"].as_str()),
        (Some("autonomous"), Some("50 beavers"))
    );
    let (_, st) = s
        .post("/api/agent/config", json!({"goal": "60 beavers"}))
        .await;
    assert_eq!(st["mode"], "autonomous");
    let (_, body) = s
        .post("/api/agent/config", json!({"mode": "AUTONOMOUS!"}))
        .await;
    assert_eq!(code(&body), "invalid_mode");
    let (_, body) = s
        .post("/api/agent/config", json!({"mode": 3, "goal": "x"}))
        .await;
    assert_eq!(code(&body), "invalid_mode");
    assert_eq!(
        s.get("/api/agent/state").await.1["goal"],
        "60 beavers",
        "a refused config changes nothing"
    );
    let (_, body) = s
        .post("/api/agent/config", json!({"lastError": "set by hand"}))
        .await;
    assert_eq!(code(&body), "invalid_param");
}

#[tokio::test]
async fn the_pending_slot_refuses_then_replaces() {
    let s = Server::start().await;
    for bad in [
        json!({}),
        json!({"prompt": ""}),
        json!({"prompt": "   "}),
        json!({"prompt": 5}),
    ] {
        let (_, body) = s.post("/api/agent/request", bad.clone()).await;
        assert_eq!(code(&body), "invalid_prompt", "{bad}");
    }
    let (_, r1) = s
        .post("/api/agent/request", json!({"prompt": "build a pump"}))
        .await;
    assert_eq!(
        r1,
        json!({"pendingRequest": {"id": 1, "prompt": "build a pump"}})
    );
    let (_, r2) = s
        .post("/api/agent/request", json!({"prompt": "other"}))
        .await;
    assert_eq!(code(&r2), "request_pending");
    assert_eq!(r2["pendingRequest"]["id"], 1);
    let (_, r3) = s
        .post(
            "/api/agent/request",
            json!({"prompt": "other", "replace": true}),
        )
        .await;
    assert_eq!(r3["pendingRequest"]["id"], 2);
    assert_eq!(r3["replaced"]["prompt"], "build a pump");
    assert_eq!(
        s.get("/api/agent/state").await.1["pendingRequest"]["prompt"],
        "other"
    );
}

#[tokio::test]
async fn messages_go_to_the_action_log_unless_disabled() {
    let s = Server::start().await;
    let (_, line) = s
        .post("/api/agent/message", json!({"message": "placed a pump"}))
        .await;
    assert_eq!(line["message"], "placed a pump");
    let (_, log) = s.get("/api/agent/log").await;
    assert_eq!(log.as_array().unwrap().len(), 1);
    let (_, body) = s.post("/api/agent/message", json!({})).await;
    assert_eq!(code(&body), "invalid_param");
    let s = Server::start_with(Opts {
        settings: json!({"actionLoggingEnabled": false}),
        ..Default::default()
    })
    .await;
    let (_, body) = s.post("/api/agent/message", json!({"message": "x"})).await;
    assert_eq!(code(&body), "disabled");
}

#[tokio::test]
async fn mode_goal_and_last_error_survive_a_restart_and_the_rest_resets() {
    let s = Server::start().await;
    s.post(
        "/api/agent/config",
        json!({"mode": "autonomous", "goal": "survive"}),
    )
    .await;
    s.post("/api/agent/request", json!({"prompt": "p"})).await;
    let before = s.get("/api/agent/state").await.1;
    let dir = s.stop();
    let s = Server::start_in(
        dir,
        Opts {
            ready: false,
            ..Default::default()
        },
    )
    .await;
    let st = s.get("/api/agent/state").await.1;
    assert_eq!(
        (st["mode"].as_str(), st["goal"].as_str()),
        (Some("autonomous"), Some("survive"))
    );
    assert!(st["pendingRequest"].is_null());
    assert_eq!(st["ready"], false);
    assert_ne!(st["epoch"], before["epoch"]);
}
