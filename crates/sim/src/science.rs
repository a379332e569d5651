//! Science: the colony's points and the buildings unlocked with them, and the prefab list of the
//! world's faction (the catalogue's buildings of that faction plus the common ones).
//!
//! A building with a science cost of 0 is always available; one with a cost must be unlocked,
//! which spends the points (`building.unlocked {name, cost, remaining}`). Points come from
//! science buildings (the colony's work; until then a new game has none).

use crate::content::{Building, content};
use crate::error::{CommandError, ErrorCode};
use crate::event::names;
use crate::world::World;
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::collections::BTreeSet;

/// The science state saved with the world.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Science {
    /// Unspent points.
    pub points: u32,
    /// Names of the buildings unlocked so far.
    pub unlocked: BTreeSet<String>,
}

/// A prefab as `/api/prefabs` shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PrefabView {
    pub name: String,
    pub size_x: u32,
    pub size_y: u32,
    pub size_z: u32,
    pub science_cost: u32,
    /// True when the science cost is 0 or the building was unlocked.
    pub unlocked: bool,
    /// What placing one costs (a district center: `construction.placedCost`; the starting one
    /// was free).
    pub cost: Vec<(String, f64)>,
}

/// One entry of the science list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UnlockableView {
    pub name: String,
    pub cost: u32,
    pub unlocked: bool,
}

/// What an unlock did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Unlocked {
    pub building: String,
    pub remaining: u32,
    /// The building was already unlocked (nothing was spent).
    pub already: bool,
}

impl World {
    /// The catalogue's buildings this world's faction can place (its own and the common ones a
    /// player can place, such as `Path`), by name.
    pub fn faction_buildings(&self) -> impl Iterator<Item = &'static Building> {
        let faction = self.faction.as_str();
        content()
            .buildings
            .values()
            .filter(move |b| b.player_placeable && (b.faction == faction || b.faction == "Common"))
    }

    /// Unspent science points.
    pub fn science_points(&self) -> u32 {
        self.science.points
    }

    /// Whether a building may be placed as far as science goes.
    pub fn is_unlocked(&self, b: &Building) -> bool {
        b.science_cost == 0 || self.science.unlocked.contains(&b.name)
    }

    /// Every prefab of the faction, sorted by name.
    pub fn prefabs(&self) -> Vec<PrefabView> {
        self.faction_buildings()
            .map(|b| PrefabView {
                name: b.name.clone(),
                size_x: b.size.x,
                size_y: b.size.y,
                size_z: b.size.z,
                science_cost: b.science_cost,
                unlocked: self.is_unlocked(b),
                cost: crate::colony::building::placed_cost(b)
                    .iter()
                    .map(|c| (c.good.clone(), c.amount))
                    .collect(),
            })
            .collect()
    }

    /// The buildings that cost science, sorted by name.
    pub fn unlockables(&self) -> Vec<UnlockableView> {
        self.faction_buildings()
            .filter(|b| b.science_cost > 0)
            .map(|b| UnlockableView {
                name: b.name.clone(),
                cost: b.science_cost,
                unlocked: self.is_unlocked(b),
            })
            .collect()
    }

    /// Spends points to unlock a building of the faction.
    pub fn unlock(&mut self, name: &str) -> Result<Unlocked, CommandError> {
        let Some(b) = self
            .faction_buildings()
            .find(|b| b.name == name && b.science_cost > 0)
        else {
            let detail = match self.faction_buildings().find(|b| b.name == name) {
                Some(_) => format!(
                    "{name} costs no science and is always available; GET /api/science lists what can be unlocked"
                ),
                None => format!(
                    "{name} is not a building of the {} that science unlocks; GET /api/science lists them (names carry the faction suffix)",
                    self.faction.as_str()
                ),
            };
            return Err(CommandError::new(ErrorCode::NotFound, detail).with("building", name));
        };
        if self.science.unlocked.contains(&b.name) {
            return Ok(Unlocked {
                building: b.name.clone(),
                remaining: self.science.points,
                already: true,
            });
        }
        if self.science.points < b.science_cost {
            return Err(CommandError::new(
                ErrorCode::InsufficientScience,
                format!(
                    "{} needs {} science points and the colony has {}; science buildings (Inventor, Observatory, Numbercruncher) earn them",
                    b.name, b.science_cost, self.science.points
                ),
            )
            .with("building", b.name.as_str())
            .with("scienceCost", b.science_cost)
            .with("currentPoints", self.science.points));
        }
        self.science.points -= b.science_cost;
        self.science.unlocked.insert(b.name.clone());
        let day = self.day();
        self.events.push(
            names::BUILDING_UNLOCKED,
            day,
            json!({"name": b.name, "cost": b.science_cost, "remaining": self.science.points}),
        );
        Ok(Unlocked {
            building: b.name.clone(),
            remaining: self.science.points,
            already: false,
        })
    }

    /// Adds earned points (science buildings).
    pub fn add_science(&mut self, points: u32) {
        self.science.points = self.science.points.saturating_add(points);
        self.history.science(points);
    }
}

