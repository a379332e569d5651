//! Composite tools that save a model many calls: `map` (the text map of `colony map`) and
//! `wait_for_events` (the WebSocket's game events, filtered, until a count or a time-out).
//! `colony_overview`, `build` and `advance` have modules of their own.

use super::answer;
use super::api::Api;
use crate::config::Settings;
use crate::events;
use crate::map;
use crate::ws::{self, Recv};
use protocol::frame::EventPayload;
use protocol::routes::Method;
use rmcp::model::CallToolResult;
use serde_json::{Map, Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The largest region `map` draws, in tiles.
pub const MAP_MAX_TILES: i64 = 100 * 100;
/// The region `map` draws around the district center when none is given (half sizes).
const MAP_HALF: (i64, i64) = (24, 16);

fn int(args: &Map<String, Value>, k: &str) -> Option<i64> {
    args.get(k).and_then(Value::as_i64)
}

/// The district centers of a `/api/summary?format=json` answer: (x, y, entrance x, entrance y).
pub fn centers(summary: &Value) -> Vec<(i64, i64, i64, i64)> {
    summary["districts"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|d| {
            let dc = &d["dc"];
            Some((
                dc["x"].as_i64()?,
                dc["y"].as_i64()?,
                dc["entranceX"].as_i64()?,
                dc["entranceY"].as_i64()?,
            ))
        })
        .collect()
}

/// `map`: the region given, or the district center's surroundings.
pub async fn map(api: &Api, args: &Map<String, Value>) -> CallToolResult {
    let corners = ["x1", "y1", "x2", "y2"].map(|k| int(args, k));
    let (x1, y1, x2, y2) = match corners {
        [Some(a), Some(b), Some(c), Some(d)] => (a, b, c, d),
        [None, None, None, None] => {
            let summary = match api.get_json("/api/summary", vec![]).await {
                Ok(s) => s,
                Err(f) => return answer::failure(&f),
            };
            let Some(&(x, y, _, _)) = centers(&summary).first() else {
                return answer::error(
                    "not_found",
                    "the game has no district center to centre the map on; give x1, y1, x2, y2",
                );
            };
            (
                (x - MAP_HALF.0).max(0),
                (y - MAP_HALF.1).max(0),
                x + MAP_HALF.0,
                y + MAP_HALF.1,
            )
        }
        _ => {
            return answer::error(
                "invalid_param",
                "give all four corners x1, y1, x2, y2, or none for the district's surroundings",
            );
        }
    };
    let tiles = (x2 - x1 + 1) * (y2 - y1 + 1);
    if x2 < x1 || y2 < y1 {
        return answer::error(
            "invalid_param",
            format!("x2 must be >= x1 and y2 >= y1; got {x1},{y1} to {x2},{y2}"),
        );
    }
    if tiles > MAP_MAX_TILES {
        return answer::error(
            "invalid_param",
            format!(
                "the region has {tiles} tiles; the map draws at most {MAP_MAX_TILES} (e.g. \
                 100x100): draw it in parts"
            ),
        );
    }
    let region: Map<String, Value> = [("x1", x1), ("y1", y1), ("x2", x2), ("y2", y2)]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), json!(v)))
        .collect();
    let beavers = args.get("beavers").and_then(Value::as_bool).unwrap_or(true);
    let (tiles, walkers) =
        tokio::join!(api.send(Method::Get, "/api/tiles", &region, true), async {
            if beavers {
                Some(
                    api.get_json("/api/beavers", vec![("limit", json!(0))])
                        .await,
                )
            } else {
                None
            }
        });
    let tiles = match answer::json_or_result(tiles) {
        Ok(t) => t,
        Err(r) => return *r,
    };
    let walkers = match walkers {
        Some(Ok(b)) => Some(map::walkers(&b)),
        Some(Err(f)) => return answer::failure(&f),
        None => None,
    };
    let text = map::render(&tiles, walkers.as_deref(), false);
    let r = &tiles["region"];
    let head = format!(
        "map x {}..{}, y {}..{} (north up: the top row is y {}):\n",
        r["x1"], r["x2"], r["y1"], r["y2"], r["y2"]
    );
    let structured = json!({
        "region": tiles["region"],
        "rows": text.lines().collect::<Vec<_>>(),
    });
    answer::success(format!("{head}{text}"), structured)
}

