//! `build`, shared by the MCP tool and `colony build`: find a spot for a prefab near a point
//! (default: the district center's entrance) within a radius, place the best one, route a path
//! from its entrance to the nearest district center and, when asked, mark the trees of its work
//! range for cutting (`cut`), the moist free soil of its range for planting (`plant`) or the one
//! good a storage building takes (`good`). The answer is one JSON object; a step that fails
//! before the building stands is an error, a later one is reported in its member.

use super::answer;
use super::api::{Api, Failure};
use super::composite::centers;
use crate::http::Answer;
use protocol::error::ApiError;
use protocol::routes::Method;
use rmcp::model::CallToolResult;
use serde_json::{Map, Value, json};

/// Why `build` stopped before anything useful was done.
#[derive(Debug)]
pub enum Stop {
    /// The service's error answer (its HTTP status and error).
    Service(u16, ApiError),
    /// A failure of our own: bad arguments, no spot, an unreachable service.
    Own(Failure),
}

fn own(code: &'static str, message: impl Into<String>) -> Stop {
    Stop::Own(Failure::new(code, message))
}

/// The JSON of a successful answer, or why there is none.
fn ok(sent: Result<Answer, Failure>) -> Result<Value, Stop> {
    match sent {
        Ok(Answer::Ok(v)) => Ok(v),
        Ok(Answer::Error { status, error, .. }) => Err(Stop::Service(status, error)),
        Err(f) => Err(Stop::Own(f)),
    }
}

fn int(args: &Map<String, Value>, k: &str) -> Option<i64> {
    args.get(k).and_then(Value::as_i64)
}

fn body<const N: usize>(pairs: [(&str, Value); N]) -> Map<String, Value> {
    pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
}

/// The MCP tool: [`run`]'s answer as a tool result.
pub async fn tool(api: &Api, args: &Map<String, Value>) -> CallToolResult {
    match run(api, args).await {
        Ok(v) => answer::value(v),
        Err(Stop::Service(status, error)) => answer::service_error(status, &error),
        Err(Stop::Own(f)) => answer::failure(&f),
    }
}

/// Finds a spot, places the building, and joins it to the district (arguments as
/// [`schema`] lists them, already checked against it).
pub async fn run(api: &Api, args: &Map<String, Value>) -> Result<Value, Stop> {
    let prefab = args.get("prefab").and_then(Value::as_str).unwrap_or("");
    let radius = int(args, "radius").unwrap_or(10).clamp(1, 30);
    let want_path = args.get("path").and_then(Value::as_bool).unwrap_or(true);
    let orientation = args.get("orientation").and_then(Value::as_str);
    let summary = api
        .get_json("/api/summary", vec![])
        .await
        .map_err(Stop::Own)?;
    let dcs = centers(&summary);
    let (x, y) = match (int(args, "x"), int(args, "y")) {
        (Some(x), Some(y)) => (x, y),
        (None, None) => match dcs.first() {
            Some(&(_, _, ex, ey)) => (ex, ey),
            None => {
                return Err(own(
                    "invalid_param",
                    "no district center to build near: give x and y",
                ));
            }
        },
        _ => return Err(own("invalid_param", "give both x and y, or neither")),
    };
    let find = body([
        ("prefab", json!(prefab)),
        ("x1", json!((x - radius).max(0))),
        ("y1", json!((y - radius).max(0))),
        ("x2", json!(x + radius)),
        ("y2", json!(y + radius)),
    ]);
    let found = ok(api
        .send(Method::Post, "/api/placement/find", &find, true)
        .await)?;
    let spots: Vec<&Value> = found["placements"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| orientation.is_none_or(|o| p["orientation"].as_str() == Some(o)))
        .collect();
    if spots.is_empty() {
        // The service says what blocked when it found none (`reason`, `detail`).
        let why = match (found["reason"].as_str(), found["detail"].as_str()) {
            (Some(r), Some(d)) => format!(" ({r}: {d})"),
            _ => String::new(),
        };
        return Err(own(
            "placement",
            format!(
                "no valid spot for {prefab} within {radius} tiles of {x},{y}{}{why}: try another \
                 point, a larger radius (up to 30) or the map",
                orientation
                    .map(|o| format!(" facing {o}"))
                    .unwrap_or_default()
            ),
        ));
    }
    // The best spot whose entrance a path joins to the district: a spot whose path cannot be
    // completed (a crop or water on the way, stairs still locked, the doorstep walled in) is
    // given up, its site demolished, and the next one tried. The last one stays if none joins.
    let mut given_up = Vec::new();
    let mut chosen = None;
    for (i, spot) in spots.iter().enumerate() {
        let place: Map<String, Value> = ["x", "y", "z", "orientation"]
            .iter()
            .map(|k| ((*k).to_owned(), spot[*k].clone()))
            .chain([("prefab".to_owned(), json!(prefab))])
            .collect();
        let placed = ok(api
            .send(Method::Post, "/api/building/place", &place, true)
            .await)?;
        let path = match (
            want_path,
            spot["entranceX"].as_i64(),
            spot["entranceY"].as_i64(),
        ) {
            (false, _, _) => None,
            (true, Some(ex), Some(ey)) => Some(connect(api, &dcs, ex, ey).await),
            _ => Some("the spot has no entrance: nothing to connect".into()),
        };
        let broken = path.as_ref().is_some_and(|p| p.get("note").is_some());
        if broken && i + 1 < spots.len() {
            let demolish = body([("id", placed["id"].clone())]);
            if ok(api
                .send(Method::Post, "/api/building/demolish", &demolish, true)
                .await)
            .is_ok()
            {
                let mut why = json!({"x": spot["x"], "y": spot["y"]});
                why["error"] = path
                    .as_ref()
                    .and_then(|p| p["errors"].get(0))
                    .map(|e| e.get("error").unwrap_or(e).clone())
                    .unwrap_or(Value::Null);
                given_up.push(why);
                continue;
            }
        }
        chosen = Some((*spot, placed, path));
        break;
    }
    let Some((spot, placed, path)) = chosen else {
        return Err(own("internal_error", "no spot was kept"));
    };
    let id = placed["id"].as_i64();
    let mut out = Map::new();
    let mut building = placed.as_object().cloned().unwrap_or_default();
    building.insert("orientation".into(), spot["orientation"].clone());
    building.insert("entranceX".into(), spot["entranceX"].clone());
    building.insert("entranceY".into(), spot["entranceY"].clone());
    if let Some(r) = spot.get("inReach") {
        building.insert("inReach".into(), r.clone());
    }
    out.insert("placed".into(), Value::Object(building));
    if let Some(path) = path {
        out.insert("path".into(), path);
    }
    if !given_up.is_empty() {
        out.insert("spotsGivenUp".into(), Value::Array(given_up));
    }
    let z = spot["z"].as_i64().unwrap_or(0);
    if args.get("cut").and_then(Value::as_bool) == Some(true) {
        out.insert("cut".into(), mark_cutting(api, id, z).await);
    }
    if let Some(crop) = args.get("plant").and_then(Value::as_str) {
        out.insert("plant".into(), mark_planting(api, id, crop).await);
    }
    if let Some(good) = args.get("good").and_then(Value::as_str) {
        out.insert("good".into(), store_only(api, id, good).await);
    }
    Ok(Value::Object(out))
}

