//! Mechanical power: networks of power buildings, what their generators give, what their
//! consumers ask, batteries and clutches.
//!
//! Rules (the game's, as far as public sources tell; the rest are the project's choices, written
//! down here and in `data/power.json`):
//! - **Power buildings** are finished buildings whose catalogue entry makes, uses or passes power:
//!   the flags `powerGenerator`, `powerConsumer`, `powerTransmitter` (shafts, clutches, batteries,
//!   and the buildings the game lets pass power on, such as lodges, workshops and the district
//!   center), power input or output above 0, or a `MechanicalNodeSpec`. Construction sites are
//!   not part of any network.
//! - **Links.** Two power buildings are linked when a voxel of one touches a voxel of the other
//!   side to side on the same level (footprints 4-adjacent, heights overlapping). Power goes up
//!   or down only through a vertical shaft (`VerticalPowerShaft`): it links to the power building
//!   right above its top or right below its bottom. Paths conduct nothing.
//! - **Networks** are the connected components of links. A network's id is its smallest building
//!   id (stable while that building stays; a split keeps the id on the part holding it, the other
//!   part is a new network). A power building with no neighbour is its own network, supply 0.
//!   The shape is derived state, rebuilt when a block changes (`Colony::block_version`) or a
//!   building finishes or a clutch moves (`Power::version`), never saved.
//! - **Clutches** (`ClutchSpec`) start engaged; a disengaged clutch passes nothing, so it cuts
//!   the network in two there (and stands alone as its own network).
//! - **Generators** (each tick): water wheels give `nominal x clamp(flow / 1 m3/s, 0, 1)` where
//!   flow is the m3/s through the footprint (the flux through each cross-section, averaged over
//!   the footprint's length, both axes), and nothing below `waterWheelMinFlow` (0.05 m3/s, still
//!   water); wind turbines `nominal x wind strength`, nothing below the model's minimum strength
//!   (0.3 small, 0.2 large); power wheels `nominal x workers on a shift inside / worker slots`
//!   (so only in working hours, with a beaver there); engines their nominal output while they
//!   have fuel and the network has demand, burning `fuel.perHour` (a unit is taken from their
//!   inventory when the last one is spent; haulers keep `fuelStorage` units delivered);
//!   generators of no known kind (geothermal engine, the developer generator) their nominal
//!   output. Paused generators give nothing.
//! - **Consumers** ask their nominal input while they work: finished, not paused and, for a
//!   workplace, in working hours with at least one worker employed.
//! - **Balance.** With supply >= demand every consumer gets all it asks and the surplus charges
//!   the network's batteries. With supply < demand the batteries cover the deficit while they
//!   hold energy; what is still missing slows every working consumer of the network alike: each
//!   runs at `efficiency = (supply + battery discharge) / demand` (a workshop's work-hours are
//!   scaled by it, as the game lets an underpowered network run at reduced efficiency). A
//!   consumer is **powered** when its efficiency is above 0 (an idle consumer: when it would get
//!   anything if it started now), **underpowered** (status) when 0 < efficiency < 1, and
//!   **unpowered** when the network has nothing to give.
//! - **Batteries** (`GravityBatterySpec`) hold up to `baseHph + perEmptyBlockBelowHph x empty
//!   blocks under them` hp·h (capped at `maxHph`), charged from surplus and drained into deficit
//!   (shared among a network's batteries by free room and by charge), with no rate limit of their
//!   own. Their charge is saved, as are clutch settings, the fuel an engine is burning, and the
//!   networks and generator outputs already announced (so events after a load continue as if the
//!   game had never stopped).
//! - **Events**: `power.network.created {id, buildings, supply, demand}` and
//!   `power.network.removed {id}` when a network id appears or goes (building finished, removed,
//!   clutch moved; a merge removes the larger id, a split creates one);
//!   `power.generator.added {id, name, networkId, output, nominalOutput}` the first tick a finished
//!   generator works in a network; `power.generator.updated {id, name, networkId, output,
//!   previous, nominalOutput}` when its output moved by `generatorUpdateStep` (10%) of its nominal
//!   output since the last announced value, or stopped or started. Figures are hp, rounded to
//!   0.01.
//!
//! Cadence: `power_tick` runs every tick after the land and before the colony, so workshops see
//! this tick's water and wind. Read models use the figures of the last tick; when the shape
//! changed since (a command placed or finished something), the asked building's network is
//! rebuilt on the fly.

