//! Atomic file writes: write a temporary file beside the target, fsync it, rename it over the
//! target, then fsync the directory, so a crash leaves either the old file or the new one.

use std::io::Write;
use std::path::Path;

/// Writes `bytes` to `path` atomically, creating the parent directory if needed.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir)?;
    let mut tmp = tempfile::Builder::new().prefix(".tmp-").tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    if let Ok(d) = std::fs::File::open(dir) {
        // Directory fsync makes the rename durable; not every platform supports it.
        let _ = d.sync_all();
    }
    Ok(())
}

/// Removes the `.tmp-*` files a crash in the middle of `write_atomic` left in `dir` (never
/// another file). Returns how many were removed. Run at start-up, before anything writes.
pub fn remove_leftover_temps(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(".tmp-"))
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter(|e| std::fs::remove_file(e.path()).is_ok())
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_content_and_leaves_no_temp_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join("file.json");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        let names: Vec<_> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1, "temp files left behind: {names:?}");
    }

    #[test]
    fn leftover_temps_are_removed_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(".tmp-abc123"), b"half").unwrap();
        std::fs::write(dir.path().join("keep.json"), b"{}").unwrap();
        std::fs::write(dir.path().join("x.tmp-"), b"not ours").unwrap();
        assert_eq!(remove_leftover_temps(dir.path()), 1);
        assert!(dir.path().join("keep.json").exists() && dir.path().join("x.tmp-").exists());
        assert!(!dir.path().join(".tmp-abc123").exists());
    }
}