/// Sets its flag when dropped: a cancelled tool call stops the blocking WebSocket reader.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// `wait_for_events`: game events from the WebSocket whose names contain one of `names`.
pub async fn wait_for_events(
    api: &Api,
    settings: &Settings,
    args: &Map<String, Value>,
) -> CallToolResult {
    let names: Vec<String> = args
        .get("names")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect()
        })
        .unwrap_or_default();
    let timeout = args
        .get("timeout_seconds")
        .and_then(Value::as_f64)
        .unwrap_or(30.0)
        .clamp(0.1, 300.0);
    let max = int(args, "max_events").unwrap_or(20).clamp(1, 500) as usize;
    // Events come only while the game runs: say so when it is paused.
    let paused = matches!(
        api.get_json("/api/speed", vec![]).await,
        Ok(v) if v["speed"].as_i64() == Some(0)
    );
    let stop = Arc::new(AtomicBool::new(false));
    let _guard = StopOnDrop(stop.clone());
    let settings = settings.clone();
    let filters = names.clone();
    let job = tokio::task::spawn_blocking(move || {
        collect_events(
            &settings,
            &filters,
            Duration::from_secs_f64(timeout),
            max,
            &stop,
        )
    });
    let (events, timed_out) = match job.await {
        Ok(Ok(x)) => x,
        Ok(Err(e)) => return answer::error("unreachable", e),
        Err(e) => return answer::error("internal_error", format!("the event reader failed: {e}")),
    };
    let mut out = Map::new();
    out.insert("events".into(), json!(events));
    out.insert("timedOut".into(), timed_out.into());
    if paused {
        out.insert(
            "note".into(),
            "the game is paused (speed 0): no time passes, so few events come; use advance or \
             set_speed"
                .into(),
        );
    }
    answer::value(Value::Object(out))
}

/// Reads events until `max` matched, the time-out, or `stop`. Returns the events as `{day,
/// event, data}` and whether the time ran out.
fn collect_events(
    settings: &Settings,
    filters: &[String],
    timeout: Duration,
    max: usize,
    stop: &AtomicBool,
) -> Result<(Vec<Value>, bool), String> {
    let deadline = Instant::now() + timeout;
    let mut conn = ws::connect(settings)?;
    let mut out = Vec::new();
    while Instant::now() < deadline && !stop.load(Ordering::Relaxed) {
        match conn.recv() {
            Recv::Frame(f) if f.kind.eq_ignore_ascii_case("event") => {
                let Some(payload) = f.payload else { continue };
                let Ok(e) = serde_json::from_value::<EventPayload>(payload) else {
                    continue;
                };
                if events::matches(filters, &e.event) {
                    out.push(json!({"day": e.day, "event": e.event, "data": e.data}));
                    if out.len() >= max {
                        return Ok((out, false));
                    }
                }
            }
            Recv::Closed(reason) => {
                if out.is_empty() {
                    return Err(format!("the event stream closed: {reason}"));
                }
                return Ok((out, false));
            }
            Recv::Frame(_) | Recv::Other | Recv::Idle => {}
        }
    }
    Ok((out, true))
}

/// The input schemas of the composite tools in this module.
pub mod schemas {
    use crate::mcp::schema::object_schema;
    use serde_json::{Map, Value, json};

    pub fn map() -> Map<String, Value> {
        let corner = |what: &str| json!({"type": "integer", "minimum": 0, "maximum": 4096, "description": what});
        let props = json!({
            "x1": corner("west edge x (all four corners or none)"),
            "y1": corner("south edge y"),
            "x2": corner("east edge x (>= x1)"),
            "y2": corner("north edge y (>= y1)"),
            "beavers": {"type": "boolean", "description": "draw beavers (@) and bots (r); default true"},
        });
        object_schema(props.as_object().cloned().unwrap_or_default(), &[])
    }

    pub fn wait_for_events() -> Map<String, Value> {
        let props = json!({
            "names": {"type": "array", "items": {"type": "string"},
                      "description": "keep events whose name contains one of these, e.g. [\"beaver.died\", \"drought.\", \"building.finished\"]; none: every event"},
            "timeout_seconds": {"type": "number", "minimum": 0.1, "maximum": 300, "description": "wall-clock seconds to wait (default 30)"},
            "max_events": {"type": "integer", "minimum": 1, "maximum": 500, "description": "stop after this many (default 20)"},
        });
        object_schema(props.as_object().cloned().unwrap_or_default(), &[])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centers_come_from_the_summary() {
        let s = json!({"districts": [{"dc": {"x": 31, "y": 24, "z": 4, "entranceX": 32, "entranceY": 23}}, {"dc": {}}]});
        assert_eq!(centers(&s), vec![(31, 24, 32, 23)]);
        assert!(centers(&json!({})).is_empty());
    }
}
