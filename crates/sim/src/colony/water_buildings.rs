//! Water buildings' effects on the land: soil barriers (impermeable floors, levees, contamination
//! and irrigation barriers) close their tiles to the soil; aquifer drills add clean water; valves
//! and fill valves cap the water passing through their tile.
//!
//! A building with the `soilBarrier` flag closes the tiles of its footprint when it is finished
//! and stands on the ground there (its base at the tile's terrain height; one standing on a
//! platform or a stack of levees closes nothing below it). The closed tiles are derived from the
//! buildings whenever one is finished or removed and after a load, so saves need carry nothing.
//!
//! An aquifer drill (the game's `UndergroundWaterSourceDrillSpec`: AquiferDrill, the map's
//! AncientAquiferDrill) stands on aquifer tiles (`land::aquifer`; placement refuses it elsewhere).
//! Finished and not paused, it gives `water.buildings.aquiferDrillStrength` m3/s of clean water
//! times its power efficiency (the share of its 400 hp its network gives it, as underpowered
//! workshops slow down: `power`), spread evenly over its footprint, whatever the weather (the
//! water comes from below: droughts do not stop it, badtides do not foul it). Its output is set
//! after the power step of the tick before each water step and kept on the building
//! (`Building::water_output`, saved), and the water's inflows are derived from those outputs, so a
//! loaded game pours exactly what the saved one would have.
//!
//! A valve (the game's `ValveSpec`) or fill valve (`FillValveSpec`) is a 1x1 tile water passes
//! through; finished, it caps the water its tile gives to its neighbours together
//! (`Water::caps`): a valve at its `limit` (m3/s, 0 up to `water.buildings.valveMaxFlow`, the
//! maximum by default), nothing while closed; a fill valve at `valveMaxFlow` while it is passing,
//! nothing otherwise. A fill valve passes while the surface of the tile in front of it (its
//! orientation's front) stands below its base plus its `fillHeight` (0 up to
//! `fillValveMaxHeight`, 1 by default), checked before each water step. Both are automated
//! buildings: an On signal opens them, Off closes them; `POST /api/automation/configure` sets
//! `open`, a valve's `flow` and a fill valve's `fillHeight`. The settings and the fill valve's
//! passing state are saved on the building (`Building::valve`), and the caps are derived from
//! them after every change and after a load.

use super::building::{Building, ValveState};
use super::geometry::footprint;
use crate::catalog::world_rules;
use crate::content::Building as Spec;
use crate::world::World;

/// Whether a prefab is a (throttling) valve.
pub(crate) fn is_valve(s: &Spec) -> bool {
    s.components.iter().any(|c| c == "ValveSpec")
}

/// Whether a prefab is a fill valve.
pub(crate) fn is_fill_valve(s: &Spec) -> bool {
    s.components.iter().any(|c| c == "FillValveSpec")
}

/// Whether a prefab is a valve or a fill valve.
pub(crate) fn is_any_valve(s: &Spec) -> bool {
    is_valve(s) || is_fill_valve(s)
}

/// Whether a prefab is an aquifer drill.
pub(crate) fn is_aquifer_drill(s: &Spec) -> bool {
    s.components
        .iter()
        .any(|c| c == "UndergroundWaterSourceDrillSpec")
}

impl World {
    /// Works out the tiles soil barriers close from the finished buildings and hands them to the
    /// soil (the next recompute spreads moisture and contamination around them).
    pub(crate) fn refresh_soil_barriers(&mut self) {
        let (w, h) = (self.map.width(), self.map.height());
        let mut closed = vec![false; (w * h) as usize];
        for b in self.colony.buildings.values() {
            let s = b.spec();
            if !b.finished || !s.flag("soilBarrier") {
                continue;
            }
            for (x, y) in footprint(s, b.x.into(), b.y.into(), b.orientation) {
                let (x, y) = (x as u32, y as u32);
                if x < w && y < h && u32::from(self.map.terrain_height(x, y)) == b.z {
                    closed[(y * w + x) as usize] = true;
                }
            }
        }
        if closed != self.land.soil.barrier {
            self.land.soil.set_barriers(closed);
        }
    }

    /// Whether a tile is an aquifer tile (false off the map).
    pub(crate) fn is_aquifer(&self, x: u32, y: u32) -> bool {
        x < self.map.width()
            && y < self.map.height()
            && self.land.aquifer[(y * self.map.width() + x) as usize]
    }

    /// The south-west corner of every aquifer patch (an aquifer tile with none west or south of
    /// it), row by row.
    pub(crate) fn aquifer_patches(&self) -> Vec<(u32, u32)> {
        let (w, h) = (self.map.width(), self.map.height());
        let mut out = Vec::new();
        for y in 0..h {
            for x in 0..w {
                let west = x > 0 && self.is_aquifer(x - 1, y);
                let south = y > 0 && self.is_aquifer(x, y - 1);
                if self.is_aquifer(x, y) && !west && !south {
                    out.push((x, y));
                }
            }
        }
        out
    }

