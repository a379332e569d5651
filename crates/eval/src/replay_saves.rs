//! The replay folder: while `colony replay` rebuilds an episode, the game saved after every turn
//! whose state hash matched the recording (`turn-0000` after the setup, then one per turn), saved
//! by the replay's colonyd (`POST /api/game/save`) and moved into the folder, and its index
//! `replay.json` (`protocol::replay`: per turn the day and hour, the hours advanced, the state
//! hash and the agent's requests with their answers). `colonyd --replay DIR` serves the folder.

use crate::replay::Step;
use crate::service::Service;
use protocol::replay::{INDEX_FILE, ReplayIndex, ReplayRequest, ReplayTurn, save_name};
use serde_json::json;
use std::path::{Path, PathBuf};

/// How colonyd names a save's file (`saves::path_of` in crates/server).
const SAVE_SUFFIX: &str = ".colony.json";

/// A replay folder being written.
pub struct ReplayFolder {
    dir: PathBuf,
    index: ReplayIndex,
}

/// The file of a turn's save in a replay folder.
pub fn save_file(dir: &Path, turn: u32) -> PathBuf {
    dir.join(format!("{}{SAVE_SUFFIX}", save_name(turn)))
}

impl ReplayFolder {
    /// Starts a replay folder at `dir` (created when missing; an existing index is replaced when
    /// the replay finishes).
    pub fn create(dir: &Path, episode: &str, scenario: &str, seed: u64) -> Result<Self, String> {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot make the replay folder {}: {e}", dir.display()))?;
        Ok(ReplayFolder {
            dir: dir.to_owned(),
            index: ReplayIndex {
                episode: episode.to_owned(),
                scenario: scenario.to_owned(),
                seed,
                turns: Vec::new(),
            },
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The turns recorded so far.
    pub fn index(&self) -> &ReplayIndex {
        &self.index
    }

    /// Saves the game `svc` holds after `step` into the folder and adds the turn to the index.
    pub fn record(&mut self, step: &Step<'_>, svc: &Service) -> Result<(), String> {
        let name = save_name(step.turn);
        svc.post("/api/game/save", &json!({ "name": name }))
            .map_err(|e| format!("turn {}: saving the game failed: {e}", step.turn))?;
        let saved = save_file(&svc.dir.path().join("saves"), step.turn);
        let to = save_file(&self.dir, step.turn);
        std::fs::copy(&saved, &to).map_err(|e| {
            format!(
                "turn {}: cannot copy {} to {}: {e}",
                step.turn,
                saved.display(),
                to.display()
            )
        })?;
        // The replay's own data folder keeps only the latest turn.
        let _ = std::fs::remove_file(&saved);
        let time = svc
            .get("/api/time")
            .map_err(|e| format!("turn {}: reading /api/time failed: {e}", step.turn))?;
        let requests = step.line.map_or_else(Vec::new, |line| {
            line.requests
                .iter()
                .enumerate()
                .map(|(k, c)| ReplayRequest {
                    method: c.method.clone(),
                    path: c.path.clone(),
                    status: c.status,
                    error: step
                        .answers
                        .get(k)
                        .cloned()
                        .flatten()
                        .or_else(|| c.error.clone()),
                })
                .collect()
        });
        self.index.turns.push(ReplayTurn {
            turn: step.turn,
            day: time["dayNumber"].as_u64().unwrap_or(0) as u32,
            hour: time["hour"].as_f64().unwrap_or(0.0),
            hours: step.line.and_then(|l| l.hours),
            state_hash: step.hash.map(str::to_owned),
            requests,
        });
        Ok(())
    }

    /// Writes the index, `replay.json`, atomically.
    pub fn finish(&self) -> Result<(), String> {
        let text = serde_json::to_string_pretty(&self.index).map_err(|e| e.to_string())?;
        crate::run::write_atomic(&self.dir.join(INDEX_FILE), text.as_bytes())
    }
}
