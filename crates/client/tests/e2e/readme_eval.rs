//! The README's "Evaluate your agent in three commands" block works as written and prints what
//! the README's baselines table says: its eval and leaderboard lines run in a fresh folder (with
//! the project's `agents/` beside them), and the leaderboard's survive-60 row for the random
//! agent is the README's, number for number (the same seeds and commands give the same scores).
//!
//! The block's first line, the release build, is this test's own build: `target/release/colony`
//! becomes the `colony` under test, and `colony eval` finds the `colonyd` built beside it.

use crate::readme::readme;
use crate::support::{section, sh_blocks};
use std::path::Path;
use std::process::Command;

/// The block's commands, backslash-continued lines joined.
fn commands(block: &str) -> Vec<String> {
    block
        .replace("\\\n", " ")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect()
}

/// The mean, IQM and success cells of a by-scenario table row for `scenario` and `agent`.
fn row_cells(table: &str, scenario: &str, agent: &str) -> Option<Vec<String>> {
    table.lines().find_map(|l| {
        let cells: Vec<&str> = l.split('|').map(str::trim).collect();
        (cells.len() >= 8 && cells[1] == format!("`{scenario}`") && cells[2] == agent)
            .then(|| cells[4..7].iter().map(|c| (*c).to_owned()).collect())
    })
}

#[test]
fn the_three_commands_evaluate_an_agent_and_match_the_baselines_table() {
    let readme = readme();
    let blocks = sh_blocks(section(&readme, "Evaluate your agent in three commands"));
    assert_eq!(blocks.len(), 1, "{blocks:?}");
    let lines = commands(&blocks[0]);
    assert_eq!(lines.len(), 3, "three commands: {lines:?}");
    assert!(
        lines[0].starts_with("cargo build --release"),
        "the first builds: {}",
        lines[0]
    );
    let colony = env!("CARGO_BIN_EXE_colony");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let home = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(repo.join("agents"), home.path().join("agents")).unwrap();
    let mut printed = String::new();
    for line in &lines[1..] {
        assert!(line.starts_with("target/release/colony eval"), "{line}");
        let line = line.replacen("target/release/colony", colony, 1);
        let out = Command::new("bash")
            .arg("-c")
            .arg(format!("set -o pipefail; {line}"))
            .current_dir(home.path())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success(),
            "{line}\nexit {:?}\n{stdout}\n{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        );
        printed.push_str(&stdout);
    }
    let agent = "python3 agents/random_agent.py";
    let got = row_cells(&printed, "survive-60", agent)
        .unwrap_or_else(|| panic!("a survive-60 row for {agent} in:\n{printed}"));
    let want = row_cells(&readme, "survive-60", agent)
        .expect("the README's baselines table has the random agent's survive-60 row");
    assert_eq!(got, want, "the leaderboard printed:\n{printed}");
    // And the report the block points to is there.
    assert!(home.path().join("eval-results/mine/report.html").is_file());
}