    /// Sets every aquifer drill's output from this tick's power and whether each fill valve
    /// passes from the water now, then the water's inflows and caps. Runs after the power step of
    /// the tick before each water step.
    pub(crate) fn water_buildings_tick(&mut self) {
        if self.colony.water_works.is_empty() {
            return;
        }
        let strength = world_rules().water.buildings.value.aquifer_drill_strength as f32;
        for id in self.colony.water_works.clone() {
            let s = self.colony.buildings[&id].spec();
            if is_fill_valve(s) {
                let passing = self.fill_valve_passes(&self.colony.buildings[&id]);
                if let Some(v) = self
                    .colony
                    .buildings
                    .get_mut(&id)
                    .and_then(|b| b.valve.as_mut())
                {
                    v.passing = passing;
                }
            } else if is_aquifer_drill(s) {
                let paused = self.colony.buildings[&id].paused;
                let out = if paused {
                    0.0
                } else {
                    strength * self.power_efficiency(id) as f32
                };
                self.colony
                    .buildings
                    .get_mut(&id)
                    .expect("a water work is a building")
                    .water_output = out;
            }
        }
        self.refresh_water_links();
    }

    /// Lists the finished aquifer drills, valves and fill valves (`Colony::water_works`), then
    /// the water's inflows and caps from them: after one of them is finished or demolished, and
    /// after a load.
    pub(crate) fn refresh_water_works(&mut self) {
        self.colony.water_works = self
            .colony
            .buildings
            .iter()
            .filter(|(_, b)| b.finished && (b.valve.is_some() || is_aquifer_drill(b.spec())))
            .map(|(id, _)| *id)
            .collect();
        self.refresh_water_links();
    }

    /// Whether a finished, open fill valve passes water now: the surface of the tile in front of
    /// it stands below its base plus its fill height.
    fn fill_valve_passes(&self, b: &Building) -> bool {
        let Some(v) = b.valve.filter(|v| !v.closed) else {
            return false;
        };
        let (dx, dy) = b.orientation.front();
        let (fx, fy) = (
            i64::from(b.x) + i64::from(dx),
            i64::from(b.y) + i64::from(dy),
        );
        if !self.map.contains(fx, fy) {
            return false;
        }
        let (fx, fy) = (fx as u32, fy as u32);
        let i = (fy * self.map.width() + fx) as usize;
        let floor = f32::from(self.map.terrain_height(fx, fy)).max(self.land.water.barrier[i]);
        floor + self.land.water.depth[i] < b.z as f32 + v.fill_height
    }

    /// The water's inflows (from the drills' outputs) and caps (from the valves' settings), from
    /// `Colony::water_works`: after each drill and fill-valve update and each change of a valve.
    pub(crate) fn refresh_water_links(&mut self) {
        let w = self.map.width() as usize;
        let max_flow = world_rules().water.buildings.value.valve_max_flow as f32;
        let mut inflows = Vec::new();
        let mut caps = Vec::new();
        for b in self
            .colony
            .water_works
            .iter()
            .map(|id| &self.colony.buildings[id])
        {
            inflows.extend(drill_inflows(b, w));
            if let Some(v) = b.valve {
                let cap = if v.closed {
                    0.0
                } else if is_fill_valve(b.spec()) {
                    if v.passing { max_flow } else { 0.0 }
                } else {
                    v.limit
                };
                caps.push((b.y as usize * w + b.x as usize, cap));
            }
        }
        caps.sort_by_key(|c| c.0);
        self.land.water.inflows = inflows;
        self.land.water.caps = caps;
    }

    /// The valve state of a valve or fill valve, or `invalid_type`.
    fn valve_mut(&mut self, id: i32) -> Result<&mut ValveState, crate::error::CommandError> {
        let b = self.colony.building(id)?;
        let name = b.prefab.to_string();
        self.colony
            .buildings
            .get_mut(&id)
            .and_then(|b| b.valve.as_mut())
            .ok_or_else(|| {
                crate::error::CommandError::new(
                    crate::error::ErrorCode::InvalidType,
                    format!("{name} #{id} is not a valve or a fill valve"),
                )
                .with("id", id)
                .with("name", name)
            })
    }

    /// Opens or closes a valve or fill valve (automation's signal, `open` in the API).
    pub fn set_valve_open(
        &mut self,
        id: i32,
        open: bool,
    ) -> Result<ValveState, crate::error::CommandError> {
        let v = self.valve_mut(id)?;
        v.closed = !open;
        let v = *v;
        self.refresh_water_links();
        Ok(v)
    }

