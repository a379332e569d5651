//! Issue 38: one seeded game, played through the world's commands (those the service's routes
//! call) act by act, fires every event the game advertises: the names it saw equal
//! [`names::ALL`]. Each act drives one part of the game and drains the events into the tour's
//! set; where waiting for the game is what an act is about, it waits hour by hour for its event
//! with a bound. Buildings that are not about construction are finished at once
//! (`testutil::build`), and goods are put where a test of that system puts them.

use std::collections::BTreeSet;

use crate::colony::building::spec;
use crate::config::{NewGame, Setup};
use crate::event::names;
use crate::testutil::{HOUR, build, connect, flat_area, flat_area_at};
use crate::world::World;

/// One act of the tour: it plays a part of the game, draining the events into the seen set.
type Act = fn(&mut Tour);

/// The game being played and the event names it has fired so far.
struct Tour {
    w: World,
    seen: BTreeSet<&'static str>,
}

impl Tour {
    /// Drains the world's events into the seen set.
    fn take(&mut self) {
        self.seen
            .extend(self.w.take_events().into_iter().map(|e| e.name));
    }

    /// Plays `hours` hours, draining the events.
    fn play_hours(&mut self, hours: u64) {
        for _ in 0..hours {
            self.w.advance_ticks(HOUR);
            self.take();
        }
    }

    /// Plays hour by hour until `done` holds, at most `hours` hours; panics naming `what` if it
    /// never does.
    fn play_until(&mut self, hours: u64, what: &str, done: impl Fn(&Tour) -> bool) {
        for _ in 0..hours {
            if done(self) {
                return;
            }
            self.play_hours(1);
        }
        assert!(done(self), "{what} within {hours} hours");
    }

    /// Plays until the event `name` has been seen.
    fn play_until_seen(&mut self, hours: u64, name: &'static str) {
        self.play_until(hours, name, |t| t.seen.contains(name));
    }

    /// The doorstep of the first district center.
    fn center_door(&self) -> [u32; 3] {
        let dc = self.w.colony.centers()[0];
        self.w.colony.door(dc).unwrap()
    }

    /// The colony's first adult beaver (not a bot), as `ailments`' tests pick one.
    fn an_adult(&self) -> i32 {
        *self
            .w
            .colony
            .beavers
            .iter()
            .find(|(_, b)| !b.child && !b.is_bot)
            .map(|(id, _)| id)
            .expect("an adult")
    }

    /// Stands a beaver or bot still on a voxel, its plan dropped.
    fn stand(&mut self, id: i32, at: [u32; 3]) {
        let now = self.w.ticks;
        let b = self.w.colony.beavers.get_mut(&id).unwrap();
        (b.from, b.to, b.depart, b.arrive) = (at, at, now, now);
        b.plan.clear();
        b.step_until = 0;
    }
}

/// A new game: its founding (the district center, the starting beavers, the first cycle).
fn act_new_game(t: &mut Tour) {
    t.take();
    // No hazard until the weather act brings one.
    t.w.weather.temperate_days = 100;
}

/// The speed and the working hours (`POST /api/speed`, `POST /api/workhours`).
fn act_time_controls(t: &mut Tour) {
    t.w.set_speed(3).unwrap();
    t.w.set_speed(1).unwrap();
    let hours = t.w.end_hours();
    t.w.set_end_hours(hours - 2).unwrap();
    t.take();
}

/// Science spent on an unlock, and a beaver renamed.
fn act_science_and_names(t: &mut Tour) {
    let prefab = "Herbalist.Folktails";
    t.w.add_science(spec(prefab).science_cost);
    t.w.unlock(prefab).unwrap();
    let beaver = t.an_adult();
    t.w.rename_entity(beaver, "Tour Guide").unwrap();
    t.take();
}

