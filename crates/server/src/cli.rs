//! Command-line flags of `colonyd` and where its files live.

use clap::Parser;
use std::path::PathBuf;

/// colonyd: the Colony game and its HTTP/WebSocket control service.
///
/// With no arguments it starts a fresh seeded game and serves it on 127.0.0.1:8085 (HTTP) and
/// 127.0.0.1:8086 (WebSocket). The ready gate starts closed; `--ready` opens it at start-up.
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
    /// HTTP port for this run, overriding `httpPort` of the settings file (not written to it).
    #[arg(long, value_name = "PORT", value_parser = clap::value_parser!(u16).range(1..))]
    pub http_port: Option<u16>,
    /// WebSocket port for this run, overriding `wsPort` of the settings file (not written to it).
    #[arg(long, value_name = "PORT", value_parser = clap::value_parser!(u16).range(1..))]
    pub ws_port: Option<u16>,
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
