//! The colony's commands: placing, finding placements, demolishing, and the building actions
//! (pause, workers, priority, hauling, recipe, farmhouse, plantable, storage, range, floodgate),
//! plus district migration and distribution. Each validates fully, then applies completely.

use serde::Serialize;
use serde_json::json;

use super::building::{FarmAction, Kind, Priority, StorageMode, work_range};
use super::geometry::{Orientation, voxel};
use super::nav::manhattan;
use crate::content::content;
use crate::error::{CommandError, ErrorCode};
use crate::world::World;

/// One placement candidate of `/api/placement/find`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlacementSpot {
    pub x: u32,
    pub y: u32,
    pub z: u32,
    pub orientation: String,
    pub entrance_x: i64,
    pub entrance_y: i64,
    pub path_access: u8,
    pub reachable: u8,
    pub near_power: u8,
    pub flooded: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub water_depth: Option<f32>,
    pub distance: f64,
    /// Tiles of new path from the district center's doorstep to this spot's doorstep over free
    /// ground (0 on the network; -1 when no path can reach it).
    pub ground_steps: i64,
    /// What lies in the work range of this spot's doorstep, for buildings that work with
    /// something there (lumberjacks, gatherers, farmhouses, foresters, scavengers; water wheels:
    /// the flow through the footprint). See `colony::reach`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub in_reach: Option<super::reach::InReach>,
}

/// A placement search's answer: the spots, and when there is none, why.
#[derive(Debug, Clone, PartialEq)]
pub struct PlacementSearch {
    pub prefab: String,
    pub size_x: u32,
    pub size_y: u32,
    pub placements: Vec<PlacementSpot>,
    /// Set when `placements` is empty.
    pub none: Option<NoSpot>,
}

/// Why a placement search found no spot.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NoSpot {
    /// What blocked most: a placement refusal's reason (`occupied`, `terrain`, `water`,
    /// `out_of_bounds`, `no_support`, `entrance`, `unreachable_z`), `not_unlocked`, or a spot's
    /// purpose unmet (`no_water`: a pump or wheel found no water; `no_flow`: a wheel found only
    /// still water; `nothing_in_reach`: nothing its workers work with within range).
    pub reason: String,
    /// What blocked and what to do instead.
    pub detail: String,
    /// Candidate spots (a tile and an orientation each) turned down, by reason.
    pub blocked: std::collections::BTreeMap<String, u32>,
}

/// `/api/building/range`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RangeView {
    pub id: i32,
    pub name: String,
    pub tiles: u32,
    pub moist: u32,
    pub bounds: [u32; 4],
    /// What lies in reach, for buildings that work with something there (`colony::reach`).
    pub in_reach: Option<super::reach::InReach>,
}

fn not_found(id: i32) -> CommandError {
    CommandError::new(
        ErrorCode::NotFound,
        format!(
            "no building with id {id}; ids change when buildings go, re-query GET /api/buildings"
        ),
    )
    .with("id", id)
}

/// `none` (or empty) as `None`, else the entry of `available` matching `want` ignoring case, else
/// `not_found` with the detail from `missing`, `available` and the input under `key`.
fn pick_or_none(
    want: &str,
    available: &[String],
    key: &str,
    missing: impl FnOnce(&str) -> String,
) -> Result<Option<String>, CommandError> {
    let want = want.trim();
    if want.eq_ignore_ascii_case("none") || want.is_empty() {
        return Ok(None);
    }
    match available.iter().find(|a| a.eq_ignore_ascii_case(want)) {
        Some(a) => Ok(Some(a.clone())),
        None => Err(CommandError::new(ErrorCode::NotFound, missing(want))
            .with(key, want)
            .with("available", available.to_vec())),
    }
}

fn wrong_type(id: i32, name: &str, what: &str) -> CommandError {
    CommandError::new(
        ErrorCode::InvalidType,
        format!("{name} #{id} is not {what}"),
    )
    .with("id", id)
    .with("name", name)
}

impl World {
    /// Places a building; returns its id.
    pub fn place_building(
        &mut self,
        prefab: &str,
        x: i64,
        y: i64,
        z: i64,
        orientation: &str,
    ) -> Result<i32, CommandError> {
        let o = Orientation::parse(orientation)?;
        let p = self.check_placement(prefab, x, y, z, o)?;
        Ok(self.apply_placement(p))
    }

    /// Demolishes a building; returns its name.
    pub fn demolish_building(&mut self, id: i32) -> Result<String, CommandError> {
        let name = self
            .colony
            .buildings
            .get(&id)
            .map(|b| b.prefab.to_string())
            .ok_or_else(|| not_found(id))?;
        self.remove_building(id)?;
        Ok(name)
    }

    fn building_name(&self, id: i32) -> Result<String, CommandError> {
        self.colony
            .buildings
            .get(&id)
            .map(|b| b.prefab.to_string())
            .ok_or_else(|| not_found(id))
    }

