//! Work: a staffed pump's and inventor's recipe output per working hour, and construction
//! using the building's cost and the builder-hours per material unit.

use std::collections::{BTreeMap, BTreeSet};

use sim::catalog::world_rules;
use sim::colony::BeaverView;
use sim::colony::rules::{colony_rules, tier_bonus};
use sim::content::content;
use sim::{NewGame, Setup, World, ticks_per_day};

use super::placing::{all_goods, dc_door, place_near, place_pump};
use super::{content_provenance, game, hour, produced, provenance, report};

/// Science earned since the game began.
fn science_earned(w: &World) -> f64 {
    let h = w.history();
    h.rows.iter().map(|r| r.science_earned).sum::<f64>() + h.counters.science_earned
}

/// A beaver's working speed from the catalogue: 1 plus the adult tier bonus of its wellbeing plus
/// the penalties of its unfavourable needs, within the bonus clamps (colony.json, needs.json).
pub(super) fn working_speed(b: &BeaverView) -> f64 {
    let w = &colony_rules().wellbeing;
    let penalty: f64 = b
        .needs
        .iter()
        .filter(|n| !n.favorable)
        .filter_map(|n| {
            let def = content().beaver_needs.iter().find(|d| d.id == n.id)?;
            def.penalties_while_unfavorable
                .as_ref()?
                .get("WorkingSpeed")
                .copied()
        })
        .sum();
    let clamp = &w._rest["bonusClamps"]["value"]["WorkingSpeed"];
    let (lo, hi) = (clamp[0].as_f64().unwrap(), clamp[1].as_f64().unwrap());
    (1.0 + tier_bonus(&w.adult_tiers.value.working_speed, b.wellbeing) + penalty).clamp(lo, hi)
}

/// Work-hours a workplace's workers put in: a tick's hours at the worker's working speed for
/// each tick it was seen `working` with the workplace able to run (work accrues tick by tick).
#[derive(Default)]
struct Shift {
    ticks: u32,
    hours: f64,
}

#[test]
fn a_staffed_pump_and_inventor_make_their_recipe_per_working_hour() {
    // Planks and logs for a second tank: room for a day's water, so the pump never stops with
    // its output full.
    let mut w = World::new(&NewGame {
        setup: Setup {
            goods: [("Log".to_owned(), 40), ("Plank".to_owned(), 40)].into(),
            ..Setup::default()
        },
        ..game(11)
    });
    let door = dc_door(&w);
    let near = (door.0 - 8, door.1 - 8, door.0 + 8, door.1 + 8);
    let pump = place_pump(&mut w, "WaterPump.Folktails");
    place_near(&mut w, "SmallTank.Folktails", near);
    place_near(&mut w, "SmallTank.Folktails", near);
    let inventor = place_near(&mut w, "Inventor.Folktails", near);
    // Build and staff them by 20:00 on day 2, then read from there to 20:00 on day 3: a whole
    // working day.
    let start_hour = u64::from(world_rules().time.new_game_start_hour.value);
    w.advance_ticks((24 - start_hour + 20) * hour());
    for id in [pump, inventor] {
        let b = w.building_view(id).unwrap();
        assert!(b.finished && b.assigned_workers == Some(1), "{b:?}");
    }
    let (water0, science0) = (produced(&w, "Water"), science_earned(&w));
    let mut shifts: BTreeMap<&str, Shift> = BTreeMap::new();
    for _ in 0..ticks_per_day() {
        w.tick();
        for b in w.beavers(true) {
            let place = match b.workplace.as_str() {
                "WaterPump" => "WaterPump",
                "Inventor" => "Inventor",
                _ => continue,
            };
            // (A tick the workplace is blocked makes nothing: it does not count.)
            let id = if place == "WaterPump" { pump } else { inventor };
            let blocked =
                w.building_view(id).unwrap().statuses.iter().any(|s| {
                    ["output full", "no water to pump", "lacks inputs"].contains(&s.as_str())
                });
            if b.activity == "working" && !blocked {
                let s = shifts.entry(place).or_default();
                s.ticks += 1;
                s.hours += working_speed(&b) / hour() as f64;
            }
        }
    }
    let made = [
        ("WaterPump", "Water", produced(&w, "Water") - water0),
        ("Inventor", "science", science_earned(&w) - science0),
    ];
    for (place, good, amount) in made {
        let s = &shifts[place];
        let prefab = &content().buildings[&format!("{place}.Folktails")];
        let recipe = &content().recipes[&prefab.recipes[0]];
        let per_cycle = match good {
            "science" => f64::from(recipe.science_points.unwrap()),
            _ => {
                recipe
                    .outputs
                    .iter()
                    .find(|o| o.good == good)
                    .unwrap()
                    .amount
            }
        };
        let expected = s.hours / recipe.cycle_hours * per_cycle;
        // A cycle's progress carries over from one work step to the next, so the window may
        // begin and end mid-cycle: at most one cycle's output either way.
        assert!(
            (amount - expected).abs() <= per_cycle + 1e-9,
            "{place}: {amount} {good} in {} worker-hours, expected {expected}",
            s.hours
        );
        report(
            &format!("{place} {good} per worker-hour (a working day)"),
            format!(
                "{:.2} ({amount} in {:.2} h at work, {:.2} speed-weighted h)",
                amount / s.hours,
                f64::from(s.ticks) / hour() as f64,
                s.hours
            ),
            format!(
                "{per_cycle} per {} h cycle = {:.2}",
                recipe.cycle_hours,
                per_cycle / recipe.cycle_hours
            ),
            &content_provenance(recipe.estimated.is_some()),
        );
    }
}

