//! `Colony-v0`'s observation: map layers (arrays indexed `[y, x]`) and a vector of colony
//! numbers, written from the world into buffers the environment keeps.
//!
//! The values are the HTTP environment's (`python/colony/gym/observe.py`, which builds them from
//! `GET /api/tiles` and `GET /api/summary`), value for value: depths and shares rounded to the
//! millimetre as the tiles' json has them; plant layers 0 none, 1 seedling, 2 grown, 3 dead;
//! `buildings` the role code of the highest building on the tile that is not a path, `paths`
//! 1 for a path and 2 for stairs and platforms (role `paths`), the highest one winning;
//! `entrances` 1 on a building's doorstep; `sites` 1 where a building not yet finished stands;
//! the colony vector the summary's numbers in [`COLONY_FIELDS`] order, clamped to `[-1, 1e9]`
//! (`stock_food` every good of the food category, so both factions' foods; `hazard_days` the
//! days until the cycle's hazard begins, 0 while it is under way).

use sim::catalog::PlantKind;
use sim::{TileGrid, TilePlant, World};

/// The map layers of small codes (`u8`), in the observation's order.
pub const CODE_LAYERS: [&str; 10] = [
    "terrain",
    "moisture",
    "contaminated",
    "trees",
    "crops",
    "bushes",
    "buildings",
    "paths",
    "entrances",
    "sites",
];

/// Codes of the `buildings` layer (0: none).
pub const ROLES: [&str; 8] = [
    "district", "housing", "water", "food", "wood", "storage", "power", "others",
];

/// The `colony` vector, in order.
pub const COLONY_FIELDS: [&str; 24] = [
    "day",
    "hour",
    "adults",
    "children",
    "bots",
    "homeless",
    "beds",
    "unemployed",
    "food_days",
    "water_days",
    "log_days",
    "plank_days",
    "wellbeing",
    "miserable",
    "critical",
    "science",
    "hazardous",
    "hazard_days",
    "stock_water",
    "stock_food",
    "stock_log",
    "stock_plank",
    "buildings",
    "game_over",
];

/// The goods `stock_food` counts: every good of the food category (both factions').
pub fn foods() -> Vec<&'static str> {
    sim::content::content()
        .goods
        .iter()
        .filter(|(g, _)| sim::colony::is_food(g))
        .map(|(g, _)| g.as_str())
        .collect()
}

/// The deepest water (and highest terrain) the layers show.
pub const MAX_Z: f64 = 30.0;

const TERRAIN: usize = 0;
const MOISTURE: usize = 1;
const CONTAMINATED: usize = 2;
const TREES: usize = 3;
const CROPS: usize = 4;
const BUSHES: usize = 5;
const BUILDINGS: usize = 6;
const PATHS: usize = 7;
const ENTRANCES: usize = 8;
const SITES: usize = 9;

/// Indices in the colony vector.
pub mod field {
    pub const DAY: usize = 0;
    pub const ADULTS: usize = 2;
    pub const CHILDREN: usize = 3;
    pub const BOTS: usize = 4;
    pub const GAME_OVER: usize = 23;
}

/// One observation.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Observation {
    pub width: u32,
    pub height: u32,
    /// The [`CODE_LAYERS`], one after the other, each `height * width`.
    pub codes: Vec<u8>,
    pub water: Vec<f32>,
    pub badwater: Vec<f32>,
    pub colony: [f32; 24],
    /// The first district center's doorstep (where paths are laid from).
    pub entrance: Option<(u32, u32)>,
}

impl Observation {
    /// One code layer by its [`CODE_LAYERS`] index.
    pub fn layer(&self, k: usize) -> &[u8] {
        let n = (self.width * self.height) as usize;
        &self.codes[k * n..(k + 1) * n]
    }

    /// Whether everyone has died (`game_over`, or nobody alive).
    pub fn over(&self) -> bool {
        let c = &self.colony;
        c[field::GAME_OVER] != 0.0 || c[field::ADULTS] + c[field::CHILDREN] + c[field::BOTS] == 0.0
    }

    /// The game day.
    pub fn day(&self) -> u32 {
        self.colony[field::DAY] as u32
    }
}

/// Depths and shares to a millimetre, as the tiles' json has them.
fn round3(v: f32) -> f64 {
    (f64::from(v) * 1000.0).round() / 1000.0
}

/// A plant's code on its layer.
fn plant_code(alive: bool, seedling: bool) -> u8 {
    if !alive {
        3
    } else if seedling {
        1
    } else {
        2
    }
}

/// The `buildings` code of a catalogue role, or `None` for the `paths` layer.
fn role_code(role: &str) -> Option<u8> {
    if role == "paths" {
        return None;
    }
    let i = ROLES
        .iter()
        .position(|r| *r == role)
        .unwrap_or(ROLES.len() - 1);
    Some(i as u8 + 1)
}