/// Routes a path from `(ex, ey)` to the nearest district center's doorstep (reusing existing
/// paths); what was placed, or why the building is not joined.
async fn connect(api: &Api, dcs: &[(i64, i64, i64, i64)], ex: i64, ey: i64) -> Value {
    let Some(&(_, _, dx, dy)) = dcs
        .iter()
        .min_by_key(|(_, _, dx, dy)| (dx - ex).abs() + (dy - ey).abs())
    else {
        return "no district center to connect to".into();
    };
    let route = body([
        ("x1", json!(ex)),
        ("y1", json!(ey)),
        ("x2", json!(dx)),
        ("y2", json!(dy)),
    ]);
    match api
        .send(Method::Post, "/api/path/place", &route, true)
        .await
    {
        Ok(Answer::Ok(v)) => {
            let mut p = Map::new();
            p.insert("from".into(), format!("{ex},{ey}").into());
            p.insert("to".into(), format!("{dx},{dy}").into());
            for k in ["placed", "skipped", "stoppedAt", "errors"] {
                if let Some(x) = v.get(k) {
                    p.insert(k.into(), x.clone());
                }
            }
            let broken = v["errors"].as_array().is_some_and(|e| !e.is_empty())
                || v.get("stoppedAt").is_some();
            if broken {
                p.insert(
                    "note".into(),
                    "the path is incomplete: the building is placed but not reachable; see \
                     errors and route a path from another tile"
                        .into(),
                );
            }
            Value::Object(p)
        }
        Ok(Answer::Error { error, .. }) => {
            json!({"error": error.message(), "note": "the building is placed; connect it with a path"})
        }
        Err(f) => json!({"error": f.message}),
    }
}

/// Has storage building `id` take only `good` (`POST /api/building/storage`).
async fn store_only(api: &Api, id: Option<i64>, good: &str) -> Value {
    let Some(id) = id else {
        return json!({"error": "the placed building has no id"});
    };
    let set = body([("id", json!(id)), ("good", json!(good))]);
    match ok(api
        .send(Method::Post, "/api/building/storage", &set, true)
        .await)
    {
        Ok(v) => v,
        Err(e) => stop_value(e),
    }
}

/// The work range of building `id` (`POST /api/building/range`), or the error to report.
async fn range(api: &Api, id: Option<i64>) -> Result<Value, Value> {
    let Some(id) = id else {
        return Err(json!({"error": "the placed building has no id"}));
    };
    match ok(api
        .send(
            Method::Post,
            "/api/building/range",
            &body([("id", json!(id))]),
            true,
        )
        .await)
    {
        Ok(v) => Ok(v),
        Err(Stop::Service(_, e)) => Err(json!({"error": e.message()})),
        Err(Stop::Own(f)) => Err(json!({"error": f.message})),
    }
}

