//! `/api/path/place`: routing a path over the 3D surface with A*, then placing its paths and
//! stairs.
//!
//! The work runs in four phases, each its own function so the host can time them (the sim never
//! reads a clock):
//!
//! 1. **Snapshot** ([`World::path_snapshot`]): validates the request and copies, for a window
//!    around the two ends (their bounding box grown by `max(24, span / 2)` tiles, clamped to the
//!    map), each tile's terrain height and how many voxels above its surface are clear, plus every
//!    existing path, stairs block and district-center doorstep (the nodes of the navigation graph,
//!    `nav.rs`). A tile's surface is free when no block fills the voxel, no living plant or ruin
//!    stands on it (dead stumps are cleared when placing), and it holds no more water than
//!    `waterBlocksPlacement`: the same rules `check_placement` applies.
//! 2. **Graph** (`PathSnapshot::graph`): the candidate nodes are the existing nodes (at any level,
//!    so paths on platforms are reused) and, on every free tile without one, a new path and up to
//!    four new stairs blocks (one per orientation whose back tile can hold a node one level up),
//!    on the surface and raised on a column of up to [`MAX_LIFT`] new platforms (tiles that already
//!    hold a node get no raised ones). Edges follow `nav.rs` exactly: 4-neighbours on one level
//!    (stairs only from and to their front), stairs up to the tile behind them one level higher,
//!    and down onto stairs below whose back faces the tile. So whatever route the search returns
//!    is walkable once placed. Up/down edges are the graph's connector edges
//!    (`connectorEdgesInGrid`). A step of two or three levels is climbed as the real game's
//!    players do: stairs onto a path on a platform, stairs on a platform, and so on.
//! 3. **A\*** (`PathGraph::search`): the cost of a step is the cost of the node entered: 1 for
//!    an existing node (reused, nothing placed), 10 for a new path, 30 for new stairs (they cost
//!    Log and Plank and a builder's time), plus 40 per platform under it (6 Plank each); with
//!    stairs or platforms not yet unlocked, each costs a further 1,000,000, so any flat route wins
//!    and they are used only when the route cannot go without. `style=straight` adds 5 per turn
//!    (the state then carries the arrival direction) and prices an existing node as a new path
//!    (10): the street goes where it was asked to, not bending toward the network to reuse it
//!    (nodes already on its line are still reused, not placed again). The heuristic is the
//!    Manhattan distance times the cheapest step (1; 10 with `straight`), which is admissible
//!    and consistent, so the route found is a cheapest one. Ties break on (f, h, state index), all fixed by the window's row-major node
//!    order: the search is deterministic. It stops after [`MAX_EXPANDED`] expansions
//!    (`search_limit` in `errors`). A route may not hold two new things on one tile (a path and
//!    stairs, say, when it doubles back to climb): such a route is repaired by searching again
//!    with one of the two forbidden, cheapest repair first (at most [`MAX_REPAIRS`] searches), so
//!    the route returned can be placed whole.
//! 4. **Placement** ([`World::apply_path_plan`]): walks the route from the start. Existing nodes
//!    are skipped; every new tile goes through `check_placement` and `apply_placement`, platforms
//!    first, bottom up, so every placement rule, event and district refresh applies. A tile that
//!    fails counts in `skipped` (and its error is listed, the first ten). Stairs or platforms that
//!    are not unlocked give an `{prefab, error: "not_unlocked: ..."}` entry and placing stops
//!    before them; `sections = N` stops at the first landing after the route's N-th level change.
//!    Either way `stopped_at` is the last tile reached, where a new request can resume.
//!
//! The ends are the tiles `(x1, y1)` and `(x2, y2)`, in either order (a route has a direction; it
//! is not an area): a new path on the terrain surface there, or a node already on the network
//! there (at any level). An end that is neither gives no route, with the placement refusal as the
//! error.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;

use super::building::Kind;
use super::geometry::{Orientation, footprint, voxel};
use super::rules::colony_rules;
use crate::error::{CommandError, ErrorCode};
use crate::world::World;

/// Cost of stepping onto an existing node (reused, nothing placed).
const REUSE: u64 = 1;
/// Cost of a new path tile.
const NEW_PATH: u64 = 10;
/// Cost of new stairs.
const NEW_STAIRS: u64 = 30;
/// Cost of each new platform under a raised path or stairs.
const NEW_PLATFORM: u64 = 40;
/// Extra cost of new stairs or of each new platform while they are not unlocked.
const LOCKED: u64 = 1_000_000;
/// Most platforms stacked under one new node: steps of up to `MAX_LIFT + 1` levels are climbed.
pub const MAX_LIFT: u32 = 2;
/// Most searches for one route (the first and its repairs).
pub const MAX_REPAIRS: usize = 16;
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
    /// New platforms under it (it stands at `z`, the platforms fill `z - lift .. z`).
    pub lift: u32,
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
#[derive(Debug, Clone, PartialEq)]
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
    /// Clear voxels from each window tile's surface up (at most `MAX_LIFT + 2`); 0 when the
    /// surface is not free. A path may stand on the surface when it is at least 1, stairs when 2.
    clear: Vec<u8>,
    /// Existing nodes in the window: (y, x, z) -> role.
    existing: BTreeMap<(u32, u32, u32), PathRole>,
    /// Whether each window tile (row by row) holds an existing node at any level (from
    /// `existing`: most tiles hold none, so the graph skips looking them up).
    occupied: Vec<bool>,
    stairs_prefab: String,
    stairs_locked: bool,
    platform_prefab: String,
    platforms_locked: bool,
    /// Why an end cannot hold a path.
    end_errors: Vec<PathError>,
}