    /// Pauses or resumes a building.
    pub fn set_paused(&mut self, id: i32, paused: bool) -> Result<String, CommandError> {
        let name = self.building_name(id)?;
        let b = &self.colony.buildings[&id];
        if !super::views::pausable(b) {
            return Err(wrong_type(
                id,
                &name,
                "pausable (paths, homes and district centers cannot be paused)",
            ));
        }
        self.colony.buildings.get_mut(&id).expect("exists").paused = paused;
        if paused {
            let workers = self.colony.buildings[&id].workers.clone();
            for w in workers {
                if self.colony.beavers.get(&w).is_some_and(|b| {
                    b.plan
                        .iter()
                        .any(|s| matches!(s, super::Step::Work { building, .. } if *building == id))
                }) {
                    self.abort_plan(w);
                }
            }
        }
        Ok(name)
    }

    /// Sets desired workers (clamped to 0..maxWorkers); returns (name, desired, max, assigned).
    pub fn set_workers(
        &mut self,
        id: i32,
        count: i64,
    ) -> Result<(String, u32, u32, u32), CommandError> {
        let name = self.building_name(id)?;
        let b = self.colony.buildings.get_mut(&id).expect("exists");
        let max = b.spec().max_workers;
        if max == 0 {
            return Err(wrong_type(id, &name, "a workplace"));
        }
        b.desired_workers = count.clamp(0, i64::from(max)) as u32;
        if b.workers.len() as u32 > b.desired_workers {
            let gone: Vec<i32> = b.workers.split_off(b.desired_workers as usize);
            for w in gone {
                if let Some(bv) = self.colony.beavers.get_mut(&w) {
                    bv.workplace = None;
                }
                self.abort_plan(w);
            }
        }
        let b = &self.colony.buildings[&id];
        Ok((name, b.desired_workers, max, b.workers.len() as u32))
    }

    /// Sets a priority; `kind` `construction`, `workplace` or empty (whichever applies).
    /// Returns (name, field name, value).
    pub fn set_priority(
        &mut self,
        id: i32,
        priority: &str,
        kind: &str,
    ) -> Result<(String, &'static str, Priority), CommandError> {
        let name = self.building_name(id)?;
        let p = Priority::parse(priority)?;
        let b = self.colony.buildings.get_mut(&id).expect("exists");
        let field = match kind.trim().to_ascii_lowercase().as_str() {
            "construction" => "constructionPriority",
            "workplace" => {
                if b.spec().max_workers == 0 {
                    return Err(wrong_type(id, &name, "a workplace"));
                }
                "workplacePriority"
            }
            "" => {
                if !b.finished {
                    "constructionPriority"
                } else if b.spec().max_workers > 0 {
                    "workplacePriority"
                } else {
                    "constructionPriority"
                }
            }
            other => {
                return Err(CommandError::invalid_param(
                    format!("type must be construction or workplace (or empty); got {other:?}"),
                    other,
                ));
            }
        };
        if field == "constructionPriority" {
            b.construction_priority = p;
        } else {
            b.workplace_priority = p;
        }
        Ok((name, field, p))
    }

    /// Sets or clears haul priority.
    pub fn set_haul_priority(
        &mut self,
        id: i32,
        prioritized: bool,
    ) -> Result<String, CommandError> {
        let name = self.building_name(id)?;
        let b = self.colony.buildings.get_mut(&id).expect("exists");
        if b.capacity() == 0 && b.kind() != Kind::BreedingPod && b.finished {
            return Err(wrong_type(id, &name, "a building with an inventory"));
        }
        b.haul_prioritized = prioritized;
        Ok(name)
    }

    /// Selects a recipe (`none` clears). Returns (name, recipe or "").
    pub fn set_recipe(&mut self, id: i32, recipe: &str) -> Result<(String, String), CommandError> {
        let name = self.building_name(id)?;
        let available = self.colony.buildings[&id].spec().recipes.clone();
        if available.is_empty() {
            return Err(wrong_type(id, &name, "a manufactory (it has no recipes)"));
        }
        let chosen = pick_or_none(recipe, &available, "recipeId", |want| {
            format!(
                "{name} has no recipe {want:?}; available: {} (or none)",
                available.join(", ")
            )
        })?;
        let b = self.colony.buildings.get_mut(&id).expect("exists");
        if b.recipe != chosen {
            b.recipe = chosen.clone();
            b.progress = 0.0;
            b.cycle_started = false;
        }
        Ok((name, chosen.unwrap_or_default()))
    }

    /// Sets a farmhouse's action (`planting` or `harvesting`).
    pub fn set_farm_action(
        &mut self,
        id: i32,
        action: &str,
    ) -> Result<(String, FarmAction), CommandError> {
        let name = self.building_name(id)?;
        let b = self.colony.buildings.get_mut(&id).expect("exists");
        if !b.spec().components.iter().any(|c| c == "FarmHouseSpec") {
            return Err(wrong_type(id, &name, "a farmhouse"));
        }
        let a = match action.trim().to_ascii_lowercase().as_str() {
            "planting" => FarmAction::Planting,
            "harvesting" => FarmAction::Harvesting,
            other => {
                return Err(CommandError::invalid_param(
                    format!("action must be planting or harvesting; got {other:?}"),
                    other,
                ));
            }
        };
        b.farm_action = a;
        Ok((name, a))
    }

