//! Unit tests of the settings: resolving, loading and the store's debounced rewrites.

use super::*;

fn obj(v: Value) -> Map<String, Value> {
    v.as_object().unwrap().clone()
}

#[test]
fn defaults_match_the_contract() {
    let s = resolve(&Map::new()).settings;
    assert_eq!((s.http_port, s.ws_port, s.ws_enabled), (8085, 8086, true));
    assert_eq!(s.listen_address, "127.0.0.1");
    assert_eq!(s.max_body_bytes, 1_048_576);
    assert_eq!(s.write_budget_ms, 1.0);
    assert!(s.cors_origin.is_empty() && s.auth_token.is_empty() && !s.debug_endpoint_enabled);
}

#[test]
fn rules_for_out_of_range_values() {
    let l = resolve(&obj(
        json!({"httpPort": 0, "wsPort": -5, "maxBodyBytes": -1, "writeBudgetMs": 0}),
    ));
    assert_eq!(l.settings.http_port, 8085);
    assert_eq!(l.settings.ws_port, 8086);
    assert_eq!(l.settings.max_body_bytes, 1_048_576);
    assert_eq!(l.settings.write_budget_ms, 1.0);
    let l = resolve(&obj(
        json!({"maxBodyBytes": 2048, "httpPort": 9000, "writeBudgetMs": 2.5}),
    ));
    assert_eq!(l.settings.max_body_bytes, 2048);
    assert_eq!(l.settings.http_port, 9000);
    assert_eq!(l.settings.write_budget_ms, 2.5);
}

#[test]
fn max_body_bytes_is_finite() {
    // 0 meant unlimited: one request could hold a gigabyte.
    for n in [0, MAX_BODY_LIMIT + 1, 1 << 30] {
        let l = resolve(&obj(json!({"maxBodyBytes": n})));
        assert_eq!(l.settings.max_body_bytes, 1_048_576, "{n}");
        assert!(l.warnings[0].contains("64 MiB"), "{:?}", l.warnings);
    }
    let l = resolve(&obj(json!({"maxBodyBytes": MAX_BODY_LIMIT})));
    assert_eq!(l.settings.max_body_bytes, MAX_BODY_LIMIT as u64);
}

#[test]
fn cors_origin_must_be_an_origin() {
    for good in [
        "",
        "*",
        "http://localhost:3000",
        "https://example.com",
        "http://127.0.0.1:8085",
        "http://[::1]:8080",
    ] {
        assert!(valid_origin(good), "{good}");
    }
    let long = format!("http://{}.com", "a".repeat(70_000));
    for bad in [
        "http://a\r\nSet-Cookie: x=1",
        "http://a\n",
        "ftp://example.com",
        "example.com",
        "http://example.com/",
        "http://example.com/path",
        "http://user@example.com",
        "http://example.com:0",
        "http://example.com:99999",
        "http://",
        "http://[zz]:1",
        long.as_str(),
    ] {
        assert!(!valid_origin(bad), "{bad:?}");
    }
    // In the file: ignored with a warning naming it, the rest loads (and the warning is
    // short, whatever the value's length).
    let l = resolve(&obj(json!({"corsOrigin": long, "httpPort": 9001})));
    assert_eq!(
        (l.settings.cors_origin.as_str(), l.settings.http_port),
        ("", 9001)
    );
    assert!(
        l.warnings[0].contains("corsOrigin") && l.warnings[0].len() < 600,
        "{:?}",
        l.warnings
    );
}

#[tokio::test]
async fn changes_that_keep_coming_are_written_after_the_maximum_wait() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.json");
    let store = SettingsStore::new(path.clone(), resolve(&Map::new()));
    tokio::spawn(
        store
            .clone()
            .run_writer_with(Duration::from_millis(200), Duration::from_millis(600)),
    );
    // A change every 100 ms for 1.5 s: the debounce alone would never fire.
    for i in 0..15 {
        store
            .update(&obj(json!({"writeBudgetMs": 2.0 + i as f64})))
            .unwrap();
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let written: Value =
        serde_json::from_slice(&std::fs::read(&path).expect("written meanwhile")).unwrap();
    assert!(
        written["writeBudgetMs"].as_f64().unwrap() > 2.0,
        "{written}"
    );
}

#[test]
fn wrong_types_warn_and_the_rest_loads() {
    let l = resolve(&obj(
        json!({"httpPort": "eighty", "wsEnabled": false, "corsOrigin": 3}),
    ));
    assert_eq!(l.settings.http_port, 8085);
    assert!(!l.settings.ws_enabled);
    assert_eq!(l.warnings.len(), 2, "{:?}", l.warnings);
    assert!(
        l.warnings.iter().any(|w| w.contains("httpPort"))
            && l.warnings.iter().any(|w| w.contains("corsOrigin"))
    );
}

#[test]
fn deprecated_keys_get_one_notice_each_and_unknown_keys_none() {
    let l = resolve(&obj(
        json!({"webhooksEnabled": true, "agentModel": "x", "someFutureKey": 1}),
    ));
    assert_eq!(l.notices.len(), 2);
    assert!(l.warnings.is_empty());
}

#[test]
fn a_file_that_is_not_a_json_object_is_an_error_naming_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.json");
    std::fs::write(
        &path,
        "{\n  \"authToken\": \"s3cret\",\n  \"corsOrigin\": \"x\"\n  \"a\": 1\n}",
    )
    .unwrap();
    let e = load(&path).unwrap_err();
    assert!(e.contains(&path.display().to_string()), "{e}");
    assert!(e.contains("line 4 column 3"), "{e}");
    assert!(!e.contains("s3cret"), "the token is not echoed: {e}");
    std::fs::write(&path, "[1, 2]").unwrap();
    assert!(load(&path).unwrap_err().contains("an array"));
    // Empty (or only a byte-order mark and spaces): the defaults; a BOM before an object is
    // fine.
    std::fs::write(&path, "\u{feff}  \n").unwrap();
    assert!(load(&path).unwrap().warnings.is_empty());
    std::fs::write(&path, "\u{feff}{\"authToken\": \"t\"}").unwrap();
    assert_eq!(load(&path).unwrap().settings.auth_token, "t");
    // Missing: the defaults.
    std::fs::remove_file(&path).unwrap();
    assert_eq!(load(&path).unwrap().settings, Settings::default());
}

#[tokio::test]
async fn updates_are_validated_whole_and_written_after_the_debounce() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.json");
    std::fs::write(&path, r#"{"corsOrigin": "", "myOwnKey": 42}"#).unwrap();
    let store = SettingsStore::new(path.clone(), load(&path).unwrap());
    tokio::spawn(store.clone().run_writer());
    assert!(
        store
            .update(&obj(json!({"corsOrigin": "x", "httpPort": "bad"})))
            .is_err()
    );
    assert_eq!(
        store.get().cors_origin,
        "",
        "a rejected update changes nothing"
    );
    assert!(store.update(&obj(json!({"noSuchKey": 1}))).is_err());
    store
        .update(&obj(json!({"corsOrigin": "http://a"})))
        .unwrap();
    store.update(&obj(json!({"writeBudgetMs": 3.0}))).unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let before: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(before["corsOrigin"], "", "not written before the debounce");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let after: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(after["corsOrigin"], "http://a");
    assert_eq!(after["writeBudgetMs"], 3.0);
    assert_eq!(after["myOwnKey"], 42, "unknown keys survive a rewrite");
}