/// Marks the trees of the building's work range (its bounds, at its level) for cutting.
async fn mark_cutting(api: &Api, id: Option<i64>, z: i64) -> Value {
    let r = match range(api, id).await {
        Ok(r) => r,
        Err(e) => return e,
    };
    let b = &r["bounds"];
    let area = body([
        ("x1", b["x1"].clone()),
        ("y1", b["y1"].clone()),
        ("x2", b["x2"].clone()),
        ("y2", b["y2"].clone()),
        ("z", json!(z)),
        ("marked", json!(true)),
    ]);
    if let Err(e) = ok(api
        .send(Method::Post, "/api/cutting/area", &area, true)
        .await)
    {
        return stop_value(e);
    }
    // The counts after marking: trees in reach, and how many of them are marked now.
    match range(api, id).await {
        Ok(r) => json!({"area": b, "z": z, "inReach": r["inReach"]}),
        Err(e) => e,
    }
}

/// Marks the moist, free tiles of the building's range (`POST /api/planting/find` with its id)
/// for `crop`, a row of neighbouring tiles per request.
async fn mark_planting(api: &Api, id: Option<i64>, crop: &str) -> Value {
    let Some(id) = id else {
        return json!({"error": "the placed building has no id"});
    };
    let find = body([("crop", json!(crop)), ("id", json!(id))]);
    let found = match ok(api
        .send(Method::Post, "/api/planting/find", &find, true)
        .await)
    {
        Ok(v) => v,
        Err(e) => return stop_value(e),
    };
    let mut tiles: Vec<(i64, i64, i64)> = found["spots"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|s| s["moist"] == true && s["planted"] != true)
        .filter_map(|s| Some((s["z"].as_i64()?, s["y"].as_i64()?, s["x"].as_i64()?)))
        .collect();
    tiles.sort_unstable();
    let mut marked = 0;
    for (z, y, x1, x2) in runs(&tiles) {
        let area = body([
            ("x1", json!(x1)),
            ("y1", json!(y)),
            ("x2", json!(x2)),
            ("y2", json!(y)),
            ("z", json!(z)),
            ("crop", json!(crop)),
        ]);
        match ok(api
            .send(Method::Post, "/api/planting/mark", &area, true)
            .await)
        {
            Ok(v) => marked += v["marked"].as_i64().unwrap_or(0),
            Err(e) => return stop_value(e),
        }
    }
    let mut out = json!({"crop": crop, "marked": marked});
    if marked == 0 {
        out["note"] = "no moist free soil in the building's range: nothing marked".into();
    }
    out
}

/// Sorted `(z, y, x)` tiles as runs of neighbouring tiles on one row: `(z, y, x1, x2)`.
fn runs(tiles: &[(i64, i64, i64)]) -> Vec<(i64, i64, i64, i64)> {
    let mut out: Vec<(i64, i64, i64, i64)> = Vec::new();
    for &(z, y, x) in tiles {
        match out.last_mut() {
            Some(r) if r.0 == z && r.1 == y && r.3 + 1 == x => r.3 = x,
            _ => out.push((z, y, x, x)),
        }
    }
    out
}

fn stop_value(stop: Stop) -> Value {
    match stop {
        Stop::Service(_, e) => json!({"error": e.message()}),
        Stop::Own(f) => json!({"error": f.message}),
    }
}

/// The parameters of `build`.
pub fn schema() -> Map<String, Value> {
    use super::schema::{ORIENTATIONS, object_schema};
    let props = json!({
        "prefab": {"type": "string", "description": "prefab with its faction suffix, e.g. WaterPump.Folktails"},
        "x": {"type": "integer", "minimum": 0, "description": "near this x (with y; default: the district center's entrance)"},
        "y": {"type": "integer", "minimum": 0, "description": "near this y"},
        "radius": {"type": "integer", "minimum": 1, "maximum": 30, "description": "tiles around the point to search (default 10)"},
        "orientation": {"type": "string", "enum": ORIENTATIONS, "description": "only spots facing this way"},
        "path": {"type": "boolean", "description": "join the entrance to the district by path (default true)"},
        "cut": {"type": "boolean", "description": "mark the trees in its range for cutting (a lumberjack flag)"},
        "good": {"type": "string", "description": "the one good a storage building takes, e.g. Log"},
        "plant": {"type": "string", "description": "crop or tree to plant on its range's moist soil (farmhouse: Carrot; forester: Birch)"},
    });
    object_schema(props.as_object().cloned().unwrap_or_default(), &["prefab"])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbouring_tiles_of_a_row_make_one_run() {
        let tiles = [(4, 1, 2), (4, 1, 3), (4, 1, 5), (4, 2, 5), (5, 2, 6)];
        assert_eq!(
            runs(&tiles),
            vec![(4, 1, 2, 3), (4, 1, 5, 5), (4, 2, 5, 5), (5, 2, 6, 6)]
        );
        assert!(runs(&[]).is_empty());
    }
}
