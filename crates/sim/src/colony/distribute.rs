//! Distribution between districts: goods cross finished district crossings, carried by the
//! crossing's workers, as the districts' distribution settings ask.
//!
//! A district crossing is a district obstacle: it stands between two path networks and beavers
//! do not walk through it. Its front doorstep joins one district and the doorstep on its far side
//! (the same door, turned half round) another; a crossing whose two sides reach two different
//! districts links them.
//!
//! Each hour, for every link in crossing id order and for each direction (front to back, then back
//! to front), every good the exporting district holds is considered in name order:
//! - the importing district's import option `None` stops it;
//! - the exporter never goes below its export threshold for the good (0 unless set);
//! - `Forced` takes everything above that threshold; `Auto` evens the two districts out (half the
//!   difference between their stocks), still above the threshold;
//! - the importer needs room in storage that accepts the good (mode, allowed good, kind, space);
//! - the crossing's workers carry at most `workers x trips per hour x carry units of the good` in
//!   the hour, shared by both directions; a crossing without workers moves nothing, and nothing
//!   crosses outside working hours.
//!
//! Goods leave the exporter's stores (district center first, then storage, in id order; only
//! what is not reserved by a hauler) and land in the importer's stores with room, in id order.

use super::building::Kind;
use super::geometry::{self, Orientation};
use super::rules::colony_rules;
use crate::world::World;

/// A crossing and the districts of its front and far side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Link {
    pub crossing: i32,
    pub front: i32,
    pub back: i32,
}

/// The import option of a district for a good (`Auto` unless set).
fn import_option(w: &World, district: i32, good: &str) -> String {
    w.colony
        .districts
        .get(&district)
        .and_then(|d| d.distribution.get(good))
        .map_or_else(|| "Auto".to_owned(), |(o, _)| o.clone())
}

/// The export threshold of a district for a good (0 unless set).
fn export_threshold(w: &World, district: i32, good: &str) -> u32 {
    w.colony
        .districts
        .get(&district)
        .and_then(|d| d.distribution.get(good))
        .map_or(0, |(_, t)| t.max(0.0).round() as u32)
}

impl World {
    /// The finished district crossings whose two sides reach two different districts, in id order.
    pub(crate) fn crossing_links(&mut self) -> Vec<Link> {
        let crossings: Vec<i32> = self
            .colony
            .buildings
            .iter()
            .filter(|(_, b)| b.finished && b.kind() == Kind::Crossing)
            .map(|(id, _)| *id)
            .collect();
        let mut links = Vec::new();
        for id in crossings {
            let b = &self.colony.buildings[&id];
            let (spec, x, y, z, o) = (b.spec(), b.x, b.y, b.z, b.orientation);
            let Some(front) = self.colony.door(id) else {
                continue;
            };
            let turned = Orientation::ALL[(o.index() as usize + 2) % 4];
            let Some((bx, by)) = geometry::doorstep(spec, x.into(), y.into(), turned) else {
                continue;
            };
            if bx < 0 || by < 0 {
                continue;
            }
            let back = [bx as u32, by as u32, z];
            if let (Some(f), Some(k)) = (
                self.colony.district_at(front),
                self.colony.district_at(back),
            ) && f != k
            {
                links.push(Link {
                    crossing: id,
                    front: f,
                    back: k,
                });
            }
        }
        links
    }

    /// The hourly step: goods cross every staffed link (see the module docs).
    pub(crate) fn distribute_goods(&mut self) {
        if self.colony.districts.len() < 2 || !self.are_working_hours() {
            return;
        }
        let trips = colony_rules().districts.crossing_trips_per_hour.value;
        for link in self.crossing_links() {
            let workers = self.colony.buildings[&link.crossing].workers.len() as f64;
            // Carrying work left this hour, as a share of one trip per worker-trip.
            let mut trips_left = workers * trips;
            for (from, to) in [(link.front, link.back), (link.back, link.front)] {
                if trips_left <= 0.0 {
                    break;
                }
                trips_left = self.carry_across(from, to, trips_left);
            }
        }
    }

