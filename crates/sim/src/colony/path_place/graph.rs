//! Phases 2 and 3 of `/api/path/place`: the search graph over a [`PathSnapshot`] (existing
//! nodes, new paths and stairs on the surface or raised on platforms) and the A* search, with the
//! repair of routes that would put two new things on one tile (see the parent module's docs).

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap};

use super::{
    DIRS, LOCKED, MAX_EXPANDED, MAX_LIFT, MAX_REPAIRS, NEW_PATH, NEW_PLATFORM, NEW_STAIRS, Node,
    PathError, PathGraph, PathPlan, PathRole, PathSnapshot, PathStep, PathStyle, REUSE, TURN,
};
use crate::colony::geometry::Orientation;

/// A node's stairs front for a path (which has none).
const FLAT: u8 = u8::MAX;

impl PathSnapshot {
    pub(super) fn tile(&self, x: i64, y: i64) -> Option<usize> {
        let (lx, ly) = (x - i64::from(self.x0), y - i64::from(self.y0));
        (lx >= 0 && ly >= 0 && lx < i64::from(self.w) && ly < i64::from(self.h))
            .then(|| (ly * i64::from(self.w) + lx) as usize)
    }

    /// Whether a new path can stand on window tile `i` at level `z` (on the surface, or on up
    /// to [`MAX_LIFT`] new platforms when the tile holds no node yet).
    fn new_path_at(&self, i: usize, z: u32) -> bool {
        let t = u32::from(self.terrain[i]);
        let Some(lift) = z.checked_sub(t).filter(|l| *l <= MAX_LIFT) else {
            return false;
        };
        u32::from(self.clear[i]) > lift && (lift == 0 || !self.occupied[i])
    }

    /// Whether an existing node stands on window tile `i` (at `(x, y)`) at level `z`.
    fn existing_at(&self, i: usize, (x, y): (u32, u32), z: u32) -> bool {
        self.occupied[i] && self.existing.contains_key(&(y, x, z))
    }

    /// Phase 2: builds the search graph (see the module docs).
    pub fn graph(self) -> PathGraph {
        let (w, h) = (self.w, self.h);
        // (A free tile holds a path and stairs at several lifts: sized for a few nodes a tile
        // rather than grown node by node.)
        let mut nodes: Vec<Node> = Vec::with_capacity((w * h) as usize * 8);
        let mut tile_start = Vec::with_capacity((w * h + 1) as usize);
        let mut here: Vec<Node> = Vec::new();
        for ly in 0..h {
            for lx in 0..w {
                tile_start.push(nodes.len() as u32);
                let (x, y) = (self.x0 + lx, self.y0 + ly);
                let i = (ly * w + lx) as usize;
                let t = u32::from(self.terrain[i]);
                here.clear();
                let standing = self.occupied[i]
                    .then(|| self.existing.range((y, x, 0)..=(y, x, u32::MAX)))
                    .into_iter()
                    .flatten();
                for ((_, _, ez), role) in standing {
                    here.push(Node {
                        x,
                        y,
                        z: *ez,
                        role: *role,
                        lift: 0,
                        existing: true,
                    });
                }
                let raise = if here.is_empty() { MAX_LIFT } else { 0 };
                for lift in 0..=raise {
                    let z = t + lift;
                    if self.existing_at(i, (x, y), z) {
                        continue;
                    }
                    let node = |role| Node {
                        x,
                        y,
                        z,
                        role,
                        lift: lift as u8,
                        existing: false,
                    };
                    if self.new_path_at(i, z) {
                        here.push(node(PathRole::Path));
                    }
                    if u32::from(self.clear[i]) < lift + 2 {
                        continue;
                    }
                    for o in Orientation::ALL {
                        let (fx, fy) = o.front();
                        let (bx, by) = (i64::from(x) - i64::from(fx), i64::from(y) - i64::from(fy));
                        let front =
                            self.tile(i64::from(x) + i64::from(fx), i64::from(y) + i64::from(fy));
                        let up = self.tile(bx, by).is_some_and(|b| {
                            let (bx, by) = (bx as u32, by as u32);
                            self.new_path_at(b, z + 1) || self.existing_at(b, (bx, by), z + 1)
                        });
                        if up && front.is_some() {
                            here.push(node(PathRole::Stairs(o)));
                        }
                    }
                }
                here.sort_by_key(|n| (n.z, n.role));
                nodes.extend_from_slice(&here);
            }
        }
        tile_start.push(nodes.len() as u32);
        // Each node's stairs front as an index into `DIRS` (`FLAT` for a path), worked out once
        // rather than per edge.
        let dir_of = |(dx, dy): (i32, i32)| DIRS.iter().position(|&d| d == (dx, dy)).unwrap_or(0);
        let front = nodes
            .iter()
            .map(|n| n.role.stairs().map_or(FLAT, |o| dir_of(o.front()) as u8))
            .collect();
        let mut g = PathGraph {
            snap: self,
            nodes,
            front,
            tile_start,
            connector_edges: 0,
        };
        g.count_connectors();
        g
    }
}

