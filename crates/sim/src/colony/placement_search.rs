//! The placement search (`POST /api/placement/find`): every tile and orientation of an area
//! checked with the placement rules, the spots that stand ranked by what the building would
//! have in reach, whether it can be joined to the district, its distance and the contract's
//! keys, and the best ten tiles answered; when none stands, why (the reasons tallied).

use serde::Serialize;

use super::building::{Kind, work_range};
use super::geometry::{Orientation, voxel};
use super::nav::manhattan;
use crate::content::content;
use crate::error::CommandError;
use crate::world::World;

/// One placement candidate of `/api/placement/find`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlacementSpot {
    pub x: u32,
    pub y: u32,
    pub z: u32,
    pub orientation: &'static str,
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
    /// ground (0 on the network; -1 when no path can reach it, or when the doorstep stands
    /// above or below the ground of its tile, where a path laid on the ground would not join it).
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

/// How many spots a search answers (the best orientation of each tile).
const MAX_SPOTS: usize = 10;

/// A search stops after the tile at which this many spots have stood.
const SCAN_LIMIT: u32 = 20_000;

/// The first `n` spots of distinct tiles in the order `cmp` sorts them (ties: the earlier
/// spot), each tile by its best orientation: what a stable sort of every spot, keeping the first
/// of each tile, would list, without sorting them all. `spots` lists each tile's orientations
/// one after another (a search scans tile by tile).
fn best_distinct<T: Tile>(
    spots: Vec<T>,
    n: usize,
    cmp: impl Fn(&T, &T) -> std::cmp::Ordering,
) -> Vec<T> {
    // Each tile's best orientation (the first of equals).
    let mut best: Vec<usize> = Vec::new();
    for i in 0..spots.len() {
        match best.last_mut() {
            Some(j) if spots[*j].tile() == spots[i].tile() => {
                if cmp(&spots[i], &spots[*j]).is_lt() {
                    *j = i;
                }
            }
            _ => best.push(i),
        }
    }
    let order = |a: &usize, b: &usize| cmp(&spots[*a], &spots[*b]).then(a.cmp(b));
    if best.len() > n {
        best.select_nth_unstable_by(n, order);
        best.truncate(n);
    }
    best.sort_by(order);
    // The chosen spots moved out in one pass, then put in their order.
    let mut chosen: Vec<(usize, usize)> = best.iter().enumerate().map(|(k, i)| (*i, k)).collect();
    chosen.sort_unstable();
    let mut picked: Vec<(usize, T)> = Vec::with_capacity(chosen.len());
    let mut next = chosen.iter().peekable();
    for (i, spot) in spots.into_iter().enumerate() {
        if let Some(&&(at, k)) = next.peek()
            && at == i
        {
            picked.push((k, spot));
            next.next();
        }
    }
    picked.sort_unstable_by_key(|(k, _)| *k);
    picked.into_iter().map(|(_, spot)| spot).collect()
}

/// A spot's tile (for [`best_distinct`]).
trait Tile {
    fn tile(&self) -> (u32, u32);
}

impl Tile for PlacementSpot {
    fn tile(&self) -> (u32, u32) {
        (self.x, self.y)
    }
}

impl World {
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

