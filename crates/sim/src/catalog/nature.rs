//! The nature catalogue: trees, crops and bushes from `data/nature.json`, parsed once, plus a flat
//! species table ([`Species`]) the simulation indexes by a small number.
//!
//! Facts keep the `{value, confidence, source|basis, note?}` wrapper ([`Fact`]). The table lists
//! trees first, then bushes, then crops, each in file order. Saves store species names, never
//! indexes, so reordering the file cannot corrupt a save.

use std::sync::OnceLock;

use serde::Deserialize;

use super::Fact;

/// The embedded nature data file.
const NATURE_JSON: &str = include_str!("../../../../data/nature.json");

/// A good and an amount.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GoodAmount {
    pub good: String,
    pub amount: u32,
}

/// When standing water kills a plant.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Flooding {
    /// Deepest water the plant's tile may hold without harming it.
    pub max_water_height: f64,
    pub days_to_die: f64,
}

/// A tree species.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TreeSpec {
    pub id: String,
    pub faction: Fact<String>,
    pub growth_days: Fact<f64>,
    pub days_to_die_dry: Fact<f64>,
    pub log_yield: Fact<u32>,
    pub cut_hours: Fact<f64>,
    #[serde(default)]
    pub aquatic: Option<Fact<bool>>,
    pub flooding: Fact<Flooding>,
}

/// A crop species.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CropSpec {
    pub id: String,
    pub faction: Fact<String>,
    pub growth_days: Fact<f64>,
    pub days_to_die_dry: Fact<f64>,
    #[serde(rename = "yield")]
    pub yields: Fact<GoodAmount>,
    pub aquatic: Fact<bool>,
    pub harvest_hours: Fact<f64>,
    pub plant_hours: Fact<f64>,
    pub flooding: Fact<Flooding>,
}

/// A bush species.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BushSpec {
    pub id: String,
    pub faction: Fact<String>,
    pub growth_days: Fact<f64>,
    pub days_to_die_dry: Fact<f64>,
    #[serde(rename = "yield")]
    pub yields: Fact<GoodAmount>,
    pub regrow_days: Fact<f64>,
    pub flooding: Fact<Flooding>,
}

/// How mature trees and bushes seed their neighbourhood.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Spread {
    pub tree_chance_per_day: f64,
    pub bush_chance_per_day: f64,
    pub radius: u32,
    pub needs_moisture: bool,
}

/// Days contaminated soil takes to kill a plant (a range).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ContaminationKill {
    pub days_to_die: [f64; 2],
}

/// Modifiers (`modifiers`).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NatureModifiers {
    /// A grown tree that died still gives its logs to a lumberjack.
    pub dead_trees_give_logs: Fact<bool>,
    pub growth_is_binary_on_moisture: Fact<bool>,
    pub contaminated_soil_kills_plants: Fact<ContaminationKill>,
    pub api_crop_names: Fact<Vec<String>>,
    pub dry_tolerance_jitter: Fact<[f64; 2]>,
    pub spread: Fact<Spread>,
    pub aquatic_min_water_depth: Fact<f64>,
    pub beehive: Fact<Beehive>,
}

/// The beehive's effect on crops near it.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Beehive {
    /// Growth time of a crop in range, as a share of its own (0.7: 30% faster).
    pub growth_time_multiplier: f64,
}

/// The whole nature file.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NatureRules {
    pub trees: Vec<TreeSpec>,
    pub crops: Vec<CropSpec>,
    pub bushes: Vec<BushSpec>,
    pub modifiers: NatureModifiers,
}

/// What kind of plant a species is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PlantKind {
    Tree,
    Bush,
    Crop,
}

/// One species, flattened for the simulation.
#[derive(Debug, Clone)]
pub struct Species {
    pub name: String,
    pub kind: PlantKind,
    pub growth_days: f64,
    pub days_to_die_dry: f64,
    /// Logs for trees, the harvest for bushes and crops.
    pub yield_good: String,
    pub yield_amount: u32,
    /// Bushes: days to bear again after gathering.
    pub regrow_days: f64,
    pub aquatic: bool,
    pub flooding: Flooding,
    /// The faction that plants it: `Folktails`, `IronTeeth` or `both`.
    pub faction: String,
}

impl Species {
    /// Whether `faction`'s farmers and foresters plant it.
    pub fn planted_by(&self, faction: &str) -> bool {
        self.faction == "both" || self.faction == faction
    }
}

/// The parsed catalogue and its species table.
#[derive(Debug)]
pub struct Nature {
    pub rules: NatureRules,
    pub species: Vec<Species>,
}

impl Nature {
    /// The index of a species by exact name.
    pub fn index(&self, name: &str) -> Option<u16> {
        self.species
            .iter()
            .position(|s| s.name == name)
            .map(|i| i as u16)
    }

