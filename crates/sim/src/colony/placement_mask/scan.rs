//! A whole map's spots of one prefab in one pass, for the full checks (a new game's masks,
//! `POST /api/placement/mask`): the answer of checking every spot on its own, spot for spot (a
//! test holds the two together), at a small part of the cost.
//!
//! A plain prefab (no intake row, span, source, aquifer or tunnel rule, not seeking water)
//! stands at its origin tile's ground `z`; on tiles with no block in their column, its rules are
//! that every footprint tile is on the map with its ground at `z`, no living plant or ruin on it,
//! and (unless it stands in water) no more water than the placement limit; no district center's
//! doorstep under it; and its own doorstep on the map. So each tile's run eastward of such good
//! tiles at its own height answers a footprint with one look per row, and the two orientations
//! of one footprint shape (south and north, west and east) share it. A footprint with a block in
//! any of its columns (a building, a path, a platform that might hold it up), and every spot of
//! another prefab (spans, source caps, drills, tunnels), is checked on its own as before.
//!
//! A pump (a water intake, which seeks water) is checked at its origin's ground and then at the
//! highest ground under it; it stands only where every tile but its intake row is at one height
//! with nothing under it, which must then be the highest: so it stands at the highest ground of
//! its footprint or nowhere, and its footprint's tiles (six) are read from the same facts.

use super::MaskOf;
use crate::colony::geometry::{Orientation, turned_size, unvoxel};
use crate::colony::rules::colony_rules;
use crate::world::World;

/// What the plain rules read of each tile, gathered once for all the prefabs of a full check.
pub(super) struct TileFacts {
    width: usize,
    height: usize,
    /// A block stands somewhere in the tile's column.
    built: Vec<bool>,
    /// Summed-area counts of `built`, `(width + 1) x (height + 1)`.
    built_sum: Vec<u32>,
    /// A living plant or a ruin stands on the tile.
    occupied: Vec<bool>,
    /// The tile's water is over the placement limit.
    wet: Vec<bool>,
    /// The district centers' doorsteps.
    doors: Vec<[u32; 3]>,
}

impl TileFacts {
    pub(super) fn of(w: &World) -> TileFacts {
        let (width, height) = (w.map.width() as usize, w.map.height() as usize);
        let land = &w.land;
        let mut built = vec![false; width * height];
        for v in w.colony.blocks.keys() {
            let (x, y, _) = unvoxel(*v);
            if (x as usize) < width && (y as usize) < height {
                built[y as usize * width + x as usize] = true;
            }
        }
        let mut built_sum = vec![0u32; (width + 1) * (height + 1)];
        for y in 0..height {
            for x in 0..width {
                built_sum[(y + 1) * (width + 1) + x + 1] = u32::from(built[y * width + x])
                    + built_sum[y * (width + 1) + x + 1]
                    + built_sum[(y + 1) * (width + 1) + x]
                    - built_sum[y * (width + 1) + x];
            }
        }
        let occupied = land
            .occupant
            .iter()
            .map(|o| o.is_some_and(|id| land.plants.get(&id).is_none_or(|p| p.alive)))
            .collect();
        let limit = colony_rules().colony.water_blocks_placement.value;
        let wet = land.water.depth.iter().map(|d| *d > limit).collect();
        let doors = w
            .colony
            .centers()
            .into_iter()
            .filter_map(|c| w.colony.door(c))
            .collect();
        TileFacts {
            width,
            height,
            built,
            built_sum,
            occupied,
            wet,
            doors,
        }
    }

    /// Whether a block stands in any column of the `fw x fd` rectangle from `(x, y)`.
    fn built_in(&self, x: usize, y: usize, fw: usize, fd: usize) -> bool {
        let row = self.width + 1;
        let s = &self.built_sum;
        s[(y + fd) * row + x + fw] + s[y * row + x] > s[y * row + x + fw] + s[(y + fd) * row + x]
    }

    /// [`World::door_blocked`], its block lookup skipped on columns with no block.
    fn door_blocked(&self, w: &World, door: (i64, i64), z: u32) -> bool {
        let (x, y) = door;
        if x < 0 || y < 0 || x as usize >= self.width || y as usize >= self.height {
            return true;
        }
        self.built[y as usize * self.width + x as usize] && w.door_blocked(door, z)
    }
}

impl MaskOf {
    /// Which tiles of the footprint turned to `o` (row by row) are its intake row's.
    fn intake_rows(&self, o: Orientation) -> Vec<bool> {
        let s = self.spec;
        let (fw, fd) = turned_size(s, o);
        let (sx, sy) = (s.size.x as i32, s.size.y as i32);
        let mut rows = vec![false; (fw * fd) as usize];
        for lx in 0..sx {
            let (dx, dy) = crate::colony::geometry::turn(lx, sy - 1, sx, sy, o);
            rows[dy as usize * fw as usize + dx as usize] = true;
        }
        rows
    }

