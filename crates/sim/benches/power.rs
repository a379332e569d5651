//! Benchmarks of power: the per-tick power step (generators, demand, batteries, events) for a
//! colony with ~200 finished power buildings (201 in 51 networks on this map), the same step when the
//! network shape must be rebuilt (a clutch moved), the `GET /api/power` read model, and a whole
//! game tick of that colony for scale.
//!
//! The colony is placed through the public commands; the sites are finished by editing the save
//! (`finished: true`) and loading it, so no builder or hauler is involved.
//!
//! Run: `cargo bench -p colony-sim --bench power`.

use divan::Bencher;
use serde_json::Value;
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
    ("AquiferDrill.Folktails", 3),
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
    // Finish every site through the save format.
    let mut save: Value = serde_json::from_slice(&w.save_to_bytes()).unwrap();
    for b in save["colony"]["buildings"]
        .as_object_mut()
        .unwrap()
        .values_mut()
    {
        b["finished"] = Value::Bool(true);
    }
    let mut w = World::load_from_bytes(&serde_json::to_vec(&save).unwrap()).unwrap();
    w.advance_ticks(1);
    w
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
