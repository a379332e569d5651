//! Benchmarks of power and automation: the per-tick power step (generators, demand, batteries,
//! events) for a colony with ~200 finished power buildings (201 in 51 networks on this map), the
//! same step when the network shape must be rebuilt (a clutch moved), the `GET /api/power` read
//! model; the automation step with 100 parts (sensors, counters, a meter, chronometers, levers,
//! relays, memory cells, linked in chains that drive clutches and workshops); and a whole game
//! tick of that colony for scale.
//!
//! The colony is placed through the public commands; the sites are finished at once
//! (`colony::fixtures::finish_all`), so no builder or hauler is involved.
//!
//! Run: `cargo bench -p colony-sim --bench power`.

use divan::Bencher;
use sim::{NewGame, World};

const DAY: u64 = 768;

fn main() {
    divan::main();
}

/// A chain placed left to right on each row: generator, shafts, battery, clutch, consumers.
const CHAIN: &[(&str, u32)] = &[
    ("WindTurbine.Folktails", 3),
    ("PowerShaft.Folktails", 1),
    ("GravityBattery.Folktails", 1),
    ("Clutch.Folktails", 1),
    ("LumberMill.Folktails", 3),
    ("PowerShaft.Folktails", 1),
    ("GearWorkshop.Folktails", 3),
    ("PowerShaft.Folktails", 1),
    ("LumberMill.Folktails", 3),
    ("PowerShaft.Folktails", 1),
];

/// A 128x128 game with `target` finished power buildings (water wheels in the river, chains of
/// turbines, shafts, batteries, clutches and consumers on land).
fn powered_world(target: usize) -> World {
    let mut w = World::new(&NewGame::default());
    w.advance_ticks(2 * DAY);
    w.add_science(1_000_000);
    for (p, _) in CHAIN {
        let _ = w.unlock(p);
    }
    let mut placed = 0usize;
    let (width, height) = (w.map().width(), w.map().height());
    // Water wheels where the river lets them stand.
    'wheels: for y in (0..height).step_by(6) {
        for x in 0..width {
            if w.water_depth(x, y) < 0.5 {
                continue;
            }
            let z = w.map().terrain_height(x, y);
            if w.place_building(
                "WaterWheel.Folktails",
                x.into(),
                y.into(),
                z.into(),
                "south",
            )
            .is_ok()
            {
                placed += 1;
                if placed >= target / 10 {
                    break 'wheels;
                }
                break;
            }
        }
    }
    'rows: for y in (2..height - 3).step_by(4) {
        let mut x = 2;
        let mut i = 0;
        while x < width - 4 {
            if placed >= target {
                break 'rows;
            }
            let (p, wide) = CHAIN[i % CHAIN.len()];
            let z = w.map().terrain_height(x, y);
            if w.place_building(p, x.into(), y.into(), z.into(), "south")
                .is_ok()
            {
                placed += 1;
                x += wide;
                i += 1;
            } else {
                x += 1;
                i = 0;
            }
        }
    }
    assert!(placed >= target, "placed {placed}");
    sim::colony::fixtures::finish_all(&mut w);
    w.advance_ticks(1);
    w
}

/// The automation parts of the bench, cycled: (prefab, is a sensor standing in water).
const PARTS: &[&str] = &[
    "Lever.Folktails",
    "Chronometer.Folktails",
    "Relay.Folktails",
    "PopulationCounter.Folktails",
    "ResourceCounter.Folktails",
    "Memory.Folktails",
    "Relay.Folktails",
    "PowerMeter.Folktails",
    "Relay.Folktails",
    "Lever.Folktails",
];