mod grid;
mod rules;
#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::json;

pub(crate) use grid::{Gen, generator_kind, is_clutch, is_consumer, is_generator, is_node};
use grid::{Grid, Net, NetEval, hours_per_tick};
pub(crate) use rules::power_rules;

use crate::colony::building::Kind;
use crate::error::{CommandError, ErrorCode};
use crate::event::names;
use crate::world::World;

/// The power state of a colony: what must be saved, plus the derived networks.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Power {
    /// Battery id -> hp·h stored.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub charge: BTreeMap<i32, f64>,
    /// Clutches set disengaged (a clutch is engaged unless listed).
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub disengaged: BTreeSet<i32>,
    /// Engine id -> share of a fuel unit still burning.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub burning: BTreeMap<i32, f64>,
    /// Network ids announced by `power.network.created` and not removed since.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub networks: BTreeSet<i32>,
    /// Generator id -> output last announced (`power.generator.added` / `updated`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub generators: BTreeMap<i32, f64>,
    /// Bumped when the shape of the networks changes in a way blocks do not show (a building
    /// finishing, a clutch moving).
    #[serde(skip)]
    pub(crate) version: u64,
    /// The networks and their balance at the last tick (derived).
    #[serde(skip)]
    cache: Option<Cache>,
}

impl Power {
    /// Whether nothing needs saving.
    pub fn is_blank(&self) -> bool {
        self.charge.is_empty()
            && self.disengaged.is_empty()
            && self.burning.is_empty()
            && self.networks.is_empty()
            && self.generators.is_empty()
    }

    /// The networks may have changed shape (a building finished).
    pub(crate) fn touch(&mut self) {
        self.version += 1;
    }
}

#[derive(Debug, Clone)]
struct Cache {
    grid: Arc<Grid>,
    eval: Arc<Vec<NetEval>>,
}

/// A building of a power network (`GET /api/power`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PowerNetworkBuilding {
    pub name: String,
    pub id: i32,
    pub is_generator: bool,
    /// hp, catalogue figures.
    pub nominal_output: i64,
    pub nominal_input: i64,
}

/// A power network (`GET /api/power`): supply and demand in hp; `stored` and `capacity` (hp·h in
/// its batteries, after the last tick) are extensions.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PowerNetworkView {
    pub id: i32,
    pub supply: f64,
    pub demand: f64,
    pub stored: f64,
    pub capacity: f64,
    pub buildings: Vec<PowerNetworkBuilding>,
}

/// The power side of one building.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PowerState {
    /// Consumers: they get power (working: efficiency above 0; idle: they would if they
    /// started). Others: their network has power to give.
    pub powered: bool,
    /// The network's supply and demand, hp (0 off any network).
    pub supply: f64,
    pub demand: f64,
    pub is_generator: bool,
    pub is_consumer: bool,
    pub nominal_input: f64,
    pub nominal_output: f64,
    /// `None` for construction sites.
    pub network_id: Option<i32>,
    /// What this building gives now (generators), hp.
    pub output: f64,
    /// 0-1: the share of its input a consumer gets (1 for the rest).
    pub efficiency: f64,
    pub is_clutch: bool,
    /// Clutches only.
    pub clutch_engaged: Option<bool>,
}

/// `POST /api/building/clutch` answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClutchView {
    pub id: i32,
    pub name: String,
    pub engaged: bool,
}

