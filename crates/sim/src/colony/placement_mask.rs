//! Every valid spot of a prefab over the whole map, as a mask: for each tile and orientation,
//! whether `place` would accept the prefab there (the placement rules of `place`, nothing of the
//! search's ranking) with a doorstep that could be reached (no other building stands on it, as
//! the search requires), and at which height. A read: it works on `&World`, so it runs on a shared
//! snapshot beside the game (`POST /api/placement/mask`) and in the in-process engine.
//!
//! [`PlacementMasks`] keeps the masks of a list of prefabs up to date from step to step: what a
//! spot's check reads is local (the blocks in the footprint's columns and the voxel under it,
//! the living plant or ruin on each tile, whether a tile's water is over the placement limit),
//! plus a few colony-wide facts (the game's seed and map, science unlocks, the district
//! centers' doorsteps). Each update
//! takes a cheap signature of every tile and rechecks only the spots whose footprint, or the
//! tiles a spanning prefab hangs from, could reach a tile whose signature changed; a change of
//! the colony-wide facts rechecks everything. The answer is the full recheck's, spot for spot (a
//! test holds the two together over a played game).

use super::building::Kind;
use super::geometry::{Orientation, footprint, turned_size, unvoxel};
use super::place::PlacementTraits;
use super::rules::colony_rules;
use crate::content::Building as Spec;
use crate::error::CommandError;
use crate::world::World;

mod scan;

/// The mask of one prefab: `spots[((y * width) + x) * 4 + o]` is the height the prefab stands at
/// plus one when `place` accepts it with its corner at `(x, y)` facing `o` (0 south, 1 west, 2
/// north, 3 east), and 0 when it is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlacementMask {
    pub prefab: String,
    pub width: u32,
    pub height: u32,
    pub spots: Vec<u8>,
}

impl PlacementMask {
    /// Valid spots.
    pub fn count(&self) -> usize {
        self.spots.iter().filter(|z| **z > 0).count()
    }
}

/// Whether a prefab's spots are looked for at the height of the rest of its footprint when its
/// origin tile is lower (pumps hanging over a bank, water buildings).
pub(crate) fn seeks_water(s: &Spec) -> bool {
    s.flag("waterIntake") || s.role == "water" && s.flag("floodable")
}

impl World {
    /// Checks one spot as the search and the mask do: at the ground of its origin tile; a
    /// building that seeks water (a pump whose origin is its intake row, hanging over a lower
    /// bank) may stand on the higher ground of the rest of its footprint.
    pub(crate) fn check_spot(
        &self,
        s: &'static Spec,
        traits: &PlacementTraits,
        water: bool,
        x: u32,
        y: u32,
        o: Orientation,
    ) -> Result<super::place::Placement, super::place::Refusal> {
        let z = i64::from(self.map.terrain_height(x, y));
        let placed = self.check_placement_with(s, traits, false, x.into(), y.into(), z, o);
        if placed.is_ok() || !water {
            return placed;
        }
        let top = footprint(s, x.into(), y.into(), o)
            .into_iter()
            .filter(|t| self.map.contains(t.0, t.1))
            .map(|t| i64::from(self.map.terrain_height(t.0 as u32, t.1 as u32)))
            .max()
            .unwrap_or(z);
        if top > z {
            return self.check_placement_with(s, traits, false, x.into(), y.into(), top, o);
        }
        placed
    }

    /// The tiles whose ground a building stands on (a block at the terrain's height: paths,
    /// stairs, platforms and every footprint on the ground), by tile index: nothing spreads there.
    pub(crate) fn built_ground(&self) -> Vec<bool> {
        let mut out = vec![false; (self.map.width() * self.map.height()) as usize];
        for v in self.colony.blocks.keys() {
            let (x, y, z) = unvoxel(*v);
            if self.map.contains(x.into(), y.into())
                && u32::from(self.map.terrain_height(x, y)) == z
            {
                out[self.land.idx(x, y)] = true;
            }
        }
        out
    }

    /// Whether a doorstep stands at the ground's level of its tile, where a path laid on the
    /// ground joins it (a building on a ledge may have its doorstep over lower ground).
    pub(crate) fn on_ground(&self, [x, y, z]: [u32; 3]) -> bool {
        self.map.contains(x.into(), y.into()) && u32::from(self.map.terrain_height(x, y)) == z
    }

