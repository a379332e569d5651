//! `POST /api/path/place`: routes a path with A* over the 3D surface between two tiles and places
//! its paths and stairs, reusing what is already on the network (the algorithm is documented in
//! `sim::colony::path_place`).
//!
//! The four phases (snapshot, graph, A*, placement) run back to back in one write job; the handler
//! times each with the host's clock, since the simulation has none. `totalMs` runs from the
//! parsed request to the job's answer, so it also holds the wait in the write queue.

use super::AppState;
use super::body::{Body, BodySpec};
use super::error::ApiResult;
use axum::Json;
use axum::extract::State;
use serde::Deserialize;
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(path_place))
}

/// `POST /api/path/place`.
#[derive(Deserialize, ToSchema)]
pub struct PathPlaceBody {
    /// Start tile (the route begins on its terrain surface, or on the network there).
    pub x1: i64,
    pub y1: i64,
    /// End tile.
    pub x2: i64,
    pub y2: i64,
    /// `direct` (default): cheapest route, reusing existing paths nearly for free; `straight`:
    /// the street asked for: a penalty per turn, and reusing a path costs as much as laying a
    /// new one, so the route does not bend toward the network (paths already on its line are
    /// still reused, not placed again).
    #[serde(default)]
    pub style: Option<String>,
    /// Stop at the landing after this many level changes (0, the default: go to the end).
    #[serde(default)]
    pub sections: Option<u32>,
    /// Include `timings` in the answer.
    #[serde(default)]
    pub timings: Option<bool>,
}

impl BodySpec for PathPlaceBody {
    const EXAMPLE: &'static str = r#"{"x1": 10, "y1": 10, "x2": 20, "y2": 14, "style": "direct"}"#;
}

/// Milliseconds to the microsecond.
fn ms(d: Duration) -> f64 {
    (d.as_secs_f64() * 1_000_000.0).round() / 1000.0
}

/// Routes a path with A* over the 3D surface, avoiding buildings, living plants, ruins, water and
/// steps of more than one level; places paths, and stairs for one-level steps (they need the
/// science unlock); reuses existing paths and stairs.
#[utoipa::path(post, path = "/api/path/place", tag = "colony", request_body = PathPlaceBody,
    responses((status = 200, description = "{placed: {paths, stairs?, platforms?}, skipped, connectorEdgesInGrid, stoppedAt?: \"x,y\", errors: [{prefab?, error}], timings?: {totalMs, snapshotMs, graphMs, astarMs, placementMs, placementsAttempted, graphNodes, pathNodes, exploredNodes}}")))]
async fn path_place(
    State(state): State<AppState>,
    Body(body): Body<PathPlaceBody>,
) -> ApiResult<Value> {
    let start = Instant::now();
    let style = body.style.unwrap_or_else(|| "direct".to_owned());
    let sections = body.sections.unwrap_or(0);
    let (x1, y1, x2, y2) = (body.x1, body.y1, body.x2, body.y2);
    let (route, phases) = state
        .host
        .write(move |w| {
            let t0 = Instant::now();
            let snap = w.path_snapshot(x1, y1, x2, y2, &style, sections)?;
            let t1 = Instant::now();
            let graph = snap.graph();
            let t2 = Instant::now();
            let plan = graph.search();
            let t3 = Instant::now();
            let route = w.apply_path_plan(&plan);
            let t4 = Instant::now();
            Ok::<_, sim::CommandError>((route, [t1 - t0, t2 - t1, t3 - t2, t4 - t3]))
        })
        .await??;
    let total = start.elapsed();
    let mut placed = json!({ "paths": route.paths });
    if route.stairs > 0 {
        placed["stairs"] = route.stairs.into();
    }
    if route.platforms > 0 {
        placed["platforms"] = route.platforms.into();
    }
    let mut out = json!({
        "placed": placed,
        "skipped": route.skipped,
        "connectorEdgesInGrid": route.connector_edges,
        "errors": route.errors,
    });
    if let Some((x, y)) = route.stopped_at {
        out["stoppedAt"] = format!("{x},{y}").into();
    }
    if body.timings.unwrap_or(false) {
        let [snapshot, graph, astar, placement] = phases;
        out["timings"] = json!({
            "totalMs": ms(total),
            "snapshotMs": ms(snapshot),
            "graphMs": ms(graph),
            "astarMs": ms(astar),
            "placementMs": ms(placement),
            "placementsAttempted": route.placements_attempted,
            "graphNodes": route.graph_nodes,
            "pathNodes": route.path_nodes,
            "exploredNodes": route.explored,
        });
    }
    Ok(Json(out))
}