    /// Prioritises a plantable for a planter (`none` clears). Returns (name, plantable or "").
    pub fn set_plantable(
        &mut self,
        id: i32,
        plantable: &str,
    ) -> Result<(String, String), CommandError> {
        let name = self.building_name(id)?;
        let b = &self.colony.buildings[&id];
        if b.kind() != Kind::Planter {
            return Err(wrong_type(id, &name, "a farmhouse or forester"));
        }
        let forester = b.spec().components.iter().any(|c| c == "ForesterSpec");
        let cat = crate::catalog::nature();
        let available: Vec<String> = cat
            .species
            .iter()
            .filter(|s| {
                if forester {
                    s.kind == crate::catalog::PlantKind::Tree
                } else {
                    s.kind == crate::catalog::PlantKind::Crop
                        && (b.spec().crops.is_empty() || b.spec().crops.contains(&s.name))
                }
            })
            .map(|s| s.name.clone())
            .collect();
        let chosen = pick_or_none(plantable, &available, "plantableName", |want| {
            format!(
                "{name} cannot plant {want:?}; available: {} (or none)",
                available.join(", ")
            )
        })?;
        self.colony
            .buildings
            .get_mut(&id)
            .expect("exists")
            .plantable = chosen.clone();
        Ok((name, chosen.unwrap_or_default()))
    }

    /// Sets a storage building's good (`none` clears) and/or mode. Returns (name, good, mode).
    pub fn set_storage(
        &mut self,
        id: i32,
        good: Option<&str>,
        mode: Option<&str>,
    ) -> Result<(String, String, StorageMode), CommandError> {
        let name = self.building_name(id)?;
        let b = &self.colony.buildings[&id];
        if b.kind() != Kind::Storage {
            return Err(wrong_type(id, &name, "a storage building"));
        }
        if good.is_none() && mode.is_none() {
            return Err(CommandError::invalid_param(
                "give good (a good id or none) and/or mode (accept, obtain, supply, empty)",
                serde_json::Value::Null,
            ));
        }
        let kind = super::building::storage_capacity(b.spec())
            .map(|(k, _)| k)
            .unwrap_or_default();
        let new_good = match good.map(str::trim) {
            None => b.allowed_good.clone(),
            Some(g) if g.eq_ignore_ascii_case("none") || g.is_empty() => None,
            Some(g) => {
                let valid: Vec<&str> = content()
                    .goods
                    .values()
                    .filter(|x| x.storage == kind)
                    .map(|x| x.id.as_str())
                    .collect();
                match valid.iter().find(|v| v.eq_ignore_ascii_case(g)) {
                    Some(v) => Some((*v).to_owned()),
                    None => {
                        return Err(CommandError::invalid_param(
                            format!(
                                "{name} stores {kind} goods; {g:?} is not one. Valid: {} (or none)",
                                valid.join(", ")
                            ),
                            g,
                        )
                        .with("valid", valid));
                    }
                }
            }
        };
        let new_mode = match mode {
            Some(m) => StorageMode::parse(m)?,
            None => b.storage_mode,
        };
        let b = self.colony.buildings.get_mut(&id).expect("exists");
        b.allowed_good = new_good.clone();
        b.storage_mode = new_mode;
        Ok((name, new_good.unwrap_or_default(), new_mode))
    }

    /// The work range of a flag or planter: tiles within range (Manhattan from the doorstep)
    /// at the building's level, how many are moist, and the bounds.
    pub fn building_range(&self, id: i32) -> Result<RangeView, CommandError> {
        let name = self.building_name(id)?;
        let b = &self.colony.buildings[&id];
        let s = b.spec();
        if s.range.is_none() && s.effect.is_none() {
            return Err(wrong_type(id, &name, "a building with a work range"));
        }
        // An effect with a radius (the control tower) reaches that far.
        let r = if s.range.is_none() && s.effect.as_ref().is_some_and(|e| e.get("radius").is_some())
        {
            super::building::effect_radius(s)
        } else {
            work_range(s)
        };
        let door = self.colony.door(id).expect("exists");
        let (w, h) = (self.map.width(), self.map.height());
        let x1 = door[0].saturating_sub(r);
        let y1 = door[1].saturating_sub(r);
        let x2 = (door[0] + r).min(w - 1);
        let y2 = (door[1] + r).min(h - 1);
        let (mut tiles, mut moist) = (0, 0);
        for y in y1..=y2 {
            for x in x1..=x2 {
                if manhattan([x, y, 0], [door[0], door[1], 0]) > r {
                    continue;
                }
                if u32::from(self.map.terrain_height(x, y)) != b.z {
                    continue;
                }
                tiles += 1;
                if self.is_moist(x, y) {
                    moist += 1;
                }
            }
        }
        Ok(RangeView {
            id,
            name,
            tiles,
            moist,
            bounds: [x1, y1, x2, y2],
            in_reach: self.building_in_reach(id),
        })
    }

