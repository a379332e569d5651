//! Path routing end to end: `POST /api/path/place` on the real colonyd, from the district
//! center's doorstep, with its answer shape, its events, reuse, locked stairs and bad input.

use crate::support::{Server, code, frame_where};
use serde_json::{Value, json};

/// A tile and level.
type Voxel = (i64, i64, i64);
/// Corners `(x1, y1, x2, y2)` of a footprint.
type Rect = (i64, i64, i64, i64);

/// The district center of the e2e world (seed 7, 64x64), from the same seeded simulation: its
/// doorstep and its footprint.
fn district_center() -> (Voxel, Rect) {
    let w = sim::World::new(&sim::NewGame {
        seed: 7,
        map_width: 64,
        map_height: 64,
        ..Default::default()
    });
    let dc = w
        .buildings()
        .into_iter()
        .find(|b| b.name.starts_with("DistrictCenter"))
        .expect("a new game has a district center");
    let spec = &sim::content::content().buildings[dc.name];
    let o = sim::colony::Orientation::parse(dc.orientation).unwrap();
    let (x, y) =
        sim::colony::geometry::doorstep(spec, dc.x.into(), dc.y.into(), o).expect("a door");
    let (sx, sy) = sim::colony::geometry::turned_size(spec, o);
    let (bx, by) = (i64::from(dc.x), i64::from(dc.y));
    (
        (x, y, dc.z.into()),
        (bx, by, bx + i64::from(sx) - 1, by + i64::from(sy) - 1),
    )
}

fn int(v: &Value) -> i64 {
    v.as_i64().unwrap_or_else(|| panic!("not an integer: {v}"))
}

