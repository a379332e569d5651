//! Work plans: what a worker does at its workplace by the workplace's kind (a production shift,
//! fetching a load from a pile of its goods in range (`piles`), cutting the nearest marked tree,
//! gathering, planting the nearest free marked spot, harvesting, scavenging), each target claimed
//! so two workers never head for the same one, and building at the district's construction
//! sites.

use super::beaver::Step;
use super::behave::walk;
use super::building::Kind;
use super::lists::List;
use super::nav::manhattan;
use super::rules::colony_rules;
use super::status::{cuttable, gatherable};
use crate::catalog::{PlantKind, nature};
use crate::world::World;

impl World {
    /// What a worker does at its workplace this round (empty: nothing to do there).
    pub(super) fn work_plan(&mut self, id: i32, w: i32) -> Vec<Step> {
        let Some(b) = self.colony.buildings.get(&w) else {
            return Vec::new();
        };
        if !b.finished || b.paused {
            return Vec::new();
        }
        let chunk = colony_rules().colony.work_chunk_hours.value;
        let Some(door) = self.colony.door(w) else {
            return Vec::new();
        };
        let kind = b.kind();
        let range = b.prefab.work_range();
        let full = b.stock() >= b.capacity() && b.capacity() > 0;
        let here = self.colony.beavers[&id].to;
        match kind {
            Kind::Manufactory
            | Kind::Attraction
            | Kind::AreaEffect
            | Kind::Crossing
            | Kind::Other => {
                let blocker = (kind == Kind::Manufactory)
                    .then(|| self.manufactory_blocker(w))
                    .flatten();
                // A worker already at its door starts at once.
                let to_door = (here != door).then(|| walk(door));
                match blocker {
                    // A full workplace: its worker takes the output to storage itself.
                    Some("output full")
                        if let Some(d) = self.colony.buildings[&w].district
                            && let Some(job) = self.output_job(d, w, here, &|_| true) =>
                    {
                        self.reserve_trip(job)
                    }
                    // Waiting for power or inputs, the worker stays at its post: the work
                    // resumes on the tick they come (`work_tick`).
                    None | Some("unpowered" | "lacks inputs") => to_door
                        .into_iter()
                        .chain([Step::Work {
                            building: w,
                            hours: chunk,
                        }])
                        .collect(),
                    Some(_) => to_door
                        .into_iter()
                        .chain([Step::Idle { hours: chunk }])
                        .collect(),
                }
            }
            Kind::Lumberjack | Kind::Gatherer | Kind::Scavenger | Kind::Planter if full => {
                let d = self.colony.buildings[&w].district;
                match d.and_then(|d| self.output_job(d, w, here, &|_| true)) {
                    Some(job) => self.reserve_trip(job),
                    None => vec![walk(door), Step::Idle { hours: chunk }],
                }
            }
            // Goods left at a stump or bush come first (`piles`).
            Kind::Lumberjack | Kind::Gatherer | Kind::Planter
                if let Some(trip) = self.pile_trip(w, door) =>
            {
                trip
            }
            Kind::Lumberjack => {
                let claimed = self.claimed_targets();
                let tree = self.nearest_plant(door, range, &claimed, cuttable);
                match tree {
                    Some((pid, at)) => {
                        self.yield_trip(w, door, at, Step::Cut { plant: pid }, "Log")
                    }
                    None => Vec::new(),
                }
            }
            Kind::Gatherer => {
                let claimed = self.claimed_targets();
                let bush = self.nearest_plant(door, range, &claimed, gatherable);
                match bush {
                    Some((pid, at)) => {
                        let good = nature()
                            .get(self.land.plants[&pid].species)
                            .yield_good
                            .clone();
                        self.yield_trip(w, door, at, Step::Gather { plant: pid }, &good)
                    }
                    None => Vec::new(),
                }
            }
            Kind::Scavenger => {
                let claimed = self.claimed_targets();
                let mut best: Option<(u32, i32, [u32; 3])> = None;
                for (rid, r) in &self.land.ruins {
                    let at = [r.x, r.y, r.z];
                    let d = manhattan(door, at);
                    if d <= range && !claimed.contains(rid) && best.is_none_or(|(bd, _, _)| d < bd)
                    {
                        best = Some((d, *rid, at));
                    }
                }
                match best {
                    Some((_, rid, at)) => {
                        self.yield_trip(w, door, at, Step::Scavenge { ruin: rid }, "ScrapMetal")
                    }
                    None => Vec::new(),
                }
            }
            Kind::Planter => self.planter_plan(w, door, range),
            Kind::BuilderHub | Kind::DistrictCenter => {
                let d = self.colony.buildings[&w].district;
                match d.and_then(|d| self.build_plan(id, d)) {
                    Some(p) => p,
                    None => d.map(|d| self.haul_plan(d, here)).unwrap_or_default(),
                }
            }
            Kind::HaulingPost => {
                let d = self.colony.buildings[&w].district;
                d.map(|d| self.haul_plan(d, here)).unwrap_or_default()
            }
            Kind::BreedingPod
            | Kind::Dwelling
            | Kind::Storage
            | Kind::Path
            | Kind::Stairs
            | Kind::Solid => Vec::new(),
        }
    }