/// A route found with some nodes forbidden: (cost, search number, forbidden nodes, route).
type Candidate = (u64, u32, Vec<usize>, Vec<usize>);

/// One A* run's outcome.
enum Found {
    /// The route's nodes from the start, and its cost.
    Route(Vec<usize>, u64),
    /// No route; the error entry.
    None(PathError),
}

impl PathGraph {
    /// Nodes on the window tile at `(x, y)` (none off the window).
    fn nodes_at(&self, x: i64, y: i64) -> std::ops::Range<usize> {
        match self.snap.tile(x, y) {
            Some(i) => self.tile_start[i] as usize..self.tile_start[i + 1] as usize,
            None => 0..0,
        }
    }

    /// Counts the up/down edges (`connectorEdgesInGrid`): each stairs node links up to every
    /// node one level higher on the tile behind it (see [`PathGraph::neighbours`]).
    fn count_connectors(&mut self) {
        let mut connectors = 0u32;
        for (ui, u) in self.nodes.iter().enumerate() {
            let uf = self.front[ui];
            if uf == FLAT {
                continue;
            }
            let (dx, dy) = DIRS[usize::from((uf + 2) % 4)];
            let (bx, by) = (
                i64::from(u.x) + i64::from(dx),
                i64::from(u.y) + i64::from(dy),
            );
            // A tile's nodes are sorted by level.
            connectors += self
                .nodes_at(bx, by)
                .map(|vi| self.nodes[vi].z)
                .skip_while(|&z| z <= u.z)
                .take_while(|&z| z == u.z + 1)
                .count() as u32;
        }
        self.connector_edges = connectors;
    }

    /// Calls `f(v, direction index)` for each edge out of node `u`, mirroring `Nav::neighbours`,
    /// in a fixed order (by direction, then by `v`). The edges are worked out when asked rather
    /// than stored: a search visits a part of the graph, and most of it never.
    pub(super) fn neighbours(&self, ui: usize, mut f: impl FnMut(usize, u8)) {
        let u = &self.nodes[ui];
        let uf = self.front[ui];
        for (di, (dx, dy)) in DIRS.into_iter().enumerate() {
            let (ahead, back) = (di as u8, ((di + 2) % 4) as u8);
            // Stairs are entered and left at their level only from their front; up the stairs
            // is to the tile behind them.
            let u_level = uf == FLAT || uf == ahead;
            let u_up = uf == back;
            let (nx, ny) = (
                i64::from(u.x) + i64::from(dx),
                i64::from(u.y) + i64::from(dy),
            );
            // A tile's nodes are sorted by level: none past one level up can link.
            for vi in self.nodes_at(nx, ny) {
                let v = &self.nodes[vi];
                if v.z > u.z + 1 {
                    break;
                }
                let vf = self.front[vi];
                let linked = if v.z == u.z {
                    u_level && (vf == FLAT || vf == back)
                } else if v.z == u.z + 1 {
                    u_up
                } else if v.z + 1 == u.z {
                    // Down onto stairs whose back faces this tile.
                    vf == ahead
                } else {
                    false
                };
                if linked {
                    f(vi, di as u8);
                }
            }
        }
    }

