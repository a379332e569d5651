//! Placing a checked building (its site, blocks and events; instant prefabs finished at once),
//! finishing construction (materials used up, water barriers, capped badwater sources, a new
//! district's founding), demolishing with refunds (into stores with room, never past a
//! capacity; what finds none is lost with a notification), and founding the starting
//! settlement. The placement rules and checks are in `place`.

use std::collections::BTreeMap;

use serde_json::json;

use super::building::{Building, Kind, spec};
use super::geometry::{Orientation, footprint};
use super::nav::manhattan;
use super::place::{Placement, caps_source};
use super::rules::colony_rules;
use crate::content::Building as Spec;
use crate::error::{CommandError, ErrorCode};
use crate::event::names;
use crate::world::World;

impl World {
    /// Places a checked building for the player: the site (or the finished building, for
    /// instant prefabs), its blocks and events. A prefab with a placed cost (a second district
    /// center) costs it and is built like any site. Returns the id.
    pub(crate) fn apply_placement(&mut self, p: Placement) -> i32 {
        self.apply_placement_paying(p, true)
    }

    /// `apply_placement`; `pay` false places a prefab with a placed cost free (the starting
    /// district center), instant if the rules list it so.
    fn apply_placement_paying(&mut self, p: Placement, pay: bool) -> i32 {
        for s in &p.stumps {
            self.land.remove_plant(*s);
        }
        let id = self.colony.ids.next_id();
        let mut b = Building::new(p.prefab, p.x, p.y, p.z, p.orientation);
        b.charged = pay && super::building::has_placed_cost(b.spec());
        let charged = b.charged;
        self.colony.placed += 1;
        b.seq = self.colony.placed;
        let kind = b.kind();
        self.colony.buildings.insert(id, b);
        self.colony.index_building(id);
        let day = self.day();
        self.announce_entity(id, "building", p.prefab);
        let data = self.building_event_data(id);
        self.events.push(names::BUILDING_PLACED, day, data.clone());
        // Nothing is planted under a building: the planting marks of the ground it covers go.
        let tiles = {
            let b = &self.colony.buildings[&id];
            footprint(b.spec(), b.x.into(), b.y.into(), b.orientation)
        };
        for (x, y) in tiles {
            let (x, y) = (x as u32, y as u32);
            if u32::from(self.map.terrain_height(x, y)) == p.z {
                self.unmark_planting(x, y, p.z, day);
            }
        }
        if matches!(kind, Kind::Path | Kind::Stairs | Kind::Solid) {
            self.events.push(names::BLOCK_SET, day, data.clone());
        }
        if !self.colony.started_building && kind != Kind::DistrictCenter {
            self.colony.started_building = true;
            self.events.push(names::GAME_STARTING_BUILDING, day, data);
        }
        let instant = !charged
            && colony_rules()
                .construction
                .instant_buildings
                .value
                .iter()
                .any(|n| *n == spec(p.prefab).base_name);
        if instant {
            self.finish_building(id);
        }
        if matches!(kind, Kind::Path | Kind::Stairs) {
            self.refresh_districts_announced();
        } else {
            let d = self.colony.district_reaching(id);
            if let Some(b) = self.colony.buildings.get_mut(&id) {
                b.district = d;
            }
            self.colony.layout_version += 1;
        }
        id
    }

    /// Recomputes districts; queues `district.connections.changed {buildings}` when buildings
    /// joined or left a district.
    pub(crate) fn refresh_districts_announced(&mut self) {
        let changed = self.colony.refresh_districts();
        if changed > 0 {
            let day = self.day();
            self.events.push(
                names::DISTRICT_CONNECTIONS_CHANGED,
                day,
                json!({ "buildings": changed }),
            );
        }
    }

    /// `{id, name, x, y, z}` of a building, for events.
    pub(crate) fn building_event_data(&self, id: i32) -> serde_json::Value {
        match self.colony.buildings.get(&id) {
            Some(b) => json!({ "id": id, "name": b.prefab, "x": b.x, "y": b.y, "z": b.z }),
            None => json!({ "id": id }),
        }
    }