/// Three lodges placed as sites beside a path from the district center, built by the builders
/// from the center's logs.
fn act_construction(t: &mut Tour) {
    let z = t.center_door()[2] as u8;
    let (x, y, z) = flat_area_at(&mut t.w, 9, 2, Some(z));
    let mut sites = Vec::new();
    for i in 0..3 {
        let id =
            t.w.place_building(
                "Lodge.Folktails",
                (x + 3 * i).into(),
                y.into(),
                z.into(),
                "south",
            )
            .unwrap();
        connect(&mut t.w, id);
        sites.push(id);
    }
    t.take();
    t.play_until(4 * 24, "the builders finish three lodges", |t| {
        sites.iter().all(|id| t.w.colony.buildings[id].finished)
    });
}

/// Trees marked for cutting and one cut, crops marked for planting and unmarked, a tree planted.
fn act_land(t: &mut Tour) {
    let tree = t.w.trees().into_iter().find(|p| p.alive).expect("a tree");
    let (x, y, z) = (i64::from(tree.x), i64::from(tree.y), i64::from(tree.z));
    t.w.set_cutting_area(x - 2, y - 2, x + 2, y + 2, z, true)
        .unwrap();
    t.w.cut_tree(tree.id).unwrap();
    let (x, y, z) = flat_area(&mut t.w, 4, 2);
    let (x, y, z) = (i64::from(x), i64::from(y), i64::from(z));
    let (marked, _) = t.w.mark_planting(x, y, x + 3, y, z, "Carrot").unwrap();
    assert!(marked > 0);
    t.w.clear_planting(x, y, x + 1, y, z).unwrap();
    t.w.plant(x, y + 1, "Birch").unwrap();
    t.take();
}

/// A finished building marked for demolition and unmarked, then demolished with a path.
fn act_demolition(t: &mut Tour) {
    let (x, y, z) = flat_area(&mut t.w, 3, 3);
    let pile = build(&mut t.w, "SmallPile.Folktails", x, y, z, "south");
    let path = build(&mut t.w, "Path", x + 2, y, z, "south");
    t.w.mark_demolition(pile, true).unwrap();
    t.w.mark_demolition(pile, false).unwrap();
    t.w.demolish_building(pile).unwrap();
    t.w.demolish_building(path).unwrap();
    t.take();
}

/// A second district center, and adults migrating to it.
fn act_districts(t: &mut Tour) {
    let (x, y, z) = flat_area(&mut t.w, 5, 5);
    build(
        &mut t.w,
        "DistrictCenter.Folktails",
        x + 1,
        y + 1,
        z,
        "south",
    );
    let ds = t.w.districts();
    assert_eq!(ds.len(), 2);
    let (from, to) = if ds[0].adults > 0 {
        (&ds[0], &ds[1])
    } else {
        (&ds[1], &ds[0])
    };
    let (from, to) = (from.name.clone(), to.name.clone());
    t.w.migrate(&from, &to, 1).unwrap();
    t.take();
}

/// A geothermal engine and an aquifer drill joined by a shaft (networks made and merged), and a
/// wind turbine whose output follows the wind.
fn act_power(t: &mut Tour) {
    let (x, y, z) = flat_area(&mut t.w, 10, 3);
    build(&mut t.w, "GeothermalEngine.Folktails", x, y, z, "south");
    build(&mut t.w, "AquiferDrill.Folktails", x + 4, y, z, "south");
    t.w.advance_ticks(1);
    t.take();
    build(&mut t.w, "PowerShaft.Folktails", x + 3, y, z, "south");
    let (x, y, z) = flat_area(&mut t.w, 3, 3);
    build(&mut t.w, "WindTurbine.Folktails", x, y, z, "south");
    t.w.advance_ticks(1);
    t.take();
}

/// A powered bot assembler given its parts makes a bot.
fn act_bot(t: &mut Tour) {
    let (x, y, z) = flat_area(&mut t.w, 6, 3);
    build(&mut t.w, "GeothermalEngine.Folktails", x, y, z, "south");
    let asm = build(&mut t.w, "BotAssembler.Folktails", x + 3, y, z, "south");
    assert!(t.w.is_powered(asm));
    let b = t.w.colony.buildings.get_mut(&asm).unwrap();
    b.add("BotChassis", 1);
    b.add("BotHead", 1);
    b.add("BotLimb", 4);
    for _ in 0..100 {
        t.w.work_done(asm, 1.0);
        t.take();
        if t.seen.contains(names::BOT_MANUFACTURED) {
            return;
        }
    }
    panic!("no bot in 100 work hours");
}

