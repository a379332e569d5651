//! The plants' part of the summary from one walk over the plants, where it took four: the
//! tallies of trees and crops and the tree and food clusters near the district center
//! ([`World::plant_summary`]), and the clusters' ranking shared with [`World::tree_clusters`] and
//! the other cluster views.
//!
//! The walk counts each plant into its species' tally and into its cluster cell's counts (members
//! and grown members) on a dense grid of cells, and keeps each counted plant's cell and member
//! in a flat list; the ranking (`grown`, then `total`, then cell order) needs nothing more. Only
//! the top cells need their members (for the member nearest the mean and the species counts), so
//! a pass over the flat list, in plant id order, gathers just those, and they are finished
//! exactly as a cluster is defined in `views`' module docs.

use std::collections::BTreeMap;

use crate::catalog::{PlantKind, nature};
use crate::world::World;

use super::plants::Plant;
use super::views::{ClusterView, PlantTally};

/// Cell size of the cluster grid.
const CLUSTER_CELL: u32 = 8;
/// Clusters returned.
const TOP_CLUSTERS: usize = 5;

/// Which plants a cluster counts.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum ClusterKind {
    /// Trees (`grown`: grown trees).
    Trees,
    /// Bushes (`grown`: fruit ready).
    Food,
}

/// Plants at height `z` within Manhattan distance `radius` of `(x, y)`.
#[derive(Clone, Copy)]
pub struct Near {
    pub x: u32,
    pub y: u32,
    pub z: u32,
    pub radius: u32,
}

/// The summary's plant numbers ([`World::plant_summary`]).
#[derive(Debug, Clone, PartialEq)]
pub struct PlantSummary {
    /// As [`World::tree_tallies`].
    pub trees: BTreeMap<&'static str, PlantTally>,
    /// As [`World::crop_tallies`].
    pub crops: BTreeMap<&'static str, PlantTally>,
    /// As [`World::tree_clusters_near`] (or [`World::tree_clusters`] with no `near`).
    pub tree_clusters: Vec<ClusterView>,
    /// As [`World::food_clusters_near`] (or [`World::food_clusters`]).
    pub food_clusters: Vec<ClusterView>,
}

/// One cell's running counts.
#[derive(Clone, Copy, Default)]
struct CellCounts {
    total: u32,
    grown: u32,
}

/// A cluster member: x, y, z, grown, species.
type Member = (u32, u32, u32, bool, u16);

/// The cluster cells of one kind, counted in the walk over the plants, with every counted
/// plant kept for gathering the top cells' members.
struct Grid {
    kind: ClusterKind,
    near: Option<Near>,
    cols: u32,
    cells: Vec<CellCounts>,
    /// Every counted plant's cell and member, in plant id order.
    counted: Vec<(u32, Member)>,
}

impl Grid {
    fn new(w: &World, kind: ClusterKind, near: Option<Near>) -> Grid {
        let cols = w.map.width().div_ceil(CLUSTER_CELL);
        let rows = w.map.height().div_ceil(CLUSTER_CELL);
        Grid {
            kind,
            near,
            cols,
            cells: vec![CellCounts::default(); (cols * rows) as usize],
            counted: Vec::new(),
        }
    }

    /// The plant's cell and whether it is grown, if this grid counts it (a living plant).
    fn counts(&self, p: &Plant, kind: PlantKind) -> Option<(u32, bool)> {
        let (want, grown) = match self.kind {
            ClusterKind::Trees => (PlantKind::Tree, p.grown()),
            ClusterKind::Food => (PlantKind::Bush, p.fruit >= 1.0),
        };
        if kind != want {
            return None;
        }
        if let Some(n) = self.near
            && (p.z != n.z || p.x.abs_diff(n.x) + p.y.abs_diff(n.y) > n.radius)
        {
            return None;
        }
        Some(((p.y / CLUSTER_CELL) * self.cols + p.x / CLUSTER_CELL, grown))
    }

    fn count(&mut self, p: &Plant, kind: PlantKind) {
        if let Some((cell, grown)) = self.counts(p, kind) {
            let c = &mut self.cells[cell as usize];
            c.total += 1;
            c.grown += u32::from(grown);
            self.counted.push((cell, (p.x, p.y, p.z, grown, p.species)));
        }
    }

