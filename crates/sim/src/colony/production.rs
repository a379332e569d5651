//! Production: whether a workplace can run (inputs, power, water, storage), the work a shift
//! does (recipes' cycles, bot assembly, a pump's water drawn), and construction progress.

use serde_json::json;

use super::behave::makes_bot;
use super::building::{Building, Kind};
use super::rules::colony_rules;
use crate::content::content;
use crate::world::World;

impl World {
    /// Whether a manufactory can run a cycle now: a recipe, its inputs (or a cycle under way),
    /// room for outputs, water at a pump's intake, power when it needs power.
    pub(crate) fn can_run(&self, w: i32) -> bool {
        self.manufactory_blocker(w).is_none()
    }

    /// Why a manufactory cannot run (the status text), or `None`.
    pub(crate) fn manufactory_blocker(&self, w: i32) -> Option<&'static str> {
        let b = &self.colony.buildings[&w];
        let Some(rid) = b.recipe.as_deref() else {
            return Some("no recipe selected");
        };
        let Some(recipe) = content().recipes.get(rid) else {
            return Some("no recipe selected");
        };
        if !self.is_powered(w) {
            return Some("unpowered");
        }
        if b.spec().flag("waterIntake") && self.intake_water(w) <= 0.0 {
            return Some("no water to pump");
        }
        if !b.cycle_started
            && recipe
                .inputs
                .iter()
                .any(|i| b.has(&i.good) < i.amount.ceil() as u32)
        {
            return Some("lacks inputs");
        }
        let out: u32 = recipe.outputs.iter().map(|o| o.amount.ceil() as u32).sum();
        let inputs: Vec<&str> = recipe.inputs.iter().map(|i| i.good.as_str()).collect();
        let held: u32 = b
            .inventory
            .iter()
            .filter(|(g, _)| !inputs.contains(&g.as_str()))
            .map(|(_, n)| *n)
            .sum();
        if out > 0 && held + out > b.capacity().max(out) {
            return Some("output full");
        }
        None
    }

    /// Water depth available at a pump's intake (the deepest intake tile within pump depth).
    pub(crate) fn intake_water(&self, w: i32) -> f32 {
        let b = &self.colony.buildings[&w];
        let s = b.spec();
        let depth = s.pump_depth.unwrap_or(1) as f32;
        let min = colony_rules().colony.pump_min_depth.value;
        let mut best = 0.0f32;
        for (x, y) in intake_tiles(&self.map, b) {
            let h = self.water_depth(x, y);
            let surface = f32::from(self.map.terrain_height(x, y)) + h;
            // The pipe reaches `depth` blocks below the pump's floor.
            if h >= min && surface > b.z as f32 - depth && self.badwater_share(x, y) < 0.5 {
                best = best.max(h);
            }
        }
        best
    }

    /// Work-hours done at a workplace: recipes advance (inputs taken at a cycle's start, outputs,
    /// science and bots at its end).
    pub(crate) fn work_done(&mut self, w: i32, hours: f64) {
        let Some(b) = self.colony.buildings.get(&w) else {
            return;
        };
        if b.kind() != Kind::Manufactory || !self.can_run(w) {
            return;
        }
        let rid = b.recipe.clone().expect("can_run checked the recipe");
        let recipe = &content().recipes[&rid];
        // An underpowered network slows its workshops (see `power`).
        let mut left = hours * self.power_efficiency(w);
        let mut science = 0u32;
        let mut pumped = 0u32;
        let mut bots = 0u32;
        while left > 1e-9 {
            if !self.can_run(w) {
                break;
            }
            let b = self.colony.buildings.get_mut(&w).expect("exists");
            if !b.cycle_started {
                for i in &recipe.inputs {
                    let n = b.take(&i.good, i.amount.ceil() as u32);
                    self.history.consumed(&i.good, n);
                }
                b.cycle_started = true;
            }
            let need = recipe.cycle_hours - b.progress;
            if left + 1e-9 < need {
                b.progress += left;
                break;
            }
            left -= need;
            b.progress = 0.0;
            b.cycle_started = false;
            for o in &recipe.outputs {
                b.add(&o.good, o.amount.round() as u32);
                self.history.produced(&o.good, o.amount.round() as u32);
                if o.good == "Water" {
                    pumped += o.amount.round() as u32;
                }
            }
            science += recipe.science_points.unwrap_or(0);
            if makes_bot(recipe) {
                bots += 1;
            }
        }
        if science > 0 {
            self.add_science(science);
        }
        if pumped > 0 {
            self.draw_intake_water(w, pumped);
        }
        for _ in 0..bots {
            self.manufacture_bot(w);
        }
    }

    /// A bot assembler finished a bot: it stands at the doorstep, in the assembler's district
    /// (`character.created`, `beaver.born`, `bot.manufactured {id, name, buildingId, x, y, z}`,
    /// `population.changed`).
    fn manufacture_bot(&mut self, w: i32) {
        let Some(b) = self.colony.buildings.get(&w) else {
            return;
        };
        let district = b.district;
        let at = self.colony.door(w).unwrap_or([b.x, b.y, b.z]);
        let id = self.spawn_bot(at, district);
        let name = self.colony.beavers[&id].name.clone();
        let day = self.day();
        self.events.push(
            crate::event::names::BOT_MANUFACTURED,
            day,
            json!({ "id": id, "name": name, "buildingId": w, "x": at[0], "y": at[1], "z": at[2] }),
        );
        self.population_changed();
    }

    /// Removes pumped water from the deepest intake tile.
    fn draw_intake_water(&mut self, w: i32, units: u32) {
        let b = &self.colony.buildings[&w];
        let mut best: Option<(f32, u32, u32)> = None;
        for (x, y) in intake_tiles(&self.map, b) {
            let h = self.water_depth(x, y);
            if best.is_none_or(|(bh, _, _)| h > bh) {
                best = Some((h, x, y));
            }
        }
        if let Some((_, x, y)) = best {
            let v = colony_rules().colony.pump_volume_per_unit.value * units as f32;
            self.land.water.remove_water(x, y, v);
        }
    }

    /// Builder-hours worked at a site; the building finishes when all materials are in and the
    /// hours are done.
    pub(super) fn build_done(&mut self, site: i32, hours: f64) {
        let Some(b) = self.colony.buildings.get_mut(&site) else {
            return;
        };
        if b.finished {
            // A finished building a builder works on is one marked for demolition.
            self.deconstruct_done(site, hours);
            return;
        }
        let first = b.build_hours == 0.0;
        let cap = b.material_progress() * b.build_hours_needed();
        b.build_hours = (b.build_hours + hours).min(cap);
        let done = b.material_progress() >= 1.0 && b.build_hours + 1e-9 >= b.build_hours_needed();
        let free = b.cost_units() == 0;
        let day = self.day();
        if first && free {
            let data = self.building_event_data(site);
            self.events
                .push(crate::event::names::CONSTRUCTION_STARTED, day, data);
        }
        if done {
            self.finish_building(site);
        }
    }
}

/// The tiles a pump draws from, on the map: its intake row and the row in front of it, column
/// by column.
fn intake_tiles<'a>(
    map: &'a crate::map::Map,
    b: &Building,
) -> impl Iterator<Item = (u32, u32)> + use<'a> {
    let s = b.spec();
    let (sx, sy) = (s.size.x as i32, s.size.y as i32);
    let (ox, oy, o) = (i64::from(b.x), i64::from(b.y), b.orientation);
    (0..sx)
        .flat_map(move |lx| [(lx, sy - 1), (lx, sy)])
        .map(move |(lx, ly)| {
            let (dx, dy) = super::geometry::turn(lx, ly, sx, sy, o);
            (ox + i64::from(dx), oy + i64::from(dy))
        })
        .filter(|&(x, y)| map.contains(x, y))
        .map(|(x, y)| (x as u32, y as u32))
}
