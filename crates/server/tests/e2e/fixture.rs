//! `colonyd --fixture KIND --save FILE`: writes a benchmark colony's save and exits; the save
//! loads through `POST /api/game/load` and `--load`.

use crate::support::{Opts, Server};
use serde_json::json;
use std::process::Command;

#[tokio::test]
async fn fixture_small_writes_a_save_that_loads() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("saves").join("young.colony.json");
    let out = Command::new(env!("CARGO_BIN_EXE_colonyd"))
        .args(["--fixture", "small", "--save"])
        .arg(&save)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("wrote"));
    assert!(save.is_file());

    // Through the load route, by name in the data folder's saves.
    let s = Server::start_in(dir, Opts::default()).await;
    assert_eq!(s.get("/api/time").await.1["dayNumber"], 1);
    let (_, loaded) = s.post("/api/game/load", json!({"name": "young"})).await;
    assert_eq!(loaded["name"], "young", "{loaded}");
    s.post("/api/ready", json!({"ready": true})).await;
    let time = s.get("/api/time").await.1;
    assert_eq!(time["dayNumber"], 2, "{time}");
    let pop = s.get("/api/population").await.1;
    assert!(pop.to_string().contains("adults"), "{pop}");
    let dir = s.stop();

    // And as a start-up save given by path.
    let s = Server::start_in(
        dir,
        Opts {
            args: vec!["--load".into(), save.display().to_string()],
            ..Opts::default()
        },
    )
    .await;
    assert_eq!(s.get("/api/time").await.1["dayNumber"], 2);
}

#[test]
fn fixture_needs_a_save_file() {
    let out = Command::new(env!("CARGO_BIN_EXE_colonyd"))
        .args(["--fixture", "small"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--save"));
}
