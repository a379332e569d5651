//! The shape of the power networks (which finished power buildings touch) and the balance of one
//! network at one moment (what its generators give, what its consumers ask, what its batteries
//! hold). Both are pure functions of the world; `power::World::power_tick` stores and applies them.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use super::rules::power_rules;
use crate::clock::{self, ticks_per_hour};
use crate::colony::Step;
use crate::colony::building::Building;
use crate::colony::geometry::{footprint, turned_size, voxel};
use crate::content::Building as Spec;
use crate::world::World;

/// Whether a prefab is part of the power system: it carries power (the catalogue's
/// `powerTransmitter`: shafts, clutches, batteries, and the buildings the game lets pass power
/// on, such as lodges and the district center), makes it or uses it.
pub fn is_node(s: &Spec) -> bool {
    s.flag("powerTransmitter")
        || is_generator(s)
        || is_consumer(s)
        || s.components.iter().any(|c| c == "MechanicalNodeSpec")
}

pub fn is_generator(s: &Spec) -> bool {
    s.flag("powerGenerator") || s.power.output > 0.0
}

pub fn is_consumer(s: &Spec) -> bool {
    s.flag("powerConsumer") || s.power.input > 0.0
}

pub fn is_clutch(s: &Spec) -> bool {
    s.components.iter().any(|c| c == "ClutchSpec")
}

pub fn is_battery(s: &Spec) -> bool {
    s.components.iter().any(|c| c == "GravityBatterySpec")
}

/// Vertical shafts are the only parts that pass power up and down.
pub fn is_vertical_shaft(s: &Spec) -> bool {
    s.base_name == "VerticalPowerShaft"
}

/// How a generator makes its power.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Gen {
    /// Water wheels: the water flowing through them.
    Water,
    /// Wind turbines: wind strength above the model's minimum.
    Wind { min: f64 },
    /// Power wheels: the beavers running in them.
    Walker,
    /// Engines: fuel from their inventory, burnt while the network has demand.
    Fuel { per_hour: f64 },
    /// Anything else (geothermal engine, the developer generator): its nominal output.
    Constant,
}

pub fn generator_kind(s: &Spec) -> Option<Gen> {
    if !is_generator(s) {
        return None;
    }
    let has = |c: &str| s.components.iter().any(|x| x == c);
    Some(if has("WaterPoweredGeneratorSpec") {
        Gen::Water
    } else if has("WindPoweredGeneratorSpec") {
        Gen::Wind {
            min: power_rules()
                .wind_min_strength
                .value
                .get(&s.base_name)
                .copied()
                .unwrap_or(0.0),
        }
    } else if has("WalkerPoweredGeneratorSpec") {
        Gen::Walker
    } else if let Some(f) = &s.power.fuel {
        Gen::Fuel {
            per_hour: f.per_hour,
        }
    } else {
        Gen::Constant
    })
}

/// Game hours one tick lasts.
pub fn hours_per_tick() -> f64 {
    1.0 / ticks_per_hour() as f64
}

/// One network: its identity (the smallest building id in it) and its buildings in id order.
#[derive(Debug, Clone, PartialEq)]
pub struct Net {
    pub id: i32,
    pub members: Vec<i32>,
}

/// Every network of the world, for one shape of the colony.
#[derive(Debug, Clone, Default)]
pub struct Grid {
    /// `(block version, power version)` the grid was built for.
    pub key: (u64, u64),
    /// In id order.
    pub nets: Vec<Net>,
    /// Building id -> (index in `nets`, index in its members).
    pub of: BTreeMap<i32, (u32, u32)>,
    /// Whether any power wheel is in a network (then worker presence is counted each tick).
    pub has_walkers: bool,
}

impl World {
    /// Whether a building is a finished part of the power system.
    pub(crate) fn power_node(&self, id: i32) -> Option<&Building> {
        self.colony
            .buildings
            .get(&id)
            .filter(|b| b.finished && is_node(b.spec()))
    }

    /// Whether a node passes power on (a disengaged clutch does not).
    fn conducts(&self, id: i32, b: &Building) -> bool {
        !(is_clutch(b.spec()) && self.colony.power.disengaged.contains(&id))
    }