    /// Moves goods from district `from` to `to` with `trips` worker-trips; returns the trips left.
    fn carry_across(&mut self, from: i32, to: i32, mut trips: f64) -> f64 {
        let exporter = self.colony.district_stock(from);
        let importer = self.colony.district_stock(to);
        for (good, (avail, _)) in exporter {
            if trips <= 0.0 {
                break;
            }
            let option = import_option(self, to, &good);
            if option == "None" {
                continue;
            }
            let surplus = avail.saturating_sub(export_threshold(self, from, &good));
            let have = importer.get(&good).map_or(0, |(a, _)| *a);
            let wanted = match option.as_str() {
                "Forced" => surplus,
                _ => surplus.min(avail.saturating_sub(have) / 2),
            };
            let room: u32 = self
                .colony
                .stores_of(to)
                .iter()
                .map(|s| self.colony.buildings[s].storage_accepts(&good))
                .sum();
            let per_trip = super::behave::carry_units(&good).max(1);
            let can_carry = (trips * f64::from(per_trip)).floor() as u32;
            let n = wanted.min(room).min(can_carry);
            if n == 0 {
                continue;
            }
            let moved = self.move_between_districts(from, to, &good, n);
            trips -= f64::from(moved) / f64::from(per_trip);
        }
        trips
    }

