use sim::{NewGame, World};
fn main() {
    let w = World::new(&NewGame {
        seed: 11,
        ..NewGame::default()
    });
    let dc = w
        .buildings()
        .into_iter()
        .find(|b| b.name.starts_with("District"))
        .unwrap();
    println!(
        "dc {:?} entrance {:?}",
        (dc.x, dc.y, dc.z),
        (dc.entrance_x, dc.entrance_y)
    );
    let (ex, ey) = (dc.entrance_x.unwrap() as i64, dc.entrance_y.unwrap() as i64);
    let (_, _, _, pumps) = w
        .clone()
        .find_placements("WaterPump.Folktails", ex - 20, ey - 12, ex + 20, ey + 12)
        .unwrap();
    for p in pumps.iter().take(4) {
        println!("{p:?}");
    }
    let (cx, cy) = (dc.x as i64, dc.y as i64);
    for y in (cy - 14..cy + 14).rev() {
        let mut line = String::new();
        for x in cx - 25..cx + 25 {
            if !w.map().contains(x, y) {
                line.push(' ');
                continue;
            }
            let t = w.tiles(x, y, x, y).unwrap();
            let tile = &t.tiles[0];
            let c = if tile.water > 0.1 {
                '~'
            } else if tile.entrance {
                '@'
            } else if !tile.occupants.is_empty() {
                tile.occupants[0].name.chars().next().unwrap()
            } else {
                char::from_digit(tile.terrain as u32 % 36, 36).unwrap()
            };
            line.push(c);
        }
        println!("{y:4} {line}");
    }
}
