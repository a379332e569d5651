//! `/api/path/place`: routing a path over the 3D surface with A*, then placing its paths and
//! stairs.
//!
//! The work runs in four phases, each its own function so the host can time them (the sim never
//! reads a clock):
//!
//! 1. **Snapshot** ([`World::path_snapshot`]): validates the request and copies, for a window
//!    around the two ends (their bounding box grown by `max(24, span / 2)` tiles, clamped to the
//!    map), each tile's terrain height and whether a path (and a stairs block, one voxel taller)
//!    could stand on its surface, plus every existing path, stairs block and district-center
//!    doorstep (the nodes of the navigation graph, `nav.rs`). A tile is free when no block fills
//!    the voxel, no living plant or ruin stands on it (dead stumps are cleared when placing), and
//!    it holds no more water than `waterBlocksPlacement`: the same rules `check_placement` applies.
//! 2. **Graph** ([`PathSnapshot::graph`]): the candidate nodes are the existing nodes (at any
//!    level, so paths on platforms are reused) and, on every free surface voxel without one, a new
//!    path and up to four new stairs blocks (one per orientation whose back tile lies one level
//!    up). Edges follow `nav.rs` exactly: 4-neighbours on one level (stairs only from and to their
//!    front), stairs up to the tile behind them one level higher, and down onto stairs below
//!    whose back faces the tile. So whatever route the search returns is walkable once placed.
//!    Up/down edges are the graph's connector edges (`connectorEdgesInGrid`).
//! 3. **A\*** ([`PathGraph::search`]): the cost of a step is the cost of the node entered: 1 for
//!    an existing node (reused, nothing placed), 10 for a new path, 30 for new stairs (they cost
//!    Log and Plank and a builder's time); with stairs not yet unlocked, new stairs cost a further
//!    1,000,000, so any flat route wins and stairs are used only when the route cannot go without.
//!    `style=straight` adds 5 per turn (the state then carries the arrival direction). The
//!    heuristic is the Manhattan distance times the cheapest step (1), which is admissible and
//!    consistent, so the route found is a cheapest one. Ties break on (f, h, state index), all
//!    fixed by the window's row-major node order: the search is deterministic. It stops after
//!    [`MAX_EXPANDED`] expansions (`search_limit` in `errors`). Heights change only by stairs;
//!    steps of more than one level are impassable (platforms are not planned: `placed.platforms`
//!    stays 0).
//! 4. **Placement** ([`World::apply_path_plan`]): walks the route from the start. Existing nodes
//!    are skipped; every new tile goes through `check_placement` and `apply_placement`, so every
//!    placement rule, event and district refresh applies. A tile that fails counts in `skipped`
//!    (and its error is listed, the first ten). Stairs that are not unlocked give an
//!    `{prefab, error: "not_unlocked: ..."}` entry and placing stops before them; `sections = N`
//!    stops at the first landing after the route's N-th level change. Either way `stopped_at` is
//!    the last tile reached, where a new request can resume.
//!
//! The ends are the tiles `(x1, y1)` and `(x2, y2)`, in either order (a route has a direction; it
//! is not an area): a new path on the terrain surface there, or a node already on the network
//! there (at any level). An end that is neither gives no route, with the placement refusal as the
//! error.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

use serde::Serialize;

use super::building::Kind;
use super::geometry::{Orientation, doorstep, footprint, voxel};
use super::rules::colony_rules;
use crate::error::{CommandError, ErrorCode};
use crate::world::World;

/// Cost of stepping onto an existing node (reused, nothing placed).
const REUSE: u64 = 1;
/// Cost of a new path tile.
const NEW_PATH: u64 = 10;
/// Cost of new stairs.
const NEW_STAIRS: u64 = 30;
/// Extra cost of new stairs while they are not unlocked.
const LOCKED_STAIRS: u64 = 1_000_000;
/// Extra cost of a turn with `style=straight`.
const TURN: u64 = 5;
/// Smallest margin of the search window around the ends' bounding box.
const MIN_MARGIN: u32 = 24;
/// Placement errors listed at most (`skipped` counts them all).
const MAX_LISTED_ERRORS: usize = 10;
/// The search gives up after this many node expansions.
pub const MAX_EXPANDED: usize = 1_000_000;

/// The four steps, in the order of [`Orientation::ALL`] (whose fronts they are).
const DIRS: [(i32, i32); 4] = [(0, -1), (-1, 0), (0, 1), (1, 0)];

