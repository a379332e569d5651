//! The shape of the power networks (which finished power buildings touch) and the balance of one
//! network at one moment (what its generators give, what its consumers ask, what its batteries
//! hold). Both are pure functions of the world; `power::World::power_tick` stores and applies them.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::sync::OnceLock;

use super::rules::power_rules;
use crate::clock::{self, ticks_per_hour};
use crate::colony::Step;
use crate::colony::building::Building;
use crate::colony::geometry::{footprint, turned_size, voxel};
use crate::content::{Building as Spec, content};
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

/// What the power rules need of a prefab, read once from the catalogue (looking a spec up by
/// name and scanning its components every tick would cost more than the power step itself).
#[derive(Debug, Clone)]
pub struct PrefabPower {
    pub node: bool,
    pub generator: Option<Gen>,
    pub clutch: bool,
    pub battery: bool,
    pub vertical: bool,
    pub input: f64,
    pub output: f64,
    pub workplace: bool,
    pub max_workers: u32,
    /// Engines: the good they burn.
    pub fuel: Option<&'static str>,
}

/// The power facts of a prefab.
pub fn prefab_power(name: &str) -> &'static PrefabPower {
    static TABLE: OnceLock<HashMap<&'static str, PrefabPower>> = OnceLock::new();
    let t = TABLE.get_or_init(|| {
        content()
            .buildings
            .values()
            .map(|s| {
                (
                    s.name.as_str(),
                    PrefabPower {
                        node: is_node(s),
                        generator: generator_kind(s),
                        clutch: is_clutch(s),
                        battery: is_battery(s),
                        vertical: is_vertical_shaft(s),
                        input: s.power.input,
                        output: s.power.output,
                        workplace: s.max_workers > 0,
                        max_workers: s.max_workers,
                        fuel: s.power.fuel.as_ref().map(|f| f.good.as_str()),
                    },
                )
            })
            .collect()
    });
    &t[name]
}

/// The tiles under a water wheel and the footprint's length along x and y.
pub type WheelTiles = (Box<[(u32, u32)]>, u32, u32);

/// One building of a network with its prefab's power facts and, for water wheels, the tiles
/// under it.
#[derive(Debug, Clone)]
pub struct Part {
    pub id: i32,
    pub p: &'static PrefabPower,
    /// Water wheels: footprint tiles and the footprint's length along x and y.
    pub tiles: Option<WheelTiles>,
    /// Batteries: hp·h they hold when full (depends on the blocks under them, so it is read
    /// when the shape is built).
    pub capacity: f64,
}

/// What every network's balance depends on this tick, read once.
pub struct Env {
    /// Workers on a shift, by workplace (only counted when a power wheel exists).
    pub working: BTreeMap<i32, u32>,
    pub wind: f64,
    pub working_hours: bool,
}

/// Game hours one tick lasts.
pub fn hours_per_tick() -> f64 {
    1.0 / ticks_per_hour() as f64
}

/// One network: its identity (the smallest building id in it) and its buildings in id order.
#[derive(Debug, Clone)]
pub struct Net {
    pub id: i32,
    pub members: Vec<i32>,
    /// Per member, in the same order.
    pub parts: Vec<Part>,
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
    /// A finished part of the power system, with its prefab's power facts.
    pub(crate) fn power_node(&self, id: i32) -> Option<(&Building, &'static PrefabPower)> {
        let b = self.colony.buildings.get(&id)?;
        if !b.finished {
            return None;
        }
        let p = prefab_power(&b.prefab);
        p.node.then_some((b, p))
    }

    /// Whether a node passes power on (a disengaged clutch does not).
    fn conducts(&self, id: i32, p: &PrefabPower) -> bool {
        !(p.clutch && self.colony.power.disengaged.contains(&id))
    }