/// `powered_world(200)` plus `n` automation parts, each fed by the one placed before it (relays
/// in Or mode take two), with every tenth driving a clutch or a workshop of the power chains.
fn automated_world(n: usize) -> World {
    let mut w = powered_world(200);
    w.add_science(1_000_000);
    for p in PARTS.iter().chain(["DepthSensor.Folktails"].iter()) {
        let _ = w.unlock(p);
    }
    let targets: Vec<i32> = w
        .power_networks()
        .iter()
        .flat_map(|n| n.buildings.clone())
        .filter(|b| b.name.starts_with("Clutch") || b.name.starts_with("LumberMill"))
        .map(|b| b.id)
        .collect();
    let (width, height) = (w.map().width(), w.map().height());
    let mut placed: Vec<i32> = Vec::new();
    // Depth sensors in the river first.
    'water: for y in (1..height).step_by(5) {
        for x in 0..width {
            if w.water_depth(x, y) > 0.3 {
                let z = w.map().terrain_height(x, y);
                if let Ok(id) = w.place_building(
                    "DepthSensor.Folktails",
                    x.into(),
                    y.into(),
                    z.into(),
                    "south",
                ) {
                    placed.push(id);
                    if placed.len() >= n / 10 {
                        break 'water;
                    }
                    break;
                }
            }
        }
    }
    'land: for y in (1..height - 1).step_by(2) {
        for x in 1..width - 1 {
            if placed.len() >= n {
                break 'land;
            }
            let p = PARTS[placed.len() % PARTS.len()];
            let z = w.map().terrain_height(x, y);
            if let Ok(id) = w.place_building(p, x.into(), y.into(), z.into(), "south") {
                placed.push(id);
            }
        }
    }
    assert!(placed.len() >= n, "placed {}", placed.len());
    sim::colony::fixtures::finish_all(&mut w);
    for (i, id) in placed.iter().enumerate() {
        let name = &w.building_view(*id).unwrap().name;
        if name.starts_with("Relay") {
            w.automation_configure(*id, "mode", "Or").unwrap();
        }
        if name.starts_with("ResourceCounter") {
            w.automation_configure(*id, "goodId", "Log").unwrap();
        }
        if i > 0 && (name.starts_with("Relay") || name.starts_with("Memory")) {
            w.automation_link(placed[i - 1], *id, Some("a")).unwrap();
            if name.starts_with("Relay") && i > 1 {
                w.automation_link(placed[i - 2], *id, Some("b")).unwrap();
            }
        }
        if i % 10 == 9 && !targets.is_empty() {
            let t = targets[(i / 10) % targets.len()];
            let src = if name.starts_with("Indicator") {
                placed[i - 1]
            } else {
                *id
            };
            w.automation_link(src, t, None).unwrap();
        }
    }
    w.advance_ticks(1);
    w
}

/// The automation step alone, each sample on a world whose power step has run (as in `tick`),
/// so power meters read fresh networks even when the previous step moved a clutch.
#[divan::bench(sample_count = 100)]
fn automation_tick_100(bencher: Bencher) {
    let mut w = automated_world(100);
    bencher
        .with_inputs(|| {
            w.bench_power_tick();
            w.bench_automation_tick();
            let mut c = w.clone();
            c.bench_power_tick();
            c
        })
        .bench_local_values(|mut c| {
            c.bench_automation_tick();
            c
        });
}

#[divan::bench(sample_count = 100)]
fn power_and_automation_tick_200_100(bencher: Bencher) {
    let mut w = automated_world(100);
    bencher.bench_local(move || {
        w.bench_power_tick();
        w.bench_automation_tick();
    });
}

#[divan::bench(sample_count = 20)]
fn whole_tick_200_100(bencher: Bencher) {
    let mut w = automated_world(100);
    bencher.bench_local(move || w.advance_ticks(1));
}

fn counts(w: &World) -> (usize, usize) {
    let nets = w.power_networks();
    let buildings = nets.iter().map(|n| n.buildings.len()).sum();
    (nets.len(), buildings)
}

#[divan::bench(sample_count = 100)]
fn power_tick_200(bencher: Bencher) {
    let mut w = powered_world(200);
    let (nets, buildings) = counts(&w);
    assert!(
        buildings >= 200,
        "{buildings} power buildings in {nets} networks"
    );
    bencher.bench_local(move || w.bench_power_tick());
}

#[divan::bench(sample_count = 50)]
fn power_tick_200_rebuild(bencher: Bencher) {
    let mut w = powered_world(200);
    let clutch = w
        .power_networks()
        .iter()
        .flat_map(|n| n.buildings.clone())
        .find(|b| b.name.starts_with("Clutch"))
        .map(|b| b.id)
        .expect("a clutch");
    let mut engaged = true;
    bencher.bench_local(move || {
        engaged = !engaged;
        w.set_clutch(clutch, engaged).unwrap();
        w.bench_power_tick();
    });
}

#[divan::bench(sample_count = 50)]
fn power_networks_view_200(bencher: Bencher) {
    let w = powered_world(200);
    bencher.bench_local(|| w.power_networks());
}

#[divan::bench(sample_count = 20)]
fn whole_tick_200(bencher: Bencher) {
    let mut w = powered_world(200);
    bencher.bench_local(move || w.advance_ticks(1));
}
