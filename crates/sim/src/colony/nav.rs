//! The navigation graph: where beavers walk between buildings, how far apart two places are and
//! which buildings a district center reaches.
//!
//! Nodes are voxels `(x, y, z)` beavers stand on: every tile of a walkway (paths on the terrain or
//! on a platform, suspension bridges, gates, tubeways, finished tunnels inside the terrain, which
//! join the walkways beside them at their own level), every stairs block (straight or spiral),
//! and each district center's doorstep (the root of its network). Edges join 4-neighbours on the
//! same level; stairs facing `o` join the tile in front of them at their own level with the tile
//! behind them one level up; spiral stairs join any side at their level with any side one level
//! up. Every edge costs 1 tile (paths give connectivity, not speed, as the catalogue says), except
//! between two tubeway tiles, where it costs `tubewayEdgeCost` (a quarter: tubeways are four times
//! as fast), and except zipline cables (`colony::zipline`): each usable cable is an edge between
//! its two towers' cable nodes (one node per tower, at the voxel above its origin, joined to
//! nothing else) costing its length over the zipline multiplier, and a station's cable node is
//! joined to the station's doorstep (where beavers get on and off) by a boarding edge. Distances
//! are found with Dijkstra (plain BFS while there are no tubeways or cables) and rounded up to
//! whole tiles. A building is reachable when its doorstep is a node of its district center's
//! component.
//!
//! Where several district centers share one network, each node belongs to the nearest center
//! along it (ties to the lower id): the network is split between them.
//!
//! The graph is derived state: rebuilt from the buildings whenever a block changes (`version`),
//! never saved. Distances between nodes come from a breadth-first search, cached per pair until
//! the graph changes. Off the network (trees in a lumberjack's range, ground around a site)
//! beavers walk the Manhattan distance.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// The graph's hash maps: keys are voxels (or pairs of them), hashed with a fast fixed-seed hash
/// (nothing iterates them in an order that matters; a fixed seed makes even that reproducible).
type HashMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::FixedState>;

/// A map holding one entry.
fn map_of<K: std::hash::Hash + Eq, V>(k: K, v: V) -> HashMap<K, V> {
    let mut m = HashMap::default();
    m.insert(k, v);
    m
}

use super::building::{Building, Kind};
use super::geometry::{Orientation, footprint, unvoxel, voxel};

/// One tile of walking, in the units edge costs are counted in.
pub const STEP: u32 = 4;

/// An extra edge of the graph (a zipline cable, or a station's boarding link): its two ends and
/// its cost in `STEP`ths of a tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Link {
    pub a: u64,
    pub b: u64,
    pub cost: u32,
}

/// What stands at a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NodeKind {
    Path,
    /// A tubeway: an edge between two tube tiles costs `tubewayEdgeCost` of a tile.
    Tube,
    /// Spiral stairs: entered from any side at their level, left onto any side one level up.
    Spiral,
    Stairs(Orientation),
    Root,
    /// A zipline tower's cable node: joined only by its links (cables and boarding).
    Cable,
}

/// The nodes joined to one node, gathered without allocating.
#[derive(Default)]
struct Joined {
    nodes: [u64; 16],
    len: usize,
}

impl Joined {
    fn push(&mut self, v: u64) {
        // (At most 12 joins by level and side, plus a tower's cables or a doorstep's boarding.)
        debug_assert!(self.len < self.nodes.len(), "too many edges at one node");
        if self.len < self.nodes.len() {
            self.nodes[self.len] = v;
            self.len += 1;
        }
    }
}

/// The graph and its caches.
#[derive(Debug, Clone, Default)]
pub struct Nav {
    /// The block version the graph was built for.
    pub built_for: u64,
    nodes: HashMap<u64, NodeKind>,
    comp: HashMap<u64, u32>,
    dist: HashMap<(u64, u64), u32>,
    /// The nearest root (district center) of every node, for the roots in `owners_for`.
    owners: HashMap<u64, i32>,
    owners_for: Vec<(i32, u64)>,
    /// Whether any node is a tubeway or any link exists (else every edge costs a tile and a plain
    /// BFS answers).
    has_tubes: bool,
    /// Node -> its extra edges (cables, boarding) and their costs, in the order given.
    links: HashMap<u64, Vec<(u64, u32)>>,
}

