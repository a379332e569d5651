//! Command-line flags of `colonyd` and where its files live, and the one-shot `--fixture` mode
//! that writes a benchmark colony's save and exits (docs/performance.md).

use clap::{Parser, ValueEnum};
use std::path::PathBuf;

/// colonyd: the Colony game and its HTTP/WebSocket control service.
///
/// With no arguments it starts a fresh seeded game and serves it on 127.0.0.1:8085 (HTTP) and
/// 127.0.0.1:8086 (WebSocket). The ready gate starts closed; `--ready` opens it at start-up.
/// With `--fixture large|small --save FILE` it only writes a benchmark colony's save and exits.
#[derive(Parser, Debug, Clone)]
#[command(name = "colonyd", version, about, long_about = None)]
pub struct Args {
    /// Settings file (default: DATA_DIR/settings.json, created with defaults when missing).
    #[arg(long, value_name = "FILE")]
    pub settings: Option<PathBuf>,
    /// Folder for settings, agent state and saves (default: $COLONY_DATA_DIR, else the per-user
    /// data folder, e.g. ~/.local/share/colony, else ./colony-data).
    #[arg(long, value_name = "DIR", env = "COLONY_DATA_DIR")]
    pub data_dir: Option<PathBuf>,
    /// Seed of the new game's map and randomness (default: random).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Faction of the new game: Folktails or IronTeeth.
    #[arg(long, value_name = "FACTION", default_value = "Folktails")]
    pub faction: String,
    /// Game mode of the new game: Easy, Normal or Hard.
    #[arg(long, value_name = "MODE", default_value = "Normal")]
    pub mode: String,
    /// Map size of the new game: 128 or 128x96.
    #[arg(long, value_name = "SIZE")]
    pub map: Option<String>,
    /// Settlement name of the new game.
    #[arg(long, value_name = "NAME")]
    pub settlement: Option<String>,
    /// Load this save (a name in DATA_DIR/saves, or a file path) instead of starting a new game.
    #[arg(long, value_name = "SAVE", conflicts_with_all = ["seed", "map", "settlement"])]
    pub load: Option<String>,
    /// Open the ready gate at start-up (for headless runs).
    #[arg(long)]
    pub ready: bool,
    /// Serve a replay folder written by `colony replay` (`replay.json` and a save per turn)
    /// read-only: turn 0 first, every write refused but `POST /api/replay/turn {"turn": N}`,
    /// the game paused; the gate opens at start-up.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["seed", "map", "settlement", "load", "fixture"])]
    pub replay: Option<PathBuf>,
    /// HTTP port for this run, overriding `httpPort` of the settings file (not written to it).
    #[arg(long, value_name = "PORT", value_parser = clap::value_parser!(u16).range(1..))]
    pub http_port: Option<u16>,
    /// WebSocket port for this run, overriding `wsPort` of the settings file (not written to it).
    #[arg(long, value_name = "PORT", value_parser = clap::value_parser!(u16).range(1..))]
    pub ws_port: Option<u16>,
    /// Build a benchmark colony, write it to the file given by `--save` and exit without serving:
    /// `large` is the divan benches' colony (256x256, about 1,600 buildings besides paths, 312
    /// beavers, 10,000 trees, stores of water and food), `small` a young colony on a 128 map.
    #[arg(
        long,
        value_name = "FIXTURE",
        requires = "save",
        conflicts_with = "load"
    )]
    pub fixture: Option<Fixture>,
    /// Where `--fixture` writes its save (load it with `--load FILE` or `POST /api/game/load`).
    #[arg(long, value_name = "FILE", requires = "fixture")]
    pub save: Option<PathBuf>,
    /// Print what this build plays (version, commit, rules revision and digest) as one JSON line
    /// and exit; `colony eval` stamps its results with it.
    #[arg(long)]
    pub build_info: bool,
}

/// What this build plays: `colonyd --build-info`.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BuildInfo {
    pub version: &'static str,
    /// The commit the build was made from, when it was built from a git checkout.
    pub commit: Option<&'static str>,
    pub rules_revision: u32,
    pub rules_digest: String,
}

impl BuildInfo {
    pub fn current() -> BuildInfo {
        BuildInfo {
            version: env!("CARGO_PKG_VERSION"),
            commit: option_env!("COLONY_BUILD_COMMIT").filter(|c| !c.is_empty()),
            rules_revision: sim::rules::RULES_REVISION,
            rules_digest: sim::rules::rules_digest(),
        }
    }
}

/// The benchmark colonies `--fixture` can write.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fixture {
    /// `sim::colony::fixtures::large_colony`.
    Large,
    /// `sim::colony::fixtures::small_colony`.
    Small,
}

impl Fixture {
    /// Builds the colony.
    pub fn build(self) -> sim::World {
        match self {
            Fixture::Large => sim::colony::fixtures::large_colony(),
            Fixture::Small => sim::colony::fixtures::small_colony(),
        }
    }
}

/// `--fixture KIND --save FILE`: builds the colony and writes its save atomically. Returns the
/// process exit code (0 written, 1 the file cannot be written).
pub fn write_fixture(fixture: Fixture, path: &std::path::Path) -> i32 {
    let world = fixture.build();
    match crate::fsutil::write_atomic(path, &world.save_to_bytes()) {
        Ok(()) => {
            println!(
                "wrote {} ({} buildings, {} beavers, {} trees, day {})",
                path.display(),
                world.buildings().len(),
                world.beavers(false).len(),
                world.trees().len(),
                world.day()
            );
            0
        }
        Err(e) => {
            eprintln!("colonyd: cannot write {}: {e}", path.display());
            1
        }
    }
}

impl Args {
    /// The data folder to use.
    pub fn data_dir(&self) -> PathBuf {
        if let Some(d) = &self.data_dir {
            return d.clone();
        }
        match dirs::data_dir() {
            Some(base) => base.join("colony"),
            None => PathBuf::from("colony-data"),
        }
    }
}
