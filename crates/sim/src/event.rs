//! Game events: what happened, queued by the systems and drained by the host.
//!
//! Each event has a catalogue name (interface.md section 6), the in-game day at emission and a
//! JSON data object (or `None`). The events this slice of the game emits, with their data:
//!
//! | name | fires | data |
//! |---|---|---|
//! | `game.new` | by `World::new` | `{seed, faction, mode, settlement, mapWidth, mapHeight}` |
//! | `day.start` | each dawn (hour 0) | `{day}` |
//! | `night.start` | each dusk (hour `daytimeHours`, 16) | `{day}` |
//! | `workhours.transitioned` | working hours start (hour 0) or end (hour `endHours`), or a change of `endHours` flips the state | `{working, endHours}` |
//! | `workhours.changed` | `set_end_hours` changed the value | `{endHours, previous}` |
//! | `speed.changed` | `set_speed` changed the value | `{speed, previous}` |
//! | `cycle.start` | a weather cycle begins (game start; then the dawn after the previous hazard) | `{cycle}` |
//! | `weather.selected` | right after `cycle.start`, when the cycle's weather is rolled | `{cycle, hazard, temperateDays, hazardousDays}` |
//! | `cycle.day` | each new day of a cycle, day 1 included (right after `weather.selected`) | `{cycle, cycleDay}` |
//! | `drought.approaching` | `hazardWarningLeadHours` before the hazard (at cycle start if the temperate season is shorter) | `{cycle, hazard, startsInHours}` |
//! | `drought.start` | the dawn the hazard begins (droughts and badtides alike) | `{cycle, hazard, duration}` (duration in days) |
//! | `drought.end` | the dawn the hazard ends, just before `cycle.end` | `{cycle, hazard}` |
//! | `cycle.end` | the dawn the cycle's hazard ends, before the next `cycle.start` | `{cycle}` |
//! | `cutting.area.changed` | `set_cutting_area` | `{x1, y1, x2, y2, z, marked, tiles}` (area as given; `tiles` at height z) |
//! | `tree.marked` | after `cutting.area.changed`, per tree whose mark changed, row by row | `{id, name, x, y, z, marked}` |
//! | `planting.marked` | `mark_planting` | `{x1, y1, x2, y2, z, crop, planted, skipped}` |
//! | `planting.coords.set` | after `planting.marked`, per marked tile | `{x, y, z, crop}` |
//! | `planting.coords.unset` | `clear_planting`, per cleared tile | `{x, y, z}` |
//! | `crop.planted` | `plant` (crops, trees and bushes) | `{id, name, x, y, z}` |
//! | `building.unlocked` | `unlock` (science) | `{name, cost, remaining}` |
//! | `tree.cut` | `cut_tree` | `{id, name, x, y, z}` |
//! | `cuttable.cut` | right after `tree.cut` | `{id, name, x, y, z}` |
//! | `power.network.created` | a power network id appeared (a power building finished, a network split, a clutch moved) | `{id, buildings, supply, demand}` |
//! | `power.network.removed` | a power network id went (merged into a smaller id, demolished, clutch) | `{id}` |
//! | `power.generator.added` | the first tick a finished generator is in a network | `{id, name, networkId, output, nominalOutput}` |
//! | `power.generator.updated` | a generator's output moved by 10% of its nominal output since last announced, or stopped or started | `{id, name, networkId, output, previous, nominalOutput}` |
//! | `contamination.changed` | an hourly soil recompute changed soil contamination flags (one event per hour, not per tile); or a beaver was contaminated by badwater or cured (`colony::ailments`) | soil: `{scope: "soil", contaminated, cleaned, total}` (tiles that became contaminated, became clean, are contaminated now); beaver: `{scope: "beaver", id, name, contaminated}` |
//! | `wonder.activated` | a finished wonder held its whole launch cost at a full hour and was launched (`colony::wonder`) | `{id, name}` |
//! | `entity.renamed` | `rename_entity` changed a beaver's, bot's or nameable building's name (`colony::naming`) | `{id, kind, name, previous}` (`kind` `character` or `building`; `previous` null for a building never named) |
//! | `demolish.marked` / `demolish.unmarked` | `mark_demolition` changed a finished building's mark (`colony::deconstruct`) | `{id, name, x, y, z}` |
//! | `wind.changed` | an hourly wind step moved strength by >= 0.1 or direction by >= 22.5 degrees since the last event | `{strength, direction}` (0-1; degrees toward, 0 = north/+y, 90 = east/+x) |
//! | `explosion` | `detonate` (`colony::dynamite`) | `{id, prefab, x, y, z, depth}` (the charge, the terrain height it stood on, the blocks removed) |
//! | `terrain.destroyed` | right after `explosion` | `{x, y, from, to}` (terrain heights) |
//! | `zipline.activated` | a zipline cable became usable: strung between two finished towers, or its second tower finished (`colony::zipline`) | `{from, to, length}` (tower ids, tiles between their tops) |
//! | `explosion.kill` | `detonate`, per beaver or bot on the tile, before its `beaver.died` | `{id, name, isBot, x, y}` |
//!
//! Catalogue events the game never fires (docs/websocket.md gives each one's reason):
//! `building.unfinished` (nothing reverts a building to a
//! site), `speed.lock.changed` and `construction.mode.changed` (interface states of the game's
//! own screen; the service has none), `faction.unlocked` (a profile's progress across games),
//! `teeth.chipped`, `wonder.completed` (a
//! wonder's construction ending is `building.finished`), `wonder.countdown` (a wonder launches
//! at the first full hour it holds its cost, with no countdown). None of them has a name in
//! [`names`], which lists only events that fire; [`names::ALL`] holds them all. That each one
//! does fire is proved by `colony::tests::every_event::every_event_fires_in_one_seeded_game`:
//! one seeded game played act by act through the world's commands, whose events' names equal
//! `ALL`. (`autosave` is the service's own event, not the game's; the server's e2e test
//! `websocket::an_autosave_is_announced_once_it_is_written` sees it.)
//!
//! Events emitted in the same tick are queued in a fixed order: time events first (`day.start`,
//! `night.start`, `workhours.transitioned`), then weather events (`drought.end`, `cycle.end`,
//! `cycle.start`, `weather.selected`, `cycle.day`, `drought.start`, `drought.approaching`), then
//! land events (`contamination.changed`, `wind.changed`), then power events (networks removed,
//! created, generators added, updated). Command events come in the order the
//! commands ran.

