//! The water of a new map is at rest and stays so (issue 33): the map is generated with its
//! river already flowing as it will, so water wheels have their spots from the first day, and
//! standing water does not slosh. The measurements over more seeds are the examples
//! `settled_share` and `river_flows`.

#[path = "common/settled.rs"]
mod settled;

use settled::step_and_count_moving;
use sim::{NewGame, World, ticks_per_day};

fn world(seed: u64) -> World {
    World::new(&NewGame {
        seed,
        ..NewGame::default()
    })
}

#[test]
fn standing_water_is_at_rest_after_three_days() {
    for seed in 1..=8 {
        let mut w = world(seed);
        w.advance_ticks(3 * ticks_per_day());
        if w.weather().is_hazardous {
            continue;
        }
        let (wet, moving) = step_and_count_moving(&mut w);
        assert!(
            moving * 20 <= wet,
            "seed {seed}: {moving} of {wet} wet tiles move more than 1 mm in a step"
        );
    }
}

#[test]
fn water_wheel_spots_exist_from_the_first_day() {
    for seed in 1..=20 {
        let mut w = world(seed);
        let (mw, mh) = (i64::from(w.map().width()), i64::from(w.map().height()));
        let spots = |w: &mut World| {
            w.find_placements("WaterWheel.Folktails", 0, 0, mw - 1, mh - 1)
                .expect("search runs")
                .3
                .len()
        };
        let day1 = spots(&mut w);
        w.advance_ticks(4 * ticks_per_day());
        let day5 = spots(&mut w);
        assert!(
            day5 == 0 || day1 > 0,
            "seed {seed}: {day5} water-wheel spots on day 5, none on day 1"
        );
    }
}
