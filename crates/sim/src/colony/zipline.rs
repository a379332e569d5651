//! Ziplines: cables between zipline towers (the catalogue's `ZiplineTowerSpec`: the Folktails'
//! `ZiplineStation`, `ZiplinePylon` and `ZiplineBeam`) that beavers ride at the zipline
//! multiplier (`data/colony.json` `movement.ziplineMultiplier`, 2.5x walking speed).
//!
//! - **Connecting** ([`World::zipline_connect`], the extension route `POST /api/zipline/connect
//!   {from, to}`; the game's player strings the cable from a tower's panel): two distinct towers,
//!   sites or finished, not already joined, each with a cable to spare (`ways.
//!   ziplineMaxConnections` by tower), at most `ways.ziplineMaxCableTiles` apart (between the
//!   centres of their top blocks), with a clear line: every point of the straight cable between
//!   those centres, sampled every tenth of a tile, lies above the terrain and in no block of
//!   another building. [`World::zipline_disconnect`] (`POST /api/zipline/disconnect`) takes a
//!   cable down; demolishing a tower takes its cables with it.
//! - **Riding**: a cable is usable once both its towers are finished; then `zipline.activated`
//!   `{from, to, length}` fires (at the connection, or when the second tower is finished). The
//!   walking graph (`nav`) gets an edge between the two towers' cable nodes costing the cable's
//!   length over the multiplier. Beavers get on and off only at stations (pylons and beams carry
//!   the line; the catalogue gives only stations `ZiplineStationSpec` and an entrance): a
//!   station's cable node is joined to its doorstep by an edge of `ways.ziplineBoardingTiles`.
//! - **State** (saved, in the state hash): the connected pairs (`Colony::ziplines`). The graph's
//!   edges are derived from them and rebuilt when they or the blocks change.

use std::collections::BTreeSet;

use serde::Serialize;
use serde_json::json;

use super::building::Building;
use super::geometry::{footprint, voxel};
use super::nav::{Link, STEP};
use super::rules::colony_rules;
use crate::error::{CommandError, ErrorCode};
use crate::event::names;
use crate::world::World;

/// Whether a building is a zipline tower.
pub fn is_tower(b: &Building) -> bool {
    b.spec().components.iter().any(|c| c == "ZiplineTowerSpec")
}

/// Whether a building is a zipline station (where beavers get on and off).
pub fn is_station(b: &Building) -> bool {
    b.spec()
        .components
        .iter()
        .any(|c| c == "ZiplineStationSpec")
}

/// The cables a tower takes.
fn max_connections(b: &Building) -> u32 {
    colony_rules()
        .ways
        .zipline_max_connections
        .value
        .get(&b.spec().base_name)
        .copied()
        .unwrap_or(2)
}

/// The centre of a tower's top block, in tiles (x, y, z).
fn anchor(b: &Building) -> [f64; 3] {
    let s = b.spec();
    let tiles = footprint(s, b.x.into(), b.y.into(), b.orientation);
    let n = tiles.len().max(1) as f64;
    let cx = tiles.iter().map(|t| t.0 as f64).sum::<f64>() / n + 0.5;
    let cy = tiles.iter().map(|t| t.1 as f64).sum::<f64>() / n + 0.5;
    [cx, cy, f64::from(b.z + s.size.z) - 0.5]
}

/// The straight length of a cable between two towers, in tiles.
fn length(a: &Building, b: &Building) -> f64 {
    let (p, q) = (anchor(a), anchor(b));
    ((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2) + (p[2] - q[2]).powi(2)).sqrt()
}

/// The node a tower's cable ends at: the voxel above its origin (nothing walks there).
fn cable_node(b: &Building) -> u64 {
    voxel(b.x, b.y, b.z + b.spec().size.z)
}

/// An ordered pair.
fn pair(a: i32, b: i32) -> (i32, i32) {
    if a < b { (a, b) } else { (b, a) }
}

/// One cable of a tower (`zipline.connections` of the building view).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CableView {
    /// The tower at the other end.
    pub id: i32,
    pub name: String,
    /// Tiles between the two towers' tops.
    pub length: f64,
    /// Both towers finished: beavers ride it.
    pub usable: bool,
}

/// The `zipline` object of a tower's building view.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TowerView {
    /// Beavers get on and off here (stations only).
    pub boarding: bool,
    pub max_connections: u32,
    pub connections: Vec<CableView>,
}

