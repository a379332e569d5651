//! Placement rules: whether a prefab may stand at a spot, checked without changing anything.
//! Placing a checked building, finishing construction and demolishing are in `build_demolish`.
//!
//! A building at `(x, y, z)` turned to `o` fills its turned footprint from `z` up through its
//! catalogue height. It may be placed when, for every footprint tile:
//! - the tile is on the map (`out_of_bounds`) and `z` is a height a building can stand at
//!   (`unreachable_z`);
//! - the terrain is not above `z` (`terrain`: it would clip underground) and is not below `z`
//!   unless a solid block (platform, levee, dam) fills the voxel under it (`no_support`); the back
//!   row of a water intake (pumps) may hang over lower ground, where its water is;
//! - no building or block fills any of its voxels, and no living plant or ruin stands on the tile
//!   (`occupied`; dead stumps are cleared by the placement);
//! - for land buildings, the tile holds no more than `waterBlocksPlacement` of water (`water`);
//!   water buildings (dams, levees, floodgates, valves, impermeable floors, wheels, platforms)
//!   stand in water, pumps only with their intake row (the back row of the footprint);
//! - a badwater rig stands on a badwater source (`terrain` otherwise, naming the sources) and,
//!   once finished, caps it until demolished; an aquifer drill stands with its whole footprint on
//!   aquifer tiles (`terrain` otherwise, naming where the map's aquifer patches start);
//! - a tunnel goes inside the terrain instead: its tile's terrain is above `z` and `z` is at
//!   least 1 (`terrain` otherwise);
//! - suspension bridges hang from the tiles just beyond their two short ends (ground at `z`, a
//!   platform under `z` or a walkway at `z`; else `no_support`) and need nothing under themselves.
//!
//! A refused placement changes nothing: no ghost is left. The error text names the blocker and a
//! fix, without a code prefix, with `x, y, z, prefab` and `reason`.

use super::building::{Building, Kind};
use super::geometry::{Orientation, footprint, turned_size, voxel};
use super::rules::colony_rules;
use crate::content::Building as Spec;
use crate::error::{CommandError, ErrorCode};
use crate::world::World;

/// Every voxel a building fills.
pub fn voxels_of(b: &Building) -> Vec<u64> {
    let s = b.spec();
    let mut out = Vec::new();
    for (x, y) in footprint(s, b.x.into(), b.y.into(), b.orientation) {
        for dz in 0..s.size.z.max(1) {
            out.push(voxel(x as u32, y as u32, b.z + dz));
        }
    }
    out
}

/// Whether a prefab stands in water by design (pumps only with their intake row; platforms, power
/// shafts, water sensors, impermeable floors and valves too: the game lets them be built under
/// water).
fn water_building(s: &Spec) -> bool {
    s.flag("waterObstacle")
        || s.components
            .iter()
            .any(|c| c == "FinishableHorizontalWaterObstacleSpec")
        || s.flag("floodable")
        || s.base_name.contains("Platform")
        || s.components.iter().any(|c| c == "ModularShaftSpec")
        || crate::automation::Device::of(s).is_some_and(crate::automation::Device::in_water)
}

/// Whether a prefab spans a gap (suspension bridges): it hangs between the tiles just beyond its
/// two short ends, which must hold it, and needs no support or dry land under itself.
fn spans(s: &Spec) -> bool {
    let has = |c: &str| s.components.iter().any(|x| x == c);
    has("PathSpec") && has("DrivewayModelSpec")
}

/// The two tiles a spanning prefab hangs from: just beyond the ends of its long (catalogue x)
/// axis, turned with it.
fn span_ends(s: &Spec, x: i64, y: i64, o: Orientation) -> [(i64, i64); 2] {
    let (w, d) = turned_size(s, o);
    match o {
        Orientation::South | Orientation::North => [(x - 1, y), (x + i64::from(w), y)],
        Orientation::West | Orientation::East => [(x, y - 1), (x, y + i64::from(d))],
    }
}

/// Whether a prefab caps a water source it stands on (the badwater rig).
pub(super) fn caps_source(s: &Spec) -> bool {
    s.components.iter().any(|c| c == "WaterSourceDisablerSpec")
}

