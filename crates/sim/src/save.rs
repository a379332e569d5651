//! The save format and the world hash.
//!
//! A save is one JSON object, written in a fixed member order so the same world always gives the
//! same bytes:
//! `{"format": "colony-save", "version": 2, "seed", "faction", "mode", "settlement", "ticks",
//! "speed", "endHours", "rng": {key, stream, wordPos}, "weather": {...},
//! "map": {width, height, terrain: [rows], river: {axis, spans}, startSpot: [x, y, z]},
//! "land": {...}, "science": {points, unlocked}, "colony": {...}, "history": {rows, counters}}`
//! (`history` is left out while empty; see `history`) (the land's layout is in
//! `land::save`; the colony is its serde form: buildings, beavers with their plans, districts,
//! notifications, its RNG and id counter).
//! Version 2 saves (no `science`) still load, with no points and nothing unlocked.
//! Version 1 (before the land) is refused as an unsupported version: its worlds lack the water,
//! plants and ruins a version 2 world is generated with, so there is no faithful migration.
//! Terrain rows are strings with one base-36 digit per tile (height 0-35), west to east, rows from
//! y = 0 up. Queued events are not saved: they belong to the host once emitted.
//!
//! [`World::state_hash`] is FNV-1a 64 over these bytes, so it is stable across runs and builds.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::clock;
use crate::config::{Faction, GameMode, NewGame};
use crate::error::SaveError;
use crate::event::EventQueue;
use crate::land::LandSave;
use crate::map::{Map, River};
use crate::rng::{RngState, WorldRng};
use crate::weather::WeatherState;
use crate::world::World;

/// The `format` member of every save.
pub const FORMAT: &str = "colony-save";
/// The save version this build writes and reads.
pub const VERSION: u32 = 4;
/// Older versions this build still reads (version 2 lacks `science`, which then starts empty;
/// versions 2 and 3 lack `colony`, which is then founded afresh on the start spot).
const READABLE: &[u32] = &[2, 3, 4];

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SaveFile {
    format: String,
    version: u32,
    seed: u64,
    faction: Faction,
    mode: GameMode,
    settlement: String,
    ticks: u64,
    speed: u8,
    end_hours: u8,
    rng: RngState,
    weather: WeatherState,
    map: MapSave,
    land: LandSave,
    #[serde(default)]
    science: crate::science::Science,
    #[serde(default)]
    colony: Option<crate::colony::Colony>,
    /// The hourly history (absent in older saves and before the first hour).
    #[serde(default, skip_serializing_if = "crate::history::History::is_empty")]
    history: crate::history::History,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct MapSave {
    width: u32,
    height: u32,
    terrain: Vec<String>,
    river: River,
    start_spot: [u32; 3],
}

/// FNV-1a, 64 bit.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn encode_terrain(map: &Map) -> Vec<String> {
    map.terrain()
        .chunks(map.width() as usize)
        .map(|row| {
            row.iter()
                .map(|h| char::from_digit(u32::from(*h), 36).expect("terrain height below 36"))
                .collect()
        })
        .collect()
}

fn decode_terrain(rows: &[String], width: u32, height: u32) -> Result<Vec<u8>, String> {
    if rows.len() != height as usize {
        return Err(format!(
            "terrain has {} rows, the map is {height} high",
            rows.len()
        ));
    }
    let mut out = Vec::with_capacity(width as usize * height as usize);
    for (y, row) in rows.iter().enumerate() {
        if row.len() != width as usize {
            return Err(format!(
                "terrain row {y} has {} tiles, the map is {width} wide",
                row.len()
            ));
        }
        for c in row.chars() {
            let h = c
                .to_digit(36)
                .ok_or_else(|| format!("terrain row {y} holds {c:?}, not a base-36 digit"))?;
            out.push(h as u8);
        }
    }
    Ok(out)
}

impl World {
    /// The whole world as save bytes (see the module docs for the format).
    pub fn save_to_bytes(&self) -> Vec<u8> {
        self.save_bytes(true)
    }

    /// The save bytes, with or without the history.
    fn save_bytes(&self, with_history: bool) -> Vec<u8> {
        let (sx, sy, sz) = self.map.start_spot();
        let file = SaveFile {
            format: FORMAT.to_owned(),
            version: VERSION,
            seed: self.seed,
            faction: self.faction,
            mode: self.mode,
            settlement: self.settlement.clone(),
            ticks: self.ticks,
            speed: self.speed,
            end_hours: self.end_hours,
            rng: self.rng.state(),
            weather: self.weather.clone(),
            map: MapSave {
                width: self.map.width(),
                height: self.map.height(),
                terrain: encode_terrain(&self.map),
                river: self.map.river().clone(),
                start_spot: [sx, sy, sz],
            },
            land: LandSave::from_land(&self.land),
            science: self.science.clone(),
            colony: Some(self.colony.clone()),
            history: if with_history {
                (*self.history).clone()
            } else {
                crate::history::History::default()
            },
        };
        serde_json::to_vec(&file).expect("a save always serialises")
    }

    /// A world from save bytes. Rejects other formats, other versions and inconsistent contents.
    pub fn load_from_bytes(bytes: &[u8]) -> Result<World, SaveError> {
        // A save of this format and a readable version is read straight into its typed form:
        // through a JSON tree first, the large colony's save took a third longer and its tree
        // stood in memory beside the old world and the new one. Any save that does not read so
        // goes through the tree, which names what is wrong with it.
        let file = match serde_json::from_slice::<SaveFile>(bytes) {
            Ok(file) if file.format == FORMAT && READABLE.contains(&file.version) => file,
            _ => Self::read_checked(bytes)?,
        };
        Self::from_save_file(file)
    }

