//! Prints, for each seed, the game day the first badtide begins on a Normal Folktails 128 map
//! (or `none` within the days asked): how `scenarios/survive-badtide.toml` picks its seeds, whose
//! weather brings the badtide late enough to be prepared for and early enough to be lived through.
//! Weather depends on the seed alone, so an idle game gives the same days as any play.
//!
//! `cargo run --release -p colony-sim --example badtide_seeds -- FIRST LAST [DAYS]`

use sim::{HazardKind, NewGame, World, ticks_per_day};

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("seeds and days are whole numbers"))
        .collect();
    let (first, last, days) = match args[..] {
        [a, b] => (a, b, 110),
        [a, b, d] => (a, b, d),
        _ => panic!("usage: badtide_seeds FIRST LAST [DAYS]"),
    };
    for seed in first..=last {
        let mut w = World::new(&NewGame {
            seed,
            map_width: 128,
            map_height: 128,
            ..NewGame::default()
        });
        let mut found = None;
        for day in 1..=days {
            let v = w.weather();
            if v.is_hazardous && v.hazard == Some(HazardKind::Badtide) {
                found = Some(day);
                break;
            }
            w.advance_ticks(ticks_per_day());
        }
        match found {
            Some(d) => println!("seed {seed}: first badtide on day {d}"),
            None => println!("seed {seed}: none within {days} days"),
        }
    }
}