    /// Breadth-first steps from the start's tile to every window tile (`u32::MAX` where none),
    /// over nodes usable without a science unlock the faction lacks.
    pub(super) fn steps_from_start(&self) -> Vec<u32> {
        let usable = |i: usize| {
            let n = &self.nodes[i];
            n.existing
                || ((n.lift == 0 || !self.snap.platforms_locked)
                    && (n.role.stairs().is_none() || !self.snap.stairs_locked))
        };
        let mut tiles = vec![u32::MAX; (self.snap.w * self.snap.h) as usize];
        let mut dist = vec![u32::MAX; self.nodes.len()];
        let mut queue = std::collections::VecDeque::new();
        let (sx, sy, _) = self.snap.start;
        for s in self.nodes_at(sx.into(), sy.into()) {
            if usable(s) {
                dist[s] = 0;
                queue.push_back(s);
            }
        }
        while let Some(u) = queue.pop_front() {
            let n = &self.nodes[u];
            if let Some(t) = self.snap.tile(n.x.into(), n.y.into()) {
                tiles[t] = tiles[t].min(dist[u]);
            }
            let du = dist[u];
            self.neighbours(u, |v, _| {
                if dist[v] == u32::MAX && usable(v) {
                    dist[v] = du + 1;
                    queue.push_back(v);
                }
            });
        }
        tiles
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
            // A straight street is drawn where asked: reusing the network is no cheaper than a
            // new tile, so the route does not bend toward it.
            return match self.snap.style {
                PathStyle::Direct => REUSE,
                PathStyle::Straight => NEW_PATH,
            };
        }
        let locked = |yes: bool| if yes { LOCKED } else { 0 };
        let top = match v.role {
            PathRole::Path => NEW_PATH,
            PathRole::Stairs(_) => NEW_STAIRS + locked(self.snap.stairs_locked),
        };
        top + u64::from(v.lift) * (NEW_PLATFORM + locked(self.snap.platforms_locked))
    }

    /// Whether a node may be an end of the route on tile `(x, y)`: any node already on the
    /// network there (at any level), or a new path on its surface.
    fn is_end(n: &Node, (x, y, _): (u32, u32, u32)) -> bool {
        n.x == x && n.y == y && (n.existing || n.role == PathRole::Path && n.lift == 0)
    }

    /// Two new nodes of a route on one tile (the first such pair), which could not both be
    /// placed.
    fn collision(&self, route: &[usize]) -> Option<(usize, usize)> {
        let mut seen: BTreeMap<(u32, u32), usize> = BTreeMap::new();
        for &n in route.iter().filter(|&&n| !self.nodes[n].existing) {
            let node = &self.nodes[n];
            match seen.insert((node.x, node.y), n) {
                Some(m) if m != n => return Some((m, n)),
                _ => {}
            }
        }
        None
    }

    /// Phase 3: A* from the start to the goal, repairing routes that cross themselves (see the
    /// module docs).
    pub fn search(&self) -> PathPlan {
        let snap = &self.snap;
        let mut plan = PathPlan {
            steps: Vec::new(),
            errors: snap.end_errors.clone(),
            connector_edges: self.connector_edges,
            graph_nodes: self.nodes.len() as u32,
            explored: 0,
            searches: 0,
            sections: snap.sections,
            stairs_prefab: snap.stairs_prefab.clone(),
            platform_prefab: snap.platform_prefab.clone(),
        };
        if !plan.errors.is_empty() {
            return plan;
        }
        // Best first over sets of forbidden nodes: a repair never makes a route cheaper, so the
        // first route popped that does not cross itself is the cheapest that does not.
        let mut banned = vec![false; self.nodes.len()];
        let mut tried: BTreeSet<Vec<usize>> = BTreeSet::new();
        let mut queue: BinaryHeap<Reverse<Candidate>> = BinaryHeap::new();
        let mut first_error = None;
        let mut pending = vec![Vec::new()];
        loop {
            for bans in pending.drain(..) {
                if plan.searches as usize >= MAX_REPAIRS || !tried.insert(bans.clone()) {
                    continue;
                }
                for &b in &bans {
                    banned[b] = true;
                }
                plan.searches += 1;
                match self.astar(&banned, &mut plan.explored) {
                    Found::Route(route, cost) => {
                        queue.push(Reverse((cost, plan.searches, bans.clone(), route)));
                    }
                    Found::None(e) => {
                        first_error.get_or_insert(e);
                    }
                }
                for &b in &bans {
                    banned[b] = false;
                }
            }
            let Some(Reverse((_, _, bans, route))) = queue.pop() else {
                break;
            };
            let Some((a, b)) = self.collision(&route) else {
                plan.steps = route.iter().map(|&n| self.step(n)).collect();
                return plan;
            };
            for forbid in [a, b] {
                let mut more = bans.clone();
                more.push(forbid);
                more.sort_unstable();
                pending.push(more);
            }
        }
        plan.errors.push(match first_error {
            Some(e) if tried.len() == 1 => e,
            _ => PathError::plain(format!(
                "no_route: every route found in {} searches needs two things on one tile; route in shorter legs",
                plan.searches
            )),
        });
        plan
    }

    /// The route step of node `n`.
    fn step(&self, n: usize) -> PathStep {
        let n = &self.nodes[n];
        PathStep {
            x: n.x,
            y: n.y,
            z: n.z,
            role: n.role,
            lift: u32::from(n.lift),
            existing: n.existing,
        }
    }

    /// One A* run that never enters a banned node; adds its expansions to `explored`.
    fn astar(&self, banned: &[bool], explored: &mut u32) -> Found {
        let snap = &self.snap;
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
        // The cheapest step: a reused node (with `straight`, no cheaper than a new path).
        let cheapest = match snap.style {
            PathStyle::Direct => REUSE,
            PathStyle::Straight => NEW_PATH,
        };
        let heur = |n: &Node| u64::from(n.x.abs_diff(gx) + n.y.abs_diff(gy)) * cheapest;
        let (sx, sy, _) = snap.start;
        for ni in self.nodes_at(sx.into(), sy.into()) {
            let n = &self.nodes[ni];
            if Self::is_end(n, snap.start) && !banned[ni] {
                let s = ni * dirs + (dirs - 1);
                g[s] = self.enter_cost(n);
                heap.push(Reverse((g[s] + heur(n), heur(n), s as u32)));
            }
        }
        let mut found = None;
        let mut expanded = 0usize;
        // The explored node nearest the goal (for the no-route message).
        let mut nearest: Option<(u64, usize)> = None;
        while let Some(Reverse((_, _, s))) = heap.pop() {
            let s = s as usize;
            if closed[s] {
                continue;
            }
            closed[s] = true;
            expanded += 1;
            *explored += 1;
            let (ui, slot) = (s / dirs, s % dirs);
            let u = &self.nodes[ui];
            if nearest.is_none_or(|(h, _)| heur(u) < h) {
                nearest = Some((heur(u), ui));
            }
            if Self::is_end(u, snap.goal) {
                found = Some(s);
                break;
            }
            if expanded >= MAX_EXPANDED {
                return Found::None(PathError::plain(format!(
                    "search_limit: gave up after exploring {expanded} nodes without reaching ({gx}, {gy}); route in shorter legs"
                )));
            }
            let gs = g[s];
            self.neighbours(ui, |vi, di| {
                if banned[vi] {
                    return;
                }
                let v = &self.nodes[vi];
                let vslot = if dirs == 1 { 0 } else { usize::from(di) };
                let turn = dirs > 1 && slot < 4 && slot != vslot;
                let ng = gs + self.enter_cost(v) + if turn { TURN } else { 0 };
                let t = vi * dirs + vslot;
                if ng < g[t] && !closed[t] {
                    g[t] = ng;
                    parent[t] = s as u32;
                    heap.push(Reverse((ng + heur(v), heur(v), t as u32)));
                }
            });
        }
        let Some(end) = found else {
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
            return Found::None(PathError::plain(format!(
                "no_route: no walkable route from ({sx}, {sy}) to ({gx}, {gy}) within x {x0}-{}, y {y0}-{}: \
                 buildings, plants, ruins, water or height steps of more than {} levels are in the way \
                 (GET /api/tiles shows them; stairs climb one level, on platforms up to {}){near}",
                x0 + snap.w - 1,
                y0 + snap.h - 1,
                MAX_LIFT + 1,
                MAX_LIFT + 1,
            )));
        };
        let cost = g[end];
        let mut route = Vec::new();
        let mut s = end;
        loop {
            route.push(s / dirs);
            if parent[s] == u32::MAX {
                break;
            }
            s = parent[s] as usize;
        }
        route.reverse();
        Found::Route(route, cost)
    }
}
