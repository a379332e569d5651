//! Replay mode (`colonyd --replay DIR`): colonyd serves a replay folder written by
//! `colony replay` (`protocol::replay`: `replay.json` and a save per turn) read-only. It starts
//! on turn 0, refuses every write but `POST /api/replay/turn` (which loads another turn's save)
//! and the POST routes that only read, and never advances the game on its own.

use crate::saves;
use protocol::error::{ApiError, ErrorCode};
use protocol::replay::{INDEX_FILE, ReplayIndex, save_name};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

/// The route that changes the turn: the one write replay mode takes.
pub const TURN_ROUTE: &str = "/api/replay/turn";

/// POST routes that only read the game, served in replay mode as well.
const POST_READS: &[&str] = &[
    "/api/building/range",
    "/api/placement/find",
    "/api/placement/mask",
    "/api/planting/find",
    "/api/score",
];

/// The replay being served.
pub struct Replay {
    dir: PathBuf,
    index: ReplayIndex,
    /// The turn whose save the game holds.
    current: AtomicU32,
    /// Held while a turn loads, so two loads cannot interleave.
    pub loading: tokio::sync::Mutex<()>,
}

impl Replay {
    /// Reads the folder's index and its first turn's save (turn 0, the start).
    pub fn open(dir: &Path) -> Result<(Replay, sim::World), String> {
        let path = dir.join(INDEX_FILE);
        let text = std::fs::read_to_string(&path).map_err(|e| {
            format!(
                "cannot read {} ({e}): give a replay folder written by `colony replay OUT/episodes/ID` (or its --keep DIR)",
                path.display()
            )
        })?;
        let index: ReplayIndex = serde_json::from_str(&text)
            .map_err(|e| format!("{} is not a replay index: {e}", path.display()))?;
        let first = index
            .turns
            .first()
            .ok_or_else(|| format!("{} lists no turns", path.display()))?
            .turn;
        let replay = Replay {
            dir: dir.to_owned(),
            index,
            current: AtomicU32::new(first),
            loading: tokio::sync::Mutex::new(()),
        };
        let world = replay.read(first).map_err(|e| e.to_string())?;
        Ok((replay, world))
    }

    pub fn index(&self) -> &ReplayIndex {
        &self.index
    }

    /// The turn the game holds now.
    pub fn current(&self) -> u32 {
        self.current.load(Ordering::SeqCst)
    }

    pub fn set_current(&self, turn: u32) {
        self.current.store(turn, Ordering::SeqCst);
    }

    /// The first and last turn served.
    pub fn range(&self) -> (u32, u32) {
        let t = &self.index.turns;
        (t[0].turn, t[t.len() - 1].turn)
    }

    /// Reads a turn's save, or `invalid_param` naming the valid turns.
    pub fn read(&self, turn: u32) -> Result<sim::World, ApiError> {
        if !self.index.turns.iter().any(|t| t.turn == turn) {
            let (first, last) = self.range();
            return Err(ApiError::new(
                ErrorCode::InvalidParam,
                format!("turn must be {first}-{last} (the turns of this replay); got {turn}"),
            )
            .with("got", turn));
        }
        let mut world = saves::read_named(&self.dir, &save_name(turn))?;
        // A replay never runs on its own (the harness's saves are paused already).
        if world.speed() != 0 {
            let _ = world.set_speed(0);
        }
        Ok(world)
    }
}

/// Whether replay mode refuses this request: any method but GET, HEAD and OPTIONS, except the
/// turn route and the POST routes that only read.
pub fn refuses(method: &axum::http::Method, path: &str) -> bool {
    use axum::http::Method;
    !(matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
        || path == TURN_ROUTE
        || POST_READS.contains(&path))
}

/// The answer to a write in replay mode.
pub fn refusal(method: &axum::http::Method, path: &str) -> ApiError {
    ApiError::new(
        ErrorCode::Disabled,
        format!(
            "this colonyd serves a replay (read-only): writes are refused ({method} {path}); step through turns with POST {TURN_ROUTE} {{\"turn\": N}}, or start colonyd without --replay to play"
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::Method;

    #[test]
    fn writes_are_refused_but_reads_and_the_turn_route_pass() {
        assert!(refuses(&Method::POST, "/api/building/place"));
        assert!(refuses(&Method::POST, "/api/speed"));
        assert!(refuses(&Method::POST, "/api/game/load"));
        assert!(refuses(&Method::PUT, "/api/replay"));
        assert!(!refuses(&Method::POST, TURN_ROUTE));
        assert!(!refuses(&Method::POST, "/api/placement/find"));
        assert!(!refuses(&Method::GET, "/api/summary"));
        let e = refusal(&Method::POST, "/api/speed").to_string();
        assert!(
            e.starts_with("disabled: this colonyd serves a replay"),
            "{e}"
        );
        assert!(e.contains("POST /api/replay/turn"), "{e}");
    }

    #[test]
    fn post_reads_are_sorted_catalogue_routes() {
        let mut sorted = POST_READS.to_vec();
        sorted.sort();
        assert_eq!(sorted, POST_READS);
        for p in POST_READS {
            assert!(
                protocol::routes::find(protocol::routes::Method::Post, p).is_some(),
                "{p}"
            );
        }
    }

    #[test]
    fn a_folder_without_an_index_says_what_to_give() {
        let d = tempfile::tempdir().unwrap();
        let e = Replay::open(d.path()).err().unwrap();
        assert!(
            e.contains("replay.json") && e.contains("colony replay"),
            "{e}"
        );
        std::fs::write(
            d.path().join(INDEX_FILE),
            r#"{"episode":"e","scenario":"s","seed":1,"turns":[]}"#,
        )
        .unwrap();
        let e = Replay::open(d.path()).err().unwrap();
        assert!(e.contains("lists no turns"), "{e}");
    }

    #[test]
    fn turns_load_from_the_folder_and_others_are_invalid_params() {
        let d = tempfile::tempdir().unwrap();
        let mut world = sim::World::try_new(&sim::NewGame {
            seed: 3,
            map_width: 32,
            map_height: 32,
            ..Default::default()
        })
        .unwrap();
        world.set_speed(0).unwrap();
        std::fs::write(
            saves::path_of(d.path(), &save_name(0)),
            world.save_to_bytes(),
        )
        .unwrap();
        std::fs::write(
            d.path().join(INDEX_FILE),
            r#"{"episode":"e","scenario":"s","seed":3,"turns":[{"turn":0,"day":1,"hour":4.0}]}"#,
        )
        .unwrap();
        let (r, w) = Replay::open(d.path()).unwrap();
        assert_eq!(w.state_hash(), world.state_hash());
        assert_eq!(w.speed(), 0, "never runs on its own");
        assert_eq!(r.range(), (0, 0));
        let e = r.read(5).err().unwrap().to_string();
        assert!(e.starts_with("invalid_param: turn must be 0-0"), "{e}");
    }
}