#[cfg(test)]
mod tests {
    use crate::{Faction, NewGame, World};

    fn world(faction: Faction) -> World {
        World::new(&NewGame {
            faction,
            map_width: 32,
            map_height: 32,
            ..NewGame::default()
        })
    }

    #[test]
    fn prefabs_are_the_factions_and_the_common_ones() {
        let w = world(Faction::IronTeeth);
        let p = w.prefabs();
        let names: Vec<&str> = p
            .iter()
            .map(|b| b.name.as_str())
            .filter(|n| !n.ends_with(".IronTeeth"))
            .collect();
        assert_eq!(
            p.len(),
            151 + 1,
            "the faction's buildings and Path: {names:?}"
        );
        assert!(
            p.iter()
                .all(|b| b.name.ends_with(".IronTeeth") || !b.name.contains('.'))
        );
        assert!(p.iter().any(|b| b.name == "Path"));
        assert!(p.iter().filter(|b| b.science_cost == 0).all(|b| b.unlocked));
        assert!(
            p.iter().filter(|b| b.science_cost > 0).all(|b| !b.unlocked),
            "nothing is unlocked in a new game"
        );
    }

    #[test]
    fn unlocking_spends_points_once_and_checks_everything() {
        let mut w = world(Faction::Folktails);
        let target = w.unlockables().into_iter().min_by_key(|u| u.cost).unwrap();
        let e = w.unlock(&target.name).unwrap_err();
        assert_eq!(e.code.as_str(), "insufficient_science");
        assert_eq!(e.extras["scienceCost"], target.cost);
        assert_eq!(
            w.unlock("Nope.Folktails").unwrap_err().code.as_str(),
            "not_found"
        );
        assert_eq!(
            w.unlock("Lodge.Folktails").unwrap_err().code.as_str(),
            "not_found"
        );
        assert_eq!(
            w.unlock(&target.name.replace("Folktails", "IronTeeth"))
                .unwrap_err()
                .code
                .as_str(),
            "not_found"
        );
        w.take_events();
        w.add_science(target.cost + 5);
        let u = w.unlock(&target.name).unwrap();
        assert_eq!((u.remaining, u.already), (5, false));
        assert_eq!(w.take_events()[0].name, "building.unlocked");
        let again = w.unlock(&target.name).unwrap();
        assert_eq!((again.remaining, again.already), (5, true));
        assert!(
            w.prefabs()
                .iter()
                .any(|p| p.name == target.name && p.unlocked)
        );
        // Saved and loaded with the world.
        let back = World::load_from_bytes(&w.save_to_bytes()).unwrap();
        assert_eq!(back.science_points(), 5);
        assert!(
            back.unlockables()
                .iter()
                .any(|x| x.name == target.name && x.unlocked)
        );
    }
}