/// How the route is shaped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathStyle {
    /// Cheapest route, turns are free.
    Direct,
    /// Cheapest route with a penalty per turn.
    Straight,
}

impl PathStyle {
    /// Parses `direct` or `straight` (any case).
    pub fn parse(s: &str) -> Result<PathStyle, CommandError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "direct" => Ok(PathStyle::Direct),
            "straight" => Ok(PathStyle::Straight),
            _ => Err(CommandError::invalid_param(
                format!("style must be direct or straight; got {s:?}"),
                s,
            )),
        }
    }
}

/// What a route tile holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum PathRole {
    Path,
    /// Stairs turned so their front points down the slope.
    Stairs(Orientation),
}

impl PathRole {
    fn stairs(self) -> Option<Orientation> {
        match self {
            PathRole::Stairs(o) => Some(o),
            PathRole::Path => None,
        }
    }
}

/// One tile of a planned route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathStep {
    pub x: u32,
    pub y: u32,
    pub z: u32,
    pub role: PathRole,
    /// Already on the network: reused, not placed.
    pub existing: bool,
}

/// An entry of `errors`: `{error}` or `{prefab, error}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PathError {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prefab: Option<String>,
    pub error: String,
}

impl PathError {
    fn plain(error: String) -> PathError {
        PathError {
            prefab: None,
            error,
        }
    }
}

/// Phase 1: what the search needs from the world, for a window around the ends.
#[derive(Debug, Clone)]
pub struct PathSnapshot {
    start: (u32, u32, u32),
    goal: (u32, u32, u32),
    style: PathStyle,
    sections: u32,
    /// Window origin and size.
    x0: u32,
    y0: u32,
    w: u32,
    h: u32,
    /// Terrain height of each window tile (row by row).
    terrain: Vec<u8>,
    /// Bit 0: a path may stand on the surface; bit 1: stairs may (the voxel above is free too).
    free: Vec<u8>,
    /// Existing nodes in the window: (y, x, z) -> role.
    existing: BTreeMap<(u32, u32, u32), PathRole>,
    stairs_prefab: String,
    stairs_locked: bool,
    /// Why an end cannot hold a path.
    end_errors: Vec<PathError>,
}

/// A node of the search graph.
#[derive(Debug, Clone, Copy)]
struct Node {
    x: u32,
    y: u32,
    z: u32,
    role: PathRole,
    existing: bool,
}

/// Phase 2: the search graph.
#[derive(Debug, Clone)]
pub struct PathGraph {
    snap: PathSnapshot,
    /// Sorted by window tile, then level, then role.
    nodes: Vec<Node>,
    /// Nodes of window tile `i`: `nodes[tile_start[i]..tile_start[i + 1]]`.
    tile_start: Vec<u32>,
    /// Edges of node `u`: `adj[adj_start[u]..adj_start[u + 1]]`, as (node, direction index).
    adj_start: Vec<u32>,
    adj: Vec<(u32, u8)>,
    connector_edges: u32,
}

/// Phase 3: the route found (or why none was).
#[derive(Debug, Clone)]
pub struct PathPlan {
    /// From the start to the goal; empty when no route was found.
    pub steps: Vec<PathStep>,
    pub errors: Vec<PathError>,
    pub connector_edges: u32,
    pub graph_nodes: u32,
    /// Node expansions of the search.
    pub explored: u32,
    sections: u32,
    stairs_prefab: String,
}

/// What `/api/path/place` did.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PathRoute {
    pub paths: u32,
    pub stairs: u32,
    /// Always 0: platforms are not planned.
    pub platforms: u32,
    pub skipped: u32,
    pub connector_edges: u32,
    /// The last tile reached when placing stopped before the goal.
    pub stopped_at: Option<(u32, u32)>,
    pub errors: Vec<PathError>,
    pub graph_nodes: u32,
    pub path_nodes: u32,
    pub placements_attempted: u32,
    pub explored: u32,
}

impl World {
    /// Routes and places a path from `(x1, y1)` to `(x2, y2)`: all four phases in one call.
    pub fn place_path(
        &mut self,
        x1: i64,
        y1: i64,
        x2: i64,
        y2: i64,
        style: &str,
        sections: u32,
    ) -> Result<PathRoute, CommandError> {
        let plan = self
            .path_snapshot(x1, y1, x2, y2, style, sections)?
            .graph()
            .search();
        Ok(self.apply_path_plan(&plan))
    }

