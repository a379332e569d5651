use sim::{NewGame, RiverAxis, World};

#[test]
#[ignore]
fn probe() {
    let mut w = World::new(&NewGame {
        seed: 5,
        ..NewGame::default()
    });
    let m = w.map().clone();
    let r = m.river().clone();
    println!("axis {:?} sources {:?}", r.axis, w.water_sources());
    let t0 = std::time::Instant::now();
    for day in 0..12 {
        let mut line = String::new();
        for t in (0..r.spans.len()).step_by(8) {
            let [lo, hi] = r.spans[t];
            let mid = (lo + hi) / 2;
            let (x, y) = match r.axis {
                RiverAxis::AlongX => (t as u32, mid),
                RiverAxis::AlongY => (mid, t as u32),
            };
            line += &format!(
                "{:.2}/{:.2} ",
                w.water_depth(x, y) + m.terrain_height(x, y) as f32,
                w.water_flow(x, y).speed
            );
        }
        let moist = (0..m.height())
            .flat_map(|y| (0..m.width()).map(move |x| (x, y)))
            .filter(|(x, y)| w.is_moist(*x, *y))
            .count();
        let wt = w.water_totals();
        println!(
            "day {day} {:?} trees {} moist {moist} stored {:.0} tot {:?}\n  {line}",
            w.weather().hazard,
            w.trees().len(),
            w.water_stored(),
            wt
        );
        w.advance_ticks(768);
    }
    println!("{:?}", t0.elapsed());
}
