//! Save files: names, the saves folder, listing, atomic writes and the autosave writer thread
//! (the game thread hands it the bytes and goes on; the `autosave` event follows the write).

use crate::hub::Hub;
use protocol::error::{ApiError, ErrorCode};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{SyncSender, sync_channel};

/// File extension of saves.
pub const EXTENSION: &str = "colony.json";
/// The name autosaves are written under.
pub const AUTOSAVE_NAME: &str = "autosave";

/// One entry of `GET /api/game/saves`.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct SaveInfo {
    pub name: String,
    pub bytes: u64,
    /// Unix seconds of the last write.
    pub modified: i64,
}

/// Checks a save name: 1-64 characters of letters, digits, `-`, `_`, `.` and spaces, not
/// starting with a dot.
pub fn validate_name(name: &str) -> Result<(), ApiError> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ' '));
    if ok {
        Ok(())
    } else {
        Err(ApiError::new(
            ErrorCode::InvalidParam,
            format!("save name {name:?} is not allowed; use 1-64 letters, digits, '-', '_', '.' or spaces, not starting with '.'"),
        )
        .with("got", name))
    }
}

/// The path of a save by name.
pub fn path_of(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.{EXTENSION}"))
}

/// Lists the saves, newest first.
pub fn list(dir: &Path) -> Vec<SaveInfo> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    let suffix = format!(".{EXTENSION}");
    for e in entries.flatten() {
        let file = e.file_name().to_string_lossy().into_owned();
        let Some(name) = file.strip_suffix(&suffix) else {
            continue;
        };
        let Ok(meta) = e.metadata() else { continue };
        let modified = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_secs() as i64);
        out.push(SaveInfo {
            name: name.to_string(),
            bytes: meta.len(),
            modified,
        });
    }
    out.sort_by(|a, b| b.modified.cmp(&a.modified).then(a.name.cmp(&b.name)));
    out
}

/// Reads and decodes a save by name, from `dir` only (`POST /api/game/load`): a name is never
/// taken as a path, so nothing outside the saves folder (colonyd's working directory above all)
/// can be read through the API.
pub fn read_named(dir: &Path, name: &str) -> Result<sim::World, ApiError> {
    validate_name(name)?;
    read_file(dir, &path_of(dir, name), name)
}

/// Reads and decodes a save, by name in `dir` or, when `name_or_path` names an existing file, by
/// path: the command line's `--load`, where the user may name any file.
pub fn read(dir: &Path, name_or_path: &str) -> Result<sim::World, ApiError> {
    let direct = Path::new(name_or_path);
    if direct.is_file() {
        return read_file(dir, direct, name_or_path);
    }
    read_named(dir, name_or_path)
}

fn read_file(dir: &Path, path: &Path, name_or_path: &str) -> Result<sim::World, ApiError> {
    let bytes = std::fs::read(path).map_err(|e| {
        let names: Vec<String> = list(dir).into_iter().map(|s| s.name).collect();
        ApiError::new(
            ErrorCode::NotFound,
            format!(
                "save {name_or_path:?} cannot be read ({e}); GET /api/game/saves lists the saves"
            ),
        )
        .with("available", names)
    })?;
    sim::World::load_from_bytes(&bytes).map_err(|e| {
        ApiError::new(
            ErrorCode::OperationFailed,
            format!("save {name_or_path:?} cannot be loaded: {e}"),
        )
    })
}

/// Hands autosaves to a writer thread so the game thread never waits on the disk.
#[derive(Clone)]
pub struct Autosaver {
    tx: SyncSender<(Vec<u8>, u32)>,
}

impl Autosaver {
    /// Starts the writer thread for `dir`.
    pub fn start(dir: PathBuf, hub: Hub) -> Autosaver {
        let (tx, rx) = sync_channel::<(Vec<u8>, u32)>(2);
        std::thread::Builder::new()
            .name("autosave".into())
            .spawn(move || {
                for (bytes, day) in rx {
                    let path = path_of(&dir, AUTOSAVE_NAME);
                    match crate::fsutil::write_atomic(&path, &bytes) {
                        Ok(()) => hub.broadcast_event(
                            "autosave",
                            day,
                            Some(serde_json::json!({"name": AUTOSAVE_NAME, "day": day})),
                        ),
                        Err(e) => tracing::error!("autosave to {} failed: {e}", path.display()),
                    }
                }
            })
            .expect("spawn the autosave thread");
        Autosaver { tx }
    }

    /// Serializes the world and queues the write; skipped (with a log line) if the writer is behind.
    pub fn save(&self, world: &sim::World) {
        let day = world.time().day_number;
        if self.tx.try_send((world.save_to_bytes(), day)).is_err() {
            tracing::warn!(
                "autosave for day {day} skipped: the previous autosave is still being written"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked() {
        assert!(validate_name("my save-1.b").is_ok());
        for bad in ["", ".hidden", "../x", "a/b", "a\\b", "..", &"x".repeat(65)] {
            assert!(validate_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_name_is_read_from_the_saves_folder_only() {
        let saves = tempfile::tempdir().unwrap();
        let other = tempfile::tempdir().unwrap();
        let stray = other.path().join("stray");
        std::fs::write(&stray, b"not a save").unwrap();
        // The API's read never takes the name as a path, even one that exists.
        let e = read_named(saves.path(), stray.to_str().unwrap()).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidParam);
        // The command line's may.
        let e = read(saves.path(), stray.to_str().unwrap()).unwrap_err();
        assert_eq!(e.code, ErrorCode::OperationFailed, "{}", e.message());
    }
}