/// The fuel an engine wants delivered and how many units it holds (for haulers).
pub(crate) fn fuel_want(b: &crate::colony::Building) -> Option<(String, u32)> {
    let p = &b.spec().power;
    let f = p.fuel.as_ref()?;
    Some((f.good.clone(), p.fuel_storage.unwrap_or(1)))
}

fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

impl World {
    /// The cached networks when they still fit the colony's shape.
    fn fresh_power(&self) -> Option<&Cache> {
        self.colony
            .power
            .cache
            .as_ref()
            .filter(|c| c.grid.key == self.power_key())
    }

    /// Runs `f` on the network of a finished power building (from the last tick, or rebuilt
    /// now when the shape changed since).
    fn with_net<R>(&self, id: i32, f: impl FnOnce(&Net, &NetEval, usize) -> R) -> Option<R> {
        if let Some(c) = self.fresh_power() {
            let &(n, i) = c.grid.of.get(&id)?;
            let n = n as usize;
            return Some(f(&c.grid.nets[n], &c.eval[n], i as usize));
        }
        self.power_node(id)?;
        let net = self.power_net(self.power_component(id, &mut BTreeSet::new()));
        let ev = self.evaluate_net(&net, &self.power_env(true));
        let i = net.members.binary_search(&id).ok()?;
        Some(f(&net, &ev, i))
    }

    /// The networks and their balances: the tick's cache when fresh, else computed now.
    fn grid_and_evals(&self) -> (Arc<Grid>, Arc<Vec<NetEval>>) {
        match self.fresh_power() {
            Some(c) => (c.grid.clone(), c.eval.clone()),
            None => {
                let g = self.build_grid();
                let env = self.power_env(g.has_walkers);
                let e = g.nets.iter().map(|n| self.evaluate_net(n, &env)).collect();
                (Arc::new(g), Arc::new(e))
            }
        }
    }

    /// Every power network, in id order.
    /// How many networks have supply (for the hourly history; no views built).
    pub(crate) fn supplied_network_count(&self) -> u32 {
        let (_, evals) = self.grid_and_evals();
        evals.iter().filter(|e| e.supply > 0.0).count() as u32
    }

    /// Consumers at work (asking power) in a network that water wheels feed at this moment, by
    /// prefab base name: what water powers, for the hourly history (`waterPowered`).
    pub(crate) fn water_powered(&self) -> BTreeMap<String, u32> {
        let (grid, evals) = self.grid_and_evals();
        let mut out = BTreeMap::new();
        for (n, e) in grid.nets.iter().zip(evals.iter()) {
            let water: f64 = n
                .members
                .iter()
                .zip(&e.outputs)
                .filter(|(m, _)| {
                    grid::generator_kind(self.colony.buildings[m].spec()) == Some(grid::Gen::Water)
                })
                .map(|(_, o)| *o)
                .sum();
            if water <= 0.0 {
                continue;
            }
            for (m, d) in n.members.iter().zip(&e.demands) {
                if *d > 0.0 {
                    let base = &self.colony.buildings[m].spec().base_name;
                    *out.entry(base.clone()).or_insert(0) += 1;
                }
            }
        }
        out
    }

    pub fn power_networks(&self) -> Vec<PowerNetworkView> {
        let (grid, evals) = self.grid_and_evals();
        grid.nets
            .iter()
            .zip(evals.iter())
            .map(|(n, e)| PowerNetworkView {
                id: n.id,
                supply: round2(e.supply),
                demand: round2(e.demand),
                stored: round2(e.stored + e.charged - e.discharged),
                capacity: round2(e.capacity),
                buildings: n
                    .members
                    .iter()
                    .map(|m| {
                        let b = &self.colony.buildings[m];
                        let s = b.spec();
                        PowerNetworkBuilding {
                            name: b.prefab.to_string(),
                            id: *m,
                            is_generator: is_generator(s),
                            nominal_output: s.power.output.round() as i64,
                            nominal_input: s.power.input.round() as i64,
                        }
                    })
                    .collect(),
            })
            .collect()
    }

