//! New games for resets, the last few kept: a new world is a function of its seed, faction, mode
//! and map size alone (generating it, the terrain and the water run to rest, is most of a
//! reset), and a `World` copies cheaply (its tables are shared until written). So a reset to a
//! seed played lately (training on a fixed set of seeds, a vector environment's worlds) takes a
//! copy of the kept world and its placement masks instead of generating them again: the same
//! world, hash for hash (a test holds the two together).
//!
//! A game can also be made ahead ([`prefetch`]) on a background thread: the vector environment
//! knows the seed each of its worlds resets to next, and asks for it when the world starts, so
//! its reset, on the step where the world ended, finds the game made instead of making every
//! other world of that step wait for one world's generation. Each kept game is made once: a
//! reset that comes while its game is being made waits for it, and one that comes before the
//! background thread has started on it makes it itself (the thread then finds it made).

use crate::env::EnvConfig;
use sim::colony::PlacementMasks;
use sim::{CommandError, NewGame, World};
use std::collections::VecDeque;
use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, Mutex, OnceLock};

/// How many new games are kept (about 1.5 MB each on survive-60's 128 map, measured: at most
/// about 100 MB in all).
pub const KEPT: usize = 64;

/// What a new game depends on, and the prefabs its masks are of.
#[derive(Clone, PartialEq)]
struct Key {
    seed: u64,
    faction: sim::Faction,
    mode: sim::GameMode,
    size: (u32, u32),
    prefabs: Vec<String>,
}

impl Key {
    fn of(cfg: &EnvConfig, seed: u64) -> Key {
        Key {
            seed,
            faction: cfg.faction,
            mode: cfg.mode,
            size: (cfg.width, cfg.height),
            prefabs: cfg.prefabs.clone(),
        }
    }
}

/// A new game, once made (or why it cannot be).
type Made = Result<(World, PlacementMasks), CommandError>;
type Slot = Arc<OnceLock<Made>>;

static KEPT_GAMES: Mutex<VecDeque<(Key, Slot)>> = Mutex::new(VecDeque::new());

/// The kept slot of `key`, a new empty one (the oldest dropped past [`KEPT`]) if none.
fn slot(key: &Key) -> Slot {
    let mut kept = KEPT_GAMES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, s)) = kept.iter().find(|(k, _)| k == key) {
        return s.clone();
    }
    if kept.len() >= KEPT {
        kept.pop_front();
    }
    let s = Slot::default();
    kept.push_back((key.clone(), s.clone()));
    s
}

/// A new game of this seed (as `POST /api/game/new` makes it, then paused, as `colony eval` and
/// the HTTP environment leave a new game) with its placement masks.
pub fn fresh(cfg: &EnvConfig, seed: u64) -> Result<(World, PlacementMasks), CommandError> {
    let key = Key::of(cfg, seed);
    slot(&key).get_or_init(|| generate(&key)).clone()
}

/// Starts making the new game of this seed on the background thread, for a [`fresh`] to come.
pub fn prefetch(cfg: &EnvConfig, seed: u64) {
    static MAKER: OnceLock<Mutex<Sender<(Key, Slot)>>> = OnceLock::new();
    let key = Key::of(cfg, seed);
    let s = slot(&key);
    if s.get().is_some() {
        return;
    }
    let maker = MAKER.get_or_init(|| {
        let (tx, rx) = channel::<(Key, Slot)>();
        let spawned = std::thread::Builder::new()
            .name("colony-prefetch".into())
            .spawn(move || {
                for (key, s) in rx {
                    s.get_or_init(|| generate(&key));
                }
            });
        // Without the thread nothing is made ahead: every reset makes its own game.
        drop(spawned);
        Mutex::new(tx)
    });
    let _ = maker
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .send((key, s));
}

fn generate(key: &Key) -> Result<(World, PlacementMasks), CommandError> {
    let mut world = World::try_new(&NewGame {
        seed: key.seed,
        faction: key.faction,
        mode: key.mode,
        map_width: key.size.0,
        map_height: key.size.1,
        ..Default::default()
    })?;
    // The speed is part of the game's state and its hash; steps advance whatever it is.
    world.set_speed(0)?;
    let names: Vec<&str> = key.prefabs.iter().map(String::as_str).collect();
    let masks = PlacementMasks::new(&world, &names)?;
    Ok((world, masks))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_game_is_the_generated_one_and_plays_the_same() {
        let key = Key {
            seed: 77,
            faction: sim::Faction::Folktails,
            mode: sim::GameMode::Normal,
            size: (40, 36),
            prefabs: vec!["Lodge.Folktails".into()],
        };
        let cfg = EnvConfig {
            width: 40,
            height: 36,
            faction: key.faction,
            mode: key.mode,
            turn_hours: 1.0,
            horizon_days: 1.0,
            prefabs: key.prefabs.clone(),
            crops: Vec::new(),
            area: 1,
            terms: Vec::new(),
            actions_per_turn: 1,
            join_paths: false,
        };
        let (mut first, _) = fresh(&cfg, 77).unwrap();
        let (mut kept, masks) = fresh(&cfg, 77).unwrap();
        let (mut made, made_masks) = generate(&key).unwrap();
        assert_eq!(kept.state_hash(), made.state_hash());
        assert_eq!(masks.masks(), made_masks.masks());
        for w in [&mut first, &mut kept, &mut made] {
            w.advance_ticks(300);
        }
        assert_eq!(kept.state_hash(), made.state_hash());
        assert_eq!(first.state_hash(), made.state_hash());
    }

    #[test]
    fn a_game_made_ahead_is_the_generated_one() {
        let cfg = EnvConfig {
            width: 36,
            height: 32,
            ..EnvConfig::benchmark(64, 1.0)
        };
        let key = Key::of(&cfg, 91);
        prefetch(&cfg, 91);
        // Made by the background thread (or by this call, if it comes first): once either way.
        let (ahead, masks) = fresh(&cfg, 91).unwrap();
        let s = slot(&key);
        assert!(s.get().is_some(), "kept once made");
        let (made, made_masks) = generate(&key).unwrap();
        assert_eq!(ahead.state_hash(), made.state_hash());
        assert_eq!(masks.masks(), made_masks.masks());
        // A game that cannot be made is an error either way, not a stuck reset.
        let bad = EnvConfig {
            width: 3,
            ..cfg.clone()
        };
        prefetch(&bad, 5);
        assert!(fresh(&bad, 5).is_err());
    }
}
