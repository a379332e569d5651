//! The content catalogue of buildings, recipes, goods and needs, loaded once from the project's
//! data files (`data/buildings.json`, `data/goods.json`, `data/needs.json`, produced from the
//! shared catalogue by `tools/import_game_data.py`). Values are plain; a field whose value is an
//! estimate is named in the entry's `estimated` map with the basis of the guess.

use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// A good and an amount (costs, recipe inputs and outputs).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct GoodAmount {
    pub good: String,
    pub amount: f64,
}

/// Footprint in tiles (x, y) and height in blocks (z).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub struct Size {
    pub x: u32,
    pub y: u32,
    pub z: u32,
}

/// Mechanical power in and out (hp).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Power {
    pub input: f64,
    pub output: f64,
    /// Engines: the good they burn and how much per hour while running.
    #[serde(default)]
    pub fuel: Option<Fuel>,
    /// Engines: units of fuel they hold.
    #[serde(default)]
    pub fuel_storage: Option<u32>,
}

/// An engine's fuel.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Fuel {
    pub good: String,
    pub per_hour: f64,
}

/// One building prefab.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Building {
    /// Faction-qualified name, e.g. `LumberMill.Folktails` (common prefabs have no suffix).
    pub name: String,
    pub base_name: String,
    /// `Folktails`, `IronTeeth` or `Common`.
    pub faction: String,
    pub display_name: String,
    pub tool_group: String,
    pub role: String,
    #[serde(default)]
    pub components: Vec<String>,
    #[serde(default)]
    pub flags: BTreeMap<String, bool>,
    pub size: Size,
    #[serde(default)]
    pub cost: Vec<GoodAmount>,
    #[serde(default)]
    pub science_cost: u32,
    #[serde(default)]
    pub max_workers: u32,
    pub power: Power,
    /// Beds (`beds`, `childSlots`) or storage (`units`, `kind`); some values are still missing.
    #[serde(default)]
    pub capacity: Option<Value>,
    #[serde(default)]
    pub range: Option<Value>,
    #[serde(default)]
    pub recipes: Vec<String>,
    #[serde(default)]
    pub crops: Vec<String>,
    #[serde(default)]
    pub pump_depth: Option<u32>,
    #[serde(default)]
    pub wellbeing_effect: Option<Value>,
    #[serde(default)]
    pub visitors: Option<u32>,
    #[serde(default)]
    pub breeding: Option<Value>,
    #[serde(default)]
    pub wonder: Option<Value>,
    /// Other effects: `{needId, radius?, visitors?, sciencePerHour?}` for the bots' charging
    /// station and control tower; other shapes for the beehive and decontamination pod.
    #[serde(default)]
    pub effect: Option<Value>,
    #[serde(default)]
    pub entrance: Option<Value>,
    #[serde(default)]
    pub internal_storage: Option<u32>,
    #[serde(default)]
    pub output_inventory: Option<u32>,
    #[serde(default)]
    pub storage: Option<Value>,
    #[serde(default)]
    pub nutrient_storage: Option<Value>,
    #[serde(default)]
    pub recipe_override: Option<Value>,
    #[serde(default)]
    pub movement_boost_percent: Option<u32>,
    #[serde(default)]
    pub note: Option<String>,
    /// False for map-placed objects and developer tools (not in a player's toolbar).
    #[serde(default = "yes")]
    pub player_placeable: bool,
    /// Field name -> basis, for every value that is an estimate.
    #[serde(default)]
    pub estimated: BTreeMap<String, String>,
}

fn yes() -> bool {
    true
}

impl Building {
    /// True when the flag is set in the catalogue.
    pub fn flag(&self, name: &str) -> bool {
        self.flags.get(name).copied().unwrap_or(false)
    }
}

/// A production recipe.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Recipe {
    pub id: String,
    #[serde(default)]
    pub inputs: Vec<GoodAmount>,
    #[serde(default)]
    pub outputs: Vec<GoodAmount>,
    pub cycle_hours: f64,
    #[serde(default)]
    pub fuel: Option<Value>,
    #[serde(default)]
    pub science_points: Option<u32>,
    /// The basis when the recipe is an estimate.
    #[serde(default)]
    pub estimated: Option<String>,
}

/// A good.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Good {
    pub id: String,
    pub category: String,
    /// `pile`, `warehouse` or `tank`.
    pub storage: String,
    /// `both`, `Folktails` or `IronTeeth`.
    pub factions: String,
    pub carry_weight: Option<f64>,
    #[serde(default)]
    pub consumption: Option<Value>,
    #[serde(default)]
    pub estimated: BTreeMap<String, String>,
}