    /// Phase 1: validates the request and snapshots the window (read-only).
    pub fn path_snapshot(
        &self,
        x1: i64,
        y1: i64,
        x2: i64,
        y2: i64,
        style: &str,
        sections: u32,
    ) -> Result<PathSnapshot, CommandError> {
        let style = PathStyle::parse(style)?;
        let (mw, mh) = (self.map.width(), self.map.height());
        for (name, v, limit) in [
            ("x1", x1, mw),
            ("y1", y1, mh),
            ("x2", x2, mw),
            ("y2", y2, mh),
        ] {
            if !(0..i64::from(limit)).contains(&v) {
                return Err(CommandError::invalid_param(
                    format!(
                        "{name} = {v} is off the {mw}x{mh} map; x must be 0-{} and y 0-{}",
                        mw - 1,
                        mh - 1
                    ),
                    v,
                ));
            }
        }
        let (x1, y1, x2, y2) = (x1 as u32, y1 as u32, x2 as u32, y2 as u32);
        let span = x1.abs_diff(x2).max(y1.abs_diff(y2));
        let margin = MIN_MARGIN.max(span / 2);
        let wx0 = x1.min(x2).saturating_sub(margin);
        let wy0 = y1.min(y2).saturating_sub(margin);
        let wx1 = (x1.max(x2) + margin).min(mw - 1);
        let wy1 = (y1.max(y2) + margin).min(mh - 1);
        let (w, h) = (wx1 - wx0 + 1, wy1 - wy0 + 1);

        let limit = colony_rules().colony.water_blocks_placement.value;
        let blocks = &self.colony.blocks;
        let mut terrain = Vec::with_capacity((w * h) as usize);
        let mut free = Vec::with_capacity((w * h) as usize);
        for y in wy0..=wy1 {
            for x in wx0..=wx1 {
                let t = self.map.terrain_height(x, y);
                let z = u32::from(t);
                let i = self.land.idx(x, y);
                let ground = match self.land.occupant[i] {
                    None => true,
                    Some(id) => self.land.plants.get(&id).is_some_and(|p| !p.alive),
                };
                let path_ok = ground
                    && self.land.water.depth[i] <= limit
                    && !blocks.contains_key(&voxel(x, y, z));
                let stairs_ok = path_ok && !blocks.contains_key(&voxel(x, y, z + 1));
                terrain.push(t);
                free.push(u8::from(path_ok) | (u8::from(stairs_ok) << 1));
            }
        }

        let inside = |x: u32, y: u32| (wx0..=wx1).contains(&x) && (wy0..=wy1).contains(&y);
        let mut existing: BTreeMap<(u32, u32, u32), PathRole> = BTreeMap::new();
        let mut roots = Vec::new();
        for b in self.colony.buildings.values() {
            match b.kind() {
                Kind::Path => {
                    for (x, y) in footprint(b.spec(), b.x.into(), b.y.into(), b.orientation) {
                        let (x, y) = (x as u32, y as u32);
                        if inside(x, y) {
                            existing.insert((y, x, b.z), PathRole::Path);
                        }
                    }
                }
                // Spiral stairs are not part of the route search's graph (only straight ones).
                Kind::Stairs
                    if inside(b.x, b.y)
                        && !b.spec().components.iter().any(|c| c == "SpiralStairsSpec") =>
                {
                    existing.insert((b.y, b.x, b.z), PathRole::Stairs(b.orientation));
                }
                Kind::DistrictCenter => {
                    if let Some((dx, dy)) =
                        doorstep(b.spec(), b.x.into(), b.y.into(), b.orientation)
                        && dx >= 0
                        && dy >= 0
                        && inside(dx as u32, dy as u32)
                    {
                        roots.push((dy as u32, dx as u32, b.z));
                    }
                }
                _ => {}
            }
        }
        for r in roots {
            existing.entry(r).or_insert(PathRole::Path);
        }

        let stairs_prefab = format!("Stairs.{}", self.faction.as_str());
        let stairs_locked = self
            .faction_buildings()
            .find(|b| b.name == stairs_prefab)
            .is_none_or(|b| !self.is_unlocked(b));
        let start = (x1, y1, u32::from(self.map.terrain_height(x1, y1)));
        let goal = (x2, y2, u32::from(self.map.terrain_height(x2, y2)));
        let mut end_errors = Vec::new();
        for (what, (x, y, z)) in [("start", start), ("end", goal)] {
            let i = ((y - wy0) * w + (x - wx0)) as usize;
            let on_network = existing
                .range((y, x, 0)..=(y, x, u32::MAX))
                .next()
                .is_some();
            if on_network || free[i] & 1 == 1 {
                continue;
            }
            let why = match self.check_placement(
                "Path",
                x.into(),
                y.into(),
                z.into(),
                Orientation::South,
            ) {
                Err(e) => e.to_string(),
                Ok(_) => "it is not free".to_owned(),
            };
            end_errors.push(PathError {
                prefab: Some("Path".to_owned()),
                error: format!("no_route: the {what} ({x}, {y}) cannot hold a path: {why}"),
            });
        }
        Ok(PathSnapshot {
            start,
            goal,
            style,
            sections,
            x0: wx0,
            y0: wy0,
            w,
            h,
            terrain,
            free,
            existing,
            stairs_prefab,
            stairs_locked,
            end_errors,
        })
    }

