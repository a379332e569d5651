//! The colony's commands: placing, demolishing, and the building actions
//! (pause, workers, priority, hauling, recipe, farmhouse, plantable, storage, range, floodgate),
//! plus district migration and distribution. Each validates fully, then applies completely.

use serde::Serialize;
use serde_json::json;

use super::building::{FarmAction, Kind, Priority, StorageMode, work_range};
use super::geometry::Orientation;
use super::nav::manhattan;
use crate::content::content;
use crate::error::{CommandError, ErrorCode};
use crate::world::World;

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
        let name = self.building_name(id)?;
        self.remove_building(id)?;
        Ok(name)
    }

    fn building_name(&self, id: i32) -> Result<String, CommandError> {
        Ok(self.colony.building(id)?.prefab.to_string())
    }

    /// Pauses or resumes a building.
    pub fn set_paused(&mut self, id: i32, paused: bool) -> Result<String, CommandError> {
        let name = self.building_name(id)?;
        let b = &self.colony.buildings[&id];
        if !super::building_views::pausable(b) {
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
            "construction" if b.finished => {
                return Err(CommandError::invalid_param(
                    format!(
                        "{name} is finished, so it has no construction priority; use type workplace{}",
                        if b.spec().max_workers > 0 { "" } else { " on a workplace, or set priorities on construction sites" }
                    ),
                    kind,
                )
                .with("id", id)
                .with("allowed", if b.spec().max_workers > 0 { vec!["workplace"] } else { vec![] }));
            }
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
                    return Err(CommandError::invalid_param(
                        format!(
                            "{name} is finished and has no workplace, so it has no priority to set; priorities apply to construction sites and workplaces"
                        ),
                        kind,
                    )
                    .with("id", id));
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
        if count as usize > movers.len() {
            return Err(CommandError::invalid_param(
                format!(
                    "count {count} is more than the {} adults in {from}; ask for 1 to {}",
                    movers.len(),
                    movers.len()
                ),
                count,
            )
            .with("from", from)
            .with("available", movers.len())
            .with("requested", count));
        }
        let n = count as usize;
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