    /// Completes construction: materials are used up, the building starts working, water
    /// obstacles start holding water, a new district center founds its district.
    pub(crate) fn finish_building(&mut self, id: i32) {
        let Some(b) = self.colony.buildings.get_mut(&id) else {
            return;
        };
        if b.finished {
            return;
        }
        b.finished = true;
        self.colony.layout_version += 1;
        self.colony.power.touch();
        let costs: Vec<(String, u32)> = b
            .cost()
            .iter()
            .map(|c| (c.good.clone(), c.amount as u32))
            .collect();
        for (g, n) in costs {
            let used = b.take(&g, n);
            self.history.consumed(&g, used);
        }
        b.build_hours = b.build_hours_needed();
        let (kind, s, x, y, z, o) = (b.kind(), b.spec(), b.x, b.y, b.z, b.orientation);
        let given = b.custom_name.clone();
        let h = b.floodgate_height;
        let day = self.day();
        if s.flag("waterObstacle") {
            let top = if s.flag("floodgate") {
                z as f32 + h
            } else if s.base_name == "Dam" {
                // A dam holds the water to part of its block and lets the rest spill over.
                z as f32 + crate::catalog::world_rules().water.dam_spill_height.value as f32
            } else {
                (z + s.size.z) as f32
            };
            for (tx, ty) in footprint(s, x.into(), y.into(), o) {
                let _ = self.set_water_barrier(tx, ty, Some(top));
            }
        }
        if caps_source(s) {
            self.cap_sources_under(s, x, y, o, true);
        }
        if s.flag("soilBarrier") {
            self.refresh_soil_barriers();
        }
        if super::water_buildings::is_any_valve(s) || super::water_buildings::is_aquifer_drill(s) {
            self.refresh_water_works();
        }
        if kind == Kind::DistrictCenter && !self.colony.districts.contains_key(&id) {
            let n = self.colony.districts.len() + 1;
            // A center named while a site founds its district under that name, unless another
            // district took it meanwhile.
            let name = given
                .filter(|c| {
                    !self
                        .colony
                        .districts
                        .values()
                        .any(|d| d.name.eq_ignore_ascii_case(c))
                })
                .unwrap_or_else(|| format!("District {n}"));
            self.colony.districts.insert(
                id,
                super::District {
                    name: name.clone(),
                    distribution: Default::default(),
                },
            );
            self.colony.block_version += 1;
            self.refresh_districts_announced();
            self.events.push(
                names::DISTRICT_CHANGED,
                day,
                json!({ "id": id, "name": name, "change": "added" }),
            );
        }
        let data = self.building_event_data(id);
        self.events.push(names::BUILDING_FINISHED, day, data);
        if self
            .colony
            .buildings
            .get(&id)
            .is_some_and(super::zipline::is_tower)
        {
            self.zipline_tower_finished(id);
        }
        if super::building::is_tunnel(s) {
            // The passage opens: the walking graph and the districts follow.
            self.colony.block_version += 1;
            self.refresh_districts_announced();
        }
    }

    /// Caps (or uncaps) the badwater sources under a footprint.
    fn cap_sources_under(&mut self, s: &Spec, x: u32, y: u32, o: Orientation, capped: bool) {
        let tiles = footprint(s, x.into(), y.into(), o);
        for src in self.land.water.sources.iter_mut() {
            if src.badwater && tiles.contains(&(i64::from(src.x), i64::from(src.y))) {
                src.capped = capped;
            }
        }
    }

    /// Removes a building: workers and dwellers leave, plans that use it are dropped, its goods
    /// (materials of a site in full; a finished building's stock and its cost at the game mode's
    /// refund rate) go into the district's stores with room (`store_salvage`; the
    /// rest is lost, with a notification), blocks and water barriers go.
    pub(crate) fn remove_building(&mut self, id: i32) -> Result<(), CommandError> {
        let b = self.colony.building(id)?;
        // A district center still a site founds nothing yet: it goes like any site.
        if b.kind() == Kind::DistrictCenter && b.finished {
            return Err(CommandError::new(
                ErrorCode::InvalidType,
                format!("{} #{id} is a district center; it holds the district together and cannot be demolished", b.prefab),
            )
            .with("id", id)
            .with("name", b.prefab.to_string()));
        }
        let day = self.day();
        let data = self.building_event_data(id);
        self.drop_plans_using(id);
        let b = self
            .colony
            .buildings
            .get(&id)
            .expect("checked above")
            .clone();
        let mut refund: Vec<(String, u32)> =
            b.inventory.iter().map(|(g, n)| (g.clone(), *n)).collect();
        if b.finished {
            let rate = crate::catalog::world_rules().mode(self.mode).refund_rate;
            // The building's own cost: nothing for the free starting district center.
            for c in b.cost() {
                refund.push((c.good.clone(), (c.amount * rate).floor() as u32));
            }
        }
        for w in b.workers.iter().chain(&b.dwellers) {
            if let Some(bv) = self.colony.beavers.get_mut(w) {
                if bv.workplace == Some(id) {
                    bv.workplace = None;
                }
                if bv.home == Some(id) {
                    bv.home = None;
                }
            }
        }
        let s = b.spec();
        if s.flag("waterObstacle") && b.finished {
            for (tx, ty) in footprint(s, b.x.into(), b.y.into(), b.orientation) {
                let _ = self.set_water_barrier(tx, ty, None);
            }
        }
        if caps_source(s) && b.finished {
            self.cap_sources_under(s, b.x, b.y, b.orientation, false);
        }
        let near = self.colony.door(id).unwrap_or([b.x, b.y, b.z]);
        let cables = self.colony.ziplines.len();
        self.zipline_tower_removed(id);
        let cables_went = self.colony.ziplines.len() != cables;
        self.colony.unindex_building(id);
        self.colony.buildings.remove(&id);
        if s.flag("soilBarrier") && b.finished {
            self.refresh_soil_barriers();
        }
        if self.colony.water_works.contains(&id) {
            self.refresh_water_works();
        }
        self.colony.marked.remove(&id);
        let what = format!("{} #{id}", b.prefab);
        self.store_salvage(b.district, near, &what, refund);
        if b.finished {
            self.events
                .push(names::BUILDING_DECONSTRUCTED, day, data.clone());
        }
        self.events
            .push(names::BUILDING_DEMOLISHED, day, data.clone());
        if matches!(b.kind(), Kind::Path | Kind::Stairs | Kind::Solid) {
            self.events.push(names::BLOCK_UNSET, day, data);
            self.refresh_districts_announced();
        } else if cables_went {
            self.refresh_districts_announced();
        }
        Ok(())
    }

