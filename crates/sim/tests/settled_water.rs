//! The water of a new map is at rest and stays so (issue 33): the map is generated with its
//! river already flowing as it will, so water wheels have their spots from the first day, and
//! standing water does not slosh. The measurements over more seeds are the examples
//! `settled_share` and `river_flows`.

use sim::{NewGame, World, ticks_per_day, water_step_ticks};

fn world(seed: u64) -> World {
    World::new(&NewGame {
        seed,
        ..NewGame::default()
    })
}

/// Every tile's depth, row by row.
fn depths(w: &World) -> Vec<f32> {
    let (mw, mh) = (w.map().width(), w.map().height());
    (0..mh)
        .flat_map(|y| (0..mw).map(move |x| (x, y)))
        .map(|(x, y)| w.water_depth(x, y))
        .collect()
}

#[test]
fn standing_water_is_at_rest_after_three_days() {
    for seed in 1..=8 {
        let mut w = world(seed);
        w.advance_ticks(3 * ticks_per_day());
        if w.weather().is_hazardous {
            continue;
        }
        let before = depths(&w);
        w.advance_ticks(u64::from(water_step_ticks()));
        let after = depths(&w);
        let wet = before.iter().filter(|d| **d >= 0.05).count();
        let moving = before
            .iter()
            .zip(&after)
            .filter(|(b, a)| **b >= 0.05 && (*a - *b).abs() > 0.001)
            .count();
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
