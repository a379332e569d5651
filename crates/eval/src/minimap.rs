//! Small pictures of a colony's map, drawn by the project: one pixel per tile from
//! `GET /api/tiles` over the whole map (terrain by height, moist soil greener, water by depth,
//! badwater purple, crops, trees and bushes, dead plants, ruins, paths, buildings, the district
//! center), north up. One fixed palette of indexed colours serves both encodings: PNG for
//! report.html's strips (`png` crate) and GIF frames for `colony replay --export` (`gif` crate).

use crate::service::Service;
use serde::Deserialize;

/// A picture of the map at a point of an episode (report.html's strip).
#[derive(Clone, Debug)]
pub struct Shot {
    /// The turn after whose advance it was taken (0: the start, before the first turn).
    pub turn: u32,
    pub day: u32,
    /// What the moment is: `start`, `drought starts`, `end`... (empty for a regular one).
    pub label: String,
    /// The picture as a PNG, a pixel per tile.
    pub png: Vec<u8>,
}

/// Regular pictures are taken every this many turns: about six an episode.
pub fn every(turns: u32) -> u32 {
    turns.div_ceil(6).max(1)
}

/// Whether turn `turn` gets a picture, and its label: hazards' starts and ends, the end of the
/// episode, and every `every` turns (an empty label).
pub fn label(
    turn: u32,
    every: u32,
    finished: bool,
    hazard_before: Option<&str>,
    hazard_after: Option<&str>,
) -> Option<String> {
    let mut parts = Vec::new();
    if hazard_before != hazard_after {
        if let Some(h) = hazard_before {
            parts.push(format!("{h} ends"));
        }
        if let Some(h) = hazard_after {
            parts.push(format!("{h} starts"));
        }
    }
    if finished {
        parts.push("end".to_owned());
    }
    (!parts.is_empty() || turn.is_multiple_of(every)).then(|| parts.join(", "))
}

/// The map now, as a [`Shot`]; `None` when it cannot be read (the report then lacks it).
pub fn shot(svc: &Service, turn: u32, day: u32, label: &str) -> Option<Shot> {
    let png = capture(svc).ok()?.png(1).ok()?;
    Some(Shot {
        turn,
        day,
        label: label.to_owned(),
        png,
    })
}

/// A picture: one palette index per tile, rows from the north edge down.
#[derive(Clone, Debug, PartialEq)]
pub struct Picture {
    pub width: u32,
    pub height: u32,
    pub pixels: Vec<u8>,
}

/// What a tile shows, in drawing order of precedence (buildings over paths over plants over
/// water over the ground).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ink {
    /// Ground of this height (0-15), dry or moist.
    Ground {
        height: u8,
        moist: bool,
    },
    /// Water of this depth band (0-4), clean or bad.
    Water {
        band: u8,
        bad: bool,
    },
    Crop,
    Tree,
    Seedling,
    Dead,
    Ruin,
    Path,
    Building,
    DistrictCenter,
}

/// Heights drawn in their own shade; higher ground takes the last.
const HEIGHTS: u8 = 16;
/// Water depth bands (m): below 0.25, 0.5, 1, 2, and deeper.
const WATER_BANDS: [f64; 4] = [0.25, 0.5, 1.0, 2.0];

impl Ink {
    /// The palette index.
    fn index(self) -> u8 {
        match self {
            Ink::Ground { height, moist } => {
                height.min(HEIGHTS - 1) + if moist { HEIGHTS } else { 0 }
            }
            Ink::Water { band, bad } => 2 * HEIGHTS + band + if bad { 5 } else { 0 },
            Ink::Crop => 2 * HEIGHTS + 10,
            Ink::Tree => 2 * HEIGHTS + 11,
            Ink::Seedling => 2 * HEIGHTS + 12,
            Ink::Dead => 2 * HEIGHTS + 13,
            Ink::Ruin => 2 * HEIGHTS + 14,
            Ink::Path => 2 * HEIGHTS + 15,
            Ink::Building => 2 * HEIGHTS + 16,
            Ink::DistrictCenter => 2 * HEIGHTS + 17,
        }
    }
}

/// The palette, RGB triples in index order.
pub fn palette() -> Vec<u8> {
    let mix = |a: [u8; 3], b: [u8; 3], t: f64| -> [u8; 3] {
        std::array::from_fn(|k| {
            (f64::from(a[k]) + (f64::from(b[k]) - f64::from(a[k])) * t).round() as u8
        })
    };
    let mut p = Vec::with_capacity(3 * 64);
    for (low, high) in [
        ([118, 102, 78], [226, 212, 178]), // dry ground, low to high
        ([86, 118, 62], [178, 206, 134]),  // moist ground
    ] {
        for h in 0..HEIGHTS {
            p.extend(mix(low, high, f64::from(h) / f64::from(HEIGHTS - 1)));
        }
    }
    // Clean water by depth, then badwater.
    for c in [
        [150, 200, 235],
        [100, 165, 220],
        [60, 125, 200],
        [35, 90, 170],
        [20, 60, 130],
        [190, 150, 210],
        [160, 110, 190],
        [130, 80, 170],
        [105, 55, 145],
        [80, 35, 115],
    ] {
        p.extend(c);
    }
    for c in [
        [214, 196, 58],  // crop
        [28, 84, 40],    // tree or bush, grown
        [96, 158, 76],   // seedling
        [112, 82, 52],   // dead plant
        [128, 128, 128], // ruin
        [246, 240, 222], // path
        [214, 98, 36],   // building
        [196, 24, 32],   // district center
    ] {
        p.extend(c);
    }
    p
}

