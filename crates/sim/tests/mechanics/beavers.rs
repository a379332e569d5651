//! Beavers' own mechanics: thirst and hunger falling at their daily rates, and the days a kit
//! takes to grow up.

use std::collections::BTreeMap;

use sim::catalog::world_rules;
use sim::colony::rules::{colony_rules, tier_bonus};
use sim::content::content;
use sim::{GameMode, NewGame, Setup, World, event_names, ticks_per_day};

use super::placing::{dc_door, place_near};
use super::{consumed, content_provenance, game, hour, hours_per_day, provenance, report};

/// Every unit of every good consumed since the game began.
fn consumed_anything(w: &World) -> f64 {
    let h = w.history();
    h.rows
        .iter()
        .flat_map(|r| r.consumed.values())
        .chain(h.counters.consumed.values())
        .sum()
}

/// The game's point range of a beaver need (needs.json `range`).
fn need_range(id: &str) -> (f64, f64) {
    let def = content().beaver_needs.iter().find(|n| n.id == id).unwrap();
    let r = def.range.as_ref().unwrap();
    (r["min"].as_f64().unwrap(), r["max"].as_f64().unwrap())
}

/// Served points (0-1) of every beaver's need `id`, by beaver.
fn need_points(w: &World, id: &str) -> BTreeMap<i32, f64> {
    w.beavers(true)
        .iter()
        .filter(|b| !b.is_bot)
        .map(|b| (b.id, b.needs.iter().find(|n| n.id == id).unwrap().points))
        .collect()
}

#[test]
fn thirst_and_hunger_fall_at_their_daily_rates() {
    let mut w = World::new(&game(11));
    // A Normal game starts without water, and nobody eats before Hunger falls under
    // seekFoodBelow (about 15 hours from full): for 12 hours the needs only decay.
    assert!(!w.colony_stock().contains_key("Water"));
    let mode = world_rules().mode(GameMode::Normal);
    // Half an hour in, so the window holds exactly 12 of the hourly need steps.
    w.advance_ticks(hour() / 2);
    let hours = 12;
    let before = [need_points(&w, "Thirst"), need_points(&w, "Hunger")];
    w.advance_ticks(hours * hour());
    let after = [need_points(&w, "Thirst"), need_points(&w, "Hunger")];
    assert_eq!(consumed_anything(&w), 0.0, "nobody ate or drank");
    let days = hours as f64 / hours_per_day();
    for (i, (need, factor, key)) in [
        ("Thirst", mode.water_consumption, "waterConsumption"),
        ("Hunger", mode.food_consumption, "foodConsumption"),
    ]
    .into_iter()
    .enumerate()
    {
        let def = content()
            .beaver_needs
            .iter()
            .find(|n| n.id == need)
            .unwrap();
        let (lo, hi) = need_range(need);
        let expected = def.daily_delta.unwrap() * factor;
        // The view rounds served points (0-1 over the range) to 0.001: a change read from two
        // views is off by at most 0.001 of the range.
        let tolerance = 0.001 * (hi - lo) / days + 1e-9;
        let rates: Vec<f64> = before[i]
            .iter()
            .map(|(id, p)| (after[i][id] - p) * (hi - lo) / days)
            .collect();
        assert_eq!(rates.len(), 12, "the founders are all alive");
        for r in &rates {
            assert!(
                (r - expected).abs() <= tolerance,
                "{need}: {r} a day against {expected}"
            );
        }
        let mean = rates.iter().sum::<f64>() / rates.len() as f64;
        report(
            &format!("{need} decay (points/day, 12 beavers over {hours} h, Normal)"),
            format!("{mean:.3}"),
            format!("dailyDelta {} x {key} {factor}", def.daily_delta.unwrap()),
            &content_provenance(def.estimated.contains_key("dailyDelta")),
        );
    }
}

/// Seed 11 (Folktails, Normal) with 40 logs and this much water and berries in store.
fn stocked_game(water: u32, berries: u32) -> World {
    World::new(&NewGame {
        setup: Setup {
            goods: BTreeMap::from([
                ("Log".to_owned(), 40),
                ("Water".to_owned(), water),
                ("Berries".to_owned(), berries),
            ]),
            ..Setup::default()
        },
        ..game(11)
    })
}

/// A kit followed from birth.
struct Kit {
    born: u64,
    /// Days of childhood the dawns since birth made up: each dawn counts as its growth speed,
    /// 1 + childGrowthSpeedTiers at the kit's wellbeing.
    grown_days: f64,
    /// The tick at which that growth reached 1, and the tick the kit was first seen adult.
    predicted: Option<u64>,
    adult: Option<u64>,
    /// Its wellbeing at each dawn.
    wellbeing: Vec<f64>,
}