/// `POST /api/zipline/connect` and `disconnect` answers.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConnectView {
    pub from: i32,
    pub to: i32,
    pub length: f64,
    pub connected: bool,
    pub usable: bool,
}

/// A rounded length (two decimals), for views and events.
fn shown(l: f64) -> f64 {
    (l * 100.0).round() / 100.0
}

impl super::Colony {
    /// The usable cables (both towers finished) and the stations' boarding links, for the
    /// walking graph, in pair order.
    pub(crate) fn zipline_links(&self) -> (Vec<Link>, Vec<Link>) {
        let (mut cables, mut boarding) = (Vec::new(), Vec::new());
        if self.ziplines.is_empty() {
            return (cables, boarding);
        }
        let ways = &colony_rules().ways;
        let speed = colony_rules().movement.zipline_multiplier.value.max(0.01);
        let board = ((ways.zipline_boarding_tiles.value * f64::from(STEP)).round() as u32).max(1);
        let mut stations = BTreeSet::new();
        for (a, b) in &self.ziplines {
            let (Some(ta), Some(tb)) = (self.buildings.get(a), self.buildings.get(b)) else {
                continue;
            };
            if !(ta.finished && tb.finished) {
                continue;
            }
            let cost = ((length(ta, tb) / speed * f64::from(STEP)).round() as u32).max(1);
            cables.push(Link {
                a: cable_node(ta),
                b: cable_node(tb),
                cost,
            });
            for t in [*a, *b] {
                stations.insert(t);
            }
        }
        for id in stations {
            let t = &self.buildings[&id];
            if let Some([x, y, z]) = is_station(t).then(|| self.door(id)).flatten() {
                boarding.push(Link {
                    a: cable_node(t),
                    b: voxel(x, y, z),
                    cost: board,
                });
            }
        }
        (cables, boarding)
    }
}

impl World {
    /// A tower or `invalid_type`.
    fn tower(&self, id: i32) -> Result<&Building, CommandError> {
        let b = self.colony.building(id)?;
        if !is_tower(b) {
            return Err(CommandError::new(
                ErrorCode::InvalidType,
                format!(
                    "{} #{id} is not a zipline tower; cables join ZiplineStation, ZiplinePylon \
                     and ZiplineBeam buildings",
                    b.prefab
                ),
            )
            .with("id", id)
            .with("name", b.prefab.to_string()));
        }
        Ok(b)
    }

    /// Whether the straight cable between two towers' tops is clear of terrain and of every
    /// other building's blocks.
    fn cable_clear(&self, a: &Building, b: &Building, ids: (i32, i32)) -> bool {
        let (p, q) = (anchor(a), anchor(b));
        let len = length(a, b);
        let samples = (len * 10.0).ceil().max(1.0) as u32;
        for i in 0..=samples {
            let f = f64::from(i) / f64::from(samples);
            let at = |k: usize| p[k] + (q[k] - p[k]) * f;
            let (x, y, z) = (at(0).floor(), at(1).floor(), at(2).floor());
            if x < 0.0 || y < 0.0 || z < 0.0 {
                return false;
            }
            let (x, y, z) = (x as u32, y as u32, z as u32);
            if x >= self.map.width() || y >= self.map.height() {
                return false;
            }
            if z < u32::from(self.map.terrain_height(x, y)) {
                return false;
            }
            if let Some(id) = self.colony.blocks.get(&voxel(x, y, z))
                && *id != ids.0
                && *id != ids.1
            {
                return false;
            }
        }
        true
    }

