//! Beehives: crops near a finished beehive grow faster.
//!
//! Each hour, before the land runs, every finished Beehive picks the living, unripe crops within
//! `beehiveRadiusTiles` (Chebyshev, from its footprint) nearest first, up to the catalogue's
//! `effect.maxCropsAffected`; those grow with the nature catalogue's `beehive.growthTimeMultiplier`
//! (0.7: 30% faster) that hour. The set is derived each hour and never saved.

use std::collections::BTreeSet;

use super::geometry::footprint;
use super::rules::colony_rules;
use crate::catalog::PlantKind;
use crate::world::World;

impl World {
    /// The crops the beehives speed up this hour.
    pub(crate) fn hive_crops(&self) -> BTreeSet<i32> {
        let mut out = BTreeSet::new();
        let radius = i64::from(colony_rules().colony.beehive_radius_tiles.value);
        for (_, b) in self.colony.listed(super::lists::List::Beehives) {
            let s = b.spec();
            if !b.finished || b.paused || s.base_name != "Beehive" {
                continue;
            }
            let cap = s
                .effect
                .as_ref()
                .and_then(|e| e.get("maxCropsAffected"))
                .and_then(|v| v.as_u64())
                .unwrap_or(u64::MAX) as usize;
            let tiles = footprint(s, b.x.into(), b.y.into(), b.orientation);
            let dist = |x: u32, y: u32| {
                tiles
                    .iter()
                    .map(|(tx, ty)| (i64::from(x) - tx).abs().max((i64::from(y) - ty).abs()))
                    .min()
                    .unwrap_or(i64::MAX)
            };
            let (x0, y0) = (i64::from(b.x) - radius, i64::from(b.y) - radius);
            let mut near: Vec<(i64, i32)> = Vec::new();
            let (w, d) = super::geometry::turned_size(s, b.orientation);
            for y in y0..y0 + i64::from(d) + 2 * radius {
                for x in x0..x0 + i64::from(w) + 2 * radius {
                    if !self.map.contains(x, y) {
                        continue;
                    }
                    let (ux, uy) = (x as u32, y as u32);
                    let Some(id) = self.land.occupant[self.land.idx(ux, uy)] else {
                        continue;
                    };
                    let Some(p) = self.land.plants.get(&id) else {
                        continue;
                    };
                    if p.alive
                        && !p.grown()
                        && p.kind() == PlantKind::Crop
                        && dist(ux, uy) <= radius
                    {
                        near.push((dist(ux, uy), id));
                    }
                }
            }
            near.sort_unstable();
            out.extend(near.into_iter().take(cap).map(|(_, id)| id));
        }
        out
    }
}