    /// The power side of a building; `None` when it has no part in the power system.
    pub fn power_state(&self, id: i32) -> Option<PowerState> {
        let b = self.colony.buildings.get(&id)?;
        let s = b.spec();
        if !is_node(s) {
            return None;
        }
        let clutch = is_clutch(s);
        let mut st = PowerState {
            powered: false,
            supply: 0.0,
            demand: 0.0,
            is_generator: is_generator(s),
            is_consumer: is_consumer(s),
            nominal_input: s.power.input,
            nominal_output: s.power.output,
            network_id: None,
            output: 0.0,
            efficiency: if s.power.input > 0.0 { 0.0 } else { 1.0 },
            is_clutch: clutch,
            clutch_engaged: clutch.then(|| !self.colony.power.disengaged.contains(&id)),
        };
        self.with_net(id, |net, ev, i| {
            st.network_id = Some(net.id);
            st.supply = round2(ev.supply);
            st.demand = round2(ev.demand);
            st.output = round2(ev.outputs[i]);
            if s.power.input > 0.0 {
                st.efficiency = ev.share_for(ev.demands[i] > 0.0, s.power.input);
                st.powered = st.efficiency > 0.0;
            } else {
                st.powered = ev.available() > 0.0;
            }
        });
        Some(st)
    }

    /// 0-1: the share of its power a building gets (1 when it needs none; 0 for a consumer
    /// that is not finished).
    pub fn power_efficiency(&self, id: i32) -> f64 {
        match self.colony.buildings.get(&id) {
            Some(b) if b.spec().power.input > 0.0 => self
                .with_net(id, |_, ev, i| {
                    ev.share_for(ev.demands[i] > 0.0, b.spec().power.input)
                })
                .unwrap_or(0.0),
            _ => 1.0,
        }
    }

    /// Whether a building has the power it needs (always, when it needs none).
    pub fn is_powered(&self, id: i32) -> bool {
        self.power_efficiency(id) > 0.0
    }