    /// The top cells' clusters: the cells ranked by their counts (`grown`, then `total`, then
    /// cell order; tree cells need a grown tree), then the top ones' members gathered.
    fn finish(self) -> Vec<ClusterView> {
        let mut ranked: Vec<(u32, CellCounts)> = self
            .cells
            .iter()
            .enumerate()
            .filter(|(_, c)| c.total > 0 && (self.kind == ClusterKind::Food || c.grown > 0))
            .map(|(i, c)| (i as u32, *c))
            .collect();
        ranked.sort_by(|a, b| rank_order((a.0, a.1.grown, a.1.total), (b.0, b.1.grown, b.1.total)));
        let mut top: Vec<(u32, Vec<Member>)> = ranked
            .into_iter()
            .take(TOP_CLUSTERS)
            .map(|(cell, c)| (cell, Vec::with_capacity(c.total as usize)))
            .collect();
        for (cell, m) in &self.counted {
            if let Some((_, members)) = top.iter_mut().find(|(c, _)| c == cell) {
                members.push(*m);
            }
        }
        top.into_iter().map(|(_, m)| cluster(&m)).collect()
    }
}

/// The clusters' order, of `(cell, grown, total)`: most grown first, then most members, then
/// cell order.
fn rank_order(a: (u32, u32, u32), b: (u32, u32, u32)) -> std::cmp::Ordering {
    b.1.cmp(&a.1).then(b.2.cmp(&a.2)).then(a.0.cmp(&b.0))
}

/// A cluster from its members (in plant id order): the member nearest their mean position (the
/// first of equals), and every member counted by species.
fn cluster(members: &[Member]) -> ClusterView {
    let n = members.len() as f64;
    let mx = members.iter().map(|m| f64::from(m.0)).sum::<f64>() / n;
    let my = members.iter().map(|m| f64::from(m.1)).sum::<f64>() / n;
    let centre = members
        .iter()
        .min_by(|a, b| {
            let da = (f64::from(a.0) - mx).powi(2) + (f64::from(a.1) - my).powi(2);
            let db = (f64::from(b.0) - mx).powi(2) + (f64::from(b.1) - my).powi(2);
            da.total_cmp(&db)
        })
        .expect("a ranked cell has members");
    let mut species = BTreeMap::new();
    for m in members {
        *species
            .entry(nature().get(m.4).name.clone())
            .or_insert(0u32) += 1;
    }
    ClusterView {
        x: centre.0,
        y: centre.1,
        z: centre.2,
        grown: members.iter().filter(|m| m.3).count() as u32,
        total: members.len() as u32,
        species,
    }
}

/// Living plants (and dead grown trees, which keep their logs) of one kind per species index.
#[derive(Default)]
struct Tallies(Vec<PlantTally>);

impl Tallies {
    fn count(&mut self, species: u16, grown: bool, marked: bool) {
        let i = usize::from(species);
        if self.0.len() <= i {
            self.0.resize(i + 1, PlantTally::default());
        }
        let t = &mut self.0[i];
        match (grown, marked) {
            (true, true) => t.grown_marked += 1,
            (true, false) => t.grown_unmarked += 1,
            (false, true) => t.growing_marked += 1,
            (false, false) => t.growing_unmarked += 1,
        }
    }

    /// By species name, the species with none left out.
    fn by_name(self) -> BTreeMap<&'static str, PlantTally> {
        let cat = nature();
        self.0
            .into_iter()
            .enumerate()
            .filter(|(_, t)| *t != PlantTally::default())
            .map(|(i, t)| (cat.get(i as u16).name.as_str(), t))
            .collect()
    }
}

impl World {
    /// Tree and crop tallies and the tree and food clusters (those near `near`, or over the whole
    /// map), each as its own read model gives it, from one walk over the plants.
    pub fn plant_summary(&self, near: Option<Near>) -> PlantSummary {
        let mut trees = Tallies::default();
        let mut crops = Tallies::default();
        let mut tree_grid = Grid::new(self, ClusterKind::Trees, near);
        let mut food_grid = Grid::new(self, ClusterKind::Food, near);
        for p in self.land.plants.values().filter(|p| p.standing()) {
            let kind = p.kind();
            match kind {
                PlantKind::Tree => {
                    let marked = self.land.cutting[self.land.idx(p.x, p.y)];
                    trees.count(p.species, p.grown(), marked);
                    tree_grid.count(p, kind);
                }
                PlantKind::Crop => crops.count(p.species, p.grown(), false),
                PlantKind::Bush => food_grid.count(p, kind),
            }
        }
        PlantSummary {
            trees: trees.by_name(),
            crops: crops.by_name(),
            tree_clusters: tree_grid.finish(),
            food_clusters: food_grid.finish(),
        }
    }