/// A rectangle of tiles, both corners included.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Window {
    pub x0: u32,
    pub y0: u32,
    pub x1: u32,
    pub y1: u32,
}

/// The ground steps of the last few windows asked for, each with the snapshot it was worked
/// out from (derived state, never saved). A placement search asks for the steps of its window
/// on every call, and an agent asks for several prefabs over the same few regions in a row, with
/// nothing changed in between: the graph behind the steps is then built once per region.
#[derive(Clone, Default)]
pub(crate) struct GroundCache(Vec<Arc<(PathSnapshot, GroundSteps)>>);

impl GroundCache {
    /// Windows kept (an agent's mask over 3x3 regions asks for nine).
    const WINDOWS: usize = 9;
}

impl std::fmt::Debug for GroundCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "GroundCache({} windows)", self.0.len())
    }
}

/// [`World::ground_steps`]: steps from one tile to each tile of a window (`u32::MAX` where a
/// path cannot reach).
#[derive(Debug, Clone)]
pub(crate) struct GroundSteps {
    window: Window,
    steps: Vec<u32>,
}

impl GroundSteps {
    /// Steps to `(x, y)`, or `None` when it is off the window or no path can reach it.
    pub fn to(&self, x: i64, y: i64) -> Option<u32> {
        let w = self.window;
        let inside = (i64::from(w.x0)..=i64::from(w.x1)).contains(&x)
            && (i64::from(w.y0)..=i64::from(w.y1)).contains(&y);
        if !inside {
            return None;
        }
        let i = (y - i64::from(w.y0)) * i64::from(w.x1 - w.x0 + 1) + (x - i64::from(w.x0));
        Some(self.steps[i as usize]).filter(|s| *s != u32::MAX)
    }
}

/// A node of the search graph.
#[derive(Debug, Clone, Copy)]
struct Node {
    x: u32,
    y: u32,
    z: u32,
    role: PathRole,
    /// New platforms under it.
    lift: u8,
    existing: bool,
}

/// Phase 2: the search graph.
#[derive(Debug, Clone)]
pub struct PathGraph {
    snap: PathSnapshot,
    /// Sorted by window tile, then level, then role.
    nodes: Vec<Node>,
    /// Each node's stairs front as an index into `DIRS` (`u8::MAX` for a path).
    front: Vec<u8>,
    /// Nodes of window tile `i`: `nodes[tile_start[i]..tile_start[i + 1]]`.
    tile_start: Vec<u32>,
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
    /// Node expansions of the search (all its searches together).
    pub explored: u32,
    /// Searches run (1, plus the repairs of routes that crossed themselves).
    pub searches: u32,
    sections: u32,
    stairs_prefab: String,
    platform_prefab: String,
}

