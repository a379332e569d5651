//! Colony routes end to end: the summary, buildings (list, place, find placements, demolish and
//! every action), beavers, population, resources, districts, distribution, migration,
//! wellbeing, alerts and notifications, in both formats and with their error cases; each write
//! is checked in the next read.
//!
//! By module: `summary`, `building_list`, `placement` (find, place, demolish), `building_actions`,
//! `districts` (with resources, distribution and migration), `beavers_wellbeing` (with alerts
//! and notifications); the helpers they share are here.

use crate::support::Server;
use serde_json::{Value, json};

mod beavers_wellbeing;
mod building_actions;
mod building_list;
mod demolish_mark;
mod districts;
mod dynamite;
mod naming;
mod placement;
mod summary;
mod zipline;

/// The district center's doorstep.
async fn dc_door(s: &Server) -> (i64, i64) {
    let (_, summary) = s.get("/api/summary?format=json").await;
    let dc = &summary["districts"][0]["dc"];
    (
        dc["entranceX"].as_i64().unwrap(),
        dc["entranceY"].as_i64().unwrap(),
    )
}

/// The area within 12 tiles of the district center's doorstep (clamped to the map by the
/// routes).
pub(crate) async fn near_dc(s: &Server) -> (i64, i64, i64, i64) {
    let (ex, ey) = dc_door(s).await;
    (ex - 12, ey - 12, ex + 12, ey + 12)
}

/// Whether every row of an array has the same keys, all with scalar values.
fn flat_and_uniform(rows: &Value) -> bool {
    let rows = rows.as_array().expect("an array of rows");
    let Some(first) = rows.first() else {
        return true;
    };
    let keys: Vec<&String> = first.as_object().unwrap().keys().collect();
    rows.iter().all(|r| {
        let r = r.as_object().unwrap();
        r.keys().collect::<Vec<_>>() == keys && r.values().all(|v| !v.is_object() && !v.is_array())
    })
}

fn keys(v: &Value) -> Vec<&str> {
    v.as_object().unwrap().keys().map(String::as_str).collect()
}

/// Finds spots for a prefab near the district center and places it at the best one; returns
/// the place answer.
pub(crate) async fn place_best(s: &Server, prefab: &str) -> Value {
    let (x1, y1, x2, y2) = near_dc(s).await;
    let (_, spots) = s
        .post(
            "/api/placement/find",
            json!({"prefab": prefab, "x1": x1, "y1": y1, "x2": x2, "y2": y2}),
        )
        .await;
    let p = &spots[0];
    let (_, placed) = s
        .post(
            "/api/building/place",
            json!({"prefab": prefab, "x": p["x"], "y": p["y"], "z": p["z"],
                   "orientation": p["orientation"]}),
        )
        .await;
    assert!(placed["id"].is_i64(), "{prefab}: {placed}");
    placed
}

/// Lays a street of six paths out of the district center's door.
pub(crate) async fn lay_street(s: &Server) {
    let (ex, ey) = dc_door(s).await;
    let (_, street) = s
        .post(
            "/api/path/place",
            json!({"x1": ex, "y1": ey, "x2": ex, "y2": ey - 6}),
        )
        .await;
    assert!(street["placed"]["paths"].as_u64().unwrap() >= 5, "{street}");
}

/// Posts a body that must be refused with `code`; returns the error body.
async fn refused(s: &Server, path: &str, body: Value, code: &str) -> Value {
    let (_, answer) = s.post(path, body.clone()).await;
    assert_eq!(
        crate::support::code(&answer),
        code,
        "{path} {body}: {answer}"
    );
    answer
}

async fn building(s: &Server, id: &Value) -> Value {
    s.get_one(&format!("/api/buildings?id={id}&format=json"))
        .await
        .1
}