    /// Walk out to a spot in range, act, carry the yield back to the workplace.
    fn yield_trip(&self, w: i32, door: [u32; 3], at: [u32; 3], act: Step, good: &str) -> Vec<Step> {
        vec![
            walk(door),
            walk(at),
            act,
            walk(door),
            Step::Deliver {
                to: w,
                good: good.to_owned(),
                amount: 0,
            },
        ]
    }

    /// Plants and trees other workers are already heading for.
    fn claimed_targets(&self) -> std::collections::BTreeSet<i32> {
        let mut out = std::collections::BTreeSet::new();
        for b in self.colony.beavers.values() {
            for s in &b.plan {
                match s {
                    Step::Cut { plant } | Step::Gather { plant } | Step::Harvest { plant } => {
                        out.insert(*plant);
                    }
                    Step::Scavenge { ruin } => {
                        out.insert(*ruin);
                    }
                    _ => {}
                }
            }
        }
        out
    }

    /// The nearest plant within `range` of `from` (Manhattan) that `ok` accepts and nobody claimed.
    /// Ties go to the lowest row, then the lowest column.
    ///
    /// Searched ring by ring of ground distance from `from`, stopping once no farther ring can
    /// hold a nearer plant (a plant's distance counts the height difference too, so it is at least
    /// its tile's ring): the same answer as scanning the whole diamond row by row, without
    /// visiting it all when a plant is near.
    pub(crate) fn nearest_plant(
        &self,
        from: [u32; 3],
        range: u32,
        claimed: &std::collections::BTreeSet<i32>,
        ok: impl Fn(&World, &crate::land::Plant) -> bool,
    ) -> Option<(i32, [u32; 3])> {
        // (distance, row, column) of the best so far, with its id and position.
        type Best = Option<((u32, i64, i64), i32, [u32; 3])>;
        let mut best: Best = None;
        let (fx, fy) = (i64::from(from[0]), i64::from(from[1]));
        let (w, h) = (i64::from(self.map.width()), i64::from(self.map.height()));
        let visit = |x: i64, y: i64, best: &mut Best| {
            if x < 0 || y < 0 || x >= w || y >= h {
                return;
            }
            let i = self.land.idx(x as u32, y as u32);
            let Some(pid) = self.land.occupant[i] else {
                return;
            };
            let Some(p) = self.land.plants.get(&pid) else {
                return;
            };
            if claimed.contains(&pid) || !ok(self, p) {
                return;
            }
            debug_assert_eq!(
                (i64::from(p.x), i64::from(p.y)),
                (x, y),
                "a plant on its tile"
            );
            let at = [p.x, p.y, p.z];
            let key = (manhattan(from, at), y, x);
            if best.as_ref().is_none_or(|(bk, _, _)| key < *bk) {
                *best = Some((key, pid, at));
            }
        };
        for ring in 0..=i64::from(range) {
            // The tiles at ground distance `ring`: two per row (one on the middle rows' ends).
            for dy in -ring..=ring {
                let y = fy + dy;
                let dx = ring - dy.abs();
                visit(fx - dx, y, &mut best);
                if dx != 0 {
                    visit(fx + dx, y, &mut best);
                }
            }
            if best
                .as_ref()
                .is_some_and(|((d, _, _), _, _)| i64::from(*d) <= ring)
            {
                break;
            }
        }
        best.map(|(_, id, at)| (id, at))
    }

    /// Farmhouses and foresters: harvest what is ready (farmhouses), plant marked free tiles.
    fn planter_plan(&mut self, w: i32, door: [u32; 3], range: u32) -> Vec<Step> {
        let b = &self.colony.buildings[&w];
        let forester = b.spec().components.iter().any(|c| c == "ForesterSpec");
        let action = b.farm_action;
        let prioritized = b.plantable.clone();
        let allowed: Vec<String> = b.spec().crops.clone();
        let claimed = self.claimed_targets();
        let harvest = if forester {
            None
        } else {
            self.nearest_plant(door, range, &claimed, |_, p| {
                p.alive && p.kind() == PlantKind::Crop && p.grown()
            })
        };
        let plant_spot =
            self.planting_spot(door, range, forester, prioritized.as_deref(), &allowed);
        let harvest_plan = |s: &World, (pid, at): (i32, [u32; 3])| {
            let good = nature().get(s.land.plants[&pid].species).yield_good.clone();
            s.yield_trip(w, door, at, Step::Harvest { plant: pid }, &good)
        };
        let plant_plan = |(x, y, z, sp): (u32, u32, u32, String)| {
            vec![
                walk(door),
                walk([x, y, z]),
                Step::Plant { x, y, species: sp },
            ]
        };
        match (action, harvest, plant_spot) {
            (super::building::FarmAction::Planting, h, Some(p)) => {
                let _ = h;
                plant_plan(p)
            }
            (_, Some(h), _) => harvest_plan(self, h),
            (_, None, Some(p)) => plant_plan(p),
            _ => Vec::new(),
        }
    }

