//! The land commands of [`World`]: cutting areas, planting marks, planting, cutting, harvesting,
//! scavenging and water barriers.
//!
//! Every command validates fully before it changes anything, then applies completely, or returns a
//! [`CommandError`] with the contract's code, a detail that echoes the input and suggests a fix, and
//! `got` for `invalid_param`. Areas are inclusive rectangles `x1..=x2, y1..=y2`: an inverted area
//! (`x1 > x2` or `y1 > y2`) and an area wholly off the map are `invalid_param`; an area partly off
//! the map is clamped to it. `z` must be 0 up to the map's maximum terrain height (22); area
//! commands act on the tiles of the area whose terrain height is `z`.
//!
//! Events (data listed):
//! - `cutting.area.changed {x1, y1, x2, y2, z, marked, tiles}` (the input area; `tiles` = tiles at
//!   `z` whose cutting mark was set), then `tree.marked {id, name, x, y, z, marked}` for each tree
//!   whose mark changed, row by row;
//! - `planting.marked {x1, y1, x2, y2, z, crop, planted, skipped}`, then
//!   `planting.coords.set {x, y, z, crop}` per marked tile;
//! - `planting.coords.unset {x, y, z}` per cleared tile;
//! - `crop.planted {id, name, x, y, z}` when anything is planted (crops, trees and bushes alike);
//! - `tree.cut {id, name, x, y, z}` then `cuttable.cut` with the same data when a tree is cut.

use serde::Serialize;
use serde_json::json;

use crate::catalog::{PlantKind, nature};
use crate::colony::geometry::voxel;
use crate::error::{CommandError, ErrorCode};
use crate::event::names;
use crate::world::World;

/// A validated area, clamped to the map (inclusive).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Area {
    pub x1: u32,
    pub y1: u32,
    pub x2: u32,
    pub y2: u32,
}

impl Area {
    /// Tiles `(x, y)` of the area, row by row.
    pub fn tiles(self) -> impl Iterator<Item = (u32, u32)> {
        (self.y1..=self.y2).flat_map(move |y| (self.x1..=self.x2).map(move |x| (x, y)))
    }
}

/// What cutting, harvesting or scavenging gave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HarvestYield {
    pub good: String,
    pub amount: u32,
}

/// A plantable spot (`/api/planting/find`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Spot {
    pub x: u32,
    pub y: u32,
    pub z: u32,
    pub moist: bool,
    /// Already marked for this crop.
    pub planted: bool,
}

fn area_json(x1: i64, y1: i64, x2: i64, y2: i64) -> serde_json::Value {
    json!({ "x1": x1, "y1": y1, "x2": x2, "y2": y2 })
}

impl World {
    /// Validates an area against the map and clamps it (see the module docs).
    pub fn check_area(&self, x1: i64, y1: i64, x2: i64, y2: i64) -> Result<Area, CommandError> {
        let (w, h) = (i64::from(self.map.width()), i64::from(self.map.height()));
        if x1 > x2 || y1 > y2 {
            return Err(CommandError::invalid_param(
                format!(
                    "inverted area x1={x1}, y1={y1}, x2={x2}, y2={y2}: x1 must be <= x2 and y1 <= y2; \
                     swap the corners (x1={}, y1={}, x2={}, y2={})",
                    x1.min(x2),
                    y1.min(y2),
                    x1.max(x2),
                    y1.max(y2)
                ),
                area_json(x1, y1, x2, y2),
            ));
        }
        if x2 < 0 || y2 < 0 || x1 >= w || y1 >= h {
            return Err(CommandError::invalid_param(
                format!(
                    "area x1={x1}, y1={y1}, x2={x2}, y2={y2} lies outside the {w}x{h} map; \
                     use x 0-{} and y 0-{}",
                    w - 1,
                    h - 1
                ),
                area_json(x1, y1, x2, y2),
            ));
        }
        Ok(Area {
            x1: x1.max(0) as u32,
            y1: y1.max(0) as u32,
            x2: x2.min(w - 1) as u32,
            y2: y2.min(h - 1) as u32,
        })
    }