    /// Phase 4: places the planned route's new tiles, in order from the start.
    pub fn apply_path_plan(&mut self, plan: &PathPlan) -> PathRoute {
        let mut out = PathRoute {
            connector_edges: plan.connector_edges,
            graph_nodes: plan.graph_nodes,
            path_nodes: plan.steps.len() as u32,
            explored: plan.explored,
            errors: plan.errors.clone(),
            ..PathRoute::default()
        };
        let mut crossings = 0u32;
        let mut stop_at_landing = false;
        let mut listed = 0usize;
        for (i, s) in plan.steps.iter().enumerate() {
            if !s.existing {
                let (prefab, o) = match s.role {
                    PathRole::Path => ("Path", Orientation::South),
                    PathRole::Stairs(o) => (plan.stairs_prefab.as_str(), o),
                };
                out.placements_attempted += 1;
                match self.check_placement(prefab, s.x.into(), s.y.into(), s.z.into(), o) {
                    Ok(p) => {
                        self.apply_placement(p);
                        match s.role {
                            PathRole::Path => out.paths += 1,
                            PathRole::Stairs(_) => out.stairs += 1,
                        }
                    }
                    Err(e) if e.code == ErrorCode::NotUnlocked => {
                        out.errors.push(PathError {
                            prefab: Some(prefab.to_owned()),
                            error: e.to_string(),
                        });
                        let last = if i > 0 { plan.steps[i - 1] } else { *s };
                        out.stopped_at = Some((last.x, last.y));
                        break;
                    }
                    Err(e) => {
                        out.skipped += 1;
                        if listed < MAX_LISTED_ERRORS {
                            listed += 1;
                            out.errors.push(PathError {
                                prefab: Some(prefab.to_owned()),
                                error: e.to_string(),
                            });
                        }
                    }
                }
            }
            if i > 0 && plan.steps[i - 1].z != s.z {
                crossings += 1;
                stop_at_landing |= plan.sections > 0 && crossings >= plan.sections;
            }
            if stop_at_landing && s.role == PathRole::Path && i + 1 < plan.steps.len() {
                out.stopped_at = Some((s.x, s.y));
                break;
            }
        }
        out
    }
}

impl PathSnapshot {
    fn tile(&self, x: i64, y: i64) -> Option<usize> {
        let (lx, ly) = (x - i64::from(self.x0), y - i64::from(self.y0));
        (lx >= 0 && ly >= 0 && lx < i64::from(self.w) && ly < i64::from(self.h))
            .then(|| (ly * i64::from(self.w) + lx) as usize)
    }