#[test]
fn kits_grow_up_in_the_childhood_days() {
    let mut w = stocked_game(500, 500);
    let door = dc_door(&w);
    let near = (door.0 - 8, door.1 - 8, door.0 + 8, door.1 + 8);
    for _ in 0..6 {
        place_near(&mut w, "Lodge.Folktails", near);
    }
    let childhood = &colony_rules().population.childhood_days;
    let tiers = &colony_rules().wellbeing.child_growth_speed_tiers.value;
    let tpd = ticks_per_day();
    // Dawn comes at absolute hour 0; the game began at newGameStartHour.
    let offset = u64::from(world_rules().time.new_game_start_hour.value) * hour();
    let mut kits: BTreeMap<i32, Kit> = BTreeMap::new();
    for _ in 0..25 * 24 {
        w.advance_ticks(hour());
        for e in w.take_events() {
            if e.name == event_names::BEAVER_BORN_EVENT {
                let id = e.data.unwrap()["id"].as_i64().unwrap() as i32;
                let kit = Kit {
                    born: w.ticks(),
                    grown_days: 0.0,
                    predicted: None,
                    adult: None,
                    wellbeing: Vec::new(),
                };
                kits.insert(id, kit);
            }
        }
        let now = w.ticks();
        let dawn = (now + offset).is_multiple_of(tpd);
        for (id, k) in kits.iter_mut() {
            if k.adult.is_some() {
                continue;
            }
            let Some(b) = w.beaver_view(*id, true) else {
                continue;
            };
            if dawn && k.born < now {
                // The dawn's growth step uses the wellbeing read right after it.
                k.wellbeing.push(b.wellbeing);
                k.grown_days += 1.0 + tier_bonus(tiers, b.wellbeing);
                if k.grown_days >= childhood.value - 1e-9 && k.predicted.is_none() {
                    k.predicted = Some(now);
                }
            }
            if !b.is_child {
                k.adult = Some(now);
            }
        }
        if kits.values().filter(|k| k.adult.is_some()).count() >= 2 {
            break;
        }
    }
    let grown: Vec<(&i32, &Kit)> = kits.iter().filter(|(_, k)| k.adult.is_some()).collect();
    assert!(!grown.is_empty(), "no kit grew up: {}", kits.len());
    let days = |t: u64, born: u64| (t - born) as f64 / tpd as f64;
    let dawns = |t: u64, born: u64| (t + offset) / tpd - (born + offset) / tpd;
    let wellbeing: Vec<f64> = grown
        .iter()
        .flat_map(|(_, k)| k.wellbeing.clone())
        .collect();
    let (lo, hi) = (
        wellbeing.iter().copied().fold(f64::MAX, f64::min),
        wellbeing.iter().copied().fold(f64::MIN, f64::max),
    );
    report(
        &format!(
            "childhood (days from birth to adult, {} Folktails kits)",
            grown.len()
        ),
        grown
            .iter()
            .map(|(_, k)| {
                let a = k.adult.unwrap();
                format!("{:.2} ({} dawns)", days(a, k.born), dawns(a, k.born))
            })
            .collect::<Vec<_>>()
            .join(", "),
        format!(
            "childhoodDays {} at growth speed 1 + childGrowthSpeedTiers(wellbeing {lo}-{hi}): {}",
            childhood.value,
            grown
                .iter()
                .map(|(_, k)| k.predicted.map_or("-".to_owned(), |p| {
                    format!("{:.2} ({} dawns)", days(p, k.born), dawns(p, k.born))
                }))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        &provenance(childhood),
    );
    for (id, k) in &grown {
        // Kits grow at dawn only: they come of age at the dawn where the growth speeds of the
        // dawns since birth add up to childhoodDays.
        assert_eq!(k.adult, k.predicted, "kit {id}");
    }
}

/// Goods leave a store in whole units while a meal or a drink fills a need by part of one: the
/// beaver keeps the rest for its next, so over days it uses the catalogue's daily amounts (before
/// rules revision 5 the part of the last unit a full need could not take was lost: 2.41-2.58
/// water and 2.92-2.96 food a beaver-day on Hard colonies).
#[test]
fn beavers_drink_and_eat_the_catalogues_daily_amounts() {
    let mut w = stocked_game(700, 800);
    // The founders start full; from day 2 they eat and drink on their own rhythm.
    w.advance_ticks(ticks_per_day());
    let before = [consumed(&w, "Water"), consumed(&w, "Berries")];
    let mut beaver_hours = 0usize;
    let days = 16;
    for _ in 0..days * 24 {
        w.advance_ticks(hour());
        beaver_hours += w.beavers(false).iter().filter(|b| !b.is_bot).count();
    }
    let beaver_days = beaver_hours as f64 / hours_per_day();
    assert!(beaver_days > 150.0, "the founders lived: {beaver_days}");
    let mode = world_rules().mode(GameMode::Normal);
    let c = &colony_rules().consumption;
    for (i, (good, per_day, factor, key)) in [
        (
            "Water",
            &c.water_per_beaver_per_day,
            mode.water_consumption,
            "waterPerBeaverPerDay",
        ),
        (
            "Berries",
            &c.food_per_beaver_per_day,
            mode.food_consumption,
            "foodPerBeaverPerDay",
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let rate = (consumed(&w, good) - before[i]) / beaver_days;
        let expected = per_day.value * factor;
        // The needs' levels and the kept parts of a unit at the window's two ends differ by a
        // unit or two a beaver: 3% over 16 days; the waste this guards against was 10-20%.
        assert!(
            (rate - expected).abs() <= 0.03 * expected,
            "{good}: {rate:.3} a beaver-day against {expected}"
        );
        report(
            &format!("{good} used (units a beaver-day, {beaver_days:.0} beaver-days, Normal)"),
            format!("{rate:.3}"),
            format!("{key} {} x {factor}", per_day.value),
            &provenance(per_day),
        );
    }
}
