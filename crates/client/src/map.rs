//! `colony map X1 Y1 X2 Y2`: a compact text map of a region, one character per tile, north up,
//! built from `GET /api/tiles`. Cheap in tokens; coloured only when printing to a terminal
//! (and `NO_COLOR` is unset).
//!
//! Characters: terrain height `0`-`9` then `a`-`m` (10-22); `~` water (`!` when the water is
//! mostly badwater); `T` grown tree, `t` young tree, `x` dead stump; `*` bush; `+` crop, `.`
//! young crop; `&` ruin; `#` path, stairs or platform; `B` building; `@` beaver (adult or kit),
//! `r` bot. Beavers (from `GET /api/beavers`) win over occupants, occupants over water, water
//! over terrain; a tile with beavers and bots shows `@`. (Not `b`: that is terrain height 11.)

use serde_json::Value;

/// What the map draws for a tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Glyph {
    Terrain(u8),
    Water,
    Badwater,
    Tree { young: bool },
    Stump,
    Bush,
    Crop { young: bool },
    Ruin,
    Block,
    Building,
    Beaver,
    Bot,
}

/// A beaver or bot on the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Walker {
    pub x: i64,
    pub y: i64,
    pub bot: bool,
}

/// The walkers of the `GET /api/beavers?limit=0&format=json` answer (a flat array).
pub fn walkers(answer: &Value) -> Vec<Walker> {
    answer
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|b| {
            Some(Walker {
                x: b["x"].as_i64()?,
                y: b["y"].as_i64()?,
                bot: b["isBot"].as_bool().unwrap_or(false),
            })
        })
        .collect()
}

/// The crops of the game (contract list plus the catalogue's extra crops).
const CROPS: &[&str] = &[
    "Kohlrabi",
    "Cassava",
    "Carrot",
    "Potato",
    "Wheat",
    "Sunflower",
    "Corn",
    "Eggplant",
    "Soybean",
    "Canola",
    "Cattail",
    "Spadderdock",
];

/// Paths and the other blocks of the Paths tool group (stairs, platforms, overhangs, bridges,
/// gates, tubeways), by base name (faction suffix removed). Stations are buildings.
fn is_block(base: &str) -> bool {
    const STARTS: [&str; 3] = ["Overhang", "SuspensionBridge", "ZiplineBeam"];
    matches!(base, "Path" | "Gate" | "Tubeway" | "VerticalTubeway")
        || base.contains("Stairs")
        || base.contains("Platform")
        || STARTS.iter().any(|s| base.starts_with(s))
}

/// Classifies one tile of the JSON `tiles` answer.
pub fn glyph(tile: &Value) -> Glyph {
    let flag = |k: &str| tile[k].as_bool().unwrap_or(false);
    let occupant = tile["occupants"]
        .as_array()
        .and_then(|o| o.last())
        .and_then(|o| o["name"].as_str());
    if let Some(name) = occupant {
        let base = name.split('.').next().unwrap_or(name);
        return if is_block(base) {
            Glyph::Block
        } else if name.contains('.') {
            Glyph::Building
        } else if name.starts_with("Ruin") {
            Glyph::Ruin
        } else if flag("dead") {
            Glyph::Stump
        } else if name.ends_with("Bush") || name == "Dandelion" {
            Glyph::Bush
        } else if CROPS.contains(&name) {
            Glyph::Crop {
                young: flag("seedling"),
            }
        } else {
            Glyph::Tree {
                young: flag("seedling"),
            }
        };
    }
    let water = tile["water"].as_f64().unwrap_or(0.0);
    if water > 0.05 {
        return if tile["badwater"].as_f64().unwrap_or(0.0) > 0.5 {
            Glyph::Badwater
        } else {
            Glyph::Water
        };
    }
    Glyph::Terrain(tile["terrain"].as_u64().unwrap_or(0).min(35) as u8)
}