    /// Planting spots for a crop within a farmhouse's or forester's range, finished or not (the
    /// range is geometric: tiles within the work range of the doorstep, Manhattan distance), at
    /// the building's level unless `z` names another. `not_found` for an unknown id,
    /// `invalid_type` for a building that does not plant.
    pub fn find_planting_spots_for(
        &self,
        crop: &str,
        id: i32,
        z: Option<i64>,
    ) -> Result<Vec<crate::land::Spot>, CommandError> {
        let name = self.building_name(id)?;
        let b = &self.colony.buildings[&id];
        if b.kind() != Kind::Planter {
            return Err(wrong_type(id, &name, "a farmhouse or forester"));
        }
        let r = work_range(b.spec());
        let door = self.colony.door(id).expect("exists");
        let (w, h) = (self.map.width(), self.map.height());
        let (x1, y1) = (door[0].saturating_sub(r), door[1].saturating_sub(r));
        let (x2, y2) = ((door[0] + r).min(w - 1), (door[1] + r).min(h - 1));
        let z = Some(z.unwrap_or(i64::from(b.z)));
        let spots =
            self.find_planting_spots(crop, x1.into(), y1.into(), x2.into(), y2.into(), z)?;
        Ok(spots
            .into_iter()
            .filter(|s| manhattan([s.x, s.y, 0], [door[0], door[1], 0]) <= r)
            .collect())
    }

    /// Sets a floodgate's height (clamped to 0..maxHeight). Returns (name, height, max).
    pub fn set_floodgate(
        &mut self,
        id: i32,
        height: f64,
    ) -> Result<(String, f32, f32), CommandError> {
        let name = self.building_name(id)?;
        let b = &self.colony.buildings[&id];
        let s = b.spec();
        if !s.flag("floodgate") {
            return Err(wrong_type(id, &name, "a floodgate"));
        }
        if !height.is_finite() {
            return Err(CommandError::invalid_param(
                "height must be a number",
                height,
            ));
        }
        let max = s.size.z.saturating_sub(1).max(1) as f32;
        let h = (height as f32).clamp(0.0, max);
        let (x, y, z, o, finished) = (b.x, b.y, b.z, b.orientation, b.finished);
        self.colony
            .buildings
            .get_mut(&id)
            .expect("exists")
            .floodgate_height = h;
        if finished {
            for (tx, ty) in super::geometry::footprint(s, x.into(), y.into(), o) {
                let _ = self.set_water_barrier(tx, ty, Some(z as f32 + h));
            }
        }
        Ok((name, h, max))
    }

    /// `search_placements` as (prefab, sizeX, sizeY, spots).
    pub fn find_placements(
        &mut self,
        prefab: &str,
        x1: i64,
        y1: i64,
        x2: i64,
        y2: i64,
    ) -> Result<(String, u32, u32, Vec<PlacementSpot>), CommandError> {
        let r = self.search_placements(prefab, x1, y1, x2, y2)?;
        Ok((r.prefab, r.size_x, r.size_y, r.placements))
    }