    /// Takes up to `n` of a good from a district's stores and puts it in another's; returns the
    /// amount moved.
    fn move_between_districts(&mut self, from: i32, to: i32, good: &str, n: u32) -> u32 {
        let mut taken = 0;
        for s in self.colony.stores_of(from) {
            if taken == n {
                break;
            }
            let b = self.colony.buildings.get_mut(&s).expect("a store exists");
            let k = b.available(good).min(n - taken);
            taken += b.take(good, k);
        }
        let mut left = taken;
        for s in self.colony.stores_of(to) {
            if left == 0 {
                break;
            }
            let b = self.colony.buildings.get_mut(&s).expect("a store exists");
            let k = b.storage_accepts(good).min(left);
            b.add(good, k);
            left -= k;
        }
        debug_assert_eq!(left, 0, "room was counted before taking");
        taken - left
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::colony::fixtures::add_adults;
    use crate::testutil::{DAY, HOUR, build, flat_area, path_route_avoiding, world};

    /// Two districts joined by a crossing: the start district's network runs to the crossing's
    /// far side; a second district center, a warehouse and `workers` beavers stand on its front
    /// side. Returns (world, first district, second district, crossing, warehouse).
    fn two_districts(workers: i64) -> (World, i32, i32, i32, i32) {
        let mut w = world();
        let first = w.colony.centers()[0];
        let (x0, y0, z) = flat_area(&mut w, 8, 14);
        let dc1 = w.colony.door(first).unwrap();
        // The second district lies on the side of the area away from the first center.
        let flip = dc1[1] > y0 + 7;
        let at = |lx: u32, ly: u32| (x0 + lx, if flip { y0 + 13 - ly } else { y0 + ly });
        let (toward, away) = if flip {
            ("north", "south")
        } else {
            ("south", "north")
        };
        // Footprints are placed by their bottom-left corner: shift the multi-row ones when flipped.
        let corner = |lx: u32, ly: u32, deep: u32| {
            let (x, y) = at(lx, ly);
            (x, if flip { y + 1 - deep } else { y })
        };
        let (cx, cy) = corner(3, 6, 3);
        let crossing = build(&mut w, "DistrictCrossing.Folktails", cx, cy, z, toward);
        let (dx, dy) = corner(2, 0, 3);
        let second = build(&mut w, "DistrictCenter.Folktails", dx, dy, z, away);
        let (sx, sy) = at(5, 4);
        let store = build(&mut w, "SmallPile.Folktails", sx, sy, z, "west");
        for (lx, ly) in [(3, 4), (3, 5), (4, 4)] {
            let (px, py) = at(lx, ly);
            build(&mut w, "Path", px, py, z, "south");
        }
        let back = {
            let b = &w.colony.buildings[&crossing];
            let turned = Orientation::ALL[(b.orientation.index() as usize + 2) % 4];
            b.prefab.doorstep(b.x.into(), b.y.into(), turned).unwrap()
        };
        // The first district's path keeps a tile away from the second's network (else the two
        // networks would join into one district).
        let near_second = |(x, y): (u32, u32)| {
            (0..8).any(|lx| {
                (0..6).any(|ly| {
                    let (ax, ay) = at(lx, ly);
                    x.abs_diff(ax) <= 1 && y.abs_diff(ay) <= 1
                })
            })
        };
        let to = (back.0 as u32, back.1 as u32);
        let route = path_route_avoiding(&w, (dc1[0], dc1[1]), to, z, near_second)
            .expect("a path from the first center to the crossing's far side");
        for (px, py) in route {
            if w.colony.blocks.contains_key(&geometry::voxel(px, py, z)) {
                continue;
            }
            build(&mut w, "Path", px, py, z, "south");
        }
        assert_eq!(w.colony.districts.len(), 2);
        add_adults(&mut w, 4);
        let names: Vec<String> = w.districts().iter().map(|d| d.name.clone()).collect();
        // The new center would take them as builders first.
        w.set_workers(second, 0).unwrap();
        w.migrate(&names[0], &names[1], workers).unwrap();
        w.advance_ticks(2 * HOUR);
        (w, first, second, crossing, store)
    }

    fn held(w: &World, district: i32, good: &str) -> u32 {
        w.colony
            .district_stock(district)
            .get(good)
            .map_or(0, |(_, all)| *all)
    }

    #[test]
    fn a_staffed_crossing_carries_goods_to_the_importing_district() {
        let (mut w, first, second, crossing, store) = two_districts(2);
        assert_eq!(
            w.crossing_links(),
            vec![Link {
                crossing,
                front: second,
                back: first
            }]
        );
        assert!(
            !w.colony.buildings[&crossing].workers.is_empty(),
            "the crossing is staffed"
        );
        assert_eq!(w.colony.buildings[&store].district, Some(second));
        w.colony.buildings.get_mut(&store).unwrap().allowed_good = Some("Log".into());
        let names: Vec<String> = w.districts().iter().map(|d| d.name.clone()).collect();
        // Auto evens the stocks out: the importer ends with about half of what both hold.
        let before = held(&w, first, "Log") + held(&w, second, "Log");
        w.advance_ticks(DAY);
        let (a, b) = (held(&w, first, "Log"), held(&w, second, "Log"));
        assert_eq!(a + b, before, "goods are moved, never made or lost");
        assert!(b > 0 && b.abs_diff(a) <= 2, "evened out: {a} and {b}");
        // The second district uses up 15 logs. Auto would bring back half the difference;
        // Forced brings everything above the exporter's threshold (5), room allowing (15).
        w.colony.buildings.get_mut(&store).unwrap().take("Log", 15);
        w.set_distribution(&names[0], "Log", None, Some(5)).unwrap();
        w.set_distribution(&names[1], "Log", Some("Forced"), None)
            .unwrap();
        w.advance_ticks(DAY);
        assert_eq!(
            (held(&w, first, "Log"), held(&w, second, "Log")),
            (5, 20),
            "forced down to the threshold"
        );
        // None stops imports.
        let planks = held(&w, first, "Plank");
        w.colony.buildings.get_mut(&store).unwrap().allowed_good = None;
        w.set_distribution(&names[1], "Plank", Some("None"), None)
            .unwrap();
        w.advance_ticks(DAY);
        assert_eq!(held(&w, first, "Plank"), planks, "no planks crossed");
        // The hourly history counts the link (an observation: the crossing is still there).
        assert_eq!(w.history.rows.last().map(|r| r.district_links), Some(1));
    }

    #[test]
    fn a_crossing_without_workers_moves_nothing() {
        let (mut w, first, second, crossing, _) = two_districts(1);
        w.set_workers(crossing, 0).unwrap();
        let (a, b) = (held(&w, first, "Log"), held(&w, second, "Log"));
        w.advance_ticks(DAY);
        assert!(w.colony.buildings[&crossing].workers.is_empty());
        assert_eq!((held(&w, first, "Log"), held(&w, second, "Log")), (a, b));
    }
}