    /// Phase 2: builds the search graph (see the module docs).
    pub fn graph(self) -> PathGraph {
        let (w, h) = (self.w, self.h);
        let mut nodes: Vec<Node> = Vec::new();
        let mut tile_start = Vec::with_capacity((w * h + 1) as usize);
        let mut here: Vec<Node> = Vec::new();
        for ly in 0..h {
            for lx in 0..w {
                tile_start.push(nodes.len() as u32);
                let (x, y) = (self.x0 + lx, self.y0 + ly);
                let i = (ly * w + lx) as usize;
                let z = u32::from(self.terrain[i]);
                here.clear();
                for ((_, _, ez), role) in self.existing.range((y, x, 0)..=(y, x, u32::MAX)) {
                    here.push(Node {
                        x,
                        y,
                        z: *ez,
                        role: *role,
                        existing: true,
                    });
                }
                if !self.existing.contains_key(&(y, x, z)) {
                    if self.free[i] & 1 == 1 {
                        here.push(Node {
                            x,
                            y,
                            z,
                            role: PathRole::Path,
                            existing: false,
                        });
                    }
                    if self.free[i] & 2 == 2 {
                        for o in Orientation::ALL {
                            let (fx, fy) = o.front();
                            let (x, y) = (i64::from(x), i64::from(y));
                            let back = self.tile(x - i64::from(fx), y - i64::from(fy));
                            let front = self.tile(x + i64::from(fx), y + i64::from(fy));
                            let up = back.is_some_and(|b| {
                                u32::from(self.terrain[b]) == z + 1 && self.free[b] & 1 == 1
                                    || self.existing.contains_key(&(
                                        (y - i64::from(fy)) as u32,
                                        (x - i64::from(fx)) as u32,
                                        z + 1,
                                    ))
                            });
                            if up && front.is_some() {
                                here.push(Node {
                                    x: x as u32,
                                    y: y as u32,
                                    z,
                                    role: PathRole::Stairs(o),
                                    existing: false,
                                });
                            }
                        }
                    }
                }
                here.sort_by_key(|n| (n.z, n.role));
                nodes.extend_from_slice(&here);
            }
        }
        tile_start.push(nodes.len() as u32);
        let mut g = PathGraph {
            snap: self,
            nodes,
            tile_start,
            adj_start: Vec::new(),
            adj: Vec::new(),
            connector_edges: 0,
        };
        g.link();
        g
    }
}

impl PathGraph {
    /// Nodes on the window tile at `(x, y)` (none off the window).
    fn nodes_at(&self, x: i64, y: i64) -> std::ops::Range<usize> {
        match self.snap.tile(x, y) {
            Some(i) => self.tile_start[i] as usize..self.tile_start[i + 1] as usize,
            None => 0..0,
        }
    }

    /// Builds the edges, mirroring `Nav::neighbours`.
    fn link(&mut self) {
        let mut adj_start = Vec::with_capacity(self.nodes.len() + 1);
        let mut adj = Vec::with_capacity(self.nodes.len() * 4);
        let mut connectors = 0u32;
        for u in &self.nodes {
            adj_start.push(adj.len() as u32);
            for (di, (dx, dy)) in DIRS.into_iter().enumerate() {
                let (nx, ny) = (
                    i64::from(u.x) + i64::from(dx),
                    i64::from(u.y) + i64::from(dy),
                );
                for vi in self.nodes_at(nx, ny) {
                    let v = &self.nodes[vi];
                    let linked = if v.z == u.z {
                        // Stairs are entered and left at their level only from their front.
                        v.role.stairs().is_none_or(|o| o.front() == (-dx, -dy))
                            && u.role.stairs().is_none_or(|o| o.front() == (dx, dy))
                    } else if v.z == u.z + 1 {
                        // Up the stairs, to the tile behind them.
                        let up = u.role.stairs().is_some_and(|o| o.front() == (-dx, -dy));
                        connectors += u32::from(up);
                        up
                    } else if v.z + 1 == u.z {
                        // Down onto stairs whose back faces this tile.
                        v.role.stairs().is_some_and(|o| o.front() == (dx, dy))
                    } else {
                        false
                    };
                    if linked {
                        adj.push((vi as u32, di as u8));
                    }
                }
            }
        }
        adj_start.push(adj.len() as u32);
        self.adj_start = adj_start;
        self.adj = adj;
        self.connector_edges = connectors;
    }

    /// Number of nodes.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Up/down edges (each counted once).
    pub fn connector_edges(&self) -> u32 {
        self.connector_edges
    }

    fn enter_cost(&self, v: &Node) -> u64 {
        if v.existing {
            return REUSE;
        }
        match v.role {
            PathRole::Path => NEW_PATH,
            PathRole::Stairs(_) => {
                NEW_STAIRS
                    + if self.snap.stairs_locked {
                        LOCKED_STAIRS
                    } else {
                        0
                    }
            }
        }
    }

    /// Whether a node may be an end of the route on tile `(x, y)`: any node already on the
    /// network there (at any level), or a new path on its surface.
    fn is_end(n: &Node, (x, y, _): (u32, u32, u32)) -> bool {
        n.x == x && n.y == y && (n.existing || n.role == PathRole::Path)
    }