    /// The nodes a finished node is linked to: any node whose voxels touch its voxels side to
    /// side on one level, and, through vertical shafts only, the node right above or below.
    pub(crate) fn power_links(&self, id: i32, out: &mut Vec<i32>) {
        out.clear();
        let Some(b) = self.power_node(id) else {
            return;
        };
        if !self.conducts(id, b) {
            return;
        }
        let s = b.spec();
        let h = s.size.z.max(1);
        let vertical = is_vertical_shaft(s);
        let consider = |o: i32, need_vertical: bool, out: &mut Vec<i32>| {
            if o == id {
                return;
            }
            if let Some(ob) = self.power_node(o)
                && self.conducts(o, ob)
                && (!need_vertical || vertical || is_vertical_shaft(ob.spec()))
            {
                out.push(o);
            }
        };
        for (x, y) in footprint(s, b.x.into(), b.y.into(), b.orientation) {
            for z in b.z..b.z + h {
                for (dx, dy) in [(1i64, 0i64), (-1, 0), (0, 1), (0, -1)] {
                    let (nx, ny) = (x + dx, y + dy);
                    if nx < 0 || ny < 0 {
                        continue;
                    }
                    if let Some(&o) = self.colony.blocks.get(&voxel(nx as u32, ny as u32, z)) {
                        consider(o, false, out);
                    }
                }
            }
            let (x, y) = (x as u32, y as u32);
            if let Some(&o) = self.colony.blocks.get(&voxel(x, y, b.z + h)) {
                consider(o, true, out);
            }
            if b.z > 0
                && let Some(&o) = self.colony.blocks.get(&voxel(x, y, b.z - 1))
            {
                consider(o, true, out);
            }
        }
        out.sort_unstable();
        out.dedup();
    }

    /// The network (sorted member ids) of a finished node.
    pub(crate) fn power_component(&self, start: i32, seen: &mut BTreeSet<i32>) -> Vec<i32> {
        let mut members = vec![start];
        let mut q = VecDeque::from([start]);
        seen.insert(start);
        let mut links = Vec::new();
        while let Some(n) = q.pop_front() {
            self.power_links(n, &mut links);
            for &m in &links {
                if seen.insert(m) {
                    members.push(m);
                    q.push_back(m);
                }
            }
        }
        members.sort_unstable();
        members
    }

    /// The shape-version pair the grid depends on.
    pub(crate) fn power_key(&self) -> (u64, u64) {
        (self.colony.block_version, self.colony.power.version)
    }

    /// Builds every network from the buildings.
    pub(crate) fn build_grid(&self) -> Grid {
        let mut grid = Grid {
            key: self.power_key(),
            ..Grid::default()
        };
        let mut seen = BTreeSet::new();
        for (id, b) in &self.colony.buildings {
            if !b.finished || !is_node(b.spec()) || seen.contains(id) {
                continue;
            }
            // Ids ascend, so the first id reached is the smallest of its network.
            let members = self.power_component(*id, &mut seen);
            let n = grid.nets.len() as u32;
            for (i, m) in members.iter().enumerate() {
                grid.of.insert(*m, (n, i as u32));
                let walker = self.colony.buildings[m].spec();
                grid.has_walkers |= generator_kind(walker) == Some(Gen::Walker);
            }
            grid.nets.push(Net { id: *id, members });
        }
        grid
    }

    /// Workers on a work shift, by workplace (for power wheels).
    pub(crate) fn workers_working(&self) -> BTreeMap<i32, u32> {
        let mut out = BTreeMap::new();
        for b in self.colony.beavers.values() {
            if let Some(Step::Work { building, .. }) = b.plan.front() {
                *out.entry(*building).or_insert(0) += 1;
            }
        }
        out
    }

    /// m3/s flowing through a building's footprint: the flux through each cross-section of the
    /// footprint, averaged over its length, on both axes.
    pub(crate) fn flow_through(&self, b: &Building) -> f64 {
        let s = b.spec();
        let (lx, ly) = turned_size(s, b.orientation);
        let (mut fx, mut fy) = (0.0f64, 0.0f64);
        for (x, y) in footprint(s, b.x.into(), b.y.into(), b.orientation) {
            let f = self.water_flow(x as u32, y as u32);
            fx += f64::from(f.x);
            fy += f64::from(f.y);
        }
        (fx / f64::from(lx.max(1))).hypot(fy / f64::from(ly.max(1)))
    }

    /// What a finished generator can give now (before the engine rule: engines report their
    /// output if they have fuel; `evaluate` runs them only when the network has demand).
    pub(crate) fn generator_output(
        &self,
        id: i32,
        b: &Building,
        working: &BTreeMap<i32, u32>,
    ) -> f64 {
        let s = b.spec();
        let Some(kind) = generator_kind(s) else {
            return 0.0;
        };
        if b.paused {
            return 0.0;
        }
        let nominal = s.power.output;
        match kind {
            Gen::Water => {
                let r = power_rules();
                let q = self.flow_through(b);
                if q < r.water_wheel_min_flow.value {
                    0.0
                } else {
                    nominal * (q / r.water_wheel_reference_flow.value).clamp(0.0, 1.0)
                }
            }
            Gen::Wind { min } => {
                let strength = self.wind().strength;
                if strength < min || strength <= 0.0 {
                    0.0
                } else {
                    nominal * strength.min(1.0)
                }
            }
            Gen::Walker => {
                let at = working.get(&id).copied().unwrap_or(0);
                let slots = s.max_workers.max(1);
                nominal * (f64::from(at.min(slots)) / f64::from(slots))
            }
            Gen::Fuel { .. } => {
                let fuel = s.power.fuel.as_ref().map_or("", |f| f.good.as_str());
                let burning = self.colony.power.burning.get(&id).copied().unwrap_or(0.0);
                if burning > 0.0 || b.has(fuel) > 0 {
                    nominal
                } else {
                    0.0
                }
            }
            Gen::Constant => nominal,
        }
    }