/// An idle herbalist (no workers, nothing to gather) raises building and colony alerts.
fn act_status_alerts(t: &mut Tour) {
    let (x, y, z) = flat_area(&mut t.w, 3, 3);
    build(&mut t.w, "Herbalist.Folktails", x, y, z, "south");
    t.play_until(4, "status alerts", |t| {
        t.seen.contains(names::STATUS_ALERT) && t.seen.contains(names::STATUS_DYNAMIC_ALERT)
    });
}

/// A badtide: badwater comes down the river and contaminates the soil beside it, and a beaver
/// standing in it is contaminated.
fn act_badtide(t: &mut Tour) {
    let today = t.w.day();
    // The hazard of this cycle is a badtide, from tomorrow's dawn for three days.
    t.w.weather.temperate_days = today - t.w.weather.start_day + 1;
    t.w.weather.hazard = crate::weather::HazardKind::Badtide;
    t.w.weather.hazardous_days = 3;
    let soil = |t: &Tour| {
        (0..t.w.map.height()).any(|y| (0..t.w.map.width()).any(|x| t.w.is_contaminated(x, y)))
    };
    t.play_until(4 * 24, "contaminated soil", soil);
    let (rx, ry) = (0..t.w.map.height())
        .flat_map(|y| (0..t.w.map.width()).map(move |x| (x, y)))
        .find(|&(x, y)| t.w.water_depth(x, y) >= 0.3 && t.w.badwater_share(x, y) > 0.5)
        .expect("badwater in the river");
    let z = u32::from(t.w.map.terrain_height(rx, ry));
    let beaver = t.an_adult();
    t.stand(beaver, [rx, ry, z]);
    // The ailments' hour with the beaver kept standing there, as `ailments`' own test does.
    for _ in 0..100 {
        if t.w.colony.beavers[&beaver].contaminated {
            break;
        }
        t.w.ailments_hour();
    }
    assert!(t.w.colony.beavers[&beaver].contaminated);
    t.take();
}

/// A wonder given its launch cost launches.
fn act_wonder(t: &mut Tour) {
    let prefab = "EarthRecultivator.Folktails";
    let (x, y, z) = flat_area(&mut t.w, 7, 8);
    let id = build(&mut t.w, prefab, x, y, z, "south");
    for (good, n) in crate::colony::wonder::launch_cost(spec(prefab)) {
        t.w.colony.buildings.get_mut(&id).unwrap().add(&good, n);
    }
    t.play_until_seen(2, names::WONDER_ACTIVATED);
}

/// Two zipline stations joined by a cable.
fn act_zipline(t: &mut Tour) {
    let gap = 12;
    let (x, y, z) = flat_area(&mut t.w, gap + 4, 6);
    let a = build(&mut t.w, "ZiplineStation.Folktails", x, y + 2, z, "south");
    let b = build(
        &mut t.w,
        "ZiplineStation.Folktails",
        x + gap,
        y + 2,
        z,
        "south",
    );
    assert!(t.w.zipline_connect(a, b).unwrap().usable);
    t.take();
}

/// Three more lodges, so that beds are to spare: once the adults outnumber twice the kits (the
/// founders' kits grow up), a kit is born in a lodge at bedtime.
fn act_births(t: &mut Tour) {
    let z = t.center_door()[2] as u8;
    let (x, y, z) = flat_area_at(&mut t.w, 9, 2, Some(z));
    for i in 0..3 {
        let lodge = build(&mut t.w, "Lodge.Folktails", x + 3 * i, y, z, "south");
        connect(&mut t.w, lodge);
    }
    t.play_until_seen(6 * 24, names::BEAVER_BORN_EVENT);
}