use serde_json::Value;

/// Catalogue names of the events this crate emits (each one fires in the scenario test named in
/// the module's documentation).
pub mod names {
    pub const GAME_NEW: &str = "game.new";
    pub const BUILDING_UNLOCKED: &str = "building.unlocked";
    pub const DAY_START: &str = "day.start";
    pub const NIGHT_START: &str = "night.start";
    pub const WORKHOURS_TRANSITIONED: &str = "workhours.transitioned";
    pub const WORKHOURS_CHANGED: &str = "workhours.changed";
    pub const SPEED_CHANGED: &str = "speed.changed";
    pub const CYCLE_START: &str = "cycle.start";
    pub const CYCLE_END: &str = "cycle.end";
    pub const CYCLE_DAY: &str = "cycle.day";
    pub const WEATHER_SELECTED: &str = "weather.selected";
    pub const DROUGHT_APPROACHING: &str = "drought.approaching";
    pub const DROUGHT_START: &str = "drought.start";
    pub const DROUGHT_END: &str = "drought.end";
    pub const CUTTING_AREA_CHANGED: &str = "cutting.area.changed";
    pub const TREE_MARKED: &str = "tree.marked";
    pub const TREE_CUT: &str = "tree.cut";
    pub const CUTTABLE_CUT: &str = "cuttable.cut";
    pub const CROP_PLANTED: &str = "crop.planted";
    pub const PLANTING_MARKED: &str = "planting.marked";
    pub const PLANTING_COORDS_SET: &str = "planting.coords.set";
    pub const PLANTING_COORDS_UNSET: &str = "planting.coords.unset";
    pub const CONTAMINATION_CHANGED: &str = "contamination.changed";
    pub const WIND_CHANGED: &str = "wind.changed";
    pub const EXPLOSION: &str = "explosion";
    pub const EXPLOSION_KILL: &str = "explosion.kill";
    pub const TERRAIN_DESTROYED: &str = "terrain.destroyed";
    pub const POWER_NETWORK_CREATED: &str = "power.network.created";
    pub const POWER_NETWORK_REMOVED: &str = "power.network.removed";
    pub const POWER_GENERATOR_ADDED: &str = "power.generator.added";
    pub const POWER_GENERATOR_UPDATED: &str = "power.generator.updated";
    pub const BUILDING_PLACED: &str = "building.placed";
    pub const BUILDING_DEMOLISHED: &str = "building.demolished";
    pub const BUILDING_FINISHED: &str = "building.finished";
    pub const ZIPLINE_ACTIVATED: &str = "zipline.activated";
    pub const BUILDING_DECONSTRUCTED: &str = "building.deconstructed";
    pub const DEMOLISH_MARKED: &str = "demolish.marked";
    pub const DEMOLISH_UNMARKED: &str = "demolish.unmarked";
    pub const CONSTRUCTION_STARTED: &str = "construction.started";
    pub const BLOCK_SET: &str = "block.set";
    pub const BLOCK_UNSET: &str = "block.unset";
    pub const BEAVER_BORN: &str = "beaver.born";
    pub const BEAVER_BORN_EVENT: &str = "beaver.born.event";
    pub const BEAVER_DIED: &str = "beaver.died";
    pub const CHARACTER_CREATED: &str = "character.created";
    pub const CHARACTER_KILLED: &str = "character.killed";
    pub const BOT_MANUFACTURED: &str = "bot.manufactured";
    pub const POPULATION_CHANGED: &str = "population.changed";
    pub const MIGRATION: &str = "migration";
    pub const DISTRICT_CHANGED: &str = "district.changed";
    pub const DISTRICT_CONNECTIONS_CHANGED: &str = "district.connections.changed";
    pub const MIGRATION_DISTRICT_CHANGED: &str = "migration.district.changed";
    pub const STATUS_ALERT: &str = "status.alert";
    pub const STATUS_DYNAMIC_ALERT: &str = "status.dynamic.alert";
    pub const WELLBEING_HIGHSCORE: &str = "wellbeing.highscore";
    pub const GAME_OVER: &str = "game.over";
    pub const GAME_STARTING_BUILDING: &str = "game.starting.building";
    pub const ENTITY_CREATED: &str = "entity.created";
    pub const ENTITY_RENAMED: &str = "entity.renamed";
    pub const WONDER_ACTIVATED: &str = "wonder.activated";

