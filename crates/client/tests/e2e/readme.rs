//! The README's quick start works as written: its `colony` and `curl` lines, pasted in order into
//! a shell against a fresh colonyd started as the README says (`--ready --seed 7`, default map),
//! all succeed, and the colony is alive at the end with water stored.

use crate::support::Server;
use serde_json::json;
use std::path::Path;
use std::process::Command;

/// The shell lines of the README's "Quick start" section after the colonyd command: every line
/// of its `sh` blocks that runs `colony` or `curl`.
fn quick_start_lines(readme: &str) -> Vec<String> {
    let start = readme
        .find("## Quick start")
        .expect("a Quick start section");
    let section = &readme[start..];
    let end = section[3..].find("\n## ").map_or(section.len(), |i| i + 3);
    let mut lines = Vec::new();
    let mut in_sh = false;
    for line in section[..end].lines() {
        if line.starts_with("```") {
            in_sh = !in_sh && line.trim() == "```sh";
            continue;
        }
        let l = line.trim();
        if in_sh && (l.starts_with("colony ") || l.starts_with("curl ")) {
            lines.push(l.to_string());
        }
    }
    lines
}

#[test]
fn the_quick_start_runs_as_written_and_leaves_a_living_colony() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md"))
            .unwrap();
    assert!(
        readme.contains("colonyd -- --ready --seed 7"),
        "the README starts colonyd with the seed its coordinates are for"
    );
    let lines = quick_start_lines(&readme);
    assert!(lines.len() >= 8, "{lines:?}");
    let s = Server::start_game(json!({}), vec!["--seed", "7"]);
    let home = tempfile::tempdir().unwrap();
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_colony")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for line in &lines {
        // The README talks to the default port; this colonyd listens on a free one.
        let line = line.replace("127.0.0.1:8085", &format!("127.0.0.1:{}", s.http_port));
        let out = Command::new("bash")
            .arg("-c")
            .arg(format!("set -o pipefail; {line}"))
            .env("PATH", &path)
            .env("HOME", home.path())
            .env("XDG_CONFIG_HOME", home.path().join(".config"))
            .env("COLONY_PORT", s.http_port.to_string())
            .env("COLONY_WS_PORT", s.ws_port.to_string())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{line}\nexit {:?}\n{}\n{}",
            out.status.code(),
            stdout.chars().take(400).collect::<String>(),
            String::from_utf8_lossy(&out.stderr)
        );
        let head: String = stdout.chars().take(400).collect();
        assert!(
            !stdout.starts_with("{\"error\"") && !stdout.starts_with("error:"),
            "{line} answered an error:\n{head}"
        );
    }
    let summary = s.get("/api/summary?format=json");
    let district = &summary["districts"][0];
    let pop = &district["population"];
    let people = pop["adults"].as_u64().unwrap() + pop["children"].as_u64().unwrap();
    assert_eq!(people, 12, "nobody died: {summary}");
    assert!(summary["gameOver"] == false, "{summary}");
    let buildings = s.get("/api/buildings?limit=0&format=json");
    let finished = |name: &str| {
        buildings
            .as_array()
            .unwrap()
            .iter()
            .any(|b| b["name"] == name && b["finished"] == true)
    };
    assert!(
        finished("WaterPump.Folktails") && finished("SmallTank.Folktails"),
        "{buildings}"
    );
    assert!(
        district["resources"]["Water"].as_u64().unwrap_or(0) > 0,
        "water is in stock: {district}"
    );
}
