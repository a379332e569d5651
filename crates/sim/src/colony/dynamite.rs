//! Dynamite: a finished charge (`Dynamite`, `DoubleDynamite`, `TripleDynamite`, buildings with
//! the catalogue's `DynamiteSpec`, paid for in Explosives that builders bring to its site) is
//! detonated by [`World::detonate`] (the extension route `POST /api/dynamite/detonate`). The
//! charge is consumed (no refund) and the terrain column it stood on loses as many blocks as the
//! charge is strong: one, two or three (the game's three charges; the count is in their names,
//! not in the catalogue, so it is kept here), never below height 0. Whatever stood on that tile
//! goes with it: beavers and bots there die (`explosion.kill`, cause `explosion`), a plant there
//! is destroyed. The water runs into the hole at its next step (the water model reads the
//! terrain every step), and the soil is worked out again from the new ground at its next
//! recompute. Events: `explosion` {id, prefab, x, y, z, depth}, `terrain.destroyed` {x, y, from,
//! to} and one `explosion.kill` {id, name, isBot, x, y} per victim.
//!
//! A finished Detonator (the catalogue's `DetonatorSpec`, an automated building) fires through
//! the same path when its automation input rises from `Off` to `On` ([`World::detonate_from`]):
//! every finished charge within `data/colony.json` `ways.detonatorReachTiles` tiles of it on the
//! map's plane (each way: a square around it), in id order. Sites and charges beyond its reach
//! stay.

use serde::Serialize;
use serde_json::json;

use crate::error::{CommandError, ErrorCode};
use crate::event::names;
use crate::world::World;

/// What a detonation did.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Detonation {
    /// The charge's id (gone now).
    pub id: i32,
    pub prefab: String,
    pub x: u32,
    pub y: u32,
    /// The terrain height before and after.
    pub from: u32,
    pub to: u32,
    /// Beavers and bots killed.
    pub killed: Vec<i32>,
    /// The plant destroyed, if one stood there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plant: Option<i32>,
}

/// Blocks of terrain a charge removes, by its base name; `None` for anything that is not a
/// charge.
pub fn charge_depth(base_name: &str) -> Option<u8> {
    match base_name {
        "Dynamite" => Some(1),
        "DoubleDynamite" => Some(2),
        "TripleDynamite" => Some(3),
        _ => None,
    }
}

impl World {
    /// Detonates the finished charge `id`. Errors: `not_found`; `invalid_type` (not a charge);
    /// `operation_failed` (still a site). Nothing changes on an error.
    pub fn detonate(&mut self, id: i32) -> Result<Detonation, CommandError> {
        let b = self.colony.building(id)?;
        let s = b.spec();
        let Some(depth) = charge_depth(&s.base_name) else {
            return Err(CommandError::new(
                ErrorCode::InvalidType,
                format!(
                    "{} #{id} is not dynamite; only Dynamite, DoubleDynamite and TripleDynamite \
                     detonate",
                    b.prefab
                ),
            )
            .with("id", id)
            .with("name", b.prefab.to_string()));
        };
        if !b.finished {
            return Err(CommandError::new(
                ErrorCode::OperationFailed,
                format!(
                    "{} #{id} is still a site (its Explosives have not all arrived); detonate it \
                     once it is finished (GET /api/buildings/{id})",
                    b.prefab
                ),
            )
            .with("id", id));
        }
        let (x, y, prefab) = (b.x, b.y, b.prefab.to_string());
        let from = self.map.terrain_height(x, y);
        let to = from.saturating_sub(depth);
        let day = self.day();
        let data = self.building_event_data(id);
        // The charge is consumed.
        self.drop_plans_using(id);
        self.colony.unindex_building(id);
        self.colony.buildings.remove(&id);
        self.events.push(names::BUILDING_DEMOLISHED, day, data);
        self.map
            .set_terrain_height(x, y, to)
            .expect("lowering a tile on the map stays in range");
        self.events.push(
            names::EXPLOSION,
            day,
            json!({ "id": id, "prefab": prefab, "x": x, "y": y, "z": from, "depth": from - to }),
        );
        self.events.push(
            names::TERRAIN_DESTROYED,
            day,
            json!({ "x": x, "y": y, "from": from, "to": to }),
        );
        // What stood there goes with it.
        let now = self.ticks;
        let victims: Vec<i32> = self
            .colony
            .beavers
            .iter()
            .filter(|(_, bv)| {
                let [bx, by, _] = bv.position(now);
                (bx, by) == (x, y)
            })
            .map(|(id, _)| *id)
            .collect();
        for v in &victims {
            let bv = &self.colony.beavers[v];
            let kill = json!({ "id": v, "name": bv.name, "isBot": bv.is_bot, "x": x, "y": y });
            self.events.push(names::EXPLOSION_KILL, day, kill);
            self.kill_beaver(*v, "explosion");
        }
        if !victims.is_empty() {
            self.population_changed();
        }
        let i = self.land.idx(x, y);
        let plant = self.land.occupant[i];
        if let Some(p) = plant {
            self.land.remove_plant(p);
        }
        Ok(Detonation {
            id,
            prefab,
            x,
            y,
            from: from.into(),
            to: to.into(),
            killed: victims,
            plant,
        })
    }
}

