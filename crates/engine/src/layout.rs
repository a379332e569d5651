//! `Colony-v0`'s one flat `Discrete` action space: the index of each (kind, parameters) on a map
//! of `W x H` tiles with `P` prefabs and `C` crops, in this order:
//!
//! - `0`: do nothing;
//! - place prefab `p` with its bottom-left corner at `(x, y)` facing `o` (south, west, north,
//!   east): `P * H * W * 4` actions, `1 + ((p * H + y) * W + x) * 4 + o`;
//! - lay a path from the district center's doorstep to `(x, y)`: `H * W`;
//! - mark the `K x K` area from `(x, y)` for cutting: `H * W`;
//! - mark that area for planting crop `c`: `C * H * W`.
//!
//! The Python package's `colony.gym.actions.Layout` is the same layout (a test holds the two
//! together).

/// The four orientations, in the action layout's order.
pub const ORIENTATIONS: [&str; 4] = ["south", "west", "north", "east"];

/// A decoded action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Noop,
    Place { prefab: u32, x: u32, y: u32, o: u8 },
    Path { x: u32, y: u32 },
    Cut { x: u32, y: u32 },
    Plant { crop: u32, x: u32, y: u32 },
}

impl Action {
    /// The kind's name, as `info["action"]` reports it.
    pub fn kind(&self) -> &'static str {
        match self {
            Action::Noop => "noop",
            Action::Place { .. } => "place",
            Action::Path { .. } => "path",
            Action::Cut { .. } => "cut",
            Action::Plant { .. } => "plant",
        }
    }
}

/// Where each kind of action starts in the flat index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    pub w: u32,
    pub h: u32,
    pub prefabs: u32,
    pub crops: u32,
    pub place0: u64,
    pub path0: u64,
    pub cut0: u64,
    pub plant0: u64,
    /// How many actions there are.
    pub n: u64,
}

impl Layout {
    pub fn new(w: u32, h: u32, prefabs: u32, crops: u32) -> Layout {
        let tiles = u64::from(w) * u64::from(h);
        let place0 = 1;
        let path0 = place0 + u64::from(prefabs) * tiles * 4;
        let cut0 = path0 + tiles;
        let plant0 = cut0 + tiles;
        Layout {
            w,
            h,
            prefabs,
            crops,
            place0,
            path0,
            cut0,
            plant0,
            n: plant0 + u64::from(crops) * tiles,
        }
    }

    pub fn place(&self, p: u32, x: u32, y: u32, o: u8) -> u64 {
        self.place0
            + ((u64::from(p) * u64::from(self.h) + u64::from(y)) * u64::from(self.w) + u64::from(x))
                * 4
            + u64::from(o)
    }

    /// The action of an index, or what is wrong with it.
    pub fn decode(&self, a: i64) -> Result<Action, String> {
        if a < 0 || a as u64 >= self.n {
            return Err(format!("action {a} is outside 0-{}", self.n - 1));
        }
        let a = a as u64;
        let tiles = u64::from(self.w) * u64::from(self.h);
        let xy = |t: u64| {
            (
                (t % u64::from(self.w)) as u32,
                (t / u64::from(self.w)) as u32,
            )
        };
        Ok(if a == 0 {
            Action::Noop
        } else if a < self.path0 {
            let (i, o) = ((a - self.place0) / 4, (a - self.place0) % 4);
            let (p, t) = (i / tiles, i % tiles);
            let (x, y) = xy(t);
            Action::Place {
                prefab: p as u32,
                x,
                y,
                o: o as u8,
            }
        } else if a < self.cut0 {
            let (x, y) = xy(a - self.path0);
            Action::Path { x, y }
        } else if a < self.plant0 {
            let (x, y) = xy(a - self.cut0);
            Action::Cut { x, y }
        } else {
            let (c, t) = ((a - self.plant0) / tiles, (a - self.plant0) % tiles);
            let (x, y) = xy(t);
            Action::Plant {
                crop: c as u32,
                x,
                y,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_decodes_back_from_its_index() {
        let l = Layout::new(5, 3, 2, 2);
        assert_eq!(l.n, 1 + 2 * 15 * 4 + 15 + 15 + 2 * 15);
        assert_eq!(l.decode(0), Ok(Action::Noop));
        let i = l.place(1, 4, 2, 3) as i64;
        assert_eq!(
            l.decode(i),
            Ok(Action::Place {
                prefab: 1,
                x: 4,
                y: 2,
                o: 3
            })
        );
        assert_eq!(
            l.decode(l.path0 as i64 + 7),
            Ok(Action::Path { x: 2, y: 1 })
        );
        assert_eq!(l.decode(l.cut0 as i64), Ok(Action::Cut { x: 0, y: 0 }));
        assert_eq!(
            l.decode(l.n as i64 - 1),
            Ok(Action::Plant {
                crop: 1,
                x: 4,
                y: 2
            })
        );
        assert!(l.decode(l.n as i64).is_err());
        assert!(l.decode(-1).is_err());
    }
}