impl Glyph {
    pub fn char(self) -> char {
        match self {
            Glyph::Terrain(h) => std::char::from_digit(u32::from(h), 36).unwrap_or('?'),
            Glyph::Water => '~',
            Glyph::Badwater => '!',
            Glyph::Tree { young: false } => 'T',
            Glyph::Tree { young: true } => 't',
            Glyph::Stump => 'x',
            Glyph::Bush => '*',
            Glyph::Crop { young: false } => '+',
            Glyph::Crop { young: true } => '.',
            Glyph::Ruin => '&',
            Glyph::Block => '#',
            Glyph::Building => 'B',
            Glyph::Beaver => '@',
            Glyph::Bot => 'r',
        }
    }

    /// ANSI colour code for terminals.
    fn colour(self) -> &'static str {
        match self {
            Glyph::Terrain(h) if h <= 4 => "33",
            Glyph::Terrain(_) => "37",
            Glyph::Water => "34",
            Glyph::Badwater => "35",
            Glyph::Tree { .. } | Glyph::Bush => "32",
            Glyph::Stump => "90",
            Glyph::Crop { .. } => "93",
            Glyph::Ruin => "31",
            Glyph::Block => "90",
            Glyph::Building => "96",
            Glyph::Beaver => "1;91",
            Glyph::Bot => "1;95",
        }
    }
}

/// The legend line under the map.
pub const LEGEND: &str = "0-9 a-m terrain height  ~ water  ! badwater  T/t tree  x stump  * bush  +/. crop  & ruin  # path/stairs/platform  B building";