    /// What a finished consumer asks now: its nominal input while it works (not paused; a
    /// workplace also needs a worker and working hours).
    pub(crate) fn consumer_demand(&self, b: &Building) -> f64 {
        let s = b.spec();
        if s.power.input <= 0.0 || b.paused {
            return 0.0;
        }
        if b.is_workplace() {
            let working = clock::working_at(clock::absolute(self.ticks), self.end_hours);
            if !working || b.workers.is_empty() {
                return 0.0;
            }
        }
        s.power.input
    }

    /// hp·h a battery holds when full: the catalogue's base, plus its share per empty block
    /// under it (down to the ground or the first thing standing there), capped at its maximum.
    pub(crate) fn battery_capacity(&self, b: &Building) -> f64 {
        let st = b.spec().storage.as_ref();
        let get = |k: &str| st.and_then(|v| v.get(k)).and_then(|v| v.as_f64());
        let base = get("baseHph").unwrap_or(0.0);
        let per = get("perEmptyBlockBelowHph").unwrap_or(0.0);
        let max = get("maxHph").unwrap_or(base);
        let ground = u32::from(self.map.terrain_height(b.x, b.y));
        let mut empty = 0u32;
        let mut z = b.z;
        while z > ground && !self.colony.blocks.contains_key(&voxel(b.x, b.y, z - 1)) {
            empty += 1;
            z -= 1;
        }
        (base + per * f64::from(empty)).min(max)
    }

    /// The balance of one network now.
    pub(crate) fn evaluate_net(&self, members: &[i32], working: &BTreeMap<i32, u32>) -> NetEval {
        let mut ev = NetEval {
            outputs: vec![0.0; members.len()],
            demands: vec![0.0; members.len()],
            ..NetEval::default()
        };
        let dt = hours_per_tick();
        let mut engines = Vec::new();
        for (i, m) in members.iter().enumerate() {
            let b = &self.colony.buildings[m];
            let s = b.spec();
            ev.demands[i] = self.consumer_demand(b);
            ev.demand += ev.demands[i];
            if let Some(kind) = generator_kind(s) {
                let out = self.generator_output(*m, b, working);
                if matches!(kind, Gen::Fuel { .. }) {
                    engines.push((i, out));
                } else {
                    ev.outputs[i] = out;
                    ev.supply += out;
                }
            }
            if is_battery(s) {
                ev.stored += self.colony.power.charge.get(m).copied().unwrap_or(0.0);
                ev.capacity += self.battery_capacity(b);
            }
        }
        // Engines burn fuel only while the network has demand.
        if ev.demand > 0.0 {
            for (i, out) in engines {
                if out > 0.0 {
                    ev.outputs[i] = out;
                    ev.supply += out;
                    ev.running.push(members[i]);
                }
            }
        }
        let surplus = ev.supply - ev.demand;
        if surplus >= 0.0 {
            ev.efficiency = 1.0;
            ev.charged = (surplus * dt).min((ev.capacity - ev.stored).max(0.0));
        } else {
            ev.discharged = (-surplus * dt).min(ev.stored);
            ev.efficiency = ((ev.supply + ev.discharged / dt) / ev.demand).clamp(0.0, 1.0);
        }
        ev
    }
}

/// The balance of one network at one tick.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NetEval {
    /// hp the generators give.
    pub supply: f64,
    /// hp the working consumers ask.
    pub demand: f64,
    /// hp·h in the batteries before this tick, and their room.
    pub stored: f64,
    pub capacity: f64,
    /// hp·h put into and taken from the batteries this tick.
    pub charged: f64,
    pub discharged: f64,
    /// 0-1: the share of their demand working consumers get.
    pub efficiency: f64,
    /// Per member (as `Net::members`): output and demand.
    pub outputs: Vec<f64>,
    pub demands: Vec<f64>,
    /// Engines burning fuel this tick.
    pub running: Vec<i32>,
}

impl NetEval {
    /// hp the network can deliver this tick: generators plus what the batteries hold.
    pub fn available(&self) -> f64 {
        self.supply + self.stored / hours_per_tick()
    }

    /// The share of its input a consumer gets: working consumers share the network's efficiency;
    /// an idle one gets what it would if it started now.
    pub fn share_for(&self, demanding: bool, input: f64) -> f64 {
        if demanding {
            self.efficiency
        } else if self.demand + input <= 0.0 {
            1.0
        } else {
            (self.available() / (self.demand + input)).clamp(0.0, 1.0)
        }
    }
}
