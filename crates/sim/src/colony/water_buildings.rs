//! Water buildings' effects on the land: soil barriers (impermeable floors, levees, contamination
//! and irrigation barriers) close their tiles to the soil.
//!
//! A building with the `soilBarrier` flag closes the tiles of its footprint when it is finished
//! and stands on the ground there (its base at the tile's terrain height; one standing on a
//! platform or a stack of levees closes nothing below it). The closed tiles are derived from the
//! buildings whenever one is finished or removed and after a load, so saves need carry nothing.

use super::geometry::footprint;
use crate::world::World;

impl World {
    /// Works out the tiles soil barriers close from the finished buildings and hands them to the
    /// soil (the next recompute spreads moisture and contamination around them).
    pub(crate) fn refresh_soil_barriers(&mut self) {
        let (w, h) = (self.map.width(), self.map.height());
        let mut closed = vec![false; (w * h) as usize];
        for b in self.colony.buildings.values() {
            let s = b.spec();
            if !b.finished || !s.flag("soilBarrier") {
                continue;
            }
            for (x, y) in footprint(s, b.x.into(), b.y.into(), b.orientation) {
                let (x, y) = (x as u32, y as u32);
                if x < w && y < h && u32::from(self.map.terrain_height(x, y)) == b.z {
                    closed[(y * w + x) as usize] = true;
                }
            }
        }
        if closed != self.land.soil.barrier {
            self.land.soil.set_barriers(closed);
        }
    }
}