impl Nav {
    /// Rebuilds the graph from the buildings, the usable zipline cables (between two cable
    /// nodes) and the stations' boarding links (a cable node and a doorstep voxel, kept only when
    /// the doorstep is a node).
    pub fn rebuild<'a>(
        &mut self,
        buildings: impl Iterator<Item = &'a Building>,
        cables: &[Link],
        boarding: &[Link],
        version: u64,
    ) {
        self.nodes.clear();
        self.comp.clear();
        self.dist.clear();
        self.owners.clear();
        self.owners_for.clear();
        self.links.clear();
        self.has_tubes = false;
        for b in buildings {
            match b.kind() {
                // A tunnel is walked through once it is cut.
                Kind::Path if !b.finished && super::building::is_tunnel(b.spec()) => {}
                Kind::Path => {
                    // Every tile of a walkway (bridges span several).
                    let tube = b.spec().components.iter().any(|c| c == "TubeSpec");
                    let kind = if tube { NodeKind::Tube } else { NodeKind::Path };
                    self.has_tubes |= tube;
                    for (x, y) in footprint(b.spec(), b.x.into(), b.y.into(), b.orientation) {
                        self.nodes.insert(voxel(x as u32, y as u32, b.z), kind);
                    }
                }
                Kind::Stairs => {
                    let spiral = b.spec().components.iter().any(|c| c == "SpiralStairsSpec");
                    let kind = if spiral {
                        NodeKind::Spiral
                    } else {
                        NodeKind::Stairs(b.orientation)
                    };
                    self.nodes.insert(voxel(b.x, b.y, b.z), kind);
                }
                Kind::DistrictCenter => {
                    if let Some((dx, dy)) = b.prefab.doorstep(b.x.into(), b.y.into(), b.orientation)
                        && dx >= 0
                        && dy >= 0
                    {
                        self.nodes
                            .entry(voxel(dx as u32, dy as u32, b.z))
                            .or_insert(NodeKind::Root);
                    }
                }
                _ => {}
            }
        }
        for l in cables {
            self.nodes.insert(l.a, NodeKind::Cable);
            self.nodes.insert(l.b, NodeKind::Cable);
            self.link(l);
        }
        for l in boarding {
            let door = self.nodes.get(&l.b).copied();
            if self.nodes.get(&l.a) == Some(&NodeKind::Cable)
                && door.is_some_and(|k| k != NodeKind::Cable)
            {
                self.link(l);
            }
        }
        let mut keys: Vec<u64> = self.nodes.keys().copied().collect();
        keys.sort_unstable();
        let mut next = 0u32;
        for k in keys {
            if self.comp.contains_key(&k) {
                continue;
            }
            let mut q = VecDeque::from([k]);
            self.comp.insert(k, next);
            while let Some(n) = q.pop_front() {
                for m in self.neighbours(n) {
                    if let std::collections::hash_map::Entry::Vacant(e) = self.comp.entry(m) {
                        e.insert(next);
                        q.push_back(m);
                    }
                }
            }
            next += 1;
        }
        self.built_for = version;
    }

    /// Adds an extra edge both ways.
    fn link(&mut self, l: &Link) {
        self.links.entry(l.a).or_default().push((l.b, l.cost));
        self.links.entry(l.b).or_default().push((l.a, l.cost));
        self.has_tubes = true;
    }

    pub fn is_node(&self, v: u64) -> bool {
        self.nodes.contains_key(&v)
    }

    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The component of a node.
    pub fn component(&self, v: u64) -> Option<u32> {
        self.comp.get(&v).copied()
    }

    /// Nodes joined to `v` by one edge, in a fixed order (at most three a side: same level, up
    /// and down).
    fn neighbours(&self, v: u64) -> impl Iterator<Item = u64> + use<> {
        let (x, y, z) = unvoxel(v);
        let mut out = Joined::default();
        let step = |dx: i32, dy: i32, dz: i32| -> Option<u64> {
            let (nx, ny, nz) = (
                x as i64 + dx as i64,
                y as i64 + dy as i64,
                z as i64 + dz as i64,
            );
            (nx >= 0 && ny >= 0 && nz >= 0).then(|| voxel(nx as u32, ny as u32, nz as u32))
        };
        let kind = self.nodes.get(&v).copied();
        let links = self.links.get(&v).map(Vec::as_slice).unwrap_or_default();
        if kind == Some(NodeKind::Cable) {
            for (n, _) in links {
                out.push(*n);
            }
            return out.nodes.into_iter().take(out.len);
        }
        for (dx, dy) in [(0, -1), (-1, 0), (0, 1), (1, 0)] {
            // Same level.
            if let Some(n) = step(dx, dy, 0)
                && let Some(nk) = self.nodes.get(&n)
            {
                // Entering stairs from the side or from behind at their level is not allowed.
                let ok = match nk {
                    NodeKind::Stairs(o) => o.front() == (-dx, -dy),
                    NodeKind::Cable => false,
                    _ => true,
                };
                let ok_here = match kind {
                    Some(NodeKind::Stairs(o)) => o.front() == (dx, dy),
                    _ => true,
                };
                if ok && ok_here {
                    out.push(n);
                }
            }
            // Up the stairs: from stairs to the tile behind them one level up; from spiral stairs
            // to any side one level up.
            let up = match kind {
                Some(NodeKind::Stairs(o)) => o.front() == (-dx, -dy),
                Some(NodeKind::Spiral) => true,
                _ => false,
            };
            if up
                && let Some(n) = step(dx, dy, 1)
                && self.nodes.get(&n).is_some_and(|k| *k != NodeKind::Cable)
            {
                out.push(n);
            }
            // Down onto stairs below whose back faces this tile, or onto spiral stairs below.
            if z > 0
                && let Some(n) = step(dx, dy, -1)
                && match self.nodes.get(&n) {
                    Some(NodeKind::Stairs(o)) => o.front() == (dx, dy),
                    Some(NodeKind::Spiral) => true,
                    _ => false,
                }
            {
                out.push(n);
            }
        }
        // Boarding a zipline at a station's doorstep.
        for (n, _) in links {
            out.push(*n);
        }
        out.nodes.into_iter().take(out.len)
    }

    /// The cost of the edge between two joined nodes, in `STEP`ths of a tile.
    fn edge_cost(&self, a: u64, b: u64) -> u32 {
        if let Some((_, c)) = self
            .links
            .get(&a)
            .and_then(|l| l.iter().find(|(n, _)| *n == b))
        {
            return *c;
        }
        let tube = |v| self.nodes.get(&v) == Some(&NodeKind::Tube);
        if tube(a) && tube(b) {
            let c = super::rules::colony_rules()
                .movement
                .tubeway_edge_cost
                .value;
            ((c * f64::from(STEP)).round() as u32).clamp(1, STEP)
        } else {
            STEP
        }
    }

    /// Walking distance in tiles between two nodes (tubeways count for less, see
    /// `edge_cost`), rounded up, or `None` when not joined.
    pub fn distance(&mut self, a: u64, b: u64) -> Option<u32> {
        if a == b {
            return self.is_node(a).then_some(0);
        }
        let (ca, cb) = (self.component(a)?, self.component(b)?);
        if ca != cb {
            return None;
        }
        let key = if a < b { (a, b) } else { (b, a) };
        if let Some(d) = self.dist.get(&key) {
            return Some(*d);
        }
        if !self.has_tubes {
            let d = self.steps_between(a, b)?;
            self.remember(key, d);
            return Some(d);
        }
        // Dijkstra over integer edge costs (ties by node key: deterministic).
        let mut best: HashMap<u64, u32> = map_of(a, 0);
        let mut heap = BinaryHeap::from([Reverse((0u32, a))]);
        while let Some(Reverse((d, n))) = heap.pop() {
            if best.get(&n).is_some_and(|bd| *bd < d) {
                continue;
            }
            if n == b {
                let tiles = d.div_ceil(STEP);
                self.remember(key, tiles);
                return Some(tiles);
            }
            for m in self.neighbours(n) {
                let nd = d + self.edge_cost(n, m);
                if best.get(&m).is_none_or(|bd| nd < *bd) {
                    best.insert(m, nd);
                    heap.push(Reverse((nd, m)));
                }
            }
        }
        None
    }

    /// The root (a district center and its doorstep node) nearest node `v` along the network;
    /// ties go to the root listed first. Computed for all nodes at once (a breadth-first search
    /// from every root together) and kept until the graph or the roots change.
    pub fn nearest_root(&mut self, v: u64, roots: &[(i32, u64)]) -> Option<i32> {
        if self.owners_for != roots {
            self.owners.clear();
            self.owners_for = roots.to_vec();
            let mut q = VecDeque::new();
            for (id, r) in roots {
                if self.is_node(*r) && !self.owners.contains_key(r) {
                    self.owners.insert(*r, *id);
                    q.push_back(*r);
                }
            }
            while let Some(n) = q.pop_front() {
                let owner = self.owners[&n];
                for m in self.neighbours(n) {
                    if let std::collections::hash_map::Entry::Vacant(e) = self.owners.entry(m) {
                        e.insert(owner);
                        q.push_back(m);
                    }
                }
            }
        }
        self.owners.get(&v).copied()
    }

    /// Caches a distance (the cache is dropped whole when it grows past 200,000 pairs).
    fn remember(&mut self, key: (u64, u64), d: u32) {
        if self.dist.len() > 200_000 {
            self.dist.clear();
        }
        self.dist.insert(key, d);
    }

    /// Breadth-first steps from `a` to `b` (every edge one tile).
    fn steps_between(&self, a: u64, b: u64) -> Option<u32> {
        let mut seen: HashMap<u64, u32> = map_of(a, 0);
        let mut q = VecDeque::from([a]);
        while let Some(n) = q.pop_front() {
            let d = seen[&n];
            if n == b {
                return Some(d);
            }
            for m in self.neighbours(n) {
                if let std::collections::hash_map::Entry::Vacant(e) = seen.entry(m) {
                    e.insert(d + 1);
                    q.push_back(m);
                }
            }
        }
        None
    }

    /// Every node of a component a beaver stands on (not the zipline towers' cable nodes, up in
    /// the air), sorted.
    pub fn nodes_of(&self, comp: u32) -> Vec<u64> {
        let mut v: Vec<u64> = self
            .comp
            .iter()
            .filter(|(n, c)| **c == comp && self.nodes.get(n) != Some(&NodeKind::Cable))
            .map(|(k, _)| *k)
            .collect();
        v.sort_unstable();
        v
    }

    /// Breadth-first distances from `from` to every node of its component.
    pub fn distances_from(&self, from: u64) -> HashMap<u64, u32> {
        let mut seen: HashMap<u64, u32> = HashMap::default();
        if !self.is_node(from) {
            return seen;
        }
        seen.insert(from, 0);
        let mut q = VecDeque::from([from]);
        while let Some(n) = q.pop_front() {
            let d = seen[&n];
            for m in self.neighbours(n) {
                if let std::collections::hash_map::Entry::Vacant(e) = seen.entry(m) {
                    e.insert(d + 1);
                    q.push_back(m);
                }
            }
        }
        seen
    }
}

/// Manhattan distance between two voxels (levels count as tiles).
pub fn manhattan(a: [u32; 3], b: [u32; 3]) -> u32 {
    a[0].abs_diff(b[0]) + a[1].abs_diff(b[1]) + a[2].abs_diff(b[2])
}