    /// Every name above, once each, in the order they are listed (a test checks it against the
    /// constants).
    pub const ALL: &[&str] = &[
        GAME_NEW,
        BUILDING_UNLOCKED,
        DAY_START,
        NIGHT_START,
        WORKHOURS_TRANSITIONED,
        WORKHOURS_CHANGED,
        SPEED_CHANGED,
        CYCLE_START,
        CYCLE_END,
        CYCLE_DAY,
        WEATHER_SELECTED,
        DROUGHT_APPROACHING,
        DROUGHT_START,
        DROUGHT_END,
        CUTTING_AREA_CHANGED,
        TREE_MARKED,
        TREE_CUT,
        CUTTABLE_CUT,
        CROP_PLANTED,
        PLANTING_MARKED,
        PLANTING_COORDS_SET,
        PLANTING_COORDS_UNSET,
        CONTAMINATION_CHANGED,
        WIND_CHANGED,
        EXPLOSION,
        EXPLOSION_KILL,
        TERRAIN_DESTROYED,
        POWER_NETWORK_CREATED,
        POWER_NETWORK_REMOVED,
        POWER_GENERATOR_ADDED,
        POWER_GENERATOR_UPDATED,
        BUILDING_PLACED,
        BUILDING_DEMOLISHED,
        BUILDING_FINISHED,
        ZIPLINE_ACTIVATED,
        BUILDING_DECONSTRUCTED,
        DEMOLISH_MARKED,
        DEMOLISH_UNMARKED,
        CONSTRUCTION_STARTED,
        BLOCK_SET,
        BLOCK_UNSET,
        BEAVER_BORN,
        BEAVER_BORN_EVENT,
        BEAVER_DIED,
        CHARACTER_CREATED,
        CHARACTER_KILLED,
        BOT_MANUFACTURED,
        POPULATION_CHANGED,
        MIGRATION,
        DISTRICT_CHANGED,
        DISTRICT_CONNECTIONS_CHANGED,
        MIGRATION_DISTRICT_CHANGED,
        STATUS_ALERT,
        STATUS_DYNAMIC_ALERT,
        WELLBEING_HIGHSCORE,
        GAME_OVER,
        GAME_STARTING_BUILDING,
        ENTITY_CREATED,
        ENTITY_RENAMED,
        WONDER_ACTIVATED,
    ];
}