/// What `/api/path/place` did.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PathRoute {
    pub paths: u32,
    pub stairs: u32,
    /// Platforms placed under raised paths and stairs.
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
        let window = Window {
            x0: wx0,
            y0: wy0,
            x1: wx1,
            y1: wy1,
        };
        Ok(self.snapshot_in(window, (x1, y1), (x2, y2), style, sections))
    }

    /// The window's snapshot for a route from `start` to `goal` (both inside it).
    fn snapshot_in(
        &self,
        window: Window,
        (x1, y1): (u32, u32),
        (x2, y2): (u32, u32),
        style: PathStyle,
        sections: u32,
    ) -> PathSnapshot {
        let Window {
            x0: wx0,
            y0: wy0,
            x1: wx1,
            y1: wy1,
        } = window;
        let (w, h) = (wx1 - wx0 + 1, wy1 - wy0 + 1);

        let limit = colony_rules().colony.water_blocks_placement.value;
        let blocks = &self.colony.blocks;
        let mut terrain = Vec::with_capacity((w * h) as usize);
        let mut clear = Vec::with_capacity((w * h) as usize);
        for y in wy0..=wy1 {
            for x in wx0..=wx1 {
                let t = self.map.terrain_height(x, y);
                let z = u32::from(t);
                let i = self.land.idx(x, y);
                let ground = match self.land.occupant[i] {
                    None => true,
                    Some(id) => self.land.plants.get(&id).is_some_and(|p| !p.alive),
                };
                let free = ground && self.land.water.depth[i] <= limit;
                let up = (0..MAX_LIFT + 2)
                    .take_while(|dz| free && !blocks.contains_key(&voxel(x, y, z + dz)))
                    .count();
                terrain.push(t);
                clear.push(up as u8);
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
                    if let Some((dx, dy)) = b.prefab.doorstep(b.x.into(), b.y.into(), b.orientation)
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

        let locked = |prefab: &str| {
            self.faction_buildings()
                .find(|b| b.name == prefab)
                .is_none_or(|b| !self.is_unlocked(b))
        };
        let stairs_prefab = format!("Stairs.{}", self.faction.as_str());
        let platform_prefab = format!("Platform.{}", self.faction.as_str());
        let (stairs_locked, platforms_locked) = (locked(&stairs_prefab), locked(&platform_prefab));
        let start = (x1, y1, u32::from(self.map.terrain_height(x1, y1)));
        let goal = (x2, y2, u32::from(self.map.terrain_height(x2, y2)));
        let mut end_errors = Vec::new();
        for (what, (x, y, z)) in [("start", start), ("end", goal)] {
            let i = ((y - wy0) * w + (x - wx0)) as usize;
            let on_network = existing
                .range((y, x, 0)..=(y, x, u32::MAX))
                .next()
                .is_some();
            if on_network || clear[i] >= 1 {
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
        // A doorstep over lower ground (a building on a ledge) is joined by no path laid on
        // the ground: the path would run under it.
        if let Some((id, door)) = self.doorstep_off_ground(goal.0, goal.1) {
            let name = self.colony.buildings[&id].prefab.name();
            end_errors.push(PathError {
                prefab: Some("Path".to_owned()),
                error: format!(
                    "no_route: the end ({}, {}) is the doorstep of {name} {id}, which stands at height {} over ground at height {}: a path on the ground would not join it; place the building where its doorstep is on the ground",
                    door[0], door[1], door[2], goal.2
                ),
            });
        }
        let mut occupied = vec![false; (w * h) as usize];
        for &(y, x, _) in existing.keys() {
            if (wx0..wx0 + w).contains(&x) && (wy0..wy0 + h).contains(&y) {
                occupied[((y - wy0) * w + (x - wx0)) as usize] = true;
            }
        }
        PathSnapshot {
            start,
            goal,
            style,
            sections,
            x0: wx0,
            y0: wy0,
            w,
            h,
            terrain,
            clear,
            existing,
            occupied,
            stairs_prefab,
            stairs_locked,
            platform_prefab,
            platforms_locked,
            end_errors,
        }
    }

    /// Steps a new path would take from `from` to every tile of `window` over ground a path can
    /// be laid on (free, dry, stairs and platforms only where unlocked; the existing network
    /// counts), for ranking placements by how easily their doorstep can be joined.
    ///
    /// The steps are a function of the window's snapshot alone: while a recent search's
    /// snapshot is equal, its steps are reused ([`GroundCache`]).
    pub(crate) fn ground_steps(&mut self, from: (u32, u32), window: Window) -> GroundSteps {
        let snap = self.snapshot_in(window, from, from, PathStyle::Direct, 1);
        let cache = &mut self.colony.ground_cache;
        if let Some(hit) = cache.0.iter().find(|e| e.0 == snap) {
            return hit.1.clone();
        }
        let steps = GroundSteps {
            window,
            steps: snap.clone().graph().steps_from_start(),
        };
        if cache.0.len() >= GroundCache::WINDOWS {
            cache.0.remove(0);
        }
        cache.0.push(Arc::new((snap, steps.clone())));
        steps
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
        'steps: for (i, s) in plan.steps.iter().enumerate() {
            if !s.existing {
                // The platforms bottom up, then the path or stairs on top.
                let top = match s.role {
                    PathRole::Path => ("Path", Orientation::South),
                    PathRole::Stairs(o) => (plan.stairs_prefab.as_str(), o),
                };
                let platforms = (s.z - s.lift..s.z)
                    .map(|z| (plan.platform_prefab.as_str(), Orientation::South, z));
                for (prefab, o, z) in platforms.chain([(top.0, top.1, s.z)]) {
                    out.placements_attempted += 1;
                    match self.check_placement(prefab, s.x.into(), s.y.into(), z.into(), o) {
                        Ok(p) => {
                            self.apply_placement(p);
                            match (z < s.z, s.role) {
                                (true, _) => out.platforms += 1,
                                (false, PathRole::Path) => out.paths += 1,
                                (false, PathRole::Stairs(_)) => out.stairs += 1,
                            }
                        }
                        Err(e) if e.code == ErrorCode::NotUnlocked => {
                            out.errors.push(PathError {
                                prefab: Some(prefab.to_owned()),
                                error: e.to_string(),
                            });
                            let last = if i > 0 { plan.steps[i - 1] } else { *s };
                            out.stopped_at = Some((last.x, last.y));
                            break 'steps;
                        }
                        Err(e) => {
                            // Nothing above a missing platform can stand: the tile is skipped.
                            out.skipped += 1;
                            if listed < MAX_LISTED_ERRORS {
                                listed += 1;
                                out.errors.push(PathError {
                                    prefab: Some(prefab.to_owned()),
                                    error: e.to_string(),
                                });
                            }
                            break;
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

mod graph;

#[cfg(test)]
mod tests;