    /// Puts a demolished building's goods (what it held and its refunded cost) into its
    /// district's stores with room, nearest to `near` first: a storage building as much as
    /// `storage_accepts` says, the district center up to its listed capacity. What finds no room
    /// (or no district: the building stood unconnected) is lost, with a `Goods lost`
    /// notification naming the building and the goods. Nothing is stored past a capacity.
    fn store_salvage(
        &mut self,
        district: Option<i32>,
        near: [u32; 3],
        what: &str,
        goods: Vec<(String, u32)>,
    ) {
        let mut wanted: BTreeMap<String, u32> = BTreeMap::new();
        for (g, n) in goods {
            *wanted.entry(g).or_default() += n;
        }
        let district = district.filter(|d| self.colony.buildings.contains_key(d));
        let mut stores: Vec<(u32, i32)> = district
            .map(|d| self.colony.scan_stores(d))
            .unwrap_or_default()
            .into_iter()
            .map(|s| (manhattan(near, self.colony.door(s).unwrap_or(near)), s))
            .collect();
        stores.sort_unstable();
        let mut lost: Vec<String> = Vec::new();
        for (good, mut n) in wanted {
            for &(_, s) in &stores {
                if n == 0 {
                    break;
                }
                let b = self.colony.buildings.get_mut(&s).expect("a store");
                let room = if b.kind() == Kind::DistrictCenter {
                    b.capacity().saturating_sub(b.stock())
                } else {
                    b.storage_accepts(&good)
                };
                let put = room.min(n);
                b.add(&good, put);
                n -= put;
            }
            if n > 0 {
                lost.push(format!("{n} {good}"));
            }
        }
        if lost.is_empty() {
            return;
        }
        let place = match district {
            Some(d) => format!("no room in {}'s stores", self.district_name(Some(d))),
            None => "no district: it stood unconnected".to_owned(),
        };
        self.notify(
            "Goods lost".into(),
            format!(
                "Demolishing {what}: {} found {place} and were lost (build storage with room first)",
                lost.join(", ")
            ),
        );
    }

    /// Places the starting settlement: the district center on the start spot (facing south, its
    /// doorstep toward the spot), the starting beavers and the starting goods in its stock.
    pub(crate) fn found_colony(&mut self) {
        let (sx, sy, sz) = self.map.start_spot();
        let dc_name = format!("DistrictCenter.{}", self.faction.as_str());
        let mut spot = None;
        'search: for r in 0..12i64 {
            for dy in -r..=r {
                for dx in -r..=r {
                    if dx.abs().max(dy.abs()) != r {
                        continue;
                    }
                    let (x, y) = (i64::from(sx) - 1 + dx, i64::from(sy) - 1 + dy);
                    if let Ok(p) =
                        self.check_placement(&dc_name, x, y, i64::from(sz), Orientation::South)
                    {
                        spot = Some(p);
                        break 'search;
                    }
                }
            }
        }
        let Some(p) = spot else {
            return;
        };
        // The starting center is free and instant.
        let dc = self.apply_placement_paying(p, false);
        let rules = colony_rules();
        let mode = crate::catalog::world_rules().mode(self.mode);
        let food = rules.colony.starting_food_good.value[self.faction.as_str()].clone();
        let door = self.colony.door(dc).expect("the center exists");
        {
            let b = self.colony.buildings.get_mut(&dc).expect("just placed");
            for (g, n) in &rules.colony.starting_goods.value {
                b.add(g, *n);
            }
            b.add(&food, mode.starting_food);
            b.add("Water", mode.starting_water);
        }
        let start = &rules.population.starting_colony.value;
        for i in 0..(start.adults + start.children) {
            let child = i >= start.adults;
            let range = if child {
                start.child_age_progress
            } else {
                start.adult_age_progress
            };
            let progress = self.colony.rng.range_f64(range[0], range[1]);
            self.spawn_beaver(door, child, progress, Some(dc));
        }
        self.population_changed();
    }
}