    /// The building whose doorstep is at `(x, y)` above or below the ground there, with no
    /// walkway at the doorstep's height (a path laid on the ground would not join it), and that
    /// doorstep.
    pub(crate) fn doorstep_off_ground(&self, x: u32, y: u32) -> Option<(i32, [u32; 3])> {
        let walkway = |d: &[u32; 3]| {
            self.colony
                .blocks
                .get(&super::geometry::voxel(d[0], d[1], d[2]))
                .and_then(|id| self.colony.buildings.get(id))
                .is_some_and(|b| matches!(b.kind(), Kind::Path | Kind::Stairs))
        };
        self.colony
            .buildings
            .iter()
            .filter(|(_, b)| b.has_entrance() && !matches!(b.kind(), Kind::Path | Kind::Stairs))
            .filter_map(|(id, _)| Some((*id, self.colony.door(*id)?)))
            .find(|(_, d)| d[0] == x && d[1] == y && !self.on_ground(*d) && !walkway(d))
    }

    /// Whether a doorstep at `(x, y)` and height `z` can never be reached: off the map, or
    /// another building (not a path or stairs) stands on it.
    pub(crate) fn door_blocked(&self, (x, y): (i64, i64), z: u32) -> bool {
        if x < 0 || y < 0 || !self.map.contains(x, y) {
            return true;
        }
        self.colony
            .blocks
            .get(&super::geometry::voxel(x as u32, y as u32, z))
            .and_then(|id| self.colony.buildings.get(id))
            .is_some_and(|b| !matches!(b.kind(), Kind::Path | Kind::Stairs))
    }

    /// The whole map's mask of one prefab (see [`PlacementMask`]). Errors: `invalid_prefab`.
    pub fn placement_mask(&self, prefab: &str) -> Result<PlacementMask, CommandError> {
        let s = self.resolve_prefab(prefab)?;
        let (w, h) = (self.map.width(), self.map.height());
        let mut spots = vec![0; (w * h) as usize * 4];
        MaskOf::new(s).scan(self, &scan::TileFacts::of(self), &mut spots);
        Ok(PlacementMask {
            prefab: s.name.clone(),
            width: w,
            height: h,
            spots,
        })
    }
}

/// One prefab's check, its traits worked out once.
#[derive(Clone)]
struct MaskOf {
    spec: &'static Spec,
    traits: PlacementTraits,
    water: bool,
    prefab: super::prefab::Prefab,
}

impl MaskOf {
    fn new(spec: &'static Spec) -> MaskOf {
        MaskOf {
            spec,
            traits: PlacementTraits::of(spec),
            water: seeks_water(spec),
            prefab: super::prefab::Prefab::get(&spec.name).expect("a catalogue prefab"),
        }
    }

    /// Writes the four orientations of the spot at `(x, y)` into `spots`.
    fn check(&self, w: &World, x: u32, y: u32, spots: &mut [u8]) {
        let at = ((y * w.map.width() + x) * 4) as usize;
        for o in Orientation::ALL {
            spots[at + o.index() as usize] = self.check_one(w, x, y, o);
        }
    }

    /// The spot at `(x, y)` facing `o`: its height plus one, or 0 when refused.
    fn check_one(&self, w: &World, x: u32, y: u32, o: Orientation) -> u8 {
        match w.check_spot(self.spec, &self.traits, self.water, x, y, o) {
            Ok(p)
                if self
                    .prefab
                    .doorstep(p.x.into(), p.y.into(), o)
                    .is_some_and(|d| w.door_blocked(d, p.z)) =>
            {
                0
            }
            Ok(p) => u8::try_from(p.z + 1).unwrap_or(u8::MAX),
            Err(_) => 0,
        }
    }
}

/// The masks of a list of prefabs, kept up to date by [`PlacementMasks::update`].
#[derive(Clone)]
pub struct PlacementMasks {
    prefabs: Vec<MaskOf>,
    masks: Vec<PlacementMask>,
    /// Each tile's signature at the last update.
    signature: Vec<u64>,
    /// The colony-wide facts at the last update.
    colony_wide: ColonyWide,
    /// How far (in tiles, each way) a tile's change can reach a spot's origin.
    margin: u32,
}