    /// The power status of a finished, unpaused consumer: `unpowered` (not for manufactories,
    /// which report it as what blocks them) or `underpowered` (working at reduced efficiency).
    pub(crate) fn power_status(&self, id: i32) -> Option<&'static str> {
        let b = self.colony.buildings.get(&id)?;
        if !b.finished || b.paused || b.spec().power.input <= 0.0 {
            return None;
        }
        let e = self.power_efficiency(id);
        if e <= 0.0 {
            (b.kind() != Kind::Manufactory).then_some("unpowered")
        } else if e < 1.0 {
            Some("underpowered")
        } else {
            None
        }
    }

    /// Finished power buildings on a network with power to give (generators' supply or stored
    /// energy), for `nearPower` of placements of `prefab` (empty when it is no power building).
    pub(crate) fn powered_nodes_for(&self, prefab: &str) -> BTreeSet<i32> {
        if !grid::prefab_power(prefab).node {
            return BTreeSet::new();
        }
        let (grid, evals) = self.grid_and_evals();
        grid.nets
            .iter()
            .zip(evals.iter())
            .filter(|(_, e)| e.available() > 0.0)
            .flat_map(|(n, _)| n.members.iter().copied())
            .collect()
    }

    /// `nearPower` of a placement: 1 when a power building placed there would touch (side to
    /// side on a shared level) one of `powered`.
    pub(crate) fn near_power(
        &self,
        prefab: &str,
        x: u32,
        y: u32,
        z: u32,
        o: crate::colony::Orientation,
        powered: &BTreeSet<i32>,
    ) -> u8 {
        if powered.is_empty() {
            return 0;
        }
        let s = crate::colony::building::spec(prefab);
        let tiles = crate::colony::geometry::footprint(s, x.into(), y.into(), o);
        for (tx, ty) in tiles {
            for (dx, dy) in [(1i64, 0i64), (-1, 0), (0, 1), (0, -1)] {
                let (nx, ny) = (tx + dx, ty + dy);
                if nx < 0 || ny < 0 || tiles.contains(&(nx, ny)) {
                    continue;
                }
                for z in z..z + s.size.z.max(1) {
                    let v = crate::colony::geometry::voxel(nx as u32, ny as u32, z);
                    if self
                        .colony
                        .blocks
                        .get(&v)
                        .is_some_and(|o| powered.contains(o))
                    {
                        return 1;
                    }
                }
            }
        }
        0
    }

    /// Engages or disengages a clutch (construction sites keep the setting for when they
    /// finish).
    pub fn set_clutch(&mut self, id: i32, engaged: bool) -> Result<ClutchView, CommandError> {
        let b = self.colony.building(id)?;
        let name = b.prefab.to_string();
        if !is_clutch(b.spec()) {
            return Err(CommandError::new(
                ErrorCode::InvalidType,
                format!("{name} #{id} is not a clutch; only clutches engage and disengage"),
            )
            .with("id", id)
            .with("name", name));
        }
        let changed = if engaged {
            self.colony.power.disengaged.remove(&id)
        } else {
            self.colony.power.disengaged.insert(id)
        };
        if changed {
            self.colony.power.touch();
        }
        Ok(ClutchView { id, name, engaged })
    }

    /// One tick of power: networks (rebuilt if their shape changed), generator outputs,
    /// consumer demand, batteries and engines, events.
    pub(crate) fn power_tick(&mut self) {
        let key = self.power_key();
        let (grid, rebuilt) = match &self.colony.power.cache {
            Some(c) if c.grid.key == key => (c.grid.clone(), false),
            _ => (Arc::new(self.build_grid()), true),
        };
        if rebuilt {
            self.prune_power(&grid);
        }
        if grid.nets.is_empty() && self.colony.power.is_blank() {
            self.colony.power.cache = Some(Cache {
                grid,
                eval: Arc::new(Vec::new()),
            });
            return;
        }
        let env = self.power_env(grid.has_walkers);
        let evals: Vec<NetEval> = grid
            .nets
            .iter()
            .map(|n| self.evaluate_net(n, &env))
            .collect();
        self.apply_power(&grid, &evals);
        self.power_events(&grid, &evals, rebuilt);
        self.colony.power.cache = Some(Cache {
            grid,
            eval: Arc::new(evals),
        });
    }

    /// Runs the power step alone, as `tick` does between the land and the colony (for the
    /// benchmark that measures its cost; playing code only calls `tick`).
    #[doc(hidden)]
    pub fn bench_power_tick(&mut self) {
        self.power_tick();
    }

    /// Drops saved entries of buildings that are gone.
    fn prune_power(&mut self, grid: &Grid) {
        let c = &mut self.colony;
        let buildings = &c.buildings;
        c.power.charge.retain(|k, _| buildings.contains_key(k));
        c.power.burning.retain(|k, _| buildings.contains_key(k));
        c.power.disengaged.retain(|k| buildings.contains_key(k));
        c.power.generators.retain(|k, _| grid.of.contains_key(k));
    }

    /// Batteries take the surplus and give to the deficit; running engines burn fuel.
    fn apply_power(&mut self, grid: &Grid, evals: &[NetEval]) {
        let dt = hours_per_tick();
        for (net, ev) in grid.nets.iter().zip(evals) {
            if ev.charged > 0.0 || ev.discharged > 0.0 {
                let bats: Vec<(i32, f64, f64)> = net
                    .parts
                    .iter()
                    .filter(|p| p.p.battery)
                    .map(|p| {
                        let c = self.colony.power.charge.get(&p.id).copied().unwrap_or(0.0);
                        (p.id, c, p.capacity)
                    })
                    .collect();
                let room: f64 = bats.iter().map(|(_, c, cap)| (cap - c).max(0.0)).sum();
                let held: f64 = bats.iter().map(|(_, c, _)| c).sum();
                for (id, c, cap) in bats {
                    let mut v = c;
                    if ev.charged > 0.0 && room > 0.0 {
                        v += ev.charged * (cap - c).max(0.0) / room;
                    }
                    if ev.discharged > 0.0 && held > 0.0 {
                        v -= ev.discharged * c / held;
                    }
                    let v = v.clamp(0.0, cap);
                    if v > 1e-9 {
                        self.colony.power.charge.insert(id, v);
                    } else {
                        self.colony.power.charge.remove(&id);
                    }
                }
            }
            for e in &ev.running {
                let b = self.colony.buildings.get_mut(e).expect("a network member");
                let Some(fuel) = b.spec().power.fuel.clone() else {
                    continue;
                };
                let mut left =
                    self.colony.power.burning.get(e).copied().unwrap_or(0.0) - fuel.per_hour * dt;
                // (A hair above 0 counts as spent, so float steps do not stretch a unit.)
                while left <= 1e-9 {
                    if b.take(&fuel.good, 1) == 1 {
                        self.history.consumed(&fuel.good, 1);
                        left += 1.0;
                    } else {
                        left = 0.0;
                        break;
                    }
                }
                if left > 1e-9 {
                    self.colony.power.burning.insert(*e, left);
                } else {
                    self.colony.power.burning.remove(e);
                }
            }
        }
    }

    /// Network and generator events against what was announced before.
    fn power_events(&mut self, grid: &Grid, evals: &[NetEval], rebuilt: bool) {
        let day = self.day();
        if rebuilt {
            let now: BTreeSet<i32> = grid.nets.iter().map(|n| n.id).collect();
            let gone: Vec<i32> = self
                .colony
                .power
                .networks
                .difference(&now)
                .copied()
                .collect();
            for id in gone {
                self.events
                    .push(names::POWER_NETWORK_REMOVED, day, json!({ "id": id }));
            }
            for (n, e) in grid.nets.iter().zip(evals) {
                if !self.colony.power.networks.contains(&n.id) {
                    self.events.push(
                        names::POWER_NETWORK_CREATED,
                        day,
                        json!({
                            "id": n.id,
                            "buildings": n.members.len(),
                            "supply": round2(e.supply),
                            "demand": round2(e.demand),
                        }),
                    );
                }
            }
            self.colony.power.networks = now;
        }
        let step = power_rules().generator_update_step.value;
        for (n, e) in grid.nets.iter().zip(evals) {
            for (i, part) in n.parts.iter().enumerate() {
                if part.p.generator.is_none() {
                    continue;
                }
                let m = &part.id;
                let b = &self.colony.buildings[m];
                let out = round2(e.outputs[i]);
                let nominal = part.p.output;
                let data = |prev: Option<f64>| {
                    let mut d = json!({
                        "id": m,
                        "name": b.prefab,
                        "networkId": n.id,
                        "output": out,
                        "nominalOutput": nominal,
                    });
                    if let Some(p) = prev {
                        d["previous"] = p.into();
                    }
                    d
                };
                match self.colony.power.generators.get(m).copied() {
                    None => {
                        let d = data(None);
                        self.events.push(names::POWER_GENERATOR_ADDED, day, d);
                        self.colony.power.generators.insert(*m, out);
                    }
                    Some(prev) => {
                        let moved = (out - prev).abs() >= step * nominal.max(1e-9);
                        let flipped = (out > 0.0) != (prev > 0.0);
                        if (moved || flipped) && out != prev {
                            let d = data(Some(prev));
                            self.events.push(names::POWER_GENERATOR_UPDATED, day, d);
                            self.colony.power.generators.insert(*m, out);
                        }
                    }
                }
            }
        }
    }
}