    /// Up to 10 valid placements of a prefab in an area, distinct tiles, best first (the
    /// placement-order ruling: an unreachable spot never outranks a reachable one). Water
    /// buildings (pumps): reachable now first, then joinable by a new path, then intake depth,
    /// deepest first, and only spots with water. Others: not flooded, then reachable now, then
    /// joinable by a new path, then what lies in reach for buildings that work with something
    /// there, most first (`reach::InReach::rank`: lumberjacks grown trees, gatherers ripe bushes,
    /// farmhouses crops and plantable soil, foresters plantable soil and saplings, scavengers
    /// ruins, water wheels the flow under the wheel; spots with nothing in reach, and wheels on
    /// dry land or still water, are not offered), then distance, path access, near power; ties
    /// go to the spot nearest the district center. With no spot, `none` says what blocked.
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
        let water = super::placement_mask::seeks_water(s);
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
        // (Sized for every tile and orientation of the area, as far as the scan goes: growing
        // it spot by spot copied it a dozen times.)
        let area_tiles = (area.x2 - area.x1 + 1) as usize * (area.y2 - area.y1 + 1) as usize;
        let turns = Orientation::ALL.len();
        let candidates = (area_tiles * turns).min(SCAN_LIMIT as usize + turns);
        let mut found: Vec<PlacementSpot> = Vec::with_capacity(candidates);
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
                let p = match self.check_spot(s, &traits, water, x, y, o) {
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
                let door_blocked = door.is_some_and(|d| self.door_blocked(d, p.z));
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
                    orientation: o.as_str(),
                    entrance_x: ex,
                    entrance_y: ey,
                    path_access: u8::from(path_access),
                    reachable: u8::from(distance >= 0.0),
                    near_power: self.near_power(&s.name, p.x, p.y, p.z, o, &powered),
                    // Pumps and wheels stand in water by design.
                    flooded: u8::from(flooded && !water && purpose != Some(Purpose::Flow)),
                    water_depth: None,
                    distance,
                    // A new path is laid on the ground, so it joins a doorstep only at the
                    // ground's level (a building on a ledge whose doorstep hangs over lower
                    // ground is joined by no new path: the path runs under the doorstep).
                    ground_steps: ground
                        .as_ref()
                        .filter(|_| doorless || door_v.is_some_and(|d| self.on_ground(d)))
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
            if scanned > SCAN_LIMIT {
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
                    Orientation::parse(f.orientation).expect("valid"),
                );
                found[i].water_depth = Some(depth);
            }
            let before = found.len();
            found.retain(|f| f.water_depth.unwrap_or(0.0) > 0.0);
            for _ in found.len()..before {
                block("no_water");
            }
            found = best_distinct(found, MAX_SPOTS, |a, b| {
                b.reachable
                    .cmp(&a.reachable)
                    .then(joinable(b).cmp(&joinable(a)))
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
            let key = |p: &PlacementSpot| {
                let distance = if p.distance >= 0.0 {
                    p.distance
                } else if p.ground_steps >= 0 {
                    p.ground_steps as f64
                } else {
                    f64::MAX
                };
                (
                    p.flooded,
                    // The contract's order: reachable now first; then joinable by a new path;
                    // among spots equal on these, the most in reach first.
                    (1 - p.reachable, u8::from(!joinable(p)), rank(p)),
                    distance.to_bits(),
                    (1 - p.path_access, 1 - p.near_power),
                    near(p),
                    (p.y, p.x),
                )
            };
            // (Keys are worked out as they are compared: a few comparisons a spot, cheaper than
            // a list of them.)
            found = best_distinct(found, MAX_SPOTS, |a, b| key(a).cmp(&key(b)));
        }
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
                "no spot {at} has water flowing under {name}'s wheel (at least {} m3/s; still water turns nothing): search on the river where it runs (GET /api/tiles shows water), not on pools or dry land",
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
}

#[cfg(test)]
mod tests {
    use super::{Tile, best_distinct};

    /// A spot of the test: its tile and a rank (lower first).
    #[derive(Debug, Clone, Copy, PartialEq)]
    struct Spot {
        x: u32,
        y: u32,
        rank: u64,
        id: usize,
    }

    impl Tile for Spot {
        fn tile(&self) -> (u32, u32) {
            (self.x, self.y)
        }
    }

    /// The best distinct tiles are those a stable sort of every spot keeping each tile's
    /// first lists, ties included.
    #[test]
    fn the_best_distinct_tiles_are_the_sorted_and_deduplicated_ones() {
        let mut next = crate::testutil::lcg(7);
        for round in 0..200 {
            let mut spots = Vec::new();
            for t in 0..(round % 37) as u32 {
                for _ in 0..1 + next(4) {
                    let id = spots.len();
                    // Few ranks, so ties between tiles and within one are common.
                    let rank = next(5) as u64;
                    spots.push(Spot {
                        x: t % 6,
                        y: t / 6,
                        rank,
                        id,
                    });
                }
            }
            let by_rank = |a: &Spot, b: &Spot| a.rank.cmp(&b.rank);
            let mut want = spots.clone();
            want.sort_by(by_rank);
            let mut seen = std::collections::BTreeSet::new();
            want.retain(|s| seen.insert(s.tile()));
            for n in [0, 1, 3, 10, 100] {
                let got = best_distinct(spots.clone(), n, by_rank);
                let first: Vec<Spot> = want.iter().take(n).copied().collect();
                assert_eq!(got, first, "round {round}, {n} spots");
            }
        }
    }
}