    /// One spot of a prefab with an intake row (and none of the other special rules): at the
    /// highest ground of its footprint, every tile free of blocks, the tiles outside the intake
    /// row at that height, dry and free, the intake row's tiles at that height free.
    fn intake_spot(
        &self,
        w: &World,
        f: &TileFacts,
        x: usize,
        y: usize,
        o: Orientation,
        intake: &[bool],
    ) -> u8 {
        let s = self.spec;
        let (fw, fd) = turned_size(s, o);
        let (fw, fd) = (fw as usize, fd as usize);
        if x + fw > f.width || y + fd > f.height {
            return 0;
        }
        if f.built_in(x, y, fw, fd) {
            return self.check_one(w, x as u32, y as u32, o);
        }
        let terrain = w.map.terrain();
        let mut top = 0;
        for r in y..y + fd {
            for c in x..x + fw {
                top = top.max(terrain[r * f.width + c]);
            }
        }
        let in_water = self.traits.stands_in_water();
        let fits = (y..y + fd).all(|r| {
            (x..x + fw).all(|c| {
                let i = r * f.width + c;
                let h = terrain[i];
                if intake[(r - y) * fw + c - x] {
                    h < top || !f.occupied[i]
                } else {
                    h == top && !f.occupied[i] && (in_water || !f.wet[i])
                }
            })
        });
        let zu = u32::from(top);
        let max_z = u32::from(crate::catalog::world_rules().map.max_terrain_height.value) + 8;
        let tall = s.size.z.max(1);
        let on_door = !self.traits.walkway
            && f.doors.iter().any(|&[dx, dy, dz]| {
                (x..x + fw).contains(&(dx as usize))
                    && (y..y + fd).contains(&(dy as usize))
                    && (zu..zu + tall).contains(&dz)
            });
        let door = self.prefab.doorstep(x as i64, y as i64, o);
        if fits && zu <= max_z && !on_door && !door.is_some_and(|d| f.door_blocked(w, d, zu)) {
            u8::try_from(zu + 1).unwrap_or(u8::MAX)
        } else {
            0
        }
    }