/// A whole weather cycle with a drought: the warning, the hazard, the cycle's end and the next
/// cycle's start, with the days, nights, working hours and wind between.
fn act_weather_cycle(t: &mut Tour) {
    let today = t.w.day();
    // The hazard begins the dawn after next (so its warning comes a day ahead) and lasts a day.
    t.w.weather.temperate_days = today - t.w.weather.start_day + 2;
    t.w.weather.hazardous_days = 1;
    let cycle = t.w.weather().cycle;
    t.play_until(4 * 24, "the next cycle", |t| t.w.weather().cycle > cycle);
}

/// Dynamite under a beaver and a bot: both die in the explosion, the terrain goes down.
fn act_dynamite(t: &mut Tour) {
    let (x, y, z) = flat_area(&mut t.w, 3, 3);
    let charge = build(
        &mut t.w,
        "TripleDynamite.Folktails",
        x + 1,
        y + 1,
        z,
        "south",
    );
    let beaver = t.an_adult();
    t.stand(beaver, [x + 1, y + 1, z]);
    let bots: Vec<i32> =
        t.w.colony
            .beavers
            .iter()
            .filter(|(_, b)| b.is_bot)
            .map(|(id, _)| *id)
            .collect();
    for bot in &bots {
        t.stand(*bot, [x + 1, y + 1, z]);
    }
    let d = t.w.detonate(charge).unwrap();
    assert_eq!(d.killed.len(), 1 + bots.len());
    t.take();
}

/// The colony left without water: every beaver dies of thirst, and the game is over.
fn act_game_over(t: &mut Tour) {
    let ids: Vec<i32> = t.w.colony.buildings.keys().copied().collect();
    for id in ids {
        t.w.colony
            .buildings
            .get_mut(&id)
            .unwrap()
            .take("Water", u32::MAX);
    }
    let faction = t.w.faction;
    for b in t.w.colony.beavers.values_mut() {
        b.set_need(faction, "Thirst", |_| -1e9);
    }
    t.play_until_seen(2, names::GAME_OVER);
}

/// Issue 38's done-when: every one of the advertised events fires in one scenario.
#[test]
fn every_event_fires_in_one_seeded_game() {
    let mut t = Tour {
        // Water and food for the whole tour (a scenario's start, as `POST /api/game/new` takes).
        w: World::new(&NewGame {
            seed: 1,
            setup: Setup {
                goods: [("Water", 500), ("Berries", 500)]
                    .map(|(g, n)| (g.to_owned(), n))
                    .into(),
                ..Setup::default()
            },
            ..NewGame::default()
        }),
        seen: BTreeSet::new(),
    };
    let acts: [(&str, Act); 17] = [
        ("new game", act_new_game),
        ("time controls", act_time_controls),
        ("science and names", act_science_and_names),
        ("construction", act_construction),
        ("land", act_land),
        ("demolition", act_demolition),
        ("districts", act_districts),
        ("power", act_power),
        ("bot", act_bot),
        ("status alerts", act_status_alerts),
        ("wonder", act_wonder),
        ("zipline", act_zipline),
        ("births", act_births),
        ("weather cycle", act_weather_cycle),
        ("badtide", act_badtide),
        ("dynamite", act_dynamite),
        ("game over", act_game_over),
    ];
    for (name, act) in acts {
        let before = t.seen.clone();
        act(&mut t);
        // (Shown when the test fails: which act fired what first.)
        let new: Vec<&&str> = t.seen.difference(&before).collect();
        eprintln!("{name} (to day {}): {new:?}", t.w.day());
    }
    let all: BTreeSet<&str> = names::ALL.iter().copied().collect();
    let missing: Vec<&&str> = all.difference(&t.seen).collect();
    let unlisted: Vec<&&str> = t.seen.difference(&all).collect();
    assert!(
        missing.is_empty() && unlisted.is_empty(),
        "never fired: {missing:?}; fired but not in names::ALL: {unlisted:?}"
    );
}