/// One construction site, read tick by tick from placement to finish.
struct Site {
    prefab: &'static str,
    /// Goods the colony lost (inventories and loads) between placing and finishing.
    used: BTreeMap<String, i64>,
    /// For each tick in which builders ended work steps on the site without finishing it: the
    /// speed-weighted builder-hours of those steps over the build progress they made.
    hours_per_progress: Vec<f64>,
    /// Speed-weighted builder-hours of every step ended until the site was finished, the
    /// longest step (hours) and the builders who took part.
    spent: f64,
    top_step: f64,
    builders: BTreeSet<i32>,
    /// cost x buildHoursPerMaterialUnit (at least minBuildHours).
    needed: f64,
}

fn build_one(w: &mut World, prefab: &'static str, near: (i64, i64, i64, i64)) -> Site {
    let r = colony_rules();
    let spec = &content().buildings[prefab];
    let units: f64 = spec.cost.iter().map(|c| c.amount).sum();
    let before = all_goods(w);
    let id = place_near(w, prefab, near);
    let mut site = Site {
        prefab,
        used: BTreeMap::new(),
        hours_per_progress: Vec::new(),
        spent: 0.0,
        top_step: 0.0,
        builders: BTreeSet::new(),
        needed: (units * r.construction.build_hours_per_material_unit.value)
            .max(r.colony.min_build_hours.value),
    };
    // Each builder's speed on the last tick it was seen building (a step's work is scaled by
    // the speed when it ends, which is the speed read after the tick before) and the ticks it
    // has been building in its current step (a step's work is its time, whole ticks).
    let mut building: BTreeMap<i32, (f64, u64)> = BTreeMap::new();
    for tick in 0.. {
        assert!(tick < 2 * ticks_per_day(), "{prefab} unfinished");
        let progress = w.building_view(id).unwrap().build_progress;
        w.tick();
        // Only this site is under construction: every builder works on it.
        let mut ended = 0.0;
        for b in w.beavers(true) {
            let was = building.remove(&b.id);
            if b.activity == "building" {
                let ticks = was.map_or(0, |(_, t)| t) + 1;
                building.insert(b.id, (working_speed(&b), ticks));
                site.builders.insert(b.id);
            } else if let Some((speed, ticks)) = was {
                let step = ticks as f64 / hour() as f64;
                ended += step * speed;
                site.top_step = site.top_step.max(step);
            }
        }
        site.spent += ended;
        let v = w.building_view(id).unwrap();
        if v.finished {
            break;
        }
        if ended > 0.0 && v.build_progress > progress {
            site.hours_per_progress
                .push(ended / (v.build_progress - progress));
        }
    }
    let after = all_goods(w);
    site.used = before
        .iter()
        .map(|(g, n)| (g.clone(), n - after.get(g).copied().unwrap_or(0)))
        .filter(|(_, n)| *n != 0)
        .collect();
    site
}