    /// Living plants (and dead grown trees) of one kind counted per species (by name).
    pub(super) fn tallies(&self, kind: PlantKind) -> BTreeMap<&'static str, PlantTally> {
        let mut t = Tallies::default();
        for (_, p) in self.land.plants.of_kind(kind).filter(|(_, p)| p.standing()) {
            let marked = kind == PlantKind::Tree && self.land.cutting[self.land.idx(p.x, p.y)];
            t.count(p.species, p.grown(), marked);
        }
        t.by_name()
    }

    /// One kind's clusters (near `near`, or over the whole map).
    pub(super) fn clusters(&self, kind: ClusterKind, near: Option<Near>) -> Vec<ClusterView> {
        let mut grid = Grid::new(self, kind, near);
        for p in self.land.plants.values().filter(|p| p.standing()) {
            grid.count(p, p.kind());
        }
        grid.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::NewGame;

    /// The clusters as they were made before the cell sums: every cell's members gathered in
    /// one walk, each cell finished, then ranked (the reference the two walks are checked
    /// against).
    fn clusters_by_members(w: &World, kind: ClusterKind, near: Option<Near>) -> Vec<ClusterView> {
        let grid = Grid::new(w, kind, near);
        let mut cells: BTreeMap<u32, Vec<Member>> = BTreeMap::new();
        for p in w.land.plants.values().filter(|p| p.standing()) {
            if let Some((cell, grown)) = grid.counts(p, p.kind()) {
                cells
                    .entry(cell)
                    .or_default()
                    .push((p.x, p.y, p.z, grown, p.species));
            }
        }
        let mut out: Vec<(u32, ClusterView)> = cells
            .into_iter()
            .map(|(cell, m)| (cell, cluster(&m)))
            .filter(|(_, c)| kind == ClusterKind::Food || c.grown > 0)
            .collect();
        out.sort_by(|a, b| rank_order((a.0, a.1.grown, a.1.total), (b.0, b.1.grown, b.1.total)));
        out.into_iter().take(TOP_CLUSTERS).map(|(_, c)| c).collect()
    }

    /// Each plant's tally, counted from the plant views.
    fn tallies_by_views(w: &World, trees: bool) -> BTreeMap<String, PlantTally> {
        let mut out: BTreeMap<String, PlantTally> = BTreeMap::new();
        let views = if trees { w.trees() } else { w.crops() };
        // A dead grown tree still holds its logs (`deadTreesGiveLogs`).
        for p in views.into_iter().filter(|p| p.alive || (trees && p.grown)) {
            let t = out.entry(p.name.clone()).or_default();
            match (p.grown, p.marked) {
                (true, true) => t.grown_marked += 1,
                (true, false) => t.grown_unmarked += 1,
                (false, true) => t.growing_marked += 1,
                (false, false) => t.growing_unmarked += 1,
            }
        }
        out
    }

    fn owned(t: &BTreeMap<&str, PlantTally>) -> BTreeMap<String, PlantTally> {
        t.iter().map(|(k, v)| ((*k).to_owned(), *v)).collect()
    }

    /// Seeded worlds a few days in, some land marked for cutting, the young colony with its crops
    /// and bushes gathered; clusters over the whole map and near points at several radii.
    #[test]
    fn two_walks_give_what_each_read_model_gives() {
        let mut worlds = vec![crate::colony::fixtures::small_colony()];
        for seed in [3u64, 8, 21] {
            let mut w = World::new(&NewGame {
                seed,
                map_width: 64 + 32 * (seed as u32 % 3),
                map_height: 64,
                ..NewGame::default()
            });
            w.advance_ticks(768 * 3);
            let (x, y) = (w.map.width() / 4, 8);
            for z in 0..12 {
                w.set_cutting_area(x.into(), y.into(), (x + 20).into(), 40, z, true)
                    .expect("an area on the map");
            }
            worlds.push(w);
        }
        let (mut compared, mut marked) = (0, 0);
        for w in &worlds {
            let mut points: Vec<Option<Near>> = vec![None];
            for (i, p) in w.land.plants.values().step_by(37).take(6).enumerate() {
                let radius = [5, 12, 40][i % 3];
                points.push(Some(Near {
                    x: p.x,
                    y: p.y,
                    z: p.z,
                    radius,
                }));
            }
            for near in points {
                let s = w.plant_summary(near);
                let trees = clusters_by_members(w, ClusterKind::Trees, near);
                let food = clusters_by_members(w, ClusterKind::Food, near);
                assert_eq!(s.tree_clusters, trees);
                assert_eq!(s.food_clusters, food);
                assert_eq!(w.clusters(ClusterKind::Trees, near), trees);
                assert_eq!(w.clusters(ClusterKind::Food, near), food);
                compared += trees.len() + food.len();
            }
            let s = w.plant_summary(None);
            assert_eq!(owned(&s.trees), tallies_by_views(w, true));
            assert_eq!(owned(&s.crops), tallies_by_views(w, false));
            assert_eq!(s.trees, w.tree_tallies());
            assert_eq!(s.crops, w.crop_tallies());
            marked += s.trees.values().map(|t| t.grown_marked).sum::<u32>();
        }
        assert!(compared > 60, "clusters were compared: {compared}");
        assert!(marked > 0, "some of the tallied trees are marked");
    }
}