    /// Validates a z level (0 up to the maximum terrain height).
    pub fn check_z(&self, z: i64) -> Result<u32, CommandError> {
        let max = i64::from(self.map.max_height());
        if !(0..=max).contains(&z) {
            return Err(CommandError::invalid_param(
                format!(
                    "z must be a terrain height 0-{max}; got {z} (read terrain heights with GET /api/tiles)"
                ),
                z,
            ));
        }
        Ok(z as u32)
    }

    /// The crops and tree species this game's faction plants (what `crop` may name).
    pub fn plantable_names(&self) -> Vec<&'static str> {
        let cat = nature();
        let faction = self.faction().as_str();
        cat.plantable_names()
            .iter()
            .copied()
            .filter(|n| cat.index(n).is_some_and(|i| cat.get(i).planted_by(faction)))
            .collect()
    }

    fn check_plantable(&self, crop: &str) -> Result<u16, CommandError> {
        let cat = nature();
        let faction = self.faction().as_str();
        let plantable = cat.plantable_names();
        let valid = self.plantable_names();
        match cat.index(crop) {
            Some(i) if valid.contains(&crop) => Ok(i),
            Some(i) if plantable.contains(&crop) => Err(CommandError::invalid_param(
                format!(
                    "{crop} is planted by {}, not by this game's {faction}; {faction} plant: {}",
                    cat.get(i).faction,
                    valid.join(", ")
                ),
                crop,
            )
            .with("valid", valid)),
            _ => Err(CommandError::invalid_param(
                format!(
                    "unknown crop {crop:?}; {faction} plant: {} (names are case-sensitive)",
                    valid.join(", ")
                ),
                crop,
            )
            .with("valid", valid)),
        }
    }

    /// Marks (or unmarks) the tiles of an area at height `z` as cutting area; trees there are then
    /// marked for cutting (trees that grow there later too). Returns the tiles set.
    pub fn set_cutting_area(
        &mut self,
        x1: i64,
        y1: i64,
        x2: i64,
        y2: i64,
        z: i64,
        marked: bool,
    ) -> Result<u32, CommandError> {
        let area = self.check_area(x1, y1, x2, y2)?;
        let zz = self.check_z(z)?;
        let mut tiles = 0u32;
        let mut changed = Vec::new();
        for (x, y) in area.tiles() {
            if u32::from(self.map.terrain_height(x, y)) != zz {
                continue;
            }
            let i = self.land.idx(x, y);
            tiles += 1;
            if self.land.cutting[i] == marked {
                continue;
            }
            self.land.cutting[i] = marked;
            if let Some(id) = self.land.occupant[i]
                && let Some(p) = self.land.plants.get(&id)
                && p.kind() == PlantKind::Tree
            {
                changed.push(json!({
                    "id": id, "name": p.name(), "x": p.x, "y": p.y, "z": p.z, "marked": marked,
                }));
            }
        }
        let day = self.day();
        self.events.push(
            names::CUTTING_AREA_CHANGED,
            day,
            json!({
                "x1": x1, "y1": y1, "x2": x2, "y2": y2, "z": z, "marked": marked, "tiles": tiles,
            }),
        );
        for data in changed {
            self.events.push(names::TREE_MARKED, day, data);
        }
        Ok(tiles)
    }

    /// Whether a species could be planted on tile `i` now (ignoring marks).
    /// Whether `(x, y)` is free soil: no plant or ruin, and no building, path or other block on
    /// its surface.
    pub(crate) fn free_soil(&self, x: u32, y: u32) -> bool {
        let z = u32::from(self.map.terrain_height(x, y));
        self.land.occupant[self.land.idx(x, y)].is_none()
            && !self.colony.blocks.contains_key(&voxel(x, y, z))
    }

    /// Whether `species` may be planted on `(x, y)`: free soil that is water for aquatic species
    /// and dry land for the rest.
    pub(crate) fn plantable_tile(&self, species: u16, x: u32, y: u32) -> bool {
        let aquatic = nature().get(species).aquatic;
        self.free_soil(x, y) && aquatic == self.land.is_water(self.land.idx(x, y))
    }

    /// Marks the free land tiles of an area at height `z` for planting `crop` (a crop, tree or bush
    /// species). Skips occupied tiles, water (dry land for aquatic species) and tiles of another
    /// height. Returns `(planted, skipped)`.
    pub fn mark_planting(
        &mut self,
        x1: i64,
        y1: i64,
        x2: i64,
        y2: i64,
        z: i64,
        crop: &str,
    ) -> Result<(u32, u32), CommandError> {
        let area = self.check_area(x1, y1, x2, y2)?;
        let zz = self.check_z(z)?;
        let species = self.check_plantable(crop)?;
        let (mut planted, mut skipped) = (Vec::new(), 0u32);
        for (x, y) in area.tiles() {
            if u32::from(self.map.terrain_height(x, y)) != zz || !self.plantable_tile(species, x, y)
            {
                skipped += 1;
                continue;
            }
            planted.push((x, y));
        }
        for &(x, y) in &planted {
            let i = self.land.idx(x, y) as u32;
            self.land.planting.insert(i, species);
        }
        let day = self.day();
        let n = planted.len() as u32;
        self.events.push(
            names::PLANTING_MARKED,
            day,
            json!({
                "x1": x1, "y1": y1, "x2": x2, "y2": y2, "z": z, "crop": crop,
                "marked": n, "planted": n, "skipped": skipped,
            }),
        );
        for (x, y) in planted {
            self.events.push(
                names::PLANTING_COORDS_SET,
                day,
                json!({ "x": x, "y": y, "z": zz, "crop": crop }),
            );
        }
        Ok((n, skipped))
    }

    /// Clears the planting marks of an area at height `z`; returns the tiles cleared.
    pub fn clear_planting(
        &mut self,
        x1: i64,
        y1: i64,
        x2: i64,
        y2: i64,
        z: i64,
    ) -> Result<u32, CommandError> {
        let area = self.check_area(x1, y1, x2, y2)?;
        let zz = self.check_z(z)?;
        let day = self.day();
        let mut cleared = 0;
        for (x, y) in area.tiles() {
            if u32::from(self.map.terrain_height(x, y)) != zz {
                continue;
            }
            cleared += u32::from(self.unmark_planting(x, y, zz, day));
        }
        Ok(cleared)
    }

    /// Removes the planting mark of a tile (with `planting.coords.unset`); whether there was one.
    pub(crate) fn unmark_planting(&mut self, x: u32, y: u32, z: u32, day: u32) -> bool {
        let i = self.land.idx(x, y) as u32;
        let had = self.land.planting.remove(&i).is_some();
        if had {
            self.events.push(
                names::PLANTING_COORDS_UNSET,
                day,
                json!({ "x": x, "y": y, "z": z }),
            );
        }
        had
    }

    /// Free, plantable tiles of an area for `crop` (at height `z` when given): tiles marked for it
    /// (`planted`) and unmarked tiles where it could be planted now.
    pub fn find_planting_spots(
        &self,
        crop: &str,
        x1: i64,
        y1: i64,
        x2: i64,
        y2: i64,
        z: Option<i64>,
    ) -> Result<Vec<Spot>, CommandError> {
        let species = self.check_plantable(crop)?;
        let area = self.check_area(x1, y1, x2, y2)?;
        let z = z.map(|z| self.check_z(z)).transpose()?;
        let mut out = Vec::new();
        for (x, y) in area.tiles() {
            let h = u32::from(self.map.terrain_height(x, y));
            if z.is_some_and(|z| z != h) || !self.plantable_tile(species, x, y) {
                continue;
            }
            let i = self.land.idx(x, y);
            let mark = self.land.planting.get(&(i as u32));
            if mark.is_some_and(|m| *m != species) {
                continue;
            }
            out.push(Spot {
                x,
                y,
                z: h,
                moist: self.land.soil.is_moist(i),
                planted: mark.is_some(),
            });
        }
        Ok(out)
    }

    fn not_found(id: i32) -> CommandError {
        CommandError::new(
            ErrorCode::NotFound,
            format!("no tree, bush, crop or ruin with id {id}; ids change when things are cut or harvested, re-query GET /api/trees, /api/crops or /api/gatherables"),
        )
        .with("id", id)
    }

    fn wrong_kind(id: i32, name: &str, what: &str, hint: &str) -> CommandError {
        CommandError::new(
            ErrorCode::InvalidType,
            format!("{id} is a {name}, not {what}; {hint}"),
        )
        .with("id", id)
        .with("name", name)
    }

    /// The plant with this id, if it is one of `kinds`; otherwise `not_found`, or `invalid_type`
    /// naming what it is (`want` says what was expected, `hint` what to do with the other kinds).
    fn plant_of_kind(
        &self,
        id: i32,
        kinds: &[PlantKind],
        want: &str,
        hint: &str,
    ) -> Result<&super::plants::Plant, CommandError> {
        if self.land.ruins.contains_key(&id) {
            return Err(Self::wrong_kind(
                id,
                "RuinColumn",
                want,
                "ruins are scavenged",
            ));
        }
        let p = self
            .land
            .plants
            .get(&id)
            .ok_or_else(|| Self::not_found(id))?;
        if !kinds.contains(&p.kind()) {
            return Err(Self::wrong_kind(id, p.name(), want, hint));
        }
        Ok(p)
    }

    /// Removes a crop; returns its id and name.
    pub fn demolish_crop(&mut self, id: i32) -> Result<(i32, String), CommandError> {
        let p = self.plant_of_kind(
            id,
            &[PlantKind::Crop],
            "a crop",
            "trees are cut (POST /api/cutting/area) and bushes gathered",
        )?;
        let name = p.name().to_owned();
        self.land.remove_plant(id);
        Ok((id, name))
    }

    /// Plants a species (crop, tree or bush) on a tile as a seedling; returns its id.
    pub fn plant(&mut self, x: i64, y: i64, species: &str) -> Result<i32, CommandError> {
        let cat = nature();
        let Some(s) = cat.index(species) else {
            let names: Vec<&str> = cat.species.iter().map(|s| s.name.as_str()).collect();
            return Err(CommandError::invalid_param(
                format!("unknown species {species:?}; valid: {}", names.join(", ")),
                species,
            )
            .with("valid", names));
        };
        if !self.map.contains(x, y) {
            return Err(CommandError::invalid_param(
                format!(
                    "({x}, {y}) is off the {}x{} map",
                    self.map.width(),
                    self.map.height()
                ),
                json!({ "x": x, "y": y }),
            ));
        }
        let (x, y) = (x as u32, y as u32);
        let i = self.land.idx(x, y);
        if let Some(other) = self.land.occupant[i] {
            return Err(CommandError::new(
                ErrorCode::OperationFailed,
                format!("({x}, {y}) is occupied by {other}; pick a free tile"),
            )
            .with("id", other));
        }
        if !self.plantable_tile(s, x, y) {
            let need = if cat.get(s).aquatic {
                "water"
            } else {
                "dry land"
            };
            return Err(CommandError::new(
                ErrorCode::OperationFailed,
                format!("{species} needs {need} at ({x}, {y})"),
            ));
        }
        let z = u32::from(self.map.terrain_height(x, y));
        let id = self.land.add_plant(s, x, y, z, 0.0);
        let day = self.day();
        self.events.push(
            names::CROP_PLANTED,
            day,
            json!({ "id": id, "name": species, "x": x, "y": y, "z": z }),
        );
        Ok(id)
    }

    /// Cuts a tree: removes it and returns its logs (`logYield` if it was grown, else none; a dead
    /// grown tree still gives its logs: `deadTreesGiveLogs`).
    pub fn cut_tree(&mut self, id: i32) -> Result<HarvestYield, CommandError> {
        let p = self.plant_of_kind(
            id,
            &[PlantKind::Tree],
            "a tree",
            "use harvest for crops and bushes",
        )?;
        let s = nature().get(p.species);
        let amount = if p.has_logs() { s.yield_amount } else { 0 };
        let data = json!({ "id": id, "name": s.name, "x": p.x, "y": p.y, "z": p.z });
        self.land.remove_plant(id);
        let day = self.day();
        self.events.push(names::TREE_CUT, day, data.clone());
        self.events.push(names::CUTTABLE_CUT, day, data);
        Ok(HarvestYield {
            good: s.yield_good.clone(),
            amount,
        })
    }

    /// Harvests a bush (its fruit, which then regrows) or a grown crop (removed; its planting mark
    /// stays for the farmer).
    pub fn harvest(&mut self, id: i32) -> Result<HarvestYield, CommandError> {
        let p = self.plant_of_kind(
            id,
            &[PlantKind::Bush, PlantKind::Crop],
            "a bush or crop",
            "trees are cut",
        )?;
        let s = nature().get(p.species);
        let ready = match s.kind {
            PlantKind::Tree => unreachable!("plant_of_kind admits only bushes and crops"),
            PlantKind::Bush => p.alive && p.fruit >= 1.0,
            PlantKind::Crop => p.alive && p.grown(),
        };
        if !ready {
            return Err(CommandError::new(
                ErrorCode::OperationFailed,
                format!(
                    "{} {id} has nothing to harvest yet (growth {:.2}, alive {}); wait until it is grown",
                    s.name, p.growth, p.alive
                ),
            )
            .with("id", id));
        }
        if s.kind == PlantKind::Bush {
            if let Some(p) = self.land.plants.get_mut(&id) {
                p.fruit = 0.0;
            }
        } else {
            self.land.remove_plant(id);
        }
        Ok(HarvestYield {
            good: s.yield_good.clone(),
            amount: s.yield_amount,
        })
    }

    /// Removes a dead plant's stump (the tile becomes free).
    pub fn remove_stump(&mut self, id: i32) -> Result<(), CommandError> {
        let p = self
            .land
            .plants
            .get(&id)
            .ok_or_else(|| Self::not_found(id))?;
        if p.alive {
            return Err(CommandError::new(
                ErrorCode::OperationFailed,
                format!(
                    "{} {id} is alive; only dead stumps can be removed",
                    p.name()
                ),
            )
            .with("id", id));
        }
        self.land.remove_plant(id);
        Ok(())
    }

    /// Takes up to `max` scrap metal from a ruin; an emptied ruin disappears.
    pub fn take_scrap(&mut self, id: i32, max: u32) -> Result<HarvestYield, CommandError> {
        if let Some(p) = self.land.plants.get(&id) {
            return Err(Self::wrong_kind(
                id,
                p.name(),
                "a ruin",
                "plants are cut or harvested",
            ));
        }
        let r = self
            .land
            .ruins
            .get_mut(&id)
            .ok_or_else(|| Self::not_found(id))?;
        let amount = r.scrap.min(max);
        r.scrap -= amount;
        if r.scrap == 0 {
            let (x, y) = (r.x, r.y);
            self.land.ruins.remove(&id);
            let i = self.land.idx(x, y);
            self.land.occupant[i] = None;
        }
        Ok(HarvestYield {
            good: "ScrapMetal".into(),
            amount,
        })
    }

    /// Sets (or clears, with `None`) the water barrier of a tile: water cannot pass below this
    /// absolute height there and spills over it (levees, dams, floodgates). Applies at once.
    pub fn set_water_barrier(
        &mut self,
        x: i64,
        y: i64,
        height: Option<f32>,
    ) -> Result<(), CommandError> {
        if !self.map.contains(x, y) {
            return Err(CommandError::invalid_param(
                format!(
                    "({x}, {y}) is off the {}x{} map",
                    self.map.width(),
                    self.map.height()
                ),
                json!({ "x": x, "y": y }),
            ));
        }
        if let Some(hh) = height
            && !(hh.is_finite() && (0.0..=64.0).contains(&hh))
        {
            return Err(CommandError::invalid_param(
                format!("barrier height must be a number 0-64; got {hh}"),
                f64::from(hh),
            ));
        }
        self.land.water.set_barrier(x as u32, y as u32, height);
        Ok(())
    }
}
