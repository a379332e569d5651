//! The README's examples work as written against a fresh colonyd started as the README says
//! (`--ready --seed 7`, default map): the quick start's `colony` and `curl` lines, pasted in order,
//! all succeed and leave the colony alive with water stored; the "Write your first agent" block,
//! run as one shell script, has the connector run the agent, which places a pump and logs it.

use crate::support::{Server, section, sh_blocks, shell};
use serde_json::json;
use std::path::Path;

/// The shell lines of the README's "Quick start" section after the colonyd command: every line
/// of its `sh` blocks that runs `colony` or `curl`.
fn quick_start_lines(readme: &str) -> Vec<String> {
    sh_blocks(section(readme, "Quick start"))
        .iter()
        .flat_map(|b| {
            b.lines()
                .map(str::trim)
                .map(String::from)
                .collect::<Vec<_>>()
        })
        .filter(|l| l.starts_with("colony ") || l.starts_with("curl "))
        .collect()
}

pub(crate) fn readme() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md")).unwrap()
}

#[test]
fn the_quick_start_runs_as_written_and_leaves_a_living_colony() {
    let readme = readme();
    assert!(
        readme.contains("colonyd -- --ready --seed 7"),
        "the README starts colonyd with the seed its coordinates are for"
    );
    let lines = quick_start_lines(&readme);
    assert!(lines.len() >= 8, "{lines:?}");
    let s = Server::start_game(json!({}), vec!["--seed", "7"]);
    let home = tempfile::tempdir().unwrap();
    for line in &lines {
        // The README talks to the default port; this colonyd listens on a free one.
        let line = line.replace("127.0.0.1:8085", &format!("127.0.0.1:{}", s.http_port));
        let out = shell(&s, home.path(), &format!("set -o pipefail; {line}"));
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

#[test]
fn the_first_agent_runs_through_the_connector_and_places_a_pump() {
    let blocks = sh_blocks(section(&readme(), "Write your first agent"));
    assert_eq!(blocks.len(), 1, "{blocks:?}");
    let s = Server::start_game(json!({}), vec!["--seed", "7"]);
    let home = tempfile::tempdir().unwrap();
    // The block as one script in a fresh folder; the connector it leaves running is stopped
    // when the script ends.
    let script = format!(
        "set -e\ntrap 'kill $(jobs -p) 2>/dev/null' EXIT\n{}",
        blocks[0]
    );
    let out = shell(&s, home.path(), &script);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "exit {:?}\n{stdout}\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("placed the first pump"),
        "`colony log` shows the agent's line:\n{stdout}"
    );
    let pumps = s.get("/api/buildings?limit=0&format=json&name=WaterPump");
    assert_eq!(pumps.as_array().map(Vec::len), Some(1), "{pumps}");
    let state = s.get("/api/agent/state");
    assert!(
        state["pendingRequest"].is_null(),
        "the prompt was taken: {state}"
    );
}