/// What a placement check asks of a prefab's catalogue entry, worked out once per check (or
/// once per search, which checks many spots of one prefab).
#[derive(Clone)]
pub(crate) struct PlacementTraits {
    /// May stand in water (`water_building`).
    water_building: bool,
    /// Hangs between its ends (`spans`).
    spanning: bool,
    /// Caps the badwater source it stands on (`caps_source`).
    caps_source: bool,
    /// Has a water intake row, which may hang over water.
    intake: bool,
    /// An aquifer drill: stands on aquifer tiles only.
    drill: bool,
    /// A path or stairs (which may lie on a district center's doorstep).
    pub(crate) walkway: bool,
    /// A tunnel: placed inside the terrain, not on it.
    tunnel: bool,
}

impl PlacementTraits {
    /// Whether a spot's check asks only the rules every footprint tile shares (no intake row,
    /// span, source, aquifer or tunnel rule): the whole-map scan's fast case.
    pub(crate) fn plain(&self) -> bool {
        !(self.spanning || self.caps_source || self.intake || self.drill || self.tunnel)
    }

    /// Whether the prefab has an intake row and none of the other special rules (a pump).
    pub(crate) fn intake_only(&self) -> bool {
        self.intake && !(self.spanning || self.caps_source || self.drill || self.tunnel)
    }

    /// Whether the prefab may stand on a tile under water (`water_building`).
    pub(crate) fn stands_in_water(&self) -> bool {
        self.water_building
    }

    pub(crate) fn of(s: &Spec) -> PlacementTraits {
        PlacementTraits {
            water_building: water_building(s),
            spanning: spans(s),
            caps_source: caps_source(s),
            intake: s.flag("waterIntake"),
            drill: super::water_buildings::is_aquifer_drill(s),
            walkway: matches!(super::building::kind_of(s), Kind::Path | Kind::Stairs),
            tunnel: super::building::is_tunnel(s),
        }
    }
}

/// A placement failure with the contract's extras.
///
/// Without `detail` (a search tallying why spots were refused), only the reason: the text is
/// never written.
fn refuse(
    detail: bool,
    reason: &'static str,
    text: impl FnOnce() -> String,
    prefab: &str,
    x: i64,
    y: i64,
    z: i64,
) -> Refusal {
    if !detail {
        return Refusal::Reason(reason);
    }
    Refusal::Error(
        CommandError::new(ErrorCode::Placement, text())
            .with("x", x)
            .with("y", y)
            .with("z", z)
            .with("prefab", prefab)
            .with("reason", reason),
    )
}

/// Why a spot was refused: the whole error, or (a search checking thousands of spots, without
/// `detail`) only its reason, so no error is built for each.
#[derive(Debug)]
pub(crate) enum Refusal {
    Error(CommandError),
    Reason(&'static str),
}

impl Refusal {
    /// The error with an extra member (a reason alone stays as it is).
    fn with(self, key: &str, value: impl Into<serde_json::Value>) -> Refusal {
        match self {
            Refusal::Error(e) => Refusal::Error(e.with(key, value)),
            reason => reason,
        }
    }

    /// The error (a reason alone becomes a placement error carrying it).
    pub(crate) fn into_error(self) -> CommandError {
        match self {
            Refusal::Error(e) => e,
            Refusal::Reason(r) => {
                CommandError::new(ErrorCode::Placement, String::new()).with("reason", r)
            }
        }
    }

    /// The refusal's reason (`not_unlocked` for a prefab that needs a science unlock).
    pub(crate) fn reason(&self) -> &str {
        match self {
            Refusal::Reason(r) => r,
            Refusal::Error(e) if e.code == ErrorCode::NotUnlocked => "not_unlocked",
            Refusal::Error(e) => e
                .extras
                .get("reason")
                .and_then(|r| r.as_str())
                .unwrap_or("other"),
        }
    }
}

/// A checked placement.
#[derive(Debug)]
pub(crate) struct Placement {
    pub prefab: &'static str,
    pub x: u32,
    pub y: u32,
    pub z: u32,
    pub orientation: Orientation,
    /// Dead stumps to clear.
    pub stumps: Vec<i32>,
}

impl World {
    /// Resolves a prefab name the world's faction may place: exact (case-insensitive) names of
    /// its own and the common prefabs; `invalid_prefab` with similar names otherwise.
    /// The names of the buildings this game's faction may place (what `prefab` may name).
    pub fn placeable_prefab_names(&self) -> Vec<&'static str> {
        self.faction_buildings()
            .filter(|b| b.player_placeable)
            .map(|b| b.name.as_str())
            .collect()
    }