    /// A free tile in range marked for planting a species this planter plants.
    fn planting_spot(
        &self,
        door: [u32; 3],
        range: u32,
        trees: bool,
        prioritized: Option<&str>,
        allowed: &[String],
    ) -> Option<(u32, u32, u32, String)> {
        let cat = nature();
        let claimed: std::collections::BTreeSet<(u32, u32)> = self
            .colony
            .beavers
            .values()
            .flat_map(|b| b.plan.iter())
            .filter_map(|s| match s {
                Step::Plant { x, y, .. } => Some((*x, *y)),
                _ => None,
            })
            .collect();
        let faction = self.faction().as_str();
        type Ranked = (u8, u32, (u32, u32, u32, String));
        let mut best: Option<Ranked> = None;
        for (&i, &sp) in &self.land.planting {
            let s = cat.get(sp);
            let is_tree = s.kind == PlantKind::Tree;
            if is_tree != trees || (!trees && s.kind != PlantKind::Crop) {
                continue;
            }
            if !allowed.is_empty() && !allowed.contains(&s.name) {
                continue;
            }
            let (x, y) = (i % self.map.width(), i / self.map.width());
            // Free soil only (nothing grows under a building or a path), the faction's species.
            if !self.free_soil(x, y) || !s.planted_by(faction) || claimed.contains(&(x, y)) {
                continue;
            }
            let z = u32::from(self.map.terrain_height(x, y));
            let d = manhattan(door, [x, y, z]);
            if d > range {
                continue;
            }
            let rank = u8::from(prioritized.is_some_and(|p| p != s.name));
            if best
                .as_ref()
                .is_none_or(|(br, bd, _)| (rank, d) < (*br, *bd))
            {
                best = Some((rank, d, (x, y, z, s.name.clone())));
            }
        }
        best.map(|(_, _, s)| s)
    }

    /// A builder's next job: the most urgent site with builder-hours still open, i.e. what its
    /// delivered materials allow less what is done and what other builders' steps already
    /// hold. The step is a work chunk at most, cut to the open hours at the builder's working
    /// speed (in whole ticks), so builders never work past a site's finish. With no such site,
    /// the oldest building of the district marked for demolition, a chunk at a time.
    pub(super) fn build_plan(&mut self, id: i32, district: i32) -> Option<Vec<Step>> {
        let chunk = colony_rules().colony.work_chunk_hours.value;
        let faction = self.faction;
        // Builder-hours held by the Build steps planned or under way (at each builder's speed).
        let mut held: std::collections::BTreeMap<i32, f64> = std::collections::BTreeMap::new();
        for (bid, b) in self.colony.beavers.iter() {
            if *bid == id {
                continue;
            }
            for s in &b.plan {
                if let Step::Build { site, hours } = s {
                    *held.entry(*site).or_default() += hours * b.working_speed(faction);
                }
            }
        }
        let mut best: Option<(std::cmp::Reverse<super::building::Priority>, u32, i32, f64)> = None;
        for (sid, b) in self.colony.listed(List::Sites) {
            if b.finished || b.district != Some(district) {
                continue;
            }
            let open = b.material_progress() * b.build_hours_needed()
                - b.build_hours
                - held.get(sid).copied().unwrap_or(0.0);
            if open <= 1e-9 {
                continue;
            }
            let key = (std::cmp::Reverse(b.construction_priority), b.seq, *sid);
            if best.is_none_or(|(p, s, i, _)| key < (p, s, i)) {
                best = Some((key.0, key.1, key.2, open));
            }
        }
        let Some((_, _, site, open)) = best else {
            // No site to work on: a building marked for demolition to take down.
            let site = self.next_to_take_down(district)?;
            let door = self.colony.door(site)?;
            return Some(vec![walk(door), Step::Build { site, hours: chunk }]);
        };
        let door = self.colony.door(site)?;
        let speed = self.colony.beavers[&id].working_speed(faction).max(0.01);
        // Whole ticks (the sim's grain), at least one: a step's credit is its time.
        let tph = crate::clock::ticks_per_hour() as f64;
        let hours = ((chunk.min(open / speed) * tph).floor().max(1.0)) / tph;
        Some(vec![walk(door), Step::Build { site, hours }])
    }
}