fn cost_of(prefab: &str) -> BTreeMap<String, i64> {
    content().buildings[prefab]
        .cost
        .iter()
        .map(|c| (c.good.clone(), c.amount as i64))
        .collect()
}

fn show_goods(m: &BTreeMap<String, i64>) -> String {
    m.iter()
        .map(|(g, n)| format!("{n} {g}"))
        .collect::<Vec<_>>()
        .join(" + ")
}

#[test]
fn construction_uses_the_cost_and_the_builder_hours_per_unit() {
    let mut w = World::new(&NewGame {
        setup: Setup {
            goods: BTreeMap::from([("Log".to_owned(), 20)]),
            ..Setup::default()
        },
        ..game(11)
    });
    let door = dc_door(&w);
    let near = (door.0 - 8, door.1 - 8, door.0 + 8, door.1 + 8);
    // One site at a time, so every builder works on the site measured.
    let sites: Vec<Site> = [
        "Lodge.Folktails",
        "SmallTank.Folktails",
        "EfficientFarmHouse.Folktails",
    ]
    .into_iter()
    .map(|p| build_one(&mut w, p, near))
    .collect();
    let join = |f: &dyn Fn(&Site) -> String| sites.iter().map(f).collect::<Vec<_>>().join(", ");
    let estimated = sites
        .iter()
        .any(|s| content().buildings[s.prefab].estimated.contains_key("cost"));
    report(
        "building cost (goods used up by a finished site)",
        join(&|s| format!("{} {}", s.prefab, show_goods(&s.used))),
        join(&|s| format!("{} {}", s.prefab, show_goods(&cost_of(s.prefab)))),
        &content_provenance(estimated),
    );
    let per_unit = &colony_rules().construction.build_hours_per_material_unit;
    let data = format!(
        "cost x buildHoursPerMaterialUnit {}: {}",
        per_unit.value,
        join(&|s| format!("{} {}", s.prefab, s.needed))
    );
    report(
        "builder-hours a site needs (speed-weighted hours per whole build progress)",
        join(&|s| {
            let m = s.hours_per_progress.iter().sum::<f64>() / s.hours_per_progress.len() as f64;
            format!("{} {m:.2}", s.prefab)
        }),
        &data,
        &provenance(per_unit),
    );
    report(
        "builder-hours spent to finish a site (speed-weighted)",
        join(&|s| {
            format!(
                "{} {:.2} ({} builders, steps up to {:.2} h)",
                s.prefab,
                s.spent,
                s.builders.len(),
                s.top_step
            )
        }),
        &data,
        &provenance(per_unit),
    );
    for s in &sites {
        // Nothing else in the colony makes or uses these goods: what is gone is the cost.
        assert_eq!(s.used, cost_of(s.prefab), "{}", s.prefab);
        // A step's work is credited whole when it ends (only the last may be cut to what is
        // left), so hours over progress give the hours the site needs, up to rounding.
        assert!(!s.hours_per_progress.is_empty(), "{}", s.prefab);
        for h in &s.hours_per_progress {
            assert!(
                (h - s.needed).abs() < 1e-6 * s.needed,
                "{}: {h} builder-hours per whole progress, {} needed",
                s.prefab,
                s.needed
            );
        }
        // Builders take on only the builder-hours the site still needs (what the delivered
        // materials allow, less what other builders are already working): nothing runs past the
        // finish, so the hours spent are the hours needed (up to a speed change mid-step).
        assert!(
            s.spent >= s.needed - 1e-9 && s.spent <= s.needed * 1.02 + 1e-9,
            "{}: {} builder-hours spent by {} builders, {} needed",
            s.prefab,
            s.spent,
            s.builders.len(),
            s.needed
        );
    }
}