    /// Strings a cable between two zipline towers. Errors (nothing changes): `not_found`,
    /// `invalid_type` (not a tower), `invalid_param` (the same tower twice, already joined, too
    /// long, blocked, a tower with no cable to spare).
    pub fn zipline_connect(&mut self, from: i32, to: i32) -> Result<ConnectView, CommandError> {
        let (a, b) = (self.tower(from)?, self.tower(to)?);
        if from == to {
            return Err(CommandError::invalid_param(
                format!("a cable joins two towers; #{from} was given twice"),
                to,
            ));
        }
        let key = pair(from, to);
        if self.colony.ziplines.contains(&key) {
            return Err(CommandError::invalid_param(
                format!(
                    "#{from} and #{to} are already joined (GET /api/buildings/{from}: zipline)"
                ),
                to,
            ));
        }
        let len = length(a, b);
        let max = colony_rules().ways.zipline_max_cable_tiles.value;
        if len > max {
            return Err(CommandError::invalid_param(
                format!(
                    "{} #{from} and {} #{to} are {:.1} tiles apart; a cable spans at most {max} \
                     tiles: put a ZiplinePylon between them",
                    a.prefab, b.prefab, len
                ),
                to,
            ));
        }
        for (id, t) in [(from, a), (to, b)] {
            let used = self
                .colony
                .ziplines
                .iter()
                .filter(|(p, q)| *p == id || *q == id)
                .count() as u32;
            let most = max_connections(t);
            if used >= most {
                return Err(CommandError::invalid_param(
                    format!(
                        "{} #{id} already holds {used} cables, its most; disconnect one first \
                         (POST /api/zipline/disconnect)",
                        t.prefab
                    ),
                    id,
                ));
            }
        }
        if !self.cable_clear(a, b, key) {
            return Err(CommandError::invalid_param(
                format!(
                    "the line between {} #{from} and {} #{to} is blocked by terrain or a \
                     building; raise a tower or move it so the cable runs clear",
                    a.prefab, b.prefab
                ),
                to,
            ));
        }
        let usable = a.finished && b.finished;
        self.colony.ziplines.insert(key);
        self.ziplines_changed();
        if usable {
            self.zipline_activated(key);
        }
        Ok(ConnectView {
            from,
            to,
            length: shown(len),
            connected: true,
            usable,
        })
    }

    /// Takes down the cable between two towers. Errors (nothing changes): `not_found`,
    /// `invalid_type` (not a tower), `invalid_param` (not joined).
    pub fn zipline_disconnect(&mut self, from: i32, to: i32) -> Result<ConnectView, CommandError> {
        let (a, b) = (self.tower(from)?, self.tower(to)?);
        let len = length(a, b);
        let key = pair(from, to);
        if !self.colony.ziplines.contains(&key) {
            return Err(CommandError::invalid_param(
                format!(
                    "#{from} and #{to} are not joined by a cable (GET /api/buildings/{from}: \
                     zipline.connections)"
                ),
                to,
            ));
        }
        self.colony.ziplines.remove(&key);
        self.ziplines_changed();
        Ok(ConnectView {
            from,
            to,
            length: shown(len),
            connected: false,
            usable: false,
        })
    }

    /// The walking graph and the districts follow a change of cables.
    fn ziplines_changed(&mut self) {
        self.colony.block_version += 1;
        self.colony.layout_version += 1;
        self.refresh_districts_announced();
    }

    /// `zipline.activated` for a cable that became usable.
    fn zipline_activated(&mut self, (a, b): (i32, i32)) {
        let (Some(ta), Some(tb)) = (self.colony.buildings.get(&a), self.colony.buildings.get(&b))
        else {
            return;
        };
        let len = shown(length(ta, tb));
        let day = self.day();
        self.events.push(
            names::ZIPLINE_ACTIVATED,
            day,
            json!({ "from": a, "to": b, "length": len }),
        );
    }

    /// A tower was finished: its cables to finished towers become usable.
    pub(crate) fn zipline_tower_finished(&mut self, id: i32) {
        let now: Vec<(i32, i32)> = self
            .colony
            .ziplines
            .iter()
            .filter(|(a, b)| {
                let other = if *a == id { *b } else { *a };
                (*a == id || *b == id)
                    && self
                        .colony
                        .buildings
                        .get(&other)
                        .is_some_and(|o| o.finished)
            })
            .copied()
            .collect();
        if now.is_empty() {
            return;
        }
        self.ziplines_changed();
        for key in now {
            self.zipline_activated(key);
        }
    }

    /// A tower is going: its cables go with it (the caller refreshes the graph).
    pub(crate) fn zipline_tower_removed(&mut self, id: i32) {
        self.colony.ziplines.retain(|(a, b)| *a != id && *b != id);
    }

    /// The `zipline` object of a tower's building view.
    pub(crate) fn zipline_view(&self, id: i32) -> Option<TowerView> {
        let t = self.colony.buildings.get(&id).filter(|b| is_tower(b))?;
        let connections = self
            .colony
            .ziplines
            .iter()
            .filter(|(a, b)| *a == id || *b == id)
            .filter_map(|(a, b)| {
                let other = if *a == id { *b } else { *a };
                let o = self.colony.buildings.get(&other)?;
                Some(CableView {
                    id: other,
                    name: o.prefab.to_string(),
                    length: shown(length(t, o)),
                    usable: t.finished && o.finished,
                })
            })
            .collect();
        Some(TowerView {
            boarding: is_station(t),
            max_connections: max_connections(t),
            connections,
        })
    }
}