    /// The nodes a finished node is linked to: any node whose voxels touch its voxels side to
    /// side on one level, and, through vertical shafts only, the node right above or below.
    pub(crate) fn power_links(&self, id: i32, out: &mut Vec<i32>) {
        out.clear();
        let Some((b, p)) = self.power_node(id) else {
            return;
        };
        if !self.conducts(id, p) {
            return;
        }
        let s = b.spec();
        let h = s.size.z.max(1);
        let consider = |o: i32, need_vertical: bool, out: &mut Vec<i32>| {
            if o == id || out.last() == Some(&o) {
                return;
            }
            if let Some((_, op)) = self.power_node(o)
                && self.conducts(o, op)
                && (!need_vertical || p.vertical || op.vertical)
            {
                out.push(o);
            }
        };
        let tiles = footprint(s, b.x.into(), b.y.into(), b.orientation);
        for (x, y) in tiles {
            for (dx, dy) in [(1i64, 0i64), (-1, 0), (0, 1), (0, -1)] {
                let (nx, ny) = (x + dx, y + dy);
                if nx < 0 || ny < 0 || tiles.contains(&(nx, ny)) {
                    continue;
                }
                for z in b.z..b.z + h {
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

    /// A network from its sorted members, with what each part needs per tick read once.
    pub(crate) fn power_net(&self, members: Vec<i32>) -> Net {
        let parts = members
            .iter()
            .map(|id| {
                let b = &self.colony.buildings[id];
                let p = prefab_power(&b.prefab);
                let tiles = (p.generator == Some(Gen::Water)).then(|| {
                    let s = b.spec();
                    let (lx, ly) = turned_size(s, b.orientation);
                    let t: Box<[(u32, u32)]> = footprint(s, b.x.into(), b.y.into(), b.orientation)
                        .into_iter()
                        .map(|(x, y)| (x as u32, y as u32))
                        .collect();
                    (t, lx, ly)
                });
                Part {
                    id: *id,
                    p,
                    tiles,
                    capacity: if p.battery {
                        self.battery_capacity(b)
                    } else {
                        0.0
                    },
                }
            })
            .collect();
        Net {
            id: members[0],
            members,
            parts,
        }
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
            if !b.finished || seen.contains(id) || !prefab_power(&b.prefab).node {
                continue;
            }
            // Ids ascend, so the first id reached is the smallest of its network.
            let net = self.power_net(self.power_component(*id, &mut seen));
            let n = grid.nets.len() as u32;
            for (i, part) in net.parts.iter().enumerate() {
                grid.of.insert(part.id, (n, i as u32));
                grid.has_walkers |= part.p.generator == Some(Gen::Walker);
            }
            grid.nets.push(net);
        }
        grid
    }

    /// What the balance of every network depends on this tick.
    pub(crate) fn power_env(&self, walkers: bool) -> Env {
        Env {
            working: if walkers {
                self.workers_working()
            } else {
                BTreeMap::new()
            },
            wind: self.wind().strength,
            working_hours: clock::working_at(clock::absolute(self.ticks), self.end_hours),
        }
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
    /// footprint, averaged over its length, on both axes (as the wheel at this spot would see).
    #[cfg(test)]
    pub(crate) fn flow_through(&self, b: &Building) -> f64 {
        self.flow_at_spot(b.spec(), b.x, b.y, b.orientation)
    }

    /// m3/s a prefab placed at `(x, y)` facing `o` would see flowing through its footprint (as
    /// `flow_through`; tiles off the map count nothing).
    pub(crate) fn flow_at_spot(
        &self,
        s: &Spec,
        x: u32,
        y: u32,
        o: crate::colony::geometry::Orientation,
    ) -> f64 {
        let (lx, ly) = turned_size(s, o);
        let tiles: Vec<(u32, u32)> = footprint(s, x.into(), y.into(), o)
            .into_iter()
            .filter(|(tx, ty)| self.map.contains(*tx, *ty))
            .map(|(x, y)| (x as u32, y as u32))
            .collect();
        self.flow_over(&tiles, lx, ly)
    }

    fn flow_over(&self, tiles: &[(u32, u32)], lx: u32, ly: u32) -> f64 {
        let (mut fx, mut fy) = (0.0f64, 0.0f64);
        for &(x, y) in tiles {
            let f = self.water_flow(x, y);
            fx += f64::from(f.x);
            fy += f64::from(f.y);
        }
        (fx / f64::from(lx.max(1))).hypot(fy / f64::from(ly.max(1)))
    }

    /// What a finished generator can give now (engines: if they have fuel; `evaluate_net` runs
    /// them only when the network has demand).
    fn generator_output(&self, part: &Part, b: &Building, env: &Env) -> f64 {
        let Some(kind) = part.p.generator else {
            return 0.0;
        };
        if b.paused {
            return 0.0;
        }
        let nominal = part.p.output;
        match kind {
            Gen::Water => {
                let r = power_rules();
                let q = part
                    .tiles
                    .as_ref()
                    .map_or(0.0, |(t, lx, ly)| self.flow_over(t, *lx, *ly));
                if q < r.water_wheel_min_flow.value {
                    0.0
                } else {
                    nominal * (q / r.water_wheel_reference_flow.value).clamp(0.0, 1.0)
                }
            }
            Gen::Wind { min } => {
                if env.wind < min || env.wind <= 0.0 {
                    0.0
                } else {
                    nominal * env.wind.min(1.0)
                }
            }
            Gen::Walker => {
                let at = env.working.get(&part.id).copied().unwrap_or(0);
                let slots = part.p.max_workers.max(1);
                nominal * (f64::from(at.min(slots)) / f64::from(slots))
            }
            Gen::Fuel { .. } => {
                let burning = self
                    .colony
                    .power
                    .burning
                    .get(&part.id)
                    .copied()
                    .unwrap_or(0.0);
                if burning > 0.0 || part.p.fuel.is_some_and(|g| b.has(g) > 0) {
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
    fn consumer_demand(&self, part: &Part, b: &Building, env: &Env) -> f64 {
        let p = part.p;
        if p.input <= 0.0 || b.paused || p.workplace && (!env.working_hours || b.workers.is_empty())
        {
            return 0.0;
        }
        p.input
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
    pub(crate) fn evaluate_net(&self, net: &Net, env: &Env) -> NetEval {
        let n = net.parts.len();
        let mut ev = NetEval {
            outputs: vec![0.0; n],
            demands: vec![0.0; n],
            ..NetEval::default()
        };
        let dt = hours_per_tick();
        let mut engines = Vec::new();
        for (i, part) in net.parts.iter().enumerate() {
            let p = part.p;
            if p.input <= 0.0 && p.generator.is_none() && !p.battery {
                continue;
            }
            let b = &self.colony.buildings[&part.id];
            ev.demands[i] = self.consumer_demand(part, b, env);
            ev.demand += ev.demands[i];
            if let Some(kind) = p.generator {
                let out = self.generator_output(part, b, env);
                if matches!(kind, Gen::Fuel { .. }) {
                    engines.push((i, out));
                } else {
                    ev.outputs[i] = out;
                    ev.supply += out;
                }
            }
            if p.battery {
                ev.stored += self
                    .colony
                    .power
                    .charge
                    .get(&part.id)
                    .copied()
                    .unwrap_or(0.0);
                ev.capacity += part.capacity;
            }
        }
        // Engines burn fuel only while the network has demand.
        if ev.demand > 0.0 {
            for (i, out) in engines {
                if out > 0.0 {
                    ev.outputs[i] = out;
                    ev.supply += out;
                    ev.running.push(net.parts[i].id);
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