    /// The save read through a JSON tree, checking its format, version and prefabs first, so
    /// that a save that cannot be read gets the error that says why.
    fn read_checked(bytes: &[u8]) -> Result<SaveFile, SaveError> {
        let value: Value =
            serde_json::from_slice(bytes).map_err(|e| SaveError::NotJson(e.to_string()))?;
        let Value::Object(obj) = &value else {
            return Err(SaveError::NotJson("the top level is not an object".into()));
        };
        match obj.get("format") {
            Some(Value::String(f)) if f == FORMAT => {}
            Some(Value::String(f)) => {
                return Err(SaveError::WrongFormat {
                    found: Some(f.clone()),
                });
            }
            _ => return Err(SaveError::WrongFormat { found: None }),
        }
        match obj.get("version") {
            Some(v)
                if v.as_u64()
                    .is_some_and(|n| READABLE.iter().any(|r| u64::from(*r) == n)) => {}
            other => {
                return Err(SaveError::UnsupportedVersion {
                    found: other.cloned().unwrap_or(Value::Null),
                    supported: VERSION,
                });
            }
        }
        let corrupt = SaveError::Corrupt;
        if let Some(colony) = obj.get("colony") {
            crate::colony::Colony::check_prefabs(colony)
                .map_err(|e| corrupt(format!("colony: {e}")))?;
        }
        serde_json::from_value(value).map_err(|e| SaveError::Corrupt(e.to_string()))
    }

    /// Builds the world a save file describes, checking that its contents fit together.
    fn from_save_file(file: SaveFile) -> Result<World, SaveError> {
        let corrupt = SaveError::Corrupt;
        NewGame {
            seed: file.seed,
            faction: file.faction,
            mode: file.mode,
            map_width: file.map.width,
            map_height: file.map.height,
            settlement: file.settlement.clone(),
            setup: Default::default(),
        }
        .validate()
        .map_err(|e| corrupt(e.detail))?;
        let rules = crate::catalog::world_rules();
        if !rules
            .time
            .speed_levels
            .value
            .contains_key(&file.speed.to_string())
        {
            return Err(corrupt(format!(
                "speed {} is not a speed level",
                file.speed
            )));
        }
        let wh = &rules.work_hours;
        if !(wh.min_end_hour.value..=wh.max_end_hour.value).contains(&file.end_hours) {
            return Err(corrupt(format!(
                "endHours {} is out of range",
                file.end_hours
            )));
        }
        let rng = WorldRng::from_state(&file.rng).map_err(corrupt)?;
        file.weather
            .check(clock::absolute(file.ticks))
            .map_err(corrupt)?;
        let m = file.map;
        let terrain = decode_terrain(&m.terrain, m.width, m.height).map_err(corrupt)?;
        let [sx, sy, sz] = m.start_spot;
        let map =
            Map::from_parts(m.width, m.height, terrain, m.river, (sx, sy, sz)).map_err(corrupt)?;
        let land = file
            .land
            .into_land(&map, file.seed)
            .map_err(|e| corrupt(format!("land: {e}")))?;
        let founded = file.colony.is_none();
        let mut colony = file
            .colony
            .unwrap_or_else(|| crate::colony::Colony::empty(file.seed));
        colony.reindex();
        let mut world = World {
            seed: file.seed,
            faction: file.faction,
            mode: file.mode,
            settlement: file.settlement,
            ticks: file.ticks,
            speed: file.speed,
            end_hours: file.end_hours,
            rng,
            weather: file.weather,
            map,
            land: land.into(),
            science: file.science,
            colony,
            history: file.history.into(),
            events: EventQueue::default(),
        };
        world.refresh_soil_barriers();
        world.refresh_water_works();
        if founded {
            world.found_colony();
            world.events = EventQueue::default();
            world.history = Default::default();
        }
        world
            .colony
            .check(&world.map)
            .map_err(|e| corrupt(format!("colony: {e}")))?;
        Ok(world)
    }

    /// A hash of the whole world state (FNV-1a 64 over the save bytes without the history, which
    /// only records what the rest already determines): equal worlds hash equal, across runs,
    /// builds and save/load.
    pub fn state_hash(&self) -> u64 {
        fnv1a64(&self.save_bytes(false))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_matches_known_vectors() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn terrain_round_trips_through_the_row_encoding() {
        let w = World::new(&NewGame {
            map_width: 40,
            map_height: 33,
            ..NewGame::default()
        });
        let rows = encode_terrain(w.map());
        assert_eq!(rows.len(), 33);
        assert_eq!(decode_terrain(&rows, 40, 33).unwrap(), w.map().terrain());
        assert!(decode_terrain(&rows, 41, 33).is_err());
        let mut bad = rows.clone();
        bad[3].replace_range(0..1, "!");
        assert!(decode_terrain(&bad, 40, 33).is_err());
    }

    #[test]
    fn the_typed_read_and_the_checked_read_give_the_same_world() {
        let mut w = crate::colony::fixtures::small_colony();
        w.advance_ticks(crate::clock::ticks_per_day() / 2);
        let bytes = w.save_to_bytes();
        let typed = World::load_from_bytes(&bytes).unwrap();
        let checked = World::from_save_file(World::read_checked(&bytes).unwrap()).unwrap();
        assert_eq!(typed.state_hash(), w.state_hash());
        assert_eq!(checked.state_hash(), w.state_hash());
        assert_eq!(typed.save_to_bytes(), checked.save_to_bytes());
    }
}