    /// Up to 10 valid placements of a prefab in an area, distinct tiles, best first. Water
    /// buildings (pumps): joinable by a path first, then intake depth, deepest first, and only
    /// spots with water. Others: not flooded, then joinable (reachable now, or by a new path),
    /// then what lies in reach for buildings that work with something there, most first
    /// (`reach::InReach::rank`: lumberjacks grown trees, gatherers ripe bushes, farmhouses crops and
    /// plantable soil, foresters plantable soil and saplings, scavengers ruins, water wheels the
    /// flow under the wheel; spots with nothing in reach, and wheels on dry land or still water,
    /// are not offered), then reachable now, then distance, path access, near power; ties go to
    /// the spot nearest the district center. With no spot, `none` says what blocked.
    pub fn search_placements(
        &mut self,
        prefab: &str,
        x1: i64,
        y1: i64,
        x2: i64,
        y2: i64,
    ) -> Result<PlacementSearch, CommandError> {
        use super::reach::{Purpose, ReachGrid};
        let s = self.resolve_prefab(prefab)?;
        let area = self.check_area(x1, y1, x2, y2)?;
        let water = s.flag("waterIntake") || s.role == "water" && s.flag("floodable");
        let purpose = Purpose::of(s).filter(|_| !water);
        let range = work_range(s);
        let grid = purpose.filter(|p| *p != Purpose::Flow).map(|p| {
            let m = range + 8;
            ReachGrid::new(
                self,
                s,
                p,
                area.x1.saturating_sub(m),
                area.y1.saturating_sub(m),
                area.x2 + m,
                area.y2 + m,
            )
        });
        let mut blocked: std::collections::BTreeMap<String, u32> = Default::default();
        let mut block = |reason: &str| *blocked.entry(reason.to_owned()).or_default() += 1;
        let dc_door = self
            .colony
            .centers()
            .first()
            .and_then(|c| self.colony.door(*c));
        let mut found: Vec<PlacementSpot> = Vec::new();
        let mut scanned = 0u32;
        // How far a new path would run from the district center to each doorstep: spots across
        // the river or behind a cliff rank last.
        let ground = dc_door.map(|d| {
            let margin = 8;
            let (mw, mh) = (self.map.width(), self.map.height());
            let window = super::path_place::Window {
                x0: area.x1.min(d[0]).saturating_sub(margin),
                y0: area.y1.min(d[1]).saturating_sub(margin),
                x1: (area.x2.max(d[0]) + margin).min(mw - 1),
                y1: (area.y2.max(d[1]) + margin).min(mh - 1),
            };
            (d, window)
        });
        let ground = ground.map(|(d, window)| self.ground_steps((d[0], d[1]), window));
        let powered = self.powered_nodes_for(&s.name);
        // Doorless parts (levers, relays, sensors, floodgates) are reached as a placed one is
        // (`Colony::district_reaching`): from a path of the district within builders' reach.
        let doorless = !super::geometry::has_entrance(s)
            && !matches!(super::building::kind_of(s), Kind::Path | Kind::Stairs);
        let reach = super::rules::colony_rules()
            .districts
            .builder_reach_off_path
            .value;
        let district_nodes: Vec<[u32; 3]> = match dc_door {
            Some(r) if doorless => {
                let nav = self.colony.nav();
                nav.component(voxel(r[0], r[1], r[2]))
                    .map(|c| {
                        nav.nodes_of(c)
                            .into_iter()
                            .map(|n| {
                                let (x, y, z) = super::geometry::unvoxel(n);
                                [x, y, z]
                            })
                            .collect()
                    })
                    .unwrap_or_default()
            }
            _ => Vec::new(),
        };
        let traits = super::place::PlacementTraits::of(s);
        let prefab = super::prefab::Prefab::get(&s.name).expect("a catalogue prefab");
        for (x, y) in area.tiles() {
            for o in Orientation::ALL {
                // At the ground of its origin tile; a pump whose origin is its intake row, hanging
                // over a lower bank, stands on the higher ground of the rest of its footprint.
                let mut z = i64::from(self.map.terrain_height(x, y));
                let mut placed =
                    self.check_placement_with(s, &traits, false, x.into(), y.into(), z, o);
                if placed.is_err() && water {
                    let top = super::geometry::footprint(s, x.into(), y.into(), o)
                        .into_iter()
                        .filter(|t| self.map.contains(t.0, t.1))
                        .map(|t| i64::from(self.map.terrain_height(t.0 as u32, t.1 as u32)))
                        .max()
                        .unwrap_or(z);
                    if top > z {
                        z = top;
                        placed =
                            self.check_placement_with(s, &traits, false, x.into(), y.into(), z, o);
                    }
                }
                let p = match placed {
                    Ok(p) => p,
                    Err(e) => {
                        block(e.reason());
                        continue;
                    }
                };
                scanned += 1;
                let door = prefab.doorstep(p.x.into(), p.y.into(), o);
                let (ex, ey) = door.unwrap_or((i64::from(p.x), i64::from(p.y)));
                let door_v = (ex >= 0 && ey >= 0).then_some([ex as u32, ey as u32, p.z]);
                // A doorstep another building stands on can never be reached: not a spot.
                let door_blocked = door.is_some()
                    && door_v.is_some_and(|d| {
                        self.colony
                            .blocks
                            .get(&voxel(d[0], d[1], d[2]))
                            .and_then(|id| self.colony.buildings.get(id))
                            .is_some_and(|b| !matches!(b.kind(), Kind::Path | Kind::Stairs))
                    });
                // Nor a spot that stands on the district center's doorstep or within two tiles
                // of it: the center's door must stay open for paths in every direction.
                let tiles = super::geometry::footprint(s, p.x.into(), p.y.into(), o);
                let walls_dc = dc_door.is_some_and(|d| {
                    !traits.walkway
                        && tiles.iter().any(|(tx, ty)| {
                            (tx - i64::from(d[0])).abs() + (ty - i64::from(d[1])).abs() <= 2
                        })
                });
                if door_blocked || walls_dc {
                    block("entrance");
                    continue;
                }
                let nav = self.colony.nav();
                let (path_access, distance) = if doorless {
                    // The nearest path of the district within reach of the part.
                    let at = [p.x, p.y, p.z];
                    let near = district_nodes
                        .iter()
                        .map(|n| (manhattan(*n, at), *n))
                        .filter(|(d, _)| *d <= reach)
                        .min();
                    match (near, dc_door) {
                        (Some((d, n)), Some(root)) => (
                            d <= 1,
                            nav.distance(voxel(root[0], root[1], root[2]), voxel(n[0], n[1], n[2]))
                                .map_or(-1.0, |k| f64::from(k + d)),
                        ),
                        _ => (false, -1.0),
                    }
                } else {
                    let access = door_v.is_some_and(|d| nav.is_node(voxel(d[0], d[1], d[2])));
                    let distance = match (door_v, dc_door) {
                        (Some(d), Some(root)) if access => nav
                            .distance(voxel(root[0], root[1], root[2]), voxel(d[0], d[1], d[2]))
                            .map_or(-1.0, f64::from),
                        _ => -1.0,
                    };
                    (access, distance)
                };
                let flooded = tiles.iter().any(|(tx, ty)| {
                    self.water_depth(tx as u32, ty as u32)
                        > super::rules::colony_rules().colony.flooded_depth.value
                });
                let spot = PlacementSpot {
                    x: p.x,
                    y: p.y,
                    z: p.z,
                    orientation: o.as_str().to_owned(),
                    entrance_x: ex,
                    entrance_y: ey,
                    path_access: u8::from(path_access),
                    reachable: u8::from(distance >= 0.0),
                    near_power: self.near_power(&s.name, p.x, p.y, p.z, o, &powered),
                    // Pumps and wheels stand in water by design.
                    flooded: u8::from(flooded && !water && purpose != Some(Purpose::Flow)),
                    water_depth: None,
                    distance,
                    ground_steps: ground
                        .as_ref()
                        .and_then(|g| g.to(ex, ey))
                        .map_or(-1, i64::from),
                    in_reach: match (purpose, &grid) {
                        (Some(Purpose::Flow), _) => Some(super::reach::InReach {
                            flow: Some(self.flow_at_spot(s, p.x, p.y, o)),
                            ..Default::default()
                        }),
                        (Some(_), Some(g)) => {
                            Some(g.count(door_v.unwrap_or([p.x, p.y, p.z]), range))
                        }
                        _ => None,
                    },
                };
                // Only spots where the building has something to work with.
                if let Some(pp) = purpose
                    && !spot.in_reach.as_ref().is_some_and(|r| r.any(pp))
                {
                    block(if pp != Purpose::Flow {
                        "nothing_in_reach"
                    } else if tiles.iter().any(|(tx, ty)| {
                        self.water_depth(tx as u32, ty as u32)
                            > super::rules::colony_rules().colony.flooded_depth.value
                    }) {
                        "no_flow"
                    } else {
                        "no_water"
                    });
                    continue;
                }
                found.push(spot);
            }
            if scanned > 20_000 {
                break;
            }
        }
        // Ties beyond the contract's keys go to the spot nearest the district center (by its
        // entrance), then row by row.
        let near = |p: &PlacementSpot| {
            dc_door.map_or(0, |d| {
                (p.entrance_x - i64::from(d[0])).abs() + (p.entrance_y - i64::from(d[1])).abs()
            })
        };
        // Reachable now, or once a path is laid over free ground.
        let joinable = |p: &PlacementSpot| p.reachable == 1 || p.ground_steps >= 0;
        if water {
            let ids: Vec<usize> = (0..found.len()).collect();
            for i in ids {
                let f = &found[i];
                let depth = self.intake_depth_at(
                    &s.name,
                    f.x,
                    f.y,
                    f.z,
                    Orientation::parse(&f.orientation).expect("valid"),
                );
                found[i].water_depth = Some(depth);
            }
            let before = found.len();
            found.retain(|f| f.water_depth.unwrap_or(0.0) > 0.0);
            for _ in found.len()..before {
                block("no_water");
            }
            found.sort_by(|a, b| {
                joinable(b)
                    .cmp(&joinable(a))
                    .then(
                        b.water_depth
                            .partial_cmp(&a.water_depth)
                            .unwrap_or(std::cmp::Ordering::Equal),
                    )
                    .then(near(a).cmp(&near(b)))
                    .then((a.y, a.x).cmp(&(b.y, b.x)))
            });
        } else {
            let rank = |p: &PlacementSpot| {
                std::cmp::Reverse(match (purpose, &p.in_reach) {
                    (Some(pp), Some(r)) => r.rank(pp),
                    _ => (0, 0),
                })
            };
            // (Every distance is finite and at least +0, so its bits order as its values.)
            found.sort_by_cached_key(|p| {
                let distance = if p.distance >= 0.0 {
                    p.distance
                } else if p.ground_steps >= 0 {
                    p.ground_steps as f64
                } else {
                    f64::MAX
                };
                (
                    p.flooded,
                    // Joinable first; among them the most in reach; then the contract's order:
                    // reachable now first. (For buildings without a purpose this is the
                    // contract's reachable, then joinable by a new path.)
                    (u8::from(!joinable(p)), rank(p), 1 - p.reachable),
                    distance.to_bits(),
                    (1 - p.path_access, 1 - p.near_power),
                    near(p),
                    (p.y, p.x),
                )
            });
        }
        // Distinct spots: the best orientation of each tile only.
        let mut seen = std::collections::BTreeSet::new();
        found.retain(|p| seen.insert((p.x, p.y)));
        found.truncate(10);
        let none = found
            .is_empty()
            .then(|| self.no_spot(s, &area, purpose, range, blocked));
        Ok(PlacementSearch {
            prefab: s.name.clone(),
            size_x: s.size.x,
            size_y: s.size.y,
            placements: found,
            none,
        })
    }