    /// Sets a valve's flow limit (m3/s, clamped to 0..valveMaxFlow). Not a valve: `invalid_type`.
    pub fn set_valve_flow(
        &mut self,
        id: i32,
        flow: f64,
    ) -> Result<ValveState, crate::error::CommandError> {
        let max = world_rules().water.buildings.value.valve_max_flow;
        self.set_valve_setting(id, is_valve, "a valve (fill valves take fillHeight)", |v| {
            v.limit = flow.clamp(0.0, max) as f32;
        })
    }

    /// Sets a fill valve's fill height above its base (clamped to 0..fillValveMaxHeight). Not a
    /// fill valve: `invalid_type`.
    pub fn set_fill_height(
        &mut self,
        id: i32,
        height: f64,
    ) -> Result<ValveState, crate::error::CommandError> {
        let max = world_rules().water.buildings.value.fill_valve_max_height;
        self.set_valve_setting(id, is_fill_valve, "a fill valve (valves take flow)", |v| {
            v.fill_height = height.clamp(0.0, max) as f32;
        })
    }

    /// Changes one setting of a building `kind` accepts (`invalid_type` naming `what` it must be
    /// otherwise; `not_found` when there is none), then the water's caps.
    fn set_valve_setting(
        &mut self,
        id: i32,
        kind: fn(&Spec) -> bool,
        what: &str,
        set: impl FnOnce(&mut ValveState),
    ) -> Result<ValveState, crate::error::CommandError> {
        if !self
            .colony
            .buildings
            .get(&id)
            .is_none_or(|b| kind(b.spec()))
        {
            return Err(not_this(self, id, what));
        }
        let v = self.valve_mut(id)?;
        set(v);
        let v = *v;
        self.refresh_water_links();
        Ok(v)
    }
}

impl World {
    /// `POST /api/automation/configure` on a valve or fill valve: `open` (true or false), a
    /// valve's `flow` (m3/s, 0-valveMaxFlow) or a fill valve's `fillHeight` (blocks above its
    /// base, 0-fillValveMaxHeight). A bad property or value changes nothing.
    pub(crate) fn configure_valve(
        &mut self,
        id: i32,
        property: &str,
        value: &str,
    ) -> Result<crate::automation::ConfigureView, crate::error::CommandError> {
        use crate::error::CommandError;
        let b = self.colony.building(id)?;
        let (name, fill) = (b.prefab.to_string(), is_fill_valve(b.spec()));
        let r = &world_rules().water.buildings.value;
        let (kind, number, max) = if fill {
            ("FillValve", "fillHeight", r.fill_valve_max_height)
        } else {
            ("Valve", "flow", r.valve_max_flow)
        };
        let p = property.trim();
        let v = value.trim();
        let normalized = if p.eq_ignore_ascii_case("open") {
            let open = match v.to_ascii_lowercase().as_str() {
                "true" | "1" => true,
                "false" | "0" => false,
                _ => {
                    return Err(CommandError::invalid_param(
                        format!("open must be true or false; got {value:?}"),
                        value,
                    ));
                }
            };
            self.set_valve_open(id, open)?;
            ("open", open.to_string())
        } else if p.eq_ignore_ascii_case(number) {
            let x = match v.parse::<f64>() {
                Ok(x) if x.is_finite() && (0.0..=max).contains(&x) => x,
                _ => {
                    return Err(CommandError::invalid_param(
                        format!("{number} must be a number 0-{max}; got {value:?}"),
                        value,
                    ));
                }
            };
            if fill {
                self.set_fill_height(id, x)?;
            } else {
                self.set_valve_flow(id, x)?;
            }
            (number, format!("{x}"))
        } else {
            return Err(CommandError::invalid_param(
                format!("{kind} has no property {property:?}; its properties are open, {number}"),
                property,
            ));
        };
        Ok(crate::automation::ConfigureView {
            id,
            property: normalized.0.to_owned(),
            value: normalized.1,
            name,
            automation_type: kind.to_owned(),
        })
    }
}

/// `invalid_type`: building `id` is not `what`.
fn not_this(w: &World, id: i32, what: &str) -> crate::error::CommandError {
    let name = w.colony.buildings[&id].prefab.to_string();
    crate::error::CommandError::new(
        crate::error::ErrorCode::InvalidType,
        format!("{name} #{id} is not {what}"),
    )
    .with("id", id)
    .with("name", name)
}

/// A drill's output spread over its footprint: (tile index, m3/s); nothing from another
/// building or a drill giving nothing.
fn drill_inflows(b: &Building, w: usize) -> Vec<(usize, f32)> {
    let s = b.spec();
    if b.water_output <= 0.0 || !is_aquifer_drill(s) {
        return Vec::new();
    }
    let tiles = footprint(s, b.x.into(), b.y.into(), b.orientation);
    let each = b.water_output / tiles.len().max(1) as f32;
    tiles
        .into_iter()
        .map(|(x, y)| (y as usize * w + x as usize, each))
        .collect()
}
