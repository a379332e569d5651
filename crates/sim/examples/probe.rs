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
    let (dx, dy, dz) = (dc.entrance_x.unwrap(), dc.entrance_y.unwrap(), dc.z);
    println!("door {:?}", (dx, dy, dz));
    println!("food {:?}", w.food_clusters_near(dx, dy, dz, 40));
    println!("trees {:?}", w.tree_clusters_near(dx, dy, dz, 40));
    let g: Vec<_> = w
        .gatherables()
        .into_iter()
        .filter(|g| g.alive)
        .take(5)
        .collect();
    println!("bushes {:?}", g);
    let t: Vec<_> = w.trees().into_iter().filter(|g| g.alive).take(5).collect();
    println!("trees {:?}", t);
}
