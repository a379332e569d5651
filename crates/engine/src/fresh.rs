//! New games for resets, the last few kept: a new world is a function of its seed, faction, mode
//! and map size alone (generating it, the terrain and the water run to rest, is most of a
//! reset), and a `World` copies cheaply (its tables are shared until written). So a reset to a
//! seed played lately (training on a fixed set of seeds, a vector environment's worlds) takes a
//! copy of the kept world and its placement masks instead of generating them again: the same
//! world, hash for hash (a test holds the two together).

use crate::env::EnvConfig;
use sim::colony::PlacementMasks;
use sim::{CommandError, NewGame, World};
use std::collections::VecDeque;
use std::sync::Mutex;

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

static KEPT_GAMES: Mutex<VecDeque<(Key, World, PlacementMasks)>> = Mutex::new(VecDeque::new());

/// A new game of this seed (as `POST /api/game/new` makes it, then paused, as `colony eval` and
/// the HTTP environment leave a new game) with its placement masks.
pub fn fresh(cfg: &EnvConfig, seed: u64) -> Result<(World, PlacementMasks), CommandError> {
    let key = Key {
        seed,
        faction: cfg.faction,
        mode: cfg.mode,
        size: (cfg.width, cfg.height),
        prefabs: cfg.prefabs.clone(),
    };
    {
        let kept = KEPT_GAMES.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, w, m)) = kept.iter().find(|(k, _, _)| *k == key) {
            return Ok((w.clone(), m.clone()));
        }
    }
    let (world, masks) = generate(&key)?;
    let mut kept = KEPT_GAMES.lock().unwrap_or_else(|e| e.into_inner());
    if kept.len() >= KEPT {
        kept.pop_front();
    }
    kept.push_back((key, world.clone(), masks.clone()));
    Ok((world, masks))
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
}