/// Renders the `GET /api/tiles?format=json` answer with `walkers` drawn over the tiles (`None`:
/// no beaver layer, and no beavers in the legend).
pub fn render(answer: &Value, walkers: Option<&[Walker]>, colour: bool) -> String {
    let region = &answer["region"];
    let (x1, y1, x2, y2) = (
        region["x1"].as_i64().unwrap_or(0),
        region["y1"].as_i64().unwrap_or(0),
        region["x2"].as_i64().unwrap_or(-1),
        region["y2"].as_i64().unwrap_or(-1),
    );
    let width = (x2 - x1 + 1).max(0) as usize;
    let height = (y2 - y1 + 1).max(0) as usize;
    let mut grid = vec![vec![Glyph::Terrain(0); width]; height];
    for t in answer["tiles"].as_array().into_iter().flatten() {
        let (x, y) = (t["x"].as_i64().unwrap_or(-1), t["y"].as_i64().unwrap_or(-1));
        if (x1..=x2).contains(&x) && (y1..=y2).contains(&y) {
            grid[(y - y1) as usize][(x - x1) as usize] = glyph(t);
        }
    }
    for w in walkers.into_iter().flatten() {
        if (x1..=x2).contains(&w.x) && (y1..=y2).contains(&w.y) {
            let cell = &mut grid[(w.y - y1) as usize][(w.x - x1) as usize];
            if !w.bot || *cell != Glyph::Beaver {
                *cell = if w.bot { Glyph::Bot } else { Glyph::Beaver };
            }
        }
    }
    let mut out = String::new();
    // Column ruler: the x of every tenth column.
    let mut ruler = " ".repeat(5);
    let mut col = 0;
    while col < width {
        let x = x1 + col as i64;
        if x % 10 == 0 || col == 0 {
            let label = x.to_string();
            ruler.push_str(&label);
            col += label.len();
        } else {
            ruler.push(' ');
            col += 1;
        }
    }
    out.push_str(ruler.trim_end());
    out.push('\n');
    for y in (y1..=y2).rev() {
        out.push_str(&format!("{y:>4} "));
        for g in &grid[(y - y1) as usize] {
            if colour {
                out.push_str(&format!("\x1b[{}m{}\x1b[0m", g.colour(), g.char()));
            } else {
                out.push(g.char());
            }
        }
        out.push('\n');
    }
    out.push_str(LEGEND);
    if walkers.is_some() {
        out.push_str("  @ beaver  r bot");
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tiles_classify_by_occupant_water_and_height() {
        assert_eq!(glyph(&json!({"terrain": 4, "water": 0.0})).char(), '4');
        assert_eq!(glyph(&json!({"terrain": 12, "water": 0.0})).char(), 'c');
        assert_eq!(glyph(&json!({"terrain": 2, "water": 1.2})).char(), '~');
        assert_eq!(
            glyph(&json!({"terrain": 2, "water": 1.2, "badwater": 0.9})).char(),
            '!'
        );
        assert_eq!(
            glyph(&json!({"terrain": 4, "water": 0.0, "occupants": [{"name": "Pine", "z": 4}]}))
                .char(),
            'T'
        );
        assert_eq!(glyph(&json!({"terrain": 4, "water": 0.0, "seedling": true, "occupants": [{"name": "Birch", "z": 4}]})).char(), 't');
        assert_eq!(glyph(&json!({"terrain": 4, "water": 0.0, "dead": true, "occupants": [{"name": "Birch", "z": 4}]})).char(), 'x');
        assert_eq!(glyph(&json!({"terrain": 4, "water": 0.0, "occupants": [{"name": "BlueberryBush", "z": 4}]})).char(), '*');
        assert_eq!(
            glyph(&json!({"terrain": 4, "water": 0.0, "occupants": [{"name": "Carrot", "z": 4}]}))
                .char(),
            '+'
        );
        assert_eq!(glyph(&json!({"terrain": 4, "water": 0.0, "occupants": [{"name": "Lodge.Folktails", "z": 4}]})).char(), 'B');
        for block in [
            "Path",
            "Stairs.Folktails",
            "SpiralStairs.IronTeeth",
            "Platform",
            "MetalPlatform3x3.Folktails",
            "Overhang2x1.Folktails",
            "SuspensionBridge3x1.IronTeeth",
        ] {
            assert_eq!(
                glyph(&json!({"terrain": 4, "water": 0.0, "occupants": [{"name": block, "z": 4}]}))
                    .char(),
                '#',
                "{block}"
            );
        }
        assert_eq!(glyph(&json!({"terrain": 4, "water": 0.0, "occupants": [{"name": "ZiplineStation.Folktails", "z": 4}]})).char(), 'B');
    }

    #[test]
    fn rows_run_north_up_with_a_ruler() {
        let answer = json!({"region": {"x1": 0, "y1": 0, "x2": 2, "y2": 1}, "tiles": [
            {"x": 0, "y": 0, "terrain": 1, "water": 0.0}, {"x": 1, "y": 0, "terrain": 2, "water": 0.0},
            {"x": 2, "y": 0, "terrain": 3, "water": 0.0}, {"x": 0, "y": 1, "terrain": 4, "water": 0.0},
            {"x": 1, "y": 1, "terrain": 5, "water": 1.0}, {"x": 2, "y": 1, "terrain": 6, "water": 0.0}]});
        let text = render(&answer, None, false);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "     0");
        assert_eq!(lines[1], "   1 4~6");
        assert_eq!(lines[2], "   0 123");
        assert!(!lines[3].contains("beaver"));
    }

    #[test]
    fn beavers_and_bots_draw_over_the_tiles() {
        let answer = json!({"region": {"x1": 0, "y1": 0, "x2": 2, "y2": 0}, "tiles": [
            {"x": 0, "y": 0, "terrain": 1, "water": 0.0},
            {"x": 1, "y": 0, "terrain": 1, "water": 0.0, "occupants": [{"name": "Path", "z": 1}]},
            {"x": 2, "y": 0, "terrain": 1, "water": 0.0, "occupants": [{"name": "Lodge.Folktails", "z": 1}]}]});
        let beavers = json!([
            {"x": 0, "y": 0, "isBot": true}, {"x": 0, "y": 0, "isBot": false},
            {"x": 1, "y": 0, "isBot": true}, {"x": 9, "y": 0, "isBot": false}]);
        let ws = walkers(&beavers);
        assert_eq!(ws.len(), 4);
        let text = render(&answer, Some(&ws), false);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[1], "   0 @rB", "{text}");
        assert!(lines[2].ends_with("B building  @ beaver  r bot"), "{text}");
        assert_eq!(
            render(&answer, None, false).lines().nth(1),
            Some("   0 1#B")
        );
    }
}