/// What every spot's check reads beside its own tiles.
#[derive(Clone, PartialEq, Default)]
struct ColonyWide {
    /// The game (the seed fixes the terrain and the water sources) and its map's size.
    seed: u64,
    map: (u32, u32),
    unlocked: usize,
    doorsteps: Vec<[u32; 3]>,
}

impl ColonyWide {
    fn of(w: &World) -> ColonyWide {
        ColonyWide {
            seed: w.seed,
            map: (w.map.width(), w.map.height()),
            unlocked: w.science.unlocked.len(),
            doorsteps: w
                .colony
                .centers()
                .into_iter()
                .filter_map(|c| w.colony.door(c))
                .collect(),
        }
    }
}

/// A well-mixed 64-bit value of one fact (splitmix64's finaliser).
fn mix(v: u64) -> u64 {
    let mut z = v.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Every tile's signature: its terrain height, the blocks in its column (voxel and building,
/// summed so the block index's order does not matter), its plant or ruin and whether that plant
/// lives, and whether its water is over the placement limit.
fn signatures(w: &World) -> Vec<u64> {
    let width = w.map.width() as usize;
    let limit = colony_rules().colony.water_blocks_placement.value;
    let land = &w.land;
    let terrain = w.map.terrain();
    let mut sig: Vec<u64> = (0..land.occupant.len())
        .map(|i| {
            let plant = match land.occupant[i] {
                Some(id) => {
                    let alive = land.plants.get(&id).is_some_and(|p| p.alive);
                    mix((u64::from(id as u32) << 1) | u64::from(alive))
                }
                None => 0,
            };
            let wet = land.water.depth[i] > limit;
            // (The terrain's height: dynamite lowers it.)
            let ground = u64::from(terrain[i]) << 48;
            plant ^ ground ^ u64::from(wet) << 63
        })
        .collect();
    for (v, id) in w.colony.blocks.iter() {
        let (x, y, _) = unvoxel(*v);
        let i = y as usize * width + x as usize;
        if let Some(s) = sig.get_mut(i) {
            *s = s.wrapping_add(mix(*v ^ (u64::from(*id as u32) << 20)));
        }
    }
    sig
}

impl PlacementMasks {
    /// The masks of these prefabs on this world, every spot checked. Errors: `invalid_prefab`.
    pub fn new(w: &World, prefabs: &[&str]) -> Result<PlacementMasks, CommandError> {
        let mut of = Vec::with_capacity(prefabs.len());
        for p in prefabs {
            of.push(MaskOf::new(w.resolve_prefab(p)?));
        }
        // A footprint reaches its size less one from its corner; a spanning prefab hangs from
        // one tile beyond each end.
        let margin = of
            .iter()
            .flat_map(|m| {
                let (a, b) = turned_size(m.spec, Orientation::South);
                [a, b]
            })
            .max()
            .unwrap_or(1)
            + 1;
        let mut masks = PlacementMasks {
            prefabs: of,
            masks: Vec::new(),
            signature: Vec::new(),
            colony_wide: ColonyWide::default(),
            margin,
        };
        masks.update(w);
        Ok(masks)
    }

    /// The masks, in the order the prefabs were given.
    pub fn masks(&self) -> &[PlacementMask] {
        &self.masks
    }

    /// Brings the masks up to date with `w`; returns how many tiles' spots were rechecked.
    pub fn update(&mut self, w: &World) -> usize {
        let (width, height) = (w.map.width(), w.map.height());
        let wide = ColonyWide::of(w);
        let sig = signatures(w);
        if wide != self.colony_wide || self.masks.is_empty() {
            let facts = scan::TileFacts::of(w);
            self.masks = self
                .prefabs
                .iter()
                .map(|m| {
                    let mut spots = vec![0; (width * height) as usize * 4];
                    m.scan(w, &facts, &mut spots);
                    PlacementMask {
                        prefab: m.spec.name.clone(),
                        width,
                        height,
                        spots,
                    }
                })
                .collect();
            self.colony_wide = wide;
            self.signature = sig;
            return (width * height) as usize;
        }
        // The origins a changed tile can reach: from `margin` before it to one past it.
        let mut due = vec![false; (width * height) as usize];
        let m = self.margin;
        for (i, (a, b)) in sig.iter().zip(&self.signature).enumerate() {
            if a == b {
                continue;
            }
            let (tx, ty) = (i as u32 % width, i as u32 / width);
            for y in ty.saturating_sub(m)..=(ty + 1).min(height - 1) {
                for x in tx.saturating_sub(m)..=(tx + 1).min(width - 1) {
                    due[(y * width + x) as usize] = true;
                }
            }
        }
        let mut rechecked = 0;
        for (i, _) in due.iter().enumerate().filter(|(_, d)| **d) {
            self.recheck(w, i as u32 % width, i as u32 / width);
            rechecked += 1;
        }
        self.signature = sig;
        rechecked
    }

    fn recheck(&mut self, w: &World, x: u32, y: u32) {
        for (m, mask) in self.prefabs.iter().zip(&mut self.masks) {
            m.check(w, x, y, &mut mask.spots);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::NewGame;

    const PREFABS: [&str; 5] = [
        "WaterPump.Folktails",
        "Lodge.Folktails",
        "SmallTank.Folktails",
        "LumberjackFlag.Folktails",
        "Path",
    ];

    fn world(seed: u64) -> World {
        World::try_new(&NewGame {
            seed,
            map_width: 64,
            map_height: 64,
            ..Default::default()
        })
        .unwrap()
    }

    #[test]
    fn a_mask_spot_is_what_place_accepts() {
        let w = world(3);
        let m = w.placement_mask("Lodge.Folktails").unwrap();
        assert!(m.count() > 100, "a fresh map has room for a lodge");
        let mut placed = 0;
        for (i, z) in m.spots.iter().enumerate().step_by(37) {
            let (o, t) = (i % 4, i / 4);
            let (x, y) = ((t % 64) as i64, (t / 64) as i64);
            let o = Orientation::ALL[o];
            let mut copy = w.clone();
            let zz = if *z > 0 {
                i64::from(*z) - 1
            } else {
                i64::from(w.map.terrain_height(x as u32, y as u32))
            };
            let got = copy.place_building("Lodge.Folktails", x, y, zz, o.as_str());
            // A spot the mask refuses is refused by `place`, or its doorstep is blocked.
            let door = super::super::prefab::Prefab::get("Lodge.Folktails")
                .unwrap()
                .doorstep(x, y, o);
            let blocked = door.is_some_and(|d| w.door_blocked(d, zz as u32));
            if *z > 0 {
                assert!(got.is_ok() && !blocked, "spot {x},{y} {o:?}: {got:?}");
            } else {
                assert!(got.is_err() || blocked, "spot {x},{y} {o:?}: {got:?}");
            }
            placed += usize::from(*z > 0);
        }
        assert!(placed > 0);
    }

    #[test]
    fn kept_masks_follow_the_game_as_a_full_recheck_does() {
        let mut w = world(5);
        let mut kept = PlacementMasks::new(&w, &PREFABS).unwrap();
        let mut rechecked = Vec::new();
        for round in 0..6 {
            // Change the layout where the masks allow, then let the colony live a while.
            let lodge = &kept.masks()[1];
            if let Some(i) = lodge.spots.iter().position(|z| *z > 0) {
                let (o, t) = (i % 4, i / 4);
                let z = i64::from(lodge.spots[i]) - 1;
                w.place_building(
                    "Lodge.Folktails",
                    (t % 64) as i64,
                    (t / 64) as i64,
                    z,
                    Orientation::ALL[o].as_str(),
                )
                .unwrap();
            }
            w.advance_ticks(32 * (1 + round * 7));
            rechecked.push(kept.update(&w));
            for (m, p) in kept.masks().iter().zip(PREFABS) {
                assert_eq!(m, &w.placement_mask(p).unwrap(), "{p} after round {round}");
            }
        }
        assert!(
            rechecked.iter().all(|n| *n < 64 * 64),
            "only the changed tiles' spots are rechecked: {rechecked:?}"
        );
    }

    #[test]
    fn an_unknown_prefab_is_refused() {
        let w = world(1);
        let e = w.placement_mask("Castle").unwrap_err();
        assert_eq!(e.code, crate::ErrorCode::InvalidPrefab);
        assert!(PlacementMasks::new(&w, &["Castle"]).is_err());
    }
}