    /// Phase 3: A* from the start to the goal (see the module docs).
    pub fn search(&self) -> PathPlan {
        let snap = &self.snap;
        let mut plan = PathPlan {
            steps: Vec::new(),
            errors: snap.end_errors.clone(),
            connector_edges: self.connector_edges,
            graph_nodes: self.nodes.len() as u32,
            explored: 0,
            sections: snap.sections,
            stairs_prefab: snap.stairs_prefab.clone(),
        };
        if !plan.errors.is_empty() {
            return plan;
        }
        // States: node * dirs + arrival direction (4 = none: a start) with style=straight.
        let dirs = match snap.style {
            PathStyle::Direct => 1,
            PathStyle::Straight => 5,
        };
        let n_states = self.nodes.len() * dirs;
        let mut g = vec![u64::MAX; n_states];
        let mut parent = vec![u32::MAX; n_states];
        let mut closed = vec![false; n_states];
        let mut heap: BinaryHeap<Reverse<(u64, u64, u32)>> = BinaryHeap::new();
        let (gx, gy, _) = snap.goal;
        let heur = |n: &Node| u64::from(n.x.abs_diff(gx) + n.y.abs_diff(gy)) * REUSE;
        let (sx, sy, _) = snap.start;
        for ni in self.nodes_at(sx.into(), sy.into()) {
            let n = &self.nodes[ni];
            if Self::is_end(n, snap.start) {
                let s = ni * dirs + (dirs - 1);
                g[s] = self.enter_cost(n);
                heap.push(Reverse((g[s] + heur(n), heur(n), s as u32)));
            }
        }
        let mut found = None;
        // The explored node nearest the goal (for the no-route message).
        let mut nearest: Option<(u64, usize)> = None;
        while let Some(Reverse((_, _, s))) = heap.pop() {
            let s = s as usize;
            if closed[s] {
                continue;
            }
            closed[s] = true;
            plan.explored += 1;
            let (ui, slot) = (s / dirs, s % dirs);
            let u = &self.nodes[ui];
            if nearest.is_none_or(|(h, _)| heur(u) < h) {
                nearest = Some((heur(u), ui));
            }
            if Self::is_end(u, snap.goal) {
                found = Some(s);
                break;
            }
            if plan.explored as usize >= MAX_EXPANDED {
                plan.errors.push(PathError::plain(format!(
                    "search_limit: gave up after exploring {} nodes without reaching ({gx}, {gy}); route in shorter legs",
                    plan.explored
                )));
                return plan;
            }
            let edges = self.adj_start[ui] as usize..self.adj_start[ui + 1] as usize;
            for &(vi, di) in &self.adj[edges] {
                let v = &self.nodes[vi as usize];
                let vslot = if dirs == 1 { 0 } else { usize::from(di) };
                let turn = dirs > 1 && slot < 4 && slot != vslot;
                let ng = g[s] + self.enter_cost(v) + if turn { TURN } else { 0 };
                let t = vi as usize * dirs + vslot;
                if ng < g[t] && !closed[t] {
                    g[t] = ng;
                    parent[t] = s as u32;
                    heap.push(Reverse((ng + heur(v), heur(v), t as u32)));
                }
            }
        }
        let Some(mut s) = found else {
            let (x0, y0) = (snap.x0, snap.y0);
            let near = nearest
                .map(|(h, n)| {
                    let n = &self.nodes[n];
                    format!(
                        "; the nearest reachable tile is ({}, {}), {h} tiles from the end",
                        n.x, n.y
                    )
                })
                .unwrap_or_default();
            plan.errors.push(PathError::plain(format!(
                "no_route: no walkable route from ({sx}, {sy}) to ({gx}, {gy}) within x {x0}-{}, y {y0}-{}: \
                 buildings, plants, ruins, water or height steps of more than one level are in the way \
                 (GET /api/tiles shows them; stairs climb one level){near}",
                x0 + snap.w - 1,
                y0 + snap.h - 1
            )));
            return plan;
        };
        loop {
            let n = &self.nodes[s / dirs];
            plan.steps.push(PathStep {
                x: n.x,
                y: n.y,
                z: n.z,
                role: n.role,
                existing: n.existing,
            });
            if parent[s] == u32::MAX {
                break;
            }
            s = parent[s] as usize;
        }
        plan.steps.reverse();
        plan
    }
}

#[cfg(test)]
mod tests;