/// A need of beavers or bots.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Need {
    pub id: String,
    #[serde(default)]
    pub group: Option<String>,
    #[serde(default)]
    pub faction: Option<String>,
    #[serde(default)]
    pub factions: Option<String>,
    #[serde(default)]
    pub daily_delta: Option<f64>,
    #[serde(default)]
    pub favorable_wellbeing: Option<f64>,
    #[serde(default)]
    pub unfavorable_wellbeing: Option<f64>,
    #[serde(default)]
    pub range: Option<Value>,
    #[serde(default)]
    pub starting_value: Option<f64>,
    /// Beaver needs: `{diesAtPoints, ...}` when running out kills.
    #[serde(default)]
    pub lethal: Option<Value>,
    /// `{when, hasCriticalState?, stopsWork?}` when the need has a critical state.
    #[serde(default)]
    pub critical: Option<Value>,
    /// Bots: wellbeing while favourable.
    #[serde(default)]
    pub bot_wellbeing_when_favorable: Option<f64>,
    /// Ailments: the beaver takes no work while the need is unfavourable.
    #[serde(default)]
    pub prevents_work: Option<bool>,
    /// Bonus deltas (`MovementSpeed`, ...) while the need is unfavourable.
    #[serde(default)]
    pub penalties_while_unfavorable: Option<BTreeMap<String, f64>>,
    #[serde(default)]
    pub estimated: BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct BuildingsFile {
    buildings: Vec<Building>,
    recipes: Vec<Recipe>,
}

#[derive(Deserialize)]
struct GoodsFile {
    goods: Vec<Good>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct NeedsFile {
    beaver_needs: Vec<Need>,
    bot_needs: Vec<Need>,
}

/// The whole catalogue, indexed by name.
pub struct Content {
    pub buildings: BTreeMap<String, Building>,
    pub recipes: BTreeMap<String, Recipe>,
    pub goods: BTreeMap<String, Good>,
    pub beaver_needs: Vec<Need>,
    pub bot_needs: Vec<Need>,
}

fn parse() -> Result<Content, String> {
    let b: BuildingsFile = serde_json::from_str(include_str!("../../../data/buildings.json"))
        .map_err(|e| format!("data/buildings.json: {e}"))?;
    let g: GoodsFile = serde_json::from_str(include_str!("../../../data/goods.json"))
        .map_err(|e| format!("data/goods.json: {e}"))?;
    let n: NeedsFile = serde_json::from_str(include_str!("../../../data/needs.json"))
        .map_err(|e| format!("data/needs.json: {e}"))?;
    Ok(Content {
        buildings: b
            .buildings
            .into_iter()
            .map(|x| (x.name.clone(), x))
            .collect(),
        recipes: b.recipes.into_iter().map(|x| (x.id.clone(), x)).collect(),
        goods: g.goods.into_iter().map(|x| (x.id.clone(), x)).collect(),
        beaver_needs: n.beaver_needs,
        bot_needs: n.bot_needs,
    })
}

/// The catalogue (parsed once; the data files are embedded at build time).
pub fn content() -> &'static Content {
    static CONTENT: OnceLock<Content> = OnceLock::new();
    CONTENT.get_or_init(|| parse().expect("the embedded content data files are valid"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_building_of_both_factions_loads() {
        let c = content();
        let count = |f: &str| c.buildings.values().filter(|b| b.faction == f).count();
        assert_eq!((count("Folktails"), count("IronTeeth")), (151, 151));
        assert_eq!(c.buildings.len(), 308);
        let mill = &c.buildings["LumberMill.Folktails"];
        assert_eq!((mill.size.x, mill.size.y, mill.size.z), (3, 2, 3));
        assert_eq!(mill.recipes, vec!["Plank"]);
        assert!(mill.power.input > 0.0);
        assert!(c.buildings.contains_key("Path"));
    }

    #[test]
    fn names_carry_their_faction_suffix() {
        for b in content().buildings.values() {
            match b.faction.as_str() {
                "Folktails" | "IronTeeth" => {
                    assert_eq!(b.name, format!("{}.{}", b.base_name, b.faction))
                }
                _ => assert_eq!(b.name, b.base_name),
            }
        }
    }

    #[test]
    fn references_resolve() {
        let c = content();
        for b in c.buildings.values() {
            for r in &b.recipes {
                assert!(
                    c.recipes.contains_key(r),
                    "{} names unknown recipe {r}",
                    b.name
                );
            }
            for cost in &b.cost {
                assert!(
                    c.goods.contains_key(&cost.good),
                    "{} costs unknown good {}",
                    b.name,
                    cost.good
                );
            }
        }
        for r in c.recipes.values() {
            for ga in r.inputs.iter().chain(&r.outputs) {
                assert!(
                    c.goods.contains_key(&ga.good),
                    "recipe {} uses unknown good {}",
                    r.id,
                    ga.good
                );
            }
            assert!(r.cycle_hours > 0.0, "recipe {}", r.id);
        }
        assert!(c.beaver_needs.iter().any(|n| n.id == "Hunger"));
        assert!(c.bot_needs.iter().any(|n| n.id == "Bot.Energy"));
    }
}