    pub(crate) fn resolve_prefab(&self, name: &str) -> Result<&'static Spec, CommandError> {
        let want = name.trim();
        let all: Vec<&'static Spec> = self
            .faction_buildings()
            .filter(|b| b.player_placeable)
            .collect();
        if let Some(b) = all.iter().find(|b| b.name.eq_ignore_ascii_case(want)) {
            return Ok(b);
        }
        let lower = want.to_ascii_lowercase();
        let base = lower.split('.').next().unwrap_or("").to_owned();
        let mut similar: Vec<&str> = all
            .iter()
            .filter(|b| {
                let n = b.name.to_ascii_lowercase();
                !base.is_empty()
                    && (n.contains(&base) || base.contains(n.split('.').next().unwrap_or("")))
            })
            .map(|b| b.name.as_str())
            .collect();
        similar.sort_unstable();
        similar.truncate(8);
        let hint = if similar.is_empty() {
            "list the names with GET /api/prefabs".to_owned()
        } else {
            format!(
                "did you mean {}? (GET /api/prefabs lists all)",
                similar.join(", ")
            )
        };
        Err(CommandError::new(
            ErrorCode::InvalidPrefab,
            format!(
                "unknown prefab {want:?} for {}; {hint}",
                self.faction.as_str()
            ),
        )
        .with("prefab", want)
        .with("similar", similar))
    }

    /// Checks a placement without changing anything.
    pub(crate) fn check_placement(
        &self,
        prefab: &str,
        x: i64,
        y: i64,
        z: i64,
        o: Orientation,
    ) -> Result<Placement, CommandError> {
        let s = self.resolve_prefab(prefab)?;
        self.check_placement_of(s, x, y, z, o)
    }

    /// [`World::check_placement`] of a resolved prefab (a search checking many spots resolves
    /// its name once).
    pub(crate) fn check_placement_of(
        &self,
        s: &'static Spec,
        x: i64,
        y: i64,
        z: i64,
        o: Orientation,
    ) -> Result<Placement, CommandError> {
        self.check_placement_with(s, &PlacementTraits::of(s), true, x, y, z, o)
            .map_err(Refusal::into_error)
    }

    /// [`World::check_placement_of`] with the prefab's [`PlacementTraits`] worked out; without
    /// `detail`, a refusal carries only its `reason` (no text, no other extras).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn check_placement_with(
        &self,
        s: &'static Spec,
        t: &PlacementTraits,
        detail: bool,
        x: i64,
        y: i64,
        z: i64,
        o: Orientation,
    ) -> Result<Placement, Refusal> {
        let name = s.name.as_str();
        if s.science_cost > 0 && !self.science.unlocked.contains(&s.name) {
            if !detail {
                return Err(Refusal::Reason("not_unlocked"));
            }
            return Err(Refusal::Error(CommandError::new(
                ErrorCode::NotUnlocked,
                format!(
                    "{name} needs a science unlock ({} points; you have {}); POST /api/science/unlock {{\"building\": \"{name}\"}} first",
                    s.science_cost, self.science.points
                ),
            )
            .with("prefab", name)
            .with("scienceCost", s.science_cost)
            .with("currentPoints", self.science.points)
            .with("x", x)
            .with("y", y)
            .with("z", z)));
        }
        let max_z = i64::from(crate::catalog::world_rules().map.max_terrain_height.value) + 8;
        if !(0..=max_z).contains(&z) {
            return Err(refuse(
                detail,
                "unreachable_z",
                || {
                    format!(
                        "z {z} is outside 0-{max_z}; use the terrain height at ({x}, {y}) (GET /api/tiles)"
                    )
                },
                name,
                x,
                y,
                z,
            ));
        }
        let (w, d) = turned_size(s, o);
        let tiles = footprint(s, x, y, o);
        if let Some((bx, by)) = tiles.iter().find(|(tx, ty)| !self.map.contains(*tx, *ty)) {
            return Err(refuse(
                detail,
                "out_of_bounds",
                || {
                    format!(
                        "{name} ({w}x{d} facing {}) at ({x}, {y}) runs off the {}x{} map at ({bx}, {by}); move it inside the map",
                        o.as_str(),
                        self.map.width(),
                        self.map.height()
                    )
                },
                name,
                x,
                y,
                z,
            ));
        }
        let intake_row: Vec<(i64, i64)> = if t.intake {
            let (sx, sy) = (s.size.x as i32, s.size.y as i32);
            (0..sx)
                .map(|lx| {
                    let (dx, dy) = super::geometry::turn(lx, sy - 1, sx, sy, o);
                    (x + i64::from(dx), y + i64::from(dy))
                })
                .collect()
        } else {
            Vec::new()
        };
        let zu = z as u32;
        let mut stumps = Vec::new();
        let water_limit = colony_rules().colony.water_blocks_placement.value;
        let spanning = t.spanning;
        let on_source = t.caps_source
            && {
                let srcs = &self.land.water.sources;
                let found = srcs
                    .iter()
                    .any(|w| w.badwater && tiles.contains(&(i64::from(w.x), i64::from(w.y))));
                if !found {
                    return Err(refuse(
                        detail,
                        "terrain",
                        || {
                            let near = srcs
                                .iter()
                                .filter(|w| w.badwater)
                                .map(|w| format!("({}, {})", w.x, w.y))
                                .collect::<Vec<_>>()
                                .join(", ");
                            format!(
                                "{name} must stand on a badwater source; none is under ({x}, {y}); badwater sources: {}",
                                if near.is_empty() {
                                    "none on this map".to_owned()
                                } else {
                                    near
                                }
                            )
                        },
                        name,
                        x,
                        y,
                        z,
                    ));
                }
                true
            };
        if t.drill
            && let Some((bx, by)) = tiles
                .iter()
                .find(|(tx, ty)| !self.is_aquifer(*tx as u32, *ty as u32))
        {
            return Err(refuse(
                detail,
                "terrain",
                || {
                    let patches = self
                        .aquifer_patches()
                        .iter()
                        .map(|(px, py)| format!("({px}, {py})"))
                        .collect::<Vec<_>>()
                        .join(", ");
                    format!(
                        "{name} must stand with its whole footprint on an aquifer; ({bx}, {by}) is no aquifer tile; aquifer patches start at {} (GET /api/tiles shows aquifer: true)",
                        if patches.is_empty() {
                            "none on this map".to_owned()
                        } else {
                            patches
                        }
                    )
                },
                name,
                x,
                y,
                z,
            ));
        }
        if spanning {
            for (ex, ey) in span_ends(s, x, y, o) {
                let held = self.map.contains(ex, ey) && {
                    let (ux, uy) = (ex as u32, ey as u32);
                    let ground = u32::from(self.map.terrain_height(ux, uy)) == zu;
                    let block = |v| {
                        self.colony
                            .blocks
                            .get(&v)
                            .and_then(|id| self.colony.buildings.get(id))
                            .map(|b| b.kind())
                    };
                    ground
                        || zu > 0 && block(voxel(ux, uy, zu - 1)) == Some(Kind::Solid)
                        || block(voxel(ux, uy, zu)) == Some(Kind::Path)
                };
                if !held {
                    return Err(refuse(
                        detail,
                        "no_support",
                        || {
                            format!(
                                "{name} hangs from its ends: ({ex}, {ey}) needs ground, a platform or a walkway at z {z}; move it so both ends rest on something"
                            )
                        },
                        name,
                        x,
                        y,
                        z,
                    ));
                }
            }
        }
        for (tx, ty) in tiles {
            let (ux, uy) = (tx as u32, ty as u32);
            let h = u32::from(self.map.terrain_height(ux, uy));
            if t.tunnel {
                if h <= zu || zu == 0 {
                    return Err(refuse(
                        detail,
                        "terrain",
                        || {
                            format!(
                                "{name} cuts a passage through the terrain: at ({tx}, {ty}) the terrain is height {h}, so place it at a z from 1 to {} (inside the ground, its floor above the map's bottom)",
                                h.saturating_sub(1)
                            )
                        },
                        name,
                        x,
                        y,
                        z,
                    ));
                }
            } else if h > zu {
                return Err(refuse(
                    detail,
                    "terrain",
                    || {
                        format!(
                            "terrain at ({tx}, {ty}) is height {h}, above z {z}: {name} would clip underground; place it at z {h} or on flatter ground"
                        )
                    },
                    name,
                    x,
                    y,
                    z,
                ));
            }
            let over_water = intake_row.contains(&(tx, ty)) || spanning || on_source;
            if h < zu && !over_water {
                let below = self.colony.blocks.get(&voxel(ux, uy, zu - 1));
                let solid = below.is_some_and(|id| {
                    self.colony
                        .buildings
                        .get(id)
                        .is_some_and(|b| b.kind() == Kind::Solid)
                });
                if !solid {
                    return Err(refuse(
                        detail,
                        "no_support",
                        || {
                            format!(
                                "nothing holds {name} up at ({tx}, {ty}, {z}): the terrain there is height {h}; place it at z {h} or build a platform under it"
                            )
                        },
                        name,
                        x,
                        y,
                        z,
                    ));
                }
            }
            for dz in 0..s.size.z.max(1) {
                if let Some(other) = self.colony.blocks.get(&voxel(ux, uy, zu + dz)) {
                    let ob = &self.colony.buildings[other];
                    return Err(refuse(
                        detail,
                        "occupied",
                        || format!(
                            "({tx}, {ty}, {}) is occupied by {} #{other} at ({}, {}, {}); pick a free spot (POST /api/placement/find) or demolish it",
                            zu + dz, ob.prefab, ob.x, ob.y, ob.z
                        ),
                        name, x, y, z,
                    ).with("blockerId", *other));
                }
            }
            if h == zu {
                let i = self.land.idx(ux, uy);
                if let Some(occ) = self.land.occupant[i] {
                    if let Some(p) = self.land.plants.get(&occ) {
                        if p.alive {
                            // How this kind of plant is cleared away.
                            let clear = match p.kind() {
                                crate::catalog::PlantKind::Tree => {
                                    "mark it for cutting (POST /api/cutting/area)"
                                }
                                crate::catalog::PlantKind::Crop => {
                                    "remove it (POST /api/crop/demolish)"
                                }
                                // No route removes a bush: gather it, build elsewhere.
                                crate::catalog::PlantKind::Bush => {
                                    "bushes stay (a gatherer picks them)"
                                }
                            };
                            return Err(refuse(
                                detail,
                                "occupied",
                                || format!(
                                    "({tx}, {ty}) is occupied by {} #{occ}; {clear} or pick a free spot (POST /api/placement/find)",
                                    p.name()
                                ),
                                name, x, y, z,
                            ).with("blockerId", occ));
                        }
                        stumps.push(occ);
                    } else {
                        return Err(refuse(
                            detail,
                            "occupied",
                            || format!(
                                "({tx}, {ty}) is occupied by ruins #{occ}; scavenge them or pick a free spot (POST /api/placement/find)"
                            ),
                            name, x, y, z,
                        ).with("blockerId", occ));
                    }
                }
                if !t.water_building && !over_water && self.water_depth(ux, uy) > water_limit {
                    return Err(refuse(
                        detail,
                        "water",
                        || {
                            format!(
                                "({tx}, {ty}) is under {:.2} of water; {name} must stand on dry land (water buildings and platforms may stand in water)",
                                self.water_depth(ux, uy)
                            )
                        },
                        name,
                        x,
                        y,
                        z,
                    ));
                }
            }
        }
        // A district center's doorstep stays free (a path may lie there): a building on it
        // would cut the district off from its center.
        if !t.walkway {
            for dc in self.colony.centers() {
                let Some([dx, dy, dz]) = self.colony.door(dc) else {
                    continue;
                };
                if tiles.contains(&(i64::from(dx), i64::from(dy)))
                    && (zu..zu + s.size.z.max(1)).contains(&dz)
                {
                    let center = &self.colony.buildings[&dc].prefab;
                    return Err(refuse(
                        detail,
                        "entrance",
                        || format!(
                            "({dx}, {dy}, {dz}) is the doorstep of {center} #{dc}: {name} there would cut the district off; leave it free (a path may go there) and pick another spot (POST /api/placement/find)"
                        ),
                        name,
                        x,
                        y,
                        z,
                    )
                    .with("blockerId", dc));
                }
            }
        }
        Ok(Placement {
            prefab: name,
            x: x as u32,
            y: y as u32,
            z: zu,
            orientation: o,
            stumps,
        })
    }
}