/// Writes observations; keeps the tile grid's arrays from one to the next.
#[derive(Default, Clone)]
pub struct Observer {
    grid: TileGrid,
    /// The highest block's z + 1 on each tile, per layer (buildings, paths); 0 none.
    top: [Vec<u32>; 2],
}

impl Observer {
    /// Observes `w` into `out`.
    pub fn observe(&mut self, w: &World, out: &mut Observation) {
        w.fill_tile_grid(&mut self.grid);
        let g = &self.grid;
        let n = (g.width * g.height) as usize;
        out.width = g.width;
        out.height = g.height;
        out.codes.clear();
        out.codes.resize(n * CODE_LAYERS.len(), 0);
        out.codes[TERRAIN * n..(TERRAIN + 1) * n].copy_from_slice(&g.terrain);
        out.water.clear();
        out.water
            .extend(g.water.iter().map(|d| round3(*d).min(MAX_Z) as f32));
        out.badwater.clear();
        out.badwater
            .extend(g.badwater.iter().map(|s| round3(*s) as f32));
        for i in 0..n {
            out.codes[MOISTURE * n + i] = u8::from(g.moist[i]);
            out.codes[CONTAMINATED * n + i] = u8::from(g.contaminated[i]);
            out.codes[ENTRANCES * n + i] = u8::from(g.entrance[i]);
            if let TilePlant::Plant {
                kind,
                alive,
                seedling,
            } = g.plant[i]
            {
                let layer = match kind {
                    PlantKind::Tree => TREES,
                    PlantKind::Bush => BUSHES,
                    PlantKind::Crop => CROPS,
                };
                out.codes[layer * n + i] = plant_code(alive, seedling);
            }
        }
        for t in &mut self.top {
            t.clear();
            t.resize(n, 0);
        }
        for ((x, y, z), b) in w.blocks() {
            let i = (y * g.width + x) as usize;
            let name = b.prefab.name();
            let (layer, code) = if name == "Path" {
                (PATHS, 1)
            } else {
                match role_code(&b.spec().role) {
                    Some(c) => (BUILDINGS, c),
                    None => (PATHS, 2),
                }
            };
            if !b.finished {
                out.codes[SITES * n + i] = 1;
            }
            let top = &mut self.top[usize::from(layer == PATHS)][i];
            if z + 1 > *top {
                *top = z + 1;
                out.codes[layer * n + i] = code;
            }
        }
        colony_numbers(w, out);
    }
}

/// The `colony` vector and the first district's doorstep, from the summary's numbers.
fn colony_numbers(w: &World, out: &mut Observation) {
    let colony = w.colony_summary();
    let t = w.time();
    let (mut adults, mut children, mut bots) = (0, 0, 0);
    let (mut homeless, mut beds, mut unemployed) = (0, 0, 0);
    let mut stock = std::collections::BTreeMap::<&str, u32>::new();
    for d in &colony.districts {
        adults += d.adults;
        children += d.children;
        bots += d.bots;
        homeless += d.homeless;
        beds += d.total_beds;
        unemployed += d.unemployed;
        for (g, (_, all)) in &d.resources {
            *stock.entry(g.as_str()).or_default() += all;
        }
    }
    out.entrance = colony
        .districts
        .first()
        .map(|d| (d.entrance[0], d.entrance[1]));
    let beavers = colony.districts.iter().map(|d| d.adults + d.children).sum();
    let (food_days, water_days) = w.stock_days(&colony.stock, beavers);
    let flows = w.flows();
    let at_use = |g: &str| sim::history::days_at_use(&colony.stock, &flows, g);
    let of = |g: &str| f64::from(stock.get(g).copied().unwrap_or(0));
    let food: f64 = stock
        .iter()
        .filter(|(g, _)| sim::colony::is_food(g))
        .map(|(_, n)| f64::from(*n))
        .sum();
    let weather = w.weather();
    let hazard_days = match weather.hours_until_hazard {
        Some(h) => h / 24.0,
        None if weather.is_hazardous => 0.0,
        None => -1.0,
    };
    let values = [
        f64::from(t.day_number),
        t.hour,
        f64::from(adults),
        f64::from(children),
        f64::from(bots),
        f64::from(homeless),
        f64::from(beds),
        f64::from(unemployed),
        food_days,
        water_days,
        at_use("Log"),
        at_use("Plank"),
        colony.average,
        f64::from(colony.miserable),
        f64::from(colony.critical),
        f64::from(w.science_points()),
        f64::from(u8::from(weather.is_hazardous)),
        hazard_days,
        of("Water"),
        food,
        of("Log"),
        of("Plank"),
        f64::from(colony.roles.iter().sum::<u32>()),
        f64::from(u8::from(w.colony_game_over())),
    ];
    for (o, v) in out.colony.iter_mut().zip(values) {
        *o = v.clamp(-1.0, 1e9) as f32;
    }
}
