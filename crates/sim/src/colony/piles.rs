//! Goods left where they were made: a beaver carries no more than its lifting limit
//! (`data/colony.json` `hauling.liftingCapacity` over the good's `carryWeight` in
//! `data/goods.json`), so a felled tree's logs beyond one load (an Oak's 8 logs of weight 6
//! against a limit of 14: 2 a trip) stay on the tile as a pile until fetched. Lumberjacks fetch
//! tree goods, gatherers bush goods and farmhouses crop goods, from piles within their
//! workplace's range, before starting anything new; each trip takes one load.

use serde::{Deserialize, Serialize};

use super::beaver::Step;
use super::behave::{carry_units, walk};
use super::building::Kind;
use super::nav::manhattan;
use crate::catalog::{PlantKind, nature};
use crate::world::World;

/// Goods lying on a tile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pile {
    pub at: [u32; 3],
    pub good: String,
    pub amount: u32,
}

/// Whether a workplace of `kind` fetches piles of `good`: lumberjacks the goods trees yield,
/// gatherers those of bushes, farmhouses those of crops.
fn fetches(kind: Kind, forester: bool, good: &str) -> bool {
    let plants = match kind {
        Kind::Lumberjack => PlantKind::Tree,
        Kind::Gatherer => PlantKind::Bush,
        Kind::Planter if !forester => PlantKind::Crop,
        _ => return false,
    };
    nature()
        .species
        .iter()
        .any(|s| s.kind == plants && s.yield_good == good)
}

impl World {
    /// A yield step's goods: the beaver takes one load, the rest joins the pile `id` (the
    /// plant's id) where it stands.
    pub(super) fn take_yield(&mut self, beaver: i32, id: i32, good: String, amount: u32) {
        let load = amount.min(carry_units(&good));
        let Some(b) = self.colony.beavers.get_mut(&beaver) else {
            return;
        };
        let at = b.to;
        b.carrying = Some((good.clone(), load));
        if amount > load {
            let pile = self.colony.piles.entry(id).or_insert(Pile {
                at,
                good,
                amount: 0,
            });
            pile.amount += amount - load;
        }
    }

    /// A `Collect` step ends: the beaver takes one load from the pile (gone once empty); with
    /// nothing there its plan ends.
    pub(super) fn collect_pile(&mut self, beaver: i32, id: i32) {
        let taken = match self.colony.piles.get_mut(&id) {
            Some(p) => {
                let n = p.amount.min(carry_units(&p.good));
                p.amount -= n;
                let good = p.good.clone();
                if p.amount == 0 {
                    self.colony.piles.remove(&id);
                }
                Some((good, n))
            }
            None => None,
        };
        let Some(b) = self.colony.beavers.get_mut(&beaver) else {
            return;
        };
        match taken {
            Some(load) if load.1 > 0 => b.carrying = Some(load),
            _ => b.plan.clear(),
        }
    }

    /// A worker's trip to the nearest pile within its workplace's range that it fetches and
    /// nobody else is heading for: walk there, take a load, bring it to the workplace.
    pub(super) fn pile_trip(&self, w: i32, door: [u32; 3]) -> Option<Vec<Step>> {
        if self.colony.piles.is_empty() {
            return None;
        }
        let b = &self.colony.buildings[&w];
        let forester = b.spec().components.iter().any(|c| c == "ForesterSpec");
        let (kind, range) = (b.kind(), b.prefab.work_range());
        let claimed: std::collections::BTreeSet<i32> = self
            .colony
            .beavers
            .values()
            .flat_map(|b| b.plan.iter())
            .filter_map(|s| match s {
                Step::Collect { pile, .. } => Some(*pile),
                _ => None,
            })
            .collect();
        let (_, id, p) = self
            .colony
            .piles
            .iter()
            .filter(|(id, p)| !claimed.contains(id) && fetches(kind, forester, &p.good))
            .map(|(id, p)| (manhattan(door, p.at), *id, p))
            .filter(|(d, _, _)| *d <= range)
            .min_by_key(|(d, id, _)| (*d, *id))?;
        Some(vec![
            walk(door),
            walk(p.at),
            Step::Collect {
                pile: id,
                good: p.good.clone(),
            },
            walk(door),
            Step::Deliver {
                to: w,
                good: p.good.clone(),
                amount: 0,
            },
        ])
    }
}

impl World {
    /// The piles of goods left on tiles, by id (the plant that made them).
    pub fn piles(&self) -> &std::collections::BTreeMap<i32, Pile> {
        &self.colony.piles
    }
}