/// One game event.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// Catalogue name, e.g. `"day.start"`.
    pub name: &'static str,
    /// In-game day number at emission (starts at 1).
    pub day: u32,
    /// Event data; `None` for events with nothing to say.
    pub data: Option<Value>,
}

/// The ordered queue of events not yet taken by the host.
#[derive(Debug, Clone, Default)]
pub(crate) struct EventQueue {
    events: Vec<Event>,
}

impl EventQueue {
    pub(crate) fn push(&mut self, name: &'static str, day: u32, data: Value) {
        let data = if data.is_null() { None } else { Some(data) };
        self.events.push(Event { name, day, data });
    }

    pub(crate) fn take(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }
}

#[cfg(test)]
mod tests {
    use super::names;

    /// The `pub const` lines of [`names`] as this file spells them: each constant's identifier
    /// and its catalogue name ([`names::ALL`] excluded).
    fn constants() -> Vec<(&'static str, &'static str)> {
        include_str!("event.rs")
            .lines()
            .filter_map(|l| l.trim().strip_prefix("pub const "))
            .filter_map(|l| {
                let (ident, rest) = l.split_once(": &str = \"")?;
                Some((ident, rest.strip_suffix("\";")?))
            })
            .collect()
    }

    /// [`names::ALL`] holds every constant of [`names`] exactly once, and nothing else: a
    /// constant added without its entry in `ALL` (or listed twice) fails here.
    #[test]
    fn all_holds_each_constant_exactly_once() {
        let consts = constants();
        assert!(consts.len() > 40, "{consts:?}");
        let values: std::collections::BTreeSet<&str> = consts.iter().map(|(_, v)| *v).collect();
        assert_eq!(values.len(), consts.len(), "two constants share a name");
        for (ident, value) in &consts {
            let n = names::ALL.iter().filter(|a| **a == *value).count();
            assert_eq!(
                n, 1,
                "names::{ident} ({value:?}) is in names::ALL {n} times"
            );
        }
        assert_eq!(
            names::ALL.len(),
            consts.len(),
            "names::ALL holds a name no constant has"
        );
    }

    /// The events table of docs/websocket.md (what the service advertises) names exactly
    /// [`names::ALL`] and the service's own `autosave`.
    #[test]
    fn the_websocket_docs_table_lists_all_and_autosave() {
        let doc = include_str!("../../../docs/websocket.md");
        let table = doc
            .split("## Events and their data")
            .nth(1)
            .expect("the events section");
        let listed: std::collections::BTreeSet<&str> = table
            .lines()
            .skip_while(|l| !l.starts_with("|---"))
            .skip(1)
            .take_while(|l| l.starts_with('|'))
            .flat_map(|l| {
                l.split('|')
                    .nth(1)
                    .unwrap_or("")
                    .split('`')
                    .skip(1)
                    .step_by(2)
            })
            .collect();
        let mut expected: std::collections::BTreeSet<&str> = names::ALL.iter().copied().collect();
        expected.insert("autosave");
        assert_eq!(listed, expected);
    }

    /// Every name in [`names::ALL`] is used by code that is not a test: a name the game never
    /// fires is not listed (the module's documentation says which and why).
    #[test]
    fn every_listed_name_is_emitted_somewhere() {
        fn sources(dir: &std::path::Path, out: &mut String) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                if path.is_dir() {
                    if name != "tests" {
                        sources(&path, out);
                    }
                } else if name.ends_with(".rs") && !name.contains("tests") && name != "event.rs" {
                    out.push_str(&std::fs::read_to_string(&path).unwrap());
                }
            }
        }
        let mut code = String::new();
        sources(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            &mut code,
        );
        let consts = constants();
        for name in names::ALL {
            let (ident, _) = consts
                .iter()
                .find(|(_, v)| v == name)
                .expect("every name in ALL is a constant");
            assert!(
                code.contains(&format!("names::{ident}")),
                "names::{ident} is never emitted: remove it, or emit it"
            );
        }
    }
}