    /// A species by index.
    pub fn get(&self, index: u16) -> &Species {
        &self.species[usize::from(index)]
    }

    /// Names a planting mark may carry: the contract's crops (`apiCropNames` that are crops of
    /// this catalogue), then tree and bush species for foresters.
    pub fn plantable_names(&self) -> Vec<&str> {
        let mut out: Vec<&str> = self
            .rules
            .modifiers
            .api_crop_names
            .value
            .iter()
            .map(String::as_str)
            .filter(|n| self.rules.crops.iter().any(|c| c.id == *n))
            .collect();
        out.extend(self.rules.trees.iter().map(|t| t.id.as_str()));
        out.extend(self.rules.bushes.iter().map(|b| b.id.as_str()));
        out
    }
}

/// Parses the nature catalogue from JSON text.
pub fn parse_nature(text: &str) -> Result<Nature, serde_json::Error> {
    let rules: NatureRules = serde_json::from_str(text)?;
    let mut species = Vec::new();
    for t in &rules.trees {
        species.push(Species {
            name: t.id.clone(),
            kind: PlantKind::Tree,
            growth_days: t.growth_days.value,
            days_to_die_dry: t.days_to_die_dry.value,
            yield_good: "Log".into(),
            yield_amount: t.log_yield.value,
            regrow_days: 0.0,
            aquatic: t.aquatic.as_ref().is_some_and(|a| a.value),
            flooding: t.flooding.value,
            faction: t.faction.value.clone(),
        });
    }
    for b in &rules.bushes {
        species.push(Species {
            name: b.id.clone(),
            kind: PlantKind::Bush,
            growth_days: b.growth_days.value,
            days_to_die_dry: b.days_to_die_dry.value,
            yield_good: b.yields.value.good.clone(),
            yield_amount: b.yields.value.amount,
            regrow_days: b.regrow_days.value,
            aquatic: false,
            flooding: b.flooding.value,
            faction: b.faction.value.clone(),
        });
    }
    for c in &rules.crops {
        species.push(Species {
            name: c.id.clone(),
            kind: PlantKind::Crop,
            growth_days: c.growth_days.value,
            days_to_die_dry: c.days_to_die_dry.value,
            yield_good: c.yields.value.good.clone(),
            yield_amount: c.yields.value.amount,
            regrow_days: 0.0,
            aquatic: c.aquatic.value,
            flooding: c.flooding.value,
            faction: c.faction.value.clone(),
        });
    }
    Ok(Nature { rules, species })
}

/// The nature catalogue, parsed on first use from the embedded data file.
///
/// # Panics
/// If the embedded file does not parse; the crate's tests guarantee it does.
pub fn nature() -> &'static Nature {
    static NATURE: OnceLock<Nature> = OnceLock::new();
    NATURE.get_or_init(|| {
        parse_nature(NATURE_JSON).unwrap_or_else(|e| panic!("data/nature.json is invalid: {e}"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Confidence;

    #[test]
    fn nature_file_loads_with_sane_values() {
        let n = nature();
        assert_eq!(n.rules.trees.len(), 6);
        assert_eq!(n.rules.crops.len(), 12);
        assert_eq!(n.rules.bushes.len(), 3);
        assert_eq!(n.species.len(), 21);
        for s in &n.species {
            assert!(s.growth_days > 0.0 && s.days_to_die_dry > 0.0, "{}", s.name);
            assert!(s.yield_amount >= 1, "{}", s.name);
            assert!(s.flooding.days_to_die > 0.0);
        }
        let oak = n.get(n.index("Oak").unwrap());
        assert_eq!((oak.kind, oak.yield_amount), (PlantKind::Tree, 8));
        let berry = n.get(n.index("BlueberryBush").unwrap());
        assert_eq!(berry.yield_good, "Berries");
        assert_eq!(berry.regrow_days, 12.0);
        assert_eq!(n.index("Nope"), None);
    }

    #[test]
    fn plantable_names_are_the_contract_crops_then_trees_and_bushes() {
        let names = nature().plantable_names();
        assert_eq!(
            &names[..9],
            &[
                "Kohlrabi",
                "Cassava",
                "Carrot",
                "Potato",
                "Wheat",
                "Sunflower",
                "Corn",
                "Eggplant",
                "Soybean"
            ]
        );
        assert!(names.contains(&"Birch") && names.contains(&"BlueberryBush"));
    }

    #[test]
    fn estimates_carry_a_basis() {
        let n = nature();
        for t in &n.rules.trees {
            assert_eq!(t.flooding.confidence, Confidence::Estimate);
            assert!(t.flooding.basis.as_deref().is_some_and(|b| !b.is_empty()));
            assert_eq!(t.growth_days.confidence, Confidence::Source);
        }
        assert!(n.rules.modifiers.spread.basis.is_some());
    }
}