/// The palette index of a tile.
fn ink(t: &Tile, crops: &std::collections::HashSet<(u32, u32)>) -> Ink {
    let mut plant = None;
    let mut built = None;
    for o in &t.occupants {
        if o.name.contains('.') {
            let kind = if o.name.starts_with("DistrictCenter") {
                Ink::DistrictCenter
            } else if o.name.starts_with("Path.") {
                Ink::Path
            } else {
                Ink::Building
            };
            // A building above a path (a platform, a bridge) shows the building.
            if built.is_none() || built == Some(Ink::Path) {
                built = Some(kind);
            }
        } else if o.name.starts_with("Ruin") {
            plant = Some(Ink::Ruin);
        } else {
            plant = Some(if t.dead {
                Ink::Dead
            } else if crops.contains(&(t.x, t.y)) {
                Ink::Crop
            } else if t.seedling {
                Ink::Seedling
            } else {
                Ink::Tree
            });
        }
    }
    if let Some(b) = built {
        return b;
    }
    if let Some(p) = plant {
        return p;
    }
    if t.water > 0.02 {
        let band = WATER_BANDS.iter().filter(|b| t.water >= **b).count() as u8;
        return Ink::Water {
            band,
            bad: t.badwater.unwrap_or(0.0) > 0.5,
        };
    }
    Ink::Ground {
        height: u8::try_from(t.terrain).unwrap_or(u8::MAX),
        moist: t.moist,
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct TilesAnswer {
    region: Region,
    tiles: Vec<Tile>,
}

#[derive(Deserialize)]
struct Region {
    x1: u32,
    y1: u32,
    x2: u32,
    y2: u32,
}

#[derive(Deserialize)]
struct Tile {
    x: u32,
    y: u32,
    terrain: u32,
    water: f64,
    #[serde(default)]
    badwater: Option<f64>,
    #[serde(default)]
    occupants: Vec<Occupant>,
    #[serde(default)]
    seedling: bool,
    #[serde(default)]
    dead: bool,
    #[serde(default)]
    moist: bool,
}

#[derive(Deserialize)]
struct Occupant {
    name: String,
}

#[derive(Deserialize)]
struct CropAt {
    x: u32,
    y: u32,
}

/// Draws the whole map of the game `svc` serves (two reads: the tiles and the crops).
pub fn capture(svc: &Service) -> Result<Picture, String> {
    let tiles = svc
        .get("/api/tiles?x1=0&y1=0&x2=65535&y2=65535")
        .map_err(|e| format!("reading /api/tiles failed: {e}"))?;
    let tiles: TilesAnswer = serde_json::from_value(tiles)
        .map_err(|e| format!("/api/tiles answered an unexpected shape: {e}"))?;
    let crops = svc
        .get("/api/crops?limit=0")
        .map_err(|e| format!("reading /api/crops failed: {e}"))?;
    let crops: Vec<CropAt> = serde_json::from_value(crops)
        .map_err(|e| format!("/api/crops answered an unexpected shape: {e}"))?;
    let crops = crops.into_iter().map(|c| (c.x, c.y)).collect();
    Ok(draw(&tiles, &crops))
}

fn draw(a: &TilesAnswer, crops: &std::collections::HashSet<(u32, u32)>) -> Picture {
    let r = &a.region;
    let (width, height) = (r.x2 - r.x1 + 1, r.y2 - r.y1 + 1);
    let mut pixels = vec![0u8; (width * height) as usize];
    for t in &a.tiles {
        let (col, row) = (t.x - r.x1, r.y2 - t.y);
        pixels[(row * width + col) as usize] = ink(t, crops).index();
    }
    Picture {
        width,
        height,
        pixels,
    }
}

impl Picture {
    /// An indexed PNG of the picture, each tile `scale` pixels square.
    pub fn png(&self, scale: u32) -> Result<Vec<u8>, String> {
        let (w, h, px) = self.scaled(scale);
        let mut out = Vec::new();
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(png::ColorType::Indexed);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_palette(palette());
        let mut writer = enc.write_header().map_err(|e| e.to_string())?;
        writer.write_image_data(&px).map_err(|e| e.to_string())?;
        writer.finish().map_err(|e| e.to_string())?;
        Ok(out)
    }

    /// The picture with each tile `scale` pixels square: (width, height, pixels).
    pub fn scaled(&self, scale: u32) -> (u32, u32, Vec<u8>) {
        let s = scale.max(1);
        let (w, h) = (self.width * s, self.height * s);
        let mut px = Vec::with_capacity((w * h) as usize);
        for row in self.pixels.chunks(self.width as usize) {
            let wide: Vec<u8> = row
                .iter()
                .flat_map(|p| std::iter::repeat_n(*p, s as usize))
                .collect();
            for _ in 0..s {
                px.extend_from_slice(&wide);
            }
        }
        (w, h, px)
    }
}

/// Writes `frames` as an animated GIF (looping), each tile `scale` pixels, `delay_ms` a frame.
pub fn gif(
    frames: &[Picture],
    scale: u32,
    delay_ms: u16,
    out: impl std::io::Write,
) -> Result<(), String> {
    let Some(first) = frames.first() else {
        return Err("no frames to write".into());
    };
    let s = scale.max(1);
    let (w, h) = (first.width * s, first.height * s);
    let (w, h) = (
        u16::try_from(w).map_err(|_| format!("a {w}-pixel wide GIF is too large"))?,
        u16::try_from(h).map_err(|_| format!("a {h}-pixel high GIF is too large"))?,
    );
    let mut enc = gif::Encoder::new(out, w, h, &palette()).map_err(|e| e.to_string())?;
    enc.set_repeat(gif::Repeat::Infinite)
        .map_err(|e| e.to_string())?;
    for f in frames {
        let (fw, fh, px) = f.scaled(s);
        if (fw, fh) != (u32::from(w), u32::from(h)) {
            return Err("frames of different sizes".into());
        }
        let mut frame = gif::Frame::from_indexed_pixels(w, h, px, None);
        frame.delay = delay_ms / 10;
        enc.write_frame(&frame).map_err(|e| e.to_string())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tile(x: u32, y: u32) -> Tile {
        Tile {
            x,
            y,
            terrain: 3,
            water: 0.0,
            badwater: None,
            occupants: Vec::new(),
            seedling: false,
            dead: false,
            moist: false,
        }
    }

    fn occupied(x: u32, y: u32, names: &[&str]) -> Tile {
        Tile {
            occupants: names
                .iter()
                .map(|n| Occupant {
                    name: (*n).to_owned(),
                })
                .collect(),
            ..tile(x, y)
        }
    }

    #[test]
    fn every_ink_has_a_colour_and_tiles_are_inked_by_what_stands_on_them() {
        let colours = palette().len() / 3;
        assert_eq!(colours, Ink::DistrictCenter.index() as usize + 1);
        let crops = [(2, 0)].into_iter().collect();
        let mut wet = tile(0, 1);
        wet.water = 0.7;
        let mut bad = tile(1, 1);
        bad.water = 3.0;
        bad.badwater = Some(0.9);
        let mut moist = tile(2, 1);
        moist.moist = true;
        let answer = TilesAnswer {
            region: Region {
                x1: 0,
                y1: 0,
                x2: 2,
                y2: 1,
            },
            tiles: vec![
                occupied(0, 0, &["Path.Folktails", "Platform.Folktails"]),
                occupied(1, 0, &["DistrictCenter.Folktails"]),
                occupied(2, 0, &["Carrot"]),
                wet,
                bad,
                moist,
            ],
        };
        let p = draw(&answer, &crops);
        assert_eq!((p.width, p.height), (3, 2));
        // North up: row 0 is y = 1.
        assert_eq!(
            p.pixels,
            [
                Ink::Water {
                    band: 2,
                    bad: false
                }
                .index(),
                Ink::Water { band: 4, bad: true }.index(),
                Ink::Ground {
                    height: 3,
                    moist: true
                }
                .index(),
                Ink::Building.index(),
                Ink::DistrictCenter.index(),
                Ink::Crop.index(),
            ]
        );
    }

    #[test]
    fn pictures_encode_as_png_and_gif_with_their_size() {
        let p = Picture {
            width: 4,
            height: 2,
            pixels: vec![0, 1, 2, 3, 40, 41, 42, 49],
        };
        let bytes = p.png(3).unwrap();
        let decoder = png::Decoder::new(std::io::Cursor::new(&bytes));
        let reader = decoder.read_info().unwrap();
        assert_eq!((reader.info().width, reader.info().height), (12, 6));
        let mut out = Vec::new();
        gif(&[p.clone(), p], 2, 500, &mut out).unwrap();
        assert!(out.starts_with(b"GIF89a"));
        assert_eq!(u16::from_le_bytes([out[6], out[7]]), 8, "width");
        assert_eq!(u16::from_le_bytes([out[8], out[9]]), 4, "height");
        assert!(gif(&[], 1, 100, Vec::new()).is_err());
    }
}
