//! Workshops: a staffed, powered lumber mill's planks and gear workshop's gears per day, against
//! the recipe's rate over the working hours at the worker's working speed (`data/buildings.json`
//! recipes, `data/world.json` working hours, `data/colony.json` wellbeing tiers).

use sim::content::content;
use sim::{NewGame, Setup, World, ticks_per_day};

use super::placing::{dc_door, place_near, place_power_row};
use super::work::working_speed;
use super::{content_provenance, game, hour, produced, report};

/// What one workshop made a day over three working days, and what its recipe gives.
struct Rate {
    made: f64,
    /// The recipe over the working hours at the worker's mean speed.
    expected: f64,
    /// The recipe over the speed-weighted hours the worker was at work and the workshop could
    /// run (power share met, inputs in, room for output).
    running: f64,
    speed: f64,
    hours: f64,
}

/// A workshop powered by `wheels` power wheels on one row, its input stocked in the district
/// center: built and staffed by 20:00 on day 2, then read over three days.
fn run(workshop: &str, wheels: usize) -> Rate {
    let recipe = &content().recipes[&content().buildings[workshop].recipes[0]];
    let out_good = &recipe.outputs[0].good;
    // Logs for construction and input; planks only where they are an input (the mill's
    // planks go to piles of their own).
    let planks = if out_good == "Plank" { 0 } else { 300 };
    let mut w = World::new(&NewGame {
        setup: Setup {
            goods: [
                ("Log", 300),
                ("Plank", planks),
                ("Water", 200),
                ("Berries", 200),
            ]
            .map(|(g, n)| (g.to_owned(), n))
            .into(),
            unlocked: [workshop]
                .into_iter()
                .filter(|p| content().buildings[*p].science_cost > 0)
                .map(str::to_owned)
                .collect(),
            ..Setup::default()
        },
        ..game(11)
    });
    let mut row = vec!["PowerWheel.Folktails"; wheels];
    row.insert(wheels / 2, workshop);
    let ids = place_power_row(&mut w, &row).expect("room for a power row");
    let shop = ids[wheels / 2];
    // Room for three days of output and more: a store of it near the district center.
    let store = if out_good == "Plank" {
        "LargePile.Folktails"
    } else {
        "MediumWarehouse.Folktails"
    };
    let door = dc_door(&w);
    let near = (door.0 - 10, door.1 - 10, door.0 + 10, door.1 + 10);
    let store = place_near(&mut w, store, near);
    w.set_storage(store, Some(out_good), None).unwrap();
    let start_hour = u64::from(sim::catalog::world_rules().time.new_game_start_hour.value);
    w.advance_ticks((24 - start_hour + 20) * hour());
    for id in &ids {
        let b = w.building_view(*id).unwrap();
        assert!(b.finished && b.assigned_workers == Some(1), "{b:?}");
    }
    let out = &recipe.outputs[0];
    let base = workshop.split('.').next().unwrap();
    let made0 = produced(&w, &out.good);
    let (mut working_ticks, mut speed_sum, mut run_hours) = (0u64, 0.0, 0.0);
    let days = 3;
    for _ in 0..days * ticks_per_day() {
        w.tick();
        if w.are_working_hours() {
            working_ticks += 1;
            let worker = w.beavers(false).into_iter().find(|b| b.workplace == base);
            speed_sum += worker.as_ref().map_or(0.0, working_speed);
            // A tick the workshop could run with its worker at its post: the share of its
            // power demand met, at the worker's speed.
            let v = w.building_view(shop).unwrap();
            let blocked = v
                .statuses
                .iter()
                .any(|s| ["unpowered", "lacks inputs", "output full"].contains(&s.as_str()));
            if let Some(b) = worker
                && b.activity == "working"
                && !blocked
            {
                let share = match (v.power_supply, v.power_demand) {
                    (Some(s), Some(d)) if d > 0 => (s as f64 / d as f64).min(1.0),
                    _ => 1.0,
                };
                run_hours += working_speed(&b) * share / hour() as f64;
            }
        }
    }
    let hours = working_ticks as f64 / hour() as f64 / days as f64;
    let speed = speed_sum / working_ticks as f64;
    Rate {
        made: (produced(&w, &out.good) - made0) / days as f64,
        expected: hours * speed / recipe.cycle_hours * out.amount,
        running: run_hours / days as f64 / recipe.cycle_hours * out.amount,
        speed,
        hours,
    }
}

#[test]
fn a_powered_mill_and_gear_workshop_make_their_recipe_rate_over_the_working_hours() {
    let mut off = Vec::new();
    for (workshop, wheels) in [("LumberMill.Folktails", 1), ("GearWorkshop.Folktails", 3)] {
        let r = run(workshop, wheels);
        let recipe = &content().recipes[&content().buildings[workshop].recipes[0]];
        let out = &recipe.outputs[0];
        report(
            &format!("{workshop} {} per day (3 working days)", out.good),
            format!(
                "{:.2} ({:.2} at the recipe over the hours it could run: the rest is its \
                 worker's and its wheels' workers' meals and drinks)",
                r.made, r.running
            ),
            format!(
                "{} per {} h cycle x {:.1} working h x speed {:.2} = {:.2}",
                out.amount, recipe.cycle_hours, r.hours, r.speed, r.expected
            ),
            &content_provenance(recipe.estimated.is_some()),
        );
        // Every tick it can run counts: the output is the recipe over those ticks, up to the
        // cycles under way at the window's ends (one cycle over three days, either way).
        if (r.made - r.running).abs() > out.amount / 3.0 + 1e-9 {
            off.push(format!(
                "{workshop}: {:.2} {} a day, {:.2} at the recipe over the hours it could run",
                r.made, out.good, r.running
            ));
        }
        // Nothing but the workers' breaks (a meal and a drink or two a day, each, for the
        // workshop's worker and its wheels' workers) eats the working day: at least 85% of
        // the recipe over the working hours (before issue 38: 81% and 82%, whole hours lost
        // to a wheel stopped when a step ended and to idle hours waiting for power).
        if r.made < 0.85 * r.expected {
            off.push(format!(
                "{workshop}: {:.2} {} a day, {:.2} over the working hours",
                r.made, out.good, r.expected
            ));
        }
    }
    assert!(off.is_empty(), "{off:?}");
}