    /// Writes every spot of the map into `spots` (as [`MaskOf::check`] of each tile would).
    pub(super) fn scan(&self, w: &World, f: &TileFacts, spots: &mut [u8]) {
        let (width, height) = (f.width, f.height);
        let s = self.spec;
        let (sx, sy) = (s.size.x as usize, s.size.y as usize);
        if self.traits.intake_only() && sx > 0 && sy > 0 {
            if s.science_cost > 0 && !w.science.unlocked.contains(&s.name) {
                spots.fill(0);
                return;
            }
            let rows = Orientation::ALL.map(|o| self.intake_rows(o));
            for y in 0..height {
                for x in 0..width {
                    for o in Orientation::ALL {
                        spots[(y * width + x) * 4 + o.index() as usize] =
                            self.intake_spot(w, f, x, y, o, &rows[o.index() as usize]);
                    }
                }
            }
            return;
        }
        if !self.traits.plain() || self.water || sx == 0 || sy == 0 {
            for y in 0..height {
                for x in 0..width {
                    self.check(w, x as u32, y as u32, spots);
                }
            }
            return;
        }
        if s.science_cost > 0 && !w.science.unlocked.contains(&s.name) {
            spots.fill(0);
            return;
        }
        let terrain = w.map.terrain();
        let in_water = self.traits.stands_in_water();
        // Each tile's run eastward of good tiles at its own ground height.
        let mut run = vec![0u32; width * height];
        for y in 0..height {
            for x in (0..width).rev() {
                let i = y * width + x;
                let good = !f.built[i] && !f.occupied[i] && (in_water || !f.wet[i]);
                run[i] = if !good {
                    0
                } else if x + 1 < width && terrain[i + 1] == terrain[i] {
                    run[i + 1] + 1
                } else {
                    1
                };
            }
        }
        let max_z = u32::from(crate::catalog::world_rules().map.max_terrain_height.value) + 8;
        let tall = s.size.z.max(1);
        let shapes = [
            ([Orientation::South, Orientation::North], (sx, sy)),
            ([Orientation::West, Orientation::East], (sy, sx)),
        ];
        debug_assert_eq!(turned_size(s, Orientation::West), (sy as u32, sx as u32));
        for y in 0..height {
            for x in 0..width {
                let at = (y * width + x) * 4;
                let z = terrain[y * width + x];
                let zu = u32::from(z);
                for (pair, (fw, fd)) in shapes {
                    if x + fw > width || y + fd > height {
                        for o in pair {
                            spots[at + o.index() as usize] = 0;
                        }
                        continue;
                    }
                    if f.built_in(x, y, fw, fd) {
                        for o in pair {
                            spots[at + o.index() as usize] =
                                self.check_one(w, x as u32, y as u32, o);
                        }
                        continue;
                    }
                    let fits = zu <= max_z
                        && (y..y + fd).all(|r| {
                            let i = r * width + x;
                            run[i] as usize >= fw && terrain[i] == z
                        });
                    let on_door = !self.traits.walkway
                        && f.doors.iter().any(|&[dx, dy, dz]| {
                            (x..x + fw).contains(&(dx as usize))
                                && (y..y + fd).contains(&(dy as usize))
                                && (zu..zu + tall).contains(&dz)
                        });
                    for o in pair {
                        let door = self.prefab.doorstep(x as i64, y as i64, o);
                        spots[at + o.index() as usize] = if fits
                            && !on_door
                            && !door.is_some_and(|d| f.door_blocked(w, d, zu))
                        {
                            u8::try_from(zu + 1).unwrap_or(u8::MAX)
                        } else {
                            0
                        };
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::NewGame;
    use crate::content::content;

    /// The oracle: every spot checked on its own, as the masks were before the scan.
    fn spot_by_spot(m: &MaskOf, w: &World) -> Vec<u8> {
        let (width, height) = (w.map.width(), w.map.height());
        let mut spots = vec![0; (width * height) as usize * 4];
        for y in 0..height {
            for x in 0..width {
                m.check(w, x, y, &mut spots);
            }
        }
        spots
    }

    fn world(seed: u64, side: u32) -> World {
        World::try_new(&NewGame {
            seed,
            map_width: side,
            map_height: side,
            ..Default::default()
        })
        .unwrap()
    }

    /// Every catalogue prefab's scan against the oracle; returns how many were plain.
    fn same_as_oracle(w: &World, what: &str) -> usize {
        let facts = TileFacts::of(w);
        let mut plain = 0;
        for s in content().buildings.values() {
            let m = MaskOf::new(s);
            let mut spots = vec![7; (w.map.width() * w.map.height()) as usize * 4];
            m.scan(w, &facts, &mut spots);
            let want = spot_by_spot(&m, w);
            if let Some(i) = (0..want.len()).find(|i| spots[*i] != want[*i]) {
                panic!(
                    "{what}, {}: spot {i} (tile {}, orientation {}) scanned {} but checked {}",
                    s.name,
                    i / 4,
                    i % 4,
                    spots[i],
                    want[i]
                );
            }
            plain += usize::from(m.traits.plain() && !m.water || m.traits.intake_only());
        }
        plain
    }

    #[test]
    fn the_scan_gives_every_prefab_the_spot_by_spot_masks_of_new_maps() {
        for (seed, side) in [(1, 64), (2, 64), (3, 40), (1_000_007, 64)] {
            let plain = same_as_oracle(&world(seed, side), &format!("seed {seed}"));
            assert!(plain > 20, "most prefabs take the scan: {plain}");
        }
        for p in [
            "Lodge.Folktails",
            "SmallWarehouse.Folktails",
            "GathererFlag.Folktails",
        ] {
            let m = MaskOf::new(&content().buildings[p]);
            assert!(m.traits.plain() && !m.water, "{p} takes the scan");
        }
        let pump = MaskOf::new(&content().buildings["WaterPump.Folktails"]);
        assert!(
            pump.traits.intake_only() && pump.water,
            "pumps take the scan"
        );
    }

    #[test]
    fn the_scan_gives_the_spot_by_spot_masks_among_buildings_and_paths() {
        let mut w = world(5, 64);
        let lodge = w.placement_mask("Lodge.Folktails").unwrap();
        // Lodges on the first few free spots, a path from the district center to each, then a
        // while of play (plants grow and die, the water moves).
        let mut placed = 0;
        for (i, z) in lodge.spots.iter().enumerate().step_by(97) {
            if *z == 0 || placed == 6 {
                continue;
            }
            let (o, t) = (i % 4, i / 4);
            let (x, y) = ((t % 64) as i64, (t / 64) as i64);
            let o = Orientation::ALL[o].as_str();
            if let Ok(id) = w.place_building("Lodge.Folktails", x, y, i64::from(*z) - 1, o) {
                placed += 1;
                let door = w
                    .building_view(id)
                    .and_then(|v| Some((v.entrance_x?, v.entrance_y?)));
                let dc = w.colony.centers()[0];
                let [ex, ey, _] = w.colony.door(dc).unwrap();
                if let Some((dx, dy)) = door {
                    let _ = w.place_path(ex.into(), ey.into(), dx.into(), dy.into(), "direct", 0);
                }
            }
        }
        assert!(placed >= 3, "placed {placed}");
        same_as_oracle(&w, "with lodges and paths");
        w.advance_ticks(2_000);
        same_as_oracle(&w, "after 2,000 ticks");
    }
}