impl World {
    /// Fires every finished charge within a finished detonator's reach (in id order), as
    /// [`World::detonate`] does each; nothing when `detonator` is not a finished detonator.
    pub(crate) fn detonate_from(&mut self, detonator: i32) -> Vec<Detonation> {
        let Some(d) = self.colony.buildings.get(&detonator) else {
            return Vec::new();
        };
        if !d.finished || !d.spec().components.iter().any(|c| c == "DetonatorSpec") {
            return Vec::new();
        }
        let reach = super::rules::colony_rules()
            .ways
            .detonator_reach_tiles
            .value;
        let (dx, dy) = (d.x, d.y);
        let charges: Vec<i32> = self
            .colony
            .buildings
            .iter()
            .filter(|(_, b)| {
                b.finished
                    && charge_depth(&b.spec().base_name).is_some()
                    && b.x.abs_diff(dx).max(b.y.abs_diff(dy)) <= reach
            })
            .map(|(id, _)| *id)
            .collect();
        charges
            .into_iter()
            .filter_map(|id| self.detonate(id).ok())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::HazardKind;
    use crate::testutil::{build, world};
    use crate::ticks_per_day;

    /// A dry tile with nothing on it beside deep river water, and the way away from the water.
    fn bank(w: &World) -> ((u32, u32), (i64, i64)) {
        let (mw, mh) = (w.map.width(), w.map.height());
        let (sx, sy, _) = w.map.start_spot();
        let mut best = None;
        for y in 3..mh - 3 {
            for x in 3..mw - 3 {
                let i = w.land.idx(x, y);
                if w.land.water.depth[i] > 0.0 || w.land.occupant[i].is_some() {
                    continue;
                }
                for (dx, dy) in [(1i64, 0i64), (-1, 0), (0, 1), (0, -1)] {
                    let (wx, wy) = ((i64::from(x) - dx) as u32, (i64::from(y) - dy) as u32);
                    let away: Vec<(u32, u32)> = (1..3)
                        .map(|k| {
                            (
                                (i64::from(x) + k * dx) as u32,
                                (i64::from(y) + k * dy) as u32,
                            )
                        })
                        .collect();
                    let level = w.map.terrain_height(x, y);
                    let free = away.iter().all(|&(ax, ay)| {
                        let j = w.land.idx(ax, ay);
                        w.map.terrain_height(ax, ay) == level
                            && w.land.water.depth[j] <= 0.0
                            && w.land.occupant[j].is_none()
                    });
                    if w.water_depth(wx, wy) > 0.5 && free {
                        let d = x.abs_diff(sx) + y.abs_diff(sy);
                        if best.is_none_or(|(bd, _, _)| d < bd) {
                            best = Some((d, (x, y), (dx, dy)));
                        }
                    }
                }
            }
        }
        let (_, at, dir) = best.expect("a bank beside deep water");
        (at, dir)
    }

    #[test]
    fn a_charge_removes_its_blocks_and_what_stood_there() {
        let mut w = world();
        let (x, y, z) = crate::testutil::flat_area(&mut w, 3, 3);
        let id = build(&mut w, "TripleDynamite.Folktails", x, y, z, "south");
        // A beaver standing on the charge.
        let victim = *w.colony.beavers.keys().next().expect("beavers");
        {
            let b = w.colony.beavers.get_mut(&victim).expect("exists");
            b.from = [x, y, z];
            b.to = [x, y, z];
            b.plan.clear();
        }
        w.take_events();
        let d = w.detonate(id).expect("a finished charge detonates");
        assert_eq!((d.from, d.to), (z, z - 3));
        assert_eq!(d.killed, vec![victim]);
        assert_eq!(u32::from(w.map.terrain_height(x, y)), z - 3);
        assert!(
            !w.colony.buildings.contains_key(&id),
            "the charge is consumed"
        );
        assert!(!w.colony.beavers.contains_key(&victim));
        let names: Vec<&str> = w.take_events().into_iter().map(|e| e.name).collect();
        for n in [
            "explosion",
            "terrain.destroyed",
            "explosion.kill",
            "beaver.died",
        ] {
            assert!(names.contains(&n), "{n} in {names:?}");
        }
        // A single charge on the next tile takes one block.
        let one = build(&mut w, "Dynamite.Folktails", x + 1, y, z, "south");
        let d = w.detonate(one).expect("detonates");
        assert_eq!((d.from, d.to, d.killed.len()), (z, z - 1, 0));
    }

    #[test]
    fn refusals_name_the_reason_and_change_nothing() {
        let mut w = world();
        let (x, y, z) = crate::testutil::flat_area(&mut w, 4, 4);
        let lodge = build(&mut w, "Lodge.Folktails", x, y, z, "south");
        w.add_science(1000);
        w.unlock("Dynamite.Folktails").expect("unlocks");
        let site = w
            .place_building(
                "Dynamite.Folktails",
                i64::from(x) + 3,
                y.into(),
                z.into(),
                "south",
            )
            .expect("placed as a site");
        let before = w.state_hash();
        let code = |r: Result<Detonation, CommandError>| r.expect_err("refused").code;
        assert_eq!(code(w.detonate(9_999_999)), ErrorCode::NotFound);
        assert_eq!(code(w.detonate(lodge)), ErrorCode::InvalidType);
        let e = w.detonate(site).expect_err("a site");
        assert_eq!(e.code, ErrorCode::OperationFailed);
        assert!(e.detail.contains("still a site"), "{}", e.detail);
        assert_eq!(w.state_hash(), before);
    }

    /// Issue 38: a lever linked to a detonator fires the two charges within its reach when it
    /// turns on (not when linked while already on), through `detonate` with its events; a charge
    /// beyond the reach and a charge still a site stay.
    #[test]
    fn a_detonator_fires_the_finished_charges_within_its_reach_on_a_rising_signal() {
        let mut w = world();
        let reach = crate::colony::rules::colony_rules()
            .ways
            .detonator_reach_tiles
            .value;
        let (x, y, z) = crate::testutil::flat_area(&mut w, reach + 3, 3);
        let det = build(&mut w, "Detonator.Folktails", x, y + 1, z, "south");
        let lever = build(&mut w, "Lever.Folktails", x, y + 2, z, "south");
        let near = build(&mut w, "Dynamite.Folktails", x + 2, y + 1, z, "south");
        let edge = build(&mut w, "DoubleDynamite.Folktails", x + reach, y, z, "south");
        let far = build(
            &mut w,
            "Dynamite.Folktails",
            x + reach + 1,
            y + 1,
            z,
            "south",
        );
        let site = w
            .place_building(
                "Dynamite.Folktails",
                i64::from(x) + 1,
                i64::from(y) + 2,
                z.into(),
                "south",
            )
            .expect("placed as a site");
        // Linked while the lever is already on: no rising signal, nothing fires.
        w.automation_configure(lever, "on", "true").unwrap();
        w.advance_ticks(2);
        w.automation_link(lever, det, None).unwrap();
        w.advance_ticks(2);
        assert!(w.colony.buildings.contains_key(&near), "linked while on");
        w.automation_configure(lever, "on", "false").unwrap();
        w.advance_ticks(2);
        w.take_events();
        w.automation_configure(lever, "on", "true").unwrap();
        w.advance_ticks(2);
        for id in [near, edge] {
            assert!(!w.colony.buildings.contains_key(&id), "#{id} fired");
        }
        assert_eq!(u32::from(w.map.terrain_height(x + 2, y + 1)), z - 1);
        assert_eq!(u32::from(w.map.terrain_height(x + reach, y)), z - 2);
        assert!(w.colony.buildings.contains_key(&far), "beyond the reach");
        assert!(w.colony.buildings.contains_key(&site), "a site stays");
        assert_eq!(u32::from(w.map.terrain_height(x + reach + 1, y + 1)), z);
        let explosions: Vec<i64> = w
            .take_events()
            .into_iter()
            .filter(|e| e.name == "explosion")
            .map(|e| e.data.expect("data")["id"].as_i64().unwrap())
            .collect();
        assert_eq!(explosions.len(), 2, "{explosions:?}");
        assert!(w.colony.buildings.contains_key(&det), "the detonator stays");
    }

    /// Issue 38: a reservoir dug beside the river fills from it and still holds water when a
    /// drought has dried the river.
    #[test]
    fn a_reservoir_dug_beside_the_river_fills_and_holds_through_a_drought() {
        let mut w = world();
        let ((x, y), (dx, dy)) = bank(&w);
        let z = u32::from(w.map.terrain_height(x, y));
        let tiles: Vec<(u32, u32)> = (0..3)
            .map(|k| {
                (
                    (i64::from(x) + k * dx) as u32,
                    (i64::from(y) + k * dy) as u32,
                )
            })
            .collect();
        for &(tx, ty) in &tiles {
            let id = build(&mut w, "TripleDynamite.Folktails", tx, ty, z, "south");
            w.detonate(id).expect("detonates");
        }
        w.advance_ticks(2 * ticks_per_day());
        let depth = |w: &World| -> Vec<f32> {
            tiles
                .iter()
                .map(|&(tx, ty)| w.water_depth(tx, ty))
                .collect()
        };
        let filled = depth(&w);
        assert!(filled.iter().all(|d| *d > 2.0), "filled to {filled:?}");
        // A drought from the next dawn, long enough to dry the river.
        let today = w.day();
        w.weather.temperate_days = today - w.weather.start_day + 1;
        w.weather.hazardous_days = 10;
        w.weather.hazard = HazardKind::Drought;
        w.advance_ticks(9 * ticks_per_day());
        assert!(w.weather().is_hazardous, "a drought is under way");
        let (wx, wy) = ((i64::from(x) - dx) as u32, (i64::from(y) - dy) as u32);
        let river = w.water_depth(wx, wy);
        let held = depth(&w);
        assert!(
            held.iter().all(|d| *d > 1.0),
            "the reservoir held {held:?} (river beside it: {river})"
        );
        assert!(
            held[2] > river + 1.0,
            "the reservoir holds more than the river beside it: {held:?} against {river}"
        );
    }
}
