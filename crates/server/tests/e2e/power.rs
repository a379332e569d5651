//! Power end to end: the networks in both formats, and the clutch route's errors.

use crate::support::{Server, code};
use serde_json::{Value, json};

#[tokio::test]
async fn power_networks_in_both_formats_and_clutch_errors() {
    let s = Server::start().await;
    // The district center passes power on: a new colony has one network, supply 0.
    let (status, nets) = s.get("/api/power?format=json").await;
    assert_eq!(status, 200);
    let nets = nets.as_array().unwrap();
    assert_eq!(nets.len(), 1, "{nets:?}");
    let net = &nets[0];
    assert_eq!(
        (&net["supply"], &net["demand"], &net["stored"]),
        (&json!(0.0), &json!(0.0), &json!(0.0))
    );
    let buildings = net["buildings"].as_array().unwrap();
    assert_eq!(buildings.len(), 1);
    let dc = &buildings[0];
    assert_eq!(dc["name"], "DistrictCenter.Folktails");
    assert_eq!(
        (
            &dc["isGenerator"],
            &dc["nominalOutput"],
            &dc["nominalInput"]
        ),
        (&json!(false), &json!(0), &json!(0))
    );
    assert_eq!(net["id"], dc["id"], "a network is named by its smallest id");
    let dc_id = dc["id"].as_i64().unwrap();

    // toon: flat rows, buildings as Name:id.
    let (_, rows) = s.get("/api/power").await;
    let rows = rows.as_array().unwrap();
    assert_eq!(
        rows[0],
        json!({"id": dc_id, "supply": 0.0, "demand": 0.0, "stored": 0.0, "capacity": 0.0,
               "buildings": format!("DistrictCenter.Folktails:{dc_id}")})
    );

    // Clutch errors: not a clutch, unknown ids, missing or mistyped fields.
    let (status, body) = s
        .post(
            "/api/building/clutch",
            json!({"id": dc_id, "engaged": false}),
        )
        .await;
    assert_eq!((status, code(&body)), (200, "invalid_type"), "{body}");
    assert_eq!(
        (&body["id"], &body["name"]),
        (&json!(dc_id), &json!("DistrictCenter.Folktails"))
    );
    for id in [Value::from(12345), Value::from(1i64 << 40)] {
        let (_, body) = s
            .post("/api/building/clutch", json!({"id": id, "engaged": true}))
            .await;
        assert_eq!(code(&body), "not_found", "{body}");
        assert_eq!(body["id"], id);
    }
    for bad in [
        json!({"id": dc_id}),
        json!({"engaged": true}),
        json!({"id": dc_id, "engaged": "yes"}),
        json!({"id": "dc", "engaged": true}),
    ] {
        let (_, body) = s.post("/api/building/clutch", bad.clone()).await;
        assert_eq!(code(&body), "invalid_param", "{bad}: {body}");
    }
    // Nothing changed.
    let (_, again) = s.get("/api/power?format=json").await;
    assert_eq!(again.as_array().unwrap().len(), 1);
    // Both routes are in the OpenAPI document.
    let (_, doc) = s.get("/api/openapi.json").await;
    assert!(doc["paths"]["/api/power"]["get"].is_object());
    assert!(doc["paths"]["/api/building/clutch"]["post"].is_object());
}

/// Writes a save of a 64x64 game prepared with the simulation's own commands (construction
/// sites finished at once, as no builder would in time) and loads it.
pub async fn load_prepared(s: &Server, name: &str, prepare: impl FnOnce(&mut sim::World)) {
    let mut w = sim::World::new(&sim::NewGame {
        seed: 7,
        map_width: 64,
        map_height: 64,
        ..sim::NewGame::default()
    });
    prepare(&mut w);
    sim::colony::fixtures::finish_all(&mut w);
    let dir = s.data_dir().join("saves");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(format!("{name}.colony.json")), w.save_to_bytes()).unwrap();
    let (_, r) = s.post("/api/game/load", json!({ "name": name })).await;
    assert_eq!(r["name"], name, "{r}");
    s.post("/api/ready", json!({"ready": true})).await;
}

/// Places a prefab at the first spot `find_placements` offers on the whole map.
pub fn place_somewhere(w: &mut sim::World, prefab: &str) -> i32 {
    let (_, _, _, spots) = w.find_placements(prefab, 0, 0, 63, 63).unwrap();
    let s = &spots[0];
    w.place_building(prefab, s.x.into(), s.y.into(), s.z.into(), s.orientation)
        .unwrap()
}

#[tokio::test]
async fn a_clutch_engages_and_disengages_end_to_end() {
    let s = Server::start().await;
    let mut clutch = 0;
    load_prepared(&s, "clutch", |w| {
        w.add_science(400);
        w.unlock("Clutch.Folktails").unwrap();
        clutch = place_somewhere(w, "Clutch.Folktails");
    })
    .await;
    let (_, nets) = s.get("/api/power?format=json").await;
    let net = nets
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["id"] == clutch)
        .expect("the clutch is a network");
    assert_eq!(net["buildings"][0]["name"], "Clutch.Folktails");
    let (_, b) = s
        .get_one(&format!("/api/buildings?id={clutch}&format=json"))
        .await;
    assert_eq!(
        (
            &b["isClutch"],
            &b["clutchEngaged"],
            &b["isGenerator"],
            &b["powerSupply"]
        ),
        (&json!(true), &json!(true), &json!(false), &json!(0)),
        "{b}"
    );
    for engaged in [false, false, true] {
        let (status, body) = s
            .post(
                "/api/building/clutch",
                json!({"id": clutch, "engaged": engaged}),
            )
            .await;
        assert_eq!(status, 200);
        assert_eq!(
            body,
            json!({"id": clutch, "name": "Clutch.Folktails", "engaged": engaged})
        );
        let (_, b) = s
            .get_one(&format!("/api/buildings?id={clutch}&format=json"))
            .await;
        assert_eq!(b["clutchEngaged"], engaged);
    }
}