#[tokio::test]
async fn a_path_from_the_district_center_is_routed_placed_and_reused() {
    let s = Server::start().await;
    let ((dx, dy, dz), (fx1, fy1, fx2, fy2)) = district_center();
    let (_, t) = s
        .get(&format!(
            "/api/tiles?x1={}&y1={}&x2={}&y2={}&format=json",
            dx - 24,
            dy - 24,
            dx + 24,
            dy + 24
        ))
        .await;
    let tiles = t["tiles"].as_array().unwrap().clone();
    let at = |x: i64, y: i64| {
        tiles
            .iter()
            .find(|t| int(&t["x"]) == x && int(&t["y"]) == y)
    };
    let free = |t: &Value| {
        t.get("occupants").is_none()
            && t["water"].as_f64().unwrap() == 0.0
            && !((fx1..=fx2).contains(&int(&t["x"])) && (fy1..=fy2).contains(&int(&t["y"])))
    };
    let dist = |t: &Value| (int(&t["x"]) - dx).abs() + (int(&t["y"]) - dy).abs();
    // Candidate ends: free tiles on the doorstep's level, farthest first.
    let mut ends: Vec<&Value> = tiles
        .iter()
        .filter(|t| int(&t["terrain"]) == dz && free(t) && (3..=12).contains(&dist(t)))
        .collect();
    ends.sort_by_key(|t| (-dist(t), int(&t["y"]), int(&t["x"])));
    assert!(!ends.is_empty(), "free ground near the district center");

    let (mut ws, _) = s.ws().await;
    let mut routed = None;
    for end in ends {
        let (tx, ty) = (int(&end["x"]), int(&end["y"]));
        let body = json!({"x1": dx, "y1": dy, "x2": tx, "y2": ty, "timings": true});
        let (status, r) = s.post("/api/path/place", body).await;
        assert_eq!(status, 200, "{r}");
        assert!(
            r["skipped"].is_u64() && r["connectorEdgesInGrid"].is_u64(),
            "{r}"
        );
        assert!(r["errors"].is_array(), "{r}");
        let t = &r["timings"];
        for k in ["totalMs", "snapshotMs", "graphMs", "astarMs", "placementMs"] {
            assert!(t[k].as_f64().is_some_and(|v| v >= 0.0), "{k}: {r}");
        }
        for k in [
            "placementsAttempted",
            "graphNodes",
            "pathNodes",
            "exploredNodes",
        ] {
            assert!(t[k].is_u64(), "{k}: {r}");
        }
        if r["errors"] == json!([]) {
            routed = Some((tx, ty, r));
            break;
        }
        // No route: nothing placed, and why.
        assert_eq!(r["placed"], json!({"paths": 0}), "{r}");
        assert!(
            r["errors"][0]["error"]
                .as_str()
                .unwrap()
                .starts_with("no_route: "),
            "{r}"
        );
    }
    let (tx, ty, r) = routed.expect("a route to some free tile on the doorstep's level");
    let paths = int(&r["placed"]["paths"]);
    assert!(paths >= (tx - dx).abs() + (ty - dy).abs(), "{r}");
    assert!(r["placed"].get("stairs").is_none() && r["placed"].get("platforms").is_none());
    assert_eq!(r["skipped"], 0);
    assert!(r.get("stoppedAt").is_none());
    assert_eq!(int(&r["timings"]["placementsAttempted"]), paths);
    assert!(int(&r["timings"]["pathNodes"]) >= paths);
    assert!(int(&r["timings"]["graphNodes"]) > int(&r["timings"]["pathNodes"]));
    // The end's path was placed (events carry the block).
    let f = frame_where(&mut ws, 1000, |f| {
        f["payload"]["event"] == "building.placed"
            && f["payload"]["data"]["name"] == "Path"
            && f["payload"]["data"]["x"] == tx
            && f["payload"]["data"]["y"] == ty
    })
    .await;
    assert_eq!(f["payload"]["data"]["z"], dz);

    // Again: everything is reused, nothing placed; no timings unless asked.
    let (_, again) = s
        .post(
            "/api/path/place",
            json!({"x1": dx, "y1": dy, "x2": tx, "y2": ty}),
        )
        .await;
    assert_eq!(again["placed"], json!({"paths": 0}), "{again}");
    assert_eq!(again["errors"], json!([]));
    assert!(again.get("timings").is_none());

    // One level up needs stairs, which a new colony has not unlocked: placing stops before them.
    let up = tiles.iter().find(|t| {
        int(&t["terrain"]) == dz + 1
            && free(t)
            && [(0, 1), (1, 0), (0, -1), (-1, 0)].iter().any(|(ox, oy)| {
                at(int(&t["x"]) + ox, int(&t["y"]) + oy)
                    .is_some_and(|n| int(&n["terrain"]) == dz && free(n))
            })
    });
    {
        let up = up.expect("a free tile one level above the doorstep's level nearby");
        let (ux, uy) = (int(&up["x"]), int(&up["y"]));
        let (_, r) = s
            .post(
                "/api/path/place",
                json!({"x1": dx, "y1": dy, "x2": ux, "y2": uy}),
            )
            .await;
        let errors = r["errors"].as_array().unwrap();
        let locked = errors
            .iter()
            .find(|e| e["prefab"] == "Stairs.Folktails")
            .unwrap_or_else(|| panic!("a not_unlocked entry: {r}"));
        assert!(
            locked["error"]
                .as_str()
                .unwrap()
                .starts_with("not_unlocked: "),
            "{r}"
        );
        let stop = r["stoppedAt"].as_str().expect("stoppedAt");
        let (sx, sy) = stop.split_once(',').unwrap();
        assert!(
            sx.parse::<i64>().is_ok() && sy.parse::<i64>().is_ok(),
            "{stop}"
        );
        assert!(r["placed"].get("stairs").is_none());
    }
}

#[tokio::test]
async fn bad_path_requests_are_invalid_param() {
    let s = Server::start().await;
    for (body, what, got) in [
        (
            json!({"x1": 1, "y1": 1, "x2": 5, "y2": 5, "style": "zigzag"}),
            "direct or straight",
            json!("zigzag"),
        ),
        (
            json!({"x1": -1, "y1": 1, "x2": 5, "y2": 5}),
            "x1 = -1 is off the 64x64 map",
            json!(-1),
        ),
        (
            json!({"x1": 1, "y1": 1, "x2": 5, "y2": 99}),
            "y2 = 99",
            json!(99),
        ),
        (
            json!({"x1": 1, "y1": 1, "x2": 5}),
            "missing required field y2",
            Value::Null,
        ),
        (
            json!({"x1": 1, "y1": 1, "x2": 5, "y2": 5, "sections": -1}),
            "sections",
            json!(-1),
        ),
        (
            json!({"x1": 1, "y1": 1, "x2": 5, "y2": 5, "timings": "yes"}),
            "timings",
            json!("yes"),
        ),
    ] {
        let (status, r) = s.post("/api/path/place", body.clone()).await;
        assert_eq!(status, 200, "{body}: {r}");
        assert_eq!(code(&r), "invalid_param", "{body}: {r}");
        assert!(r["error"].as_str().unwrap().contains(what), "{body}: {r}");
        assert_eq!(r["got"], got, "{body}: {r}");
    }
}