    /// Why a search over `area` found nothing, from the tally of turned-down spots: the prefab
    /// still locked, else a purpose unmet by spots that could stand (no water, no flow, nothing
    /// in reach), else what refused most of them.
    fn no_spot(
        &self,
        s: &crate::content::Building,
        area: &crate::land::Area,
        purpose: Option<super::reach::Purpose>,
        range: u32,
        blocked: std::collections::BTreeMap<String, u32>,
    ) -> NoSpot {
        let name = &s.name;
        let (x1, y1, x2, y2) = (area.x1, area.y1, area.x2, area.y2);
        let at = format!("in x {x1}-{x2}, y {y1}-{y2}");
        // Fixed order for ties.
        const ORDER: [&str; 12] = [
            "not_unlocked",
            "no_flow",
            "no_water",
            "nothing_in_reach",
            "entrance",
            "occupied",
            "water",
            "terrain",
            "no_support",
            "out_of_bounds",
            "unreachable_z",
            "other",
        ];
        let stood: [&'static str; 3] = ["no_flow", "no_water", "nothing_in_reach"];
        let pick = |from: &[&'static str]| -> Option<&'static str> {
            from.iter()
                .filter_map(|r| blocked.get(*r).map(|n| (*n, *r)))
                .max_by(|a, b| {
                    a.0.cmp(&b.0).then(
                        ORDER
                            .iter()
                            .position(|r| *r == b.1)
                            .cmp(&ORDER.iter().position(|r| *r == a.1)),
                    )
                })
                .map(|(_, r)| r)
        };
        let reason = if blocked.contains_key("not_unlocked") {
            "not_unlocked"
        } else {
            pick(&stood)
                .or_else(|| pick(&ORDER))
                .unwrap_or("out_of_bounds")
        };
        let (w, d) = (s.size.x, s.size.y);
        let detail = match reason {
            "not_unlocked" => format!(
                "{name} needs a science unlock ({} points; you have {}): POST /api/science/unlock {{\"building\": \"{name}\"}}, then search again",
                s.science_cost, self.science.points
            ),
            "no_flow" => format!(
                "no spot {at} has water flowing under {name}'s wheel (at least {} m3/s; still water turns nothing): search on the river where it runs (GET /api/tiles shows water), not on pools or dry land; a river still at rest starts running after about a day",
                crate::power::power_rules().water_wheel_min_flow.value
            ),
            "no_water" => format!(
                "no spot {at} has water under {name} (it needs a river or a pond under its intake or wheel): search along the river (GET /api/tiles shows water depth)"
            ),
            "nothing_in_reach" => format!(
                "no spot {at} has {} within {range} tiles of its doorstep: search where they are (GET /api/trees, /api/gatherables, /api/crops), or mark land for planting (POST /api/planting/mark) and plant with a forester or farmhouse",
                purpose.map_or("anything to work with", |p| p.wanted())
            ),
            "entrance" => format!(
                "the free spots {at} would stand on or beside the district center's doorstep (it stays open for paths): search a little farther from it"
            ),
            "occupied" => format!(
                "every spot {at} for {name} ({w}x{d}) is taken by buildings, plants or ruins: search a wider or another area, mark trees for cutting (POST /api/cutting/area) or demolish what stands there"
            ),
            "water" => format!(
                "the area {at} lies under water and {name} must stand on dry land: search the bank or higher ground"
            ),
            "terrain" | "no_support" => format!(
                "the ground {at} is too steep or uneven for {name}'s {w}x{d} footprint (every tile at one height, nothing hanging over a drop): search flatter ground (GET /api/tiles shows heights) or build platforms to level it"
            ),
            "out_of_bounds" => format!(
                "{name} ({w}x{d}) does not fit inside the map {at}: move the area inside the {}x{} map",
                self.map.width(),
                self.map.height()
            ),
            _ => format!("no spot {at} takes {name}: search a wider or another area"),
        };
        NoSpot {
            reason: reason.to_owned(),
            detail,
            blocked,
        }
    }

    /// Water depth a pump placed here would draw from.
    fn intake_depth_at(&self, prefab: &str, x: u32, y: u32, z: u32, o: Orientation) -> f32 {
        let s = &content().buildings[prefab];
        let (sx, sy) = (s.size.x as i32, s.size.y as i32);
        let mut best = 0.0f32;
        for lx in 0..sx {
            for ly in [sy - 1, sy] {
                let (dx, dy) = super::geometry::turn(lx, ly, sx, sy, o);
                let (tx, ty) = (i64::from(x) + i64::from(dx), i64::from(y) + i64::from(dy));
                if self.map.contains(tx, ty) {
                    let h = self.water_depth(tx as u32, ty as u32);
                    let surface = f32::from(self.map.terrain_height(tx as u32, ty as u32)) + h;
                    if surface > z as f32 - s.pump_depth.unwrap_or(1) as f32 {
                        best = best.max(h);
                    }
                }
            }
        }
        best
    }

    /// The district of a name (case-insensitive), or `not_found` with the input under `key` and
    /// the district names.
    fn district_named(&self, name: &str, key: &str) -> Result<i32, CommandError> {
        if let Some((id, _)) = self
            .colony
            .districts
            .iter()
            .find(|(_, d)| d.name.eq_ignore_ascii_case(name.trim()))
        {
            return Ok(*id);
        }
        let names: Vec<String> = self
            .colony
            .districts
            .values()
            .map(|d| d.name.clone())
            .collect();
        Err(CommandError::new(
            ErrorCode::NotFound,
            format!("no district {name:?}; districts: {}", names.join(", ")),
        )
        .with(key, name)
        .with("districts", names))
    }

    /// Moves up to `count` adults from one district to another. Returns the number moved.
    pub fn migrate(&mut self, from: &str, to: &str, count: i64) -> Result<u32, CommandError> {
        let f = self.district_named(from, "from")?;
        let t = self.district_named(to, "to")?;
        if f == t {
            return Err(CommandError::invalid_param(
                format!(
                    "from and to name the same district ({from:?}); migrate moves adults between two districts"
                ),
                to,
            )
            .with("from", from)
            .with("to", to));
        }
        if count < 1 {
            return Err(CommandError::invalid_param(
                format!("count must be at least 1; got {count}"),
                count,
            ));
        }
        let movers: Vec<i32> = self
            .colony
            .beavers
            .iter()
            .filter(|(_, b)| b.district == Some(f) && !b.child && !b.is_bot)
            .map(|(id, _)| *id)
            .collect();
        if movers.is_empty() {
            return Err(CommandError::new(
                ErrorCode::NoPopulation,
                format!("{from} has no adult beavers to move (requested {count})"),
            )
            .with("from", from)
            .with("available", 0)
            .with("requested", count));
        }
        let n = (count as usize).min(movers.len());
        let door = self.colony.door(t);
        for id in movers.into_iter().take(n) {
            self.abort_plan(id);
            let (home, work) = {
                let b = &self.colony.beavers[&id];
                (b.home, b.workplace)
            };
            for bid in [home, work].into_iter().flatten() {
                if let Some(bl) = self.colony.buildings.get_mut(&bid) {
                    bl.workers.retain(|w| *w != id);
                    bl.dwellers.retain(|w| *w != id);
                }
            }
            let b = self.colony.beavers.get_mut(&id).expect("exists");
            b.home = None;
            b.workplace = None;
            b.district = Some(t);
            let name = b.name.clone();
            let day = self.day();
            self.events.push(
                crate::event::names::MIGRATION_DISTRICT_CHANGED,
                day,
                json!({ "id": id, "name": name, "from": from, "to": to }),
            );
            let b = self.colony.beavers.get_mut(&id).expect("exists");
            if let Some(d) = door {
                b.plan.push_back(super::behave::walk(d));
            }
        }
        let day = self.day();
        self.events.push(
            crate::event::names::MIGRATION,
            day,
            json!({ "from": from, "to": to, "count": n }),
        );
        Ok(n as u32)
    }

    /// Sets a district's distribution for a good. Returns (district, good, import, threshold).
    pub fn set_distribution(
        &mut self,
        district: &str,
        good: &str,
        import: Option<&str>,
        export_threshold: Option<i64>,
    ) -> Result<(String, String, String, f64), CommandError> {
        let did = self.district_named(district, "district")?;
        let Some(g) = content()
            .goods
            .keys()
            .find(|g| g.eq_ignore_ascii_case(good.trim()))
            .cloned()
        else {
            return Err(CommandError::invalid_param(
                format!("unknown good {good:?}; GET /api/resources lists goods"),
                good,
            ));
        };
        let opt = match import.map(|s| s.trim().to_ascii_lowercase()) {
            None => None,
            Some(s) if s.is_empty() => None,
            Some(s) => Some(match s.as_str() {
                "none" => "None",
                "auto" | "allowed" => "Auto",
                "forced" => "Forced",
                _ => {
                    return Err(CommandError::invalid_param(
                        format!("import must be None, Auto, Allowed or Forced; got {s:?}"),
                        s,
                    ));
                }
            }),
        };
        if let Some(t) = export_threshold
            && t < -1
        {
            return Err(CommandError::invalid_param(
                format!("exportThreshold must be 0 or more (-1 skips); got {t}"),
                t,
            ));
        }
        let d = self.colony.districts.get_mut(&did).expect("exists");
        let e = d
            .distribution
            .entry(g.clone())
            .or_insert_with(|| ("Auto".to_owned(), 0.0));
        if let Some(o) = opt {
            e.0 = o.to_owned();
        }
        if let Some(t) = export_threshold
            && t >= 0
        {
            e.1 = t as f64;
        }
        Ok((d.name.clone(), g, e.0.clone(), e.1))
    }
}
