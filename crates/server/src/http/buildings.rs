//! Buildings: the list (`GET /api/buildings`), placing and finding placements, demolishing (at
//! once, or marked for the builders), and
//! the building actions (pause, workers, priority, hauling, recipe, farmhouse, plantable, storage,
//! floodgate, range). Reads build their answer from the published snapshot; writes go through the
//! game host, and the simulation validates each in full before anything changes (a refused
//! placement leaves nothing behind).
//!
//! Every action names its building by `id` (from `GET /api/buildings`); an unknown id is
//! `not_found` with `id`, a building of the wrong kind `invalid_type` with `id` and `name`, a bad
//! value `invalid_param` with `got`.

use super::AppState;
use super::body::{Body, BodySpec};
use super::error::{ApiResult, AppError, entity_id, invalid_param};
use super::format::Format;
use super::land::IdBody;
use super::list::{Entity, EntityQuery, ListParams, Rows};
use super::rows;
use axum::Json;
use axum::extract::{Query, State};
use axum::http::Extensions;
use protocol::error::{ApiError, ErrorCode};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sim::colony::BuildingView;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(buildings))
        .routes(routes!(place))
        .routes(routes!(find_placement))
        .routes(routes!(demolish))
        .routes(routes!(demolish_mark))
        .routes(routes!(pause))
        .routes(routes!(workers))
        .routes(routes!(priority))
        .routes(routes!(hauling))
        .routes(routes!(recipe))
        .routes(routes!(farmhouse))
        .routes(routes!(plantable))
        .routes(routes!(storage))
        .routes(routes!(floodgate))
        .routes(routes!(range))
}

/// A building's id from a request (`not_found` when it cannot be one).
fn building_id(id: i64) -> Result<i32, AppError> {
    entity_id(id, "building", "/api/buildings")
}

// (Borrowed names, and the workers written as they are serialized: a list of thousands of rows
// allocates nothing per row.)
/// A building as a basic row (json and toon alike).
#[derive(Serialize, ToSchema)]
pub struct BuildingRow {
    pub id: i32,
    /// Faction-qualified, e.g. `LumberjackFlag.Folktails` (as `/api/building/place` takes it).
    pub name: &'static str,
    pub x: u32,
    pub y: u32,
    pub z: u32,
    /// `south`, `west`, `north` or `east`.
    pub orientation: &'static str,
    pub finished: bool,
    pub paused: bool,
    /// Construction priority while a site, workplace priority when finished.
    pub priority: &'static str,
    /// `assigned/desired`.
    #[schema(value_type = String)]
    pub workers: sim::colony::Workers,
}

impl From<sim::colony::BuildingBrief> for BuildingRow {
    fn from(b: sim::colony::BuildingBrief) -> Self {
        BuildingRow {
            id: b.id,
            name: b.name,
            x: b.x,
            y: b.y,
            z: b.z,
            orientation: b.orientation,
            finished: b.finished,
            paused: b.paused,
            priority: b.priority,
            workers: b.workers,
        }
    }
}

impl Entity for BuildingView {
    const KIND: &'static str = "building";
    const LIST: &'static str = "/api/buildings";

    type Basic = BuildingRow;
}

/// Buildings (paginated; `name`, `x`/`y`/`radius`, `role` and `exclude` filters; `role=water,food`
/// keeps those roles, `exclude=paths` leaves paths and stairs out). `detail=basic` (default) gives rows
/// `id, name, x, y, z, orientation, finished, paused, priority, workers`; `detail=full` every
/// field of the Building table (json: a member is absent when the building lacks that component;
/// toon: flat rows with every key, inventory as `Good:N/Good:N`, statuses and recipes joined by
/// `+`). `id=N` gives that one building in full (`not_found` when there is none), with
/// `inReach` for buildings that work with something in their range (lumberjacks, gatherers,
/// farmhouses, foresters, scavengers; water wheels: the flow), which lists never carry.
#[utoipa::path(get, path = "/api/buildings", tag = "colony",
    params(ListParams,
        ("detail" = Option<String>, Query, description = "basic (default) or full"),
        ("id" = Option<i64>, Query, description = "one building, full detail"),
        ("role" = Option<String>, Query, description = "only these roles, comma-separated (water, food, wood, housing, storage, paths, ...)"),
        ("exclude" = Option<String>, Query, description = "leave these roles out, comma-separated: exclude=paths drops paths and stairs")),
    responses((status = 200, description = "a page of BuildingRow (detail=basic) or Building (detail=full); limit=0: an array")))]
async fn buildings(
    State(state): State<AppState>,
    ext: Extensions,
    Query(q): Query<HashMap<String, String>>,
) -> Result<axum::response::Response, AppError> {
    let w = state.host.snapshot();
    let only = roles_in(&q, "role")?;
    let exclude = roles_in(&q, "exclude")?.unwrap_or_default();
    EntityQuery::serve(
        &q,
        &ext,
        |id| w.building_view(id),
        // Unfiltered, the keys keep their exact count (a page without a walk of every building).
        if only.is_none() && exclude.is_empty() {
            Box::new(w.building_keys().map(|(key, _)| key)) as Box<dyn Iterator<Item = _>>
        } else {
            Box::new(
                w.building_keys()
                    .filter(|(_, role)| only.as_ref().is_none_or(|r| r.iter().any(|o| o == role)))
                    .filter(|(_, role)| !exclude.iter().any(|e| e == role))
                    .map(|(key, _)| key),
            )
        },
        Rows {
            full: |ids: &[i32]| w.buildings_of(ids),
            basic: |ids: &[i32], _| {
                let briefs = w.building_briefs(ids).into_iter();
                briefs.map(BuildingRow::from).collect()
            },
        },
    )
}

/// The roles a `role` or `exclude` query names (comma-separated, any case), or `invalid_param`
/// listing the roles there are. `None` when the query does not have the key.
fn roles_in(q: &HashMap<String, String>, key: &str) -> Result<Option<Vec<String>>, AppError> {
    let Some(v) = q.get(key) else {
        return Ok(None);
    };
    let known: std::collections::BTreeSet<&str> = sim::content::content()
        .buildings
        .values()
        .map(|b| b.role.as_str())
        .collect();
    let mut out = Vec::new();
    for r in v.split(',').map(|r| r.trim().to_ascii_lowercase()) {
        if r.is_empty() {
            continue;
        }
        if !known.contains(r.as_str()) {
            let list: Vec<&str> = known.iter().copied().collect();
            return Err(invalid_param(
                format!("{key}: no role {r:?}; roles: {}", list.join(", ")),
                v.clone(),
            ));
        }
        out.push(r);
    }
    Ok(Some(out))
}

/// `POST /api/building/place`.
#[derive(Deserialize, ToSchema)]
pub struct PlaceBody {
    /// Faction-qualified prefab name, e.g. `Lodge.Folktails` (`Path` needs none).
    pub prefab: String,
    /// Footprint's bottom-left corner, whatever the orientation.
    pub x: i64,
    pub y: i64,
    /// Must equal the terrain height there.
    pub z: i64,
    /// `south`, `west`, `north` or `east`, or 0-3 (as a number or a string).
    #[serde(deserialize_with = "super::body::text_or_integer")]
    #[schema(schema_with = orientation_schema)]
    pub orientation: String,
}

/// An orientation in a body: a name (or "0"-"3") or an integer 0-3.
fn orientation_schema() -> utoipa::openapi::schema::Schema {
    use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Schema, Type};
    let one_of = OneOfBuilder::new()
        .item(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .enum_values(Some(["south", "west", "north", "east", "0", "1", "2", "3"]))
                .examples(["south"]),
        )
        .item(
            ObjectBuilder::new()
                .schema_type(Type::Integer)
                .minimum(Some(0))
                .maximum(Some(3)),
        )
        .description(Some(
            "south, west, north or east, or 0-3 (0 south, 1 west, 2 north, 3 east)",
        ))
        .build();
    Schema::OneOf(one_of)
}

impl BodySpec for PlaceBody {
    const EXAMPLE: &'static str =
        r#"{"prefab": "Lodge.Folktails", "x": 10, "y": 12, "z": 4, "orientation": "south"}"#;
}

/// `POST /api/building/place` answer.
#[derive(Serialize, ToSchema)]
pub struct Placed {
    pub id: i32,
    pub name: String,
    pub x: u32,
    pub y: u32,
    pub z: u32,
    /// 0 south, 1 west, 2 north, 3 east.
    pub orientation: u8,
}

/// Places a building site (builders bring the materials); emits `building.placed`. Errors:
/// `invalid_prefab` (with `prefab`, similar names suggested), `not_unlocked` (with `prefab`,
/// `scienceCost`, `currentPoints`, `x`, `y`, `z`), and placement failures: an error text without
/// a code prefix naming the blocker and a fix, with `x`, `y`, `z`, `prefab` and `reason`
/// (`occupied`, `terrain`, `water`, `out_of_bounds`, `unreachable_z`, `no_support`).
#[utoipa::path(post, path = "/api/building/place", tag = "colony", request_body = PlaceBody, responses((status = 200, body = Placed)))]
async fn place(State(state): State<AppState>, Body(b): Body<PlaceBody>) -> ApiResult<Placed> {
    let view = state
        .host
        .write(move |w| {
            let id = w.place_building(&b.prefab, b.x, b.y, b.z, &b.orientation)?;
            Ok::<_, sim::CommandError>(w.building_view(id).expect("just placed"))
        })
        .await??;
    let orientation = sim::colony::Orientation::parse(view.orientation)?.index();
    Ok(Json(Placed {
        id: view.id,
        name: view.name.to_owned(),
        x: view.x,
        y: view.y,
        z: view.z,
        orientation,
    }))
}

/// `POST /api/placement/find`.
#[derive(Deserialize, ToSchema)]
pub struct PlacementFindBody {
    pub prefab: String,
    pub x1: i64,
    pub y1: i64,
    pub x2: i64,
    pub y2: i64,
    /// `json` or `toon`; overrides the query's `format` (the contract allows either place).
    #[serde(default)]
    pub format: Option<String>,
}

impl BodySpec for PlacementFindBody {
    const EXAMPLE: &'static str =
        r#"{"prefab": "Lodge.Folktails", "x1": 0, "y1": 0, "x2": 40, "y2": 40}"#;
}

/// `POST /api/placement/find` json answer.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Placements {
    pub prefab: String,
    pub size_x: u32,
    pub size_y: u32,
    /// At most 10, distinct tiles: x, y, z, orientation (name), entranceX, entranceY,
    /// pathAccess, reachable, nearPower, flooded (0/1 each), waterDepth (pumps only), distance
    /// (-1 unreachable), groundSteps (tiles of new path a `path/place` from the district center's
    /// doorstep would lay; -1 when none can reach, or when the doorstep hangs over lower ground
    /// (a building on a ledge), which no path laid on the ground joins), inReach (buildings that work with something
    /// in their work range: lumberjacks `{trees, treesMarked, saplings}`, gatherers `{bushes,
    /// bushesRipe}`, farmhouses `{cropsGrowing, cropsReady, plantable, markedForPlanting}`,
    /// foresters `{saplings, trees, plantable, markedForPlanting}`, scavengers `{ruins}`, water
    /// wheels `{flow}` in m3/s).
    #[schema(value_type = Vec<Object>)]
    pub placements: Vec<sim::colony::PlacementSpot>,
    /// Only when `placements` is empty: what blocked most. `not_unlocked`, a placement
    /// refusal's reason (`occupied`, `terrain`, `water`, `out_of_bounds`, `no_support`,
    /// `entrance`, `unreachable_z`), or an unmet purpose (`no_water`, `no_flow`,
    /// `nothing_in_reach`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Only when `placements` is empty: what blocked and what to do instead.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// Only when `placements` is empty: candidate spots (a tile and an orientation each) turned
    /// down, by reason.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocked: Option<std::collections::BTreeMap<String, u32>>,
}

/// The copy of a published world that the last placement search worked on, kept for the next
/// search of the same snapshot. A search only brings the copy's derived state up to date (the
/// navigation graph, path distances, the ground steps of recent windows, each a function of the
/// world alone), so a kept copy answers exactly as a fresh one, and the searches an agent makes
/// in a row (several prefabs over the same few regions, nothing changed in between) clone the
/// world and build each region's ground graph once instead of on every call. Concurrent searches
/// each take a copy: one finds the kept one, the others clone.
#[derive(Clone, Default)]
pub struct SearchWorld(Arc<Mutex<Option<KeptWorld>>>);

/// A kept copy and the snapshot it is a copy of.
type KeptWorld = (Weak<sim::World>, sim::World);

impl SearchWorld {
    /// The kept copy when it is of `snapshot`, else a new copy of it.
    fn take(&self, snapshot: &Arc<sim::World>) -> sim::World {
        let kept = self.0.lock().unwrap_or_else(|e| e.into_inner()).take();
        match kept {
            // (The weak reference keeps the snapshot's allocation, so its address is not
            // reused by a newer snapshot while the copy is kept.)
            Some((of, w)) if std::ptr::eq(of.as_ptr(), Arc::as_ptr(snapshot)) => w,
            _ => (**snapshot).clone(),
        }
    }

    /// Keeps `w`, the copy of `snapshot` a search has just used.
    fn put(&self, snapshot: &Arc<sim::World>, w: sim::World) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some((Arc::downgrade(snapshot), w));
    }

    /// Takes the kept copy out unless it is of `snapshot`: once the game has moved on, the copy
    /// would only hold an old world's tables until the next search (colonyd sweeps every few
    /// seconds; the caller drops what it gets back).
    pub fn take_stale(&self, snapshot: &Arc<sim::World>) -> Option<sim::World> {
        let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        match &*kept {
            Some((of, _)) if std::ptr::eq(of.as_ptr(), Arc::as_ptr(snapshot)) => None,
            _ => kept.take().map(|(_, w)| w),
        }
    }
}

/// Up to 10 valid spots for a prefab in an area, distinct tiles, best first; an unreachable
/// spot never outranks a reachable one. Pumps: reachable now first, then joinable by a new path
/// (`groundSteps` >= 0), then water depth (deepest first), only spots with water. Others: not
/// flooded, then reachable now, then joinable by a new path, then what lies in reach for
/// buildings that work with something there, most first (`inReach`: lumberjacks by grown
/// trees, then saplings; gatherers by ripe bushes, then all; farmhouses by crops plus plantable
/// soil, then crops; foresters by plantable soil plus saplings; scavengers by ruins; water
/// wheels by the flow under the wheel), then path distance from the district center's entrance
/// (the network's, else `groundSteps`), then path access, then power. Spots where such a building would have nothing
/// to work with are not offered (a water wheel never on dry land or still water).
/// json: `{prefab, sizeX, sizeY, placements}`, plus `reason`, `detail` and `blocked` when no
/// spot is found; toon: the bare array of placement rows (the contract's shape), an empty one
/// with headers `X-Placement-Reason` and `X-Placement-Detail`. A read: it runs on a copy of the
/// published world and never holds up the game.
#[utoipa::path(post, path = "/api/placement/find", tag = "colony", request_body = PlacementFindBody, responses((status = 200, body = Placements)))]
async fn find_placement(
    State(state): State<AppState>,
    ext: Extensions,
    Body(b): Body<PlacementFindBody>,
) -> Result<axum::response::Response, AppError> {
    use axum::response::IntoResponse;
    let json = match b.format.as_deref().map(str::to_ascii_lowercase).as_deref() {
        None => Format::of(&ext).is_json(),
        Some("json") => true,
        Some("toon" | "toon-text") => false,
        Some(other) => {
            return Err(invalid_param(
                format!("format must be toon, json or toon-text; got {other:?}"),
                other,
            ));
        }
    };
    let snapshot = state.host.snapshot();
    let kept = state.search_world.clone();
    let found = tokio::task::spawn_blocking(move || {
        // The search keeps navigation and ground-step caches up to date, so it needs its own
        // copy: the one the last search of this snapshot used, else a new one.
        let mut w = kept.take(&snapshot);
        let found = w.search_placements(&b.prefab, b.x1, b.y1, b.x2, b.y2);
        kept.put(&snapshot, w);
        found
    })
    .await
    .map_err(|e| {
        AppError(ApiError::new(
            ErrorCode::InternalError,
            format!("the placement search failed: {e}"),
        ))
    })??;
    let none = found.none;
    if json {
        let (reason, detail, blocked) = match none {
            Some(n) => (Some(n.reason), Some(n.detail), Some(n.blocked)),
            None => (None, None, None),
        };
        let body = Placements {
            prefab: found.prefab,
            size_x: found.size_x,
            size_y: found.size_y,
            placements: found.placements,
            reason,
            detail,
            blocked,
        };
        return Ok(Json(body).into_response());
    }
    let rows = serde_json::to_value(rows::flat_rows(found.placements)).expect("rows serialize");
    let mut res = Json(rows).into_response();
    if let Some(n) = none {
        let h = res.headers_mut();
        for (name, text) in [
            ("x-placement-reason", n.reason),
            ("x-placement-detail", n.detail),
        ] {
            // Header values are visible ASCII: anything else becomes '?'.
            let ascii: String = text
                .chars()
                .map(|c| {
                    if c == ' ' || c.is_ascii_graphic() {
                        c
                    } else {
                        '?'
                    }
                })
                .collect();
            if let Ok(v) = axum::http::HeaderValue::from_str(&ascii) {
                h.insert(name, v);
            }
        }
    }
    Ok(res)
}

/// Demolishes a building (a site is simply removed, its delivered materials going back); emits
/// `building.demolished`. A finished district center is `invalid_type` (a center still a site
/// can go).
#[utoipa::path(post, path = "/api/building/demolish", tag = "colony", request_body = IdBody, responses((status = 200, description = "{id, name, demolished: true}")))]
async fn demolish(State(state): State<AppState>, Body(b): Body<IdBody>) -> ApiResult<Value> {
    let id = building_id(b.id)?;
    let name = state.host.write(move |w| w.demolish_building(id)).await??;
    Ok(Json(json!({"id": id, "name": name, "demolished": true})))
}

/// `POST /api/building/demolish/mark`.
#[derive(Deserialize, ToSchema)]
pub struct MarkBody {
    pub id: i64,
    pub marked: bool,
}

impl BodySpec for MarkBody {
    const EXAMPLE: &'static str = r#"{"id": 123456, "marked": true}"#;
}

/// Extension: marks a finished building for demolition as the game does (`marked: true`) or
/// lifts the mark (`false`); emits `demolish.marked` / `demolish.unmarked` when the mark changed.
/// The building works on while the district's builders, once no site has work for them, take it
/// down over time; then it goes as `POST /api/building/demolish` removes one (its stock and
/// refund into the district's stores with room). A site (demolish it at once) or a finished
/// district center is `invalid_type`.
#[utoipa::path(post, path = "/api/building/demolish/mark", tag = "colony", request_body = MarkBody, responses((status = 200, description = "{id, name, marked}")))]
async fn demolish_mark(State(state): State<AppState>, Body(b): Body<MarkBody>) -> ApiResult<Value> {
    let (id, marked) = (building_id(b.id)?, b.marked);
    let name = state
        .host
        .write(move |w| w.mark_demolition(id, marked))
        .await??;
    Ok(Json(json!({"id": id, "name": name, "marked": marked})))
}

/// `POST /api/building/pause`.
#[derive(Deserialize, ToSchema)]
pub struct PauseBody {
    pub id: i64,
    pub paused: bool,
}

impl BodySpec for PauseBody {
    const EXAMPLE: &'static str = r#"{"id": 123456, "paused": true}"#;
}

/// Pauses or resumes a building (workplaces, storage, breeding pods, attractions, power users);
/// paths, homes and district centers are `invalid_type`.
#[utoipa::path(post, path = "/api/building/pause", tag = "colony", request_body = PauseBody, responses((status = 200, description = "{id, name, paused}")))]
async fn pause(State(state): State<AppState>, Body(b): Body<PauseBody>) -> ApiResult<Value> {
    let (id, paused) = (building_id(b.id)?, b.paused);
    let name = state
        .host
        .write(move |w| w.set_paused(id, paused))
        .await??;
    Ok(Json(json!({"id": id, "name": name, "paused": paused})))
}

/// `POST /api/building/workers`.
#[derive(Deserialize, ToSchema)]
pub struct WorkersBody {
    pub id: i64,
    /// Clamped to 0..maxWorkers.
    pub count: i64,
}

impl BodySpec for WorkersBody {
    const EXAMPLE: &'static str = r#"{"id": 123456, "count": 2}"#;
}

/// Sets a workplace's desired workers, clamped to 0..maxWorkers (0 leaves it unstaffed); workers
/// over the new number leave at once. Not a workplace: `invalid_type`.
#[utoipa::path(post, path = "/api/building/workers", tag = "colony", request_body = WorkersBody, responses((status = 200, description = "{id, name, desiredWorkers, maxWorkers, assignedWorkers}")))]
async fn workers(State(state): State<AppState>, Body(b): Body<WorkersBody>) -> ApiResult<Value> {
    let (id, count) = (building_id(b.id)?, b.count);
    let (name, desired, max, assigned) = state
        .host
        .write(move |w| w.set_workers(id, count))
        .await??;
    Ok(Json(json!({
        "id": id, "name": name, "desiredWorkers": desired, "maxWorkers": max,
        "assignedWorkers": assigned,
    })))
}

/// `POST /api/building/priority`.
#[derive(Deserialize, ToSchema)]
pub struct PriorityBody {
    pub id: i64,
    /// `VeryLow`, `Low`, `Normal`, `High` or `VeryHigh` (any case).
    pub priority: String,
    /// `construction` or `workplace`; empty or absent: the one that applies now.
    #[serde(default, rename = "type")]
    pub kind: String,
}

impl BodySpec for PriorityBody {
    const EXAMPLE: &'static str = r#"{"id": 123456, "priority": "High", "type": "workplace"}"#;
}

/// Sets a construction or workplace priority. The answer names the field it set. A construction
/// priority exists only while a building is a site: on a finished building `type: construction`
/// (or an empty type on a finished building without workers) is refused with `invalid_param`.
#[utoipa::path(post, path = "/api/building/priority", tag = "colony", request_body = PriorityBody, responses((status = 200, description = "{id, name, workplacePriority} or {id, name, constructionPriority}")))]
async fn priority(State(state): State<AppState>, Body(b): Body<PriorityBody>) -> ApiResult<Value> {
    let id = building_id(b.id)?;
    let (name, field, p) = state
        .host
        .write(move |w| w.set_priority(id, &b.priority, &b.kind))
        .await??;
    Ok(Json(json!({"id": id, "name": name, field: p.as_str()})))
}

/// `POST /api/building/hauling`.
#[derive(Deserialize, ToSchema)]
pub struct HaulingBody {
    pub id: i64,
    pub prioritized: bool,
}

impl BodySpec for HaulingBody {
    const EXAMPLE: &'static str = r#"{"id": 123456, "prioritized": true}"#;
}

/// Sets or clears haul priority (haulers serve the building first). No inventory: `invalid_type`.
#[utoipa::path(post, path = "/api/building/hauling", tag = "colony", request_body = HaulingBody, responses((status = 200, description = "{id, name, haulPrioritized}")))]
async fn hauling(State(state): State<AppState>, Body(b): Body<HaulingBody>) -> ApiResult<Value> {
    let (id, on) = (building_id(b.id)?, b.prioritized);
    let name = state
        .host
        .write(move |w| w.set_haul_priority(id, on))
        .await??;
    Ok(Json(json!({"id": id, "name": name, "haulPrioritized": on})))
}

/// `POST /api/building/recipe`.
#[derive(Deserialize, ToSchema)]
pub struct RecipeBody {
    pub id: i64,
    /// A recipe id from the building's `recipes`, or `none` to clear.
    pub recipe: String,
}

impl BodySpec for RecipeBody {
    const EXAMPLE: &'static str = r#"{"id": 123456, "recipe": "Plank"}"#;
}

/// Selects a manufactory's recipe (`none` clears; the answer's `recipe` is then empty). Unknown
/// recipe: `not_found` with `recipeId` and `available`.
#[utoipa::path(post, path = "/api/building/recipe", tag = "colony", request_body = RecipeBody, responses((status = 200, description = "{id, name, recipe}")))]
async fn recipe(State(state): State<AppState>, Body(b): Body<RecipeBody>) -> ApiResult<Value> {
    let id = building_id(b.id)?;
    let (name, recipe) = state
        .host
        .write(move |w| w.set_recipe(id, &b.recipe))
        .await??;
    Ok(Json(json!({"id": id, "name": name, "recipe": recipe})))
}

/// `POST /api/building/farmhouse`.
#[derive(Deserialize, ToSchema)]
pub struct FarmhouseBody {
    pub id: i64,
    /// `planting` or `harvesting`.
    pub action: String,
}

impl BodySpec for FarmhouseBody {
    const EXAMPLE: &'static str = r#"{"id": 123456, "action": "planting"}"#;
}

/// Sets what a farmhouse does first. `planting` prioritizes planting; `harvesting` is the
/// farmhouse's normal order (harvest, then plant), so the answer's `action` is then `default`.
#[utoipa::path(post, path = "/api/building/farmhouse", tag = "colony", request_body = FarmhouseBody, responses((status = 200, description = "{id, name, action}")))]
async fn farmhouse(
    State(state): State<AppState>,
    Body(b): Body<FarmhouseBody>,
) -> ApiResult<Value> {
    let id = building_id(b.id)?;
    let (name, action) = state
        .host
        .write(move |w| w.set_farm_action(id, &b.action))
        .await??;
    let action = match action {
        sim::colony::FarmAction::Planting => "planting",
        _ => "default",
    };
    Ok(Json(json!({"id": id, "name": name, "action": action})))
}

/// `POST /api/building/plantable`.
#[derive(Deserialize, ToSchema)]
pub struct PlantableBody {
    pub id: i64,
    /// A crop (farmhouse) or tree species (forester), or `none` to clear.
    pub plantable: String,
}

impl BodySpec for PlantableBody {
    const EXAMPLE: &'static str = r#"{"id": 123456, "plantable": "Carrot"}"#;
}

/// Prioritizes what a farmhouse or forester plants (`none` clears; `prioritized` is then empty).
/// Unknown plantable: `not_found` with `plantableName` and `available`.
#[utoipa::path(post, path = "/api/building/plantable", tag = "colony", request_body = PlantableBody, responses((status = 200, description = "{id, name, prioritized}")))]
async fn plantable(
    State(state): State<AppState>,
    Body(b): Body<PlantableBody>,
) -> ApiResult<Value> {
    let id = building_id(b.id)?;
    let (name, chosen) = state
        .host
        .write(move |w| w.set_plantable(id, &b.plantable))
        .await??;
    Ok(Json(json!({"id": id, "name": name, "prioritized": chosen})))
}

/// `POST /api/building/storage`.
#[derive(Deserialize, ToSchema)]
pub struct StorageBody {
    pub id: i64,
    /// The good to store, or `none` to clear; absent leaves it.
    #[serde(default)]
    pub good: Option<String>,
    /// `accept`, `obtain`, `supply` or `empty`; absent leaves it.
    #[serde(default)]
    pub mode: Option<String>,
}

impl BodySpec for StorageBody {
    const EXAMPLE: &'static str = r#"{"id": 123456, "good": "Log", "mode": "accept"}"#;
}

/// Sets a storage building's good and/or mode (at least one). Not storage: `invalid_type`; a good
/// it cannot hold or an unknown mode: `invalid_param`.
#[utoipa::path(post, path = "/api/building/storage", tag = "colony", request_body = StorageBody, responses((status = 200, description = "{id, name, good, mode}")))]
async fn storage(State(state): State<AppState>, Body(b): Body<StorageBody>) -> ApiResult<Value> {
    let id = building_id(b.id)?;
    let (name, good, mode) = state
        .host
        .write(move |w| w.set_storage(id, b.good.as_deref(), b.mode.as_deref()))
        .await??;
    Ok(Json(
        json!({"id": id, "name": name, "good": good, "mode": mode.as_str()}),
    ))
}

/// `POST /api/building/floodgate`.
#[derive(Deserialize, ToSchema)]
pub struct FloodgateBody {
    pub id: i64,
    /// Clamped to 0..maxHeight.
    pub height: f64,
}

impl BodySpec for FloodgateBody {
    const EXAMPLE: &'static str = r#"{"id": 123456, "height": 1.5}"#;
}

/// Sets a floodgate's height, clamped to 0..maxHeight. Not a floodgate: `invalid_type`.
#[utoipa::path(post, path = "/api/building/floodgate", tag = "colony", request_body = FloodgateBody, responses((status = 200, description = "{id, name, height, maxHeight}")))]
async fn floodgate(
    State(state): State<AppState>,
    Body(b): Body<FloodgateBody>,
) -> ApiResult<Value> {
    let (id, height) = (building_id(b.id)?, b.height);
    let (name, h, max) = state
        .host
        .write(move |w| w.set_floodgate(id, height))
        .await??;
    Ok(Json(
        json!({"id": id, "name": name, "height": h, "maxHeight": max}),
    ))
}

/// The work range of a flag, planter or area building at its level: `tiles` in range, how many
/// are `moist`, the `bounds` box, and for buildings that work with something there, `inReach`:
/// what lies in range as their workers pick it (lumberjacks `{trees, treesMarked, saplings}`:
/// grown trees, those marked for cutting, trees still growing; gatherers `{bushes, bushesRipe}`;
/// farmhouses `{cropsGrowing, cropsReady, plantable, markedForPlanting}`; foresters `{saplings,
/// trees, plantable, markedForPlanting}`; scavengers `{ruins}`). No work range: `invalid_type`.
#[utoipa::path(post, path = "/api/building/range", tag = "colony", request_body = IdBody, responses((status = 200, description = "{id, name, tiles, moist, bounds: {x1, y1, x2, y2}, inReach?}")))]
async fn range(State(state): State<AppState>, Body(b): Body<IdBody>) -> ApiResult<Value> {
    let r = state.host.snapshot().building_range(building_id(b.id)?)?;
    let [x1, y1, x2, y2] = r.bounds;
    let mut out = json!({
        "id": r.id, "name": r.name, "tiles": r.tiles, "moist": r.moist,
        "bounds": {"x1": x1, "y1": y1, "x2": x2, "y2": y2},
    });
    if let Some(reach) = r.in_reach {
        out["inReach"] = serde_json::to_value(reach).expect("counts serialize");
    }
    Ok(Json(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::list::Detail;

    #[test]
    fn unknown_detail_and_wide_ids_are_refused() {
        let q: HashMap<String, String> = [("detail".to_string(), "most".to_string())].into();
        assert_eq!(
            EntityQuery::parse(&q).unwrap_err().code,
            ErrorCode::InvalidParam
        );
        assert_eq!(
            building_id(1 << 40).unwrap_err().0.code,
            ErrorCode::NotFound
        );
        let q: HashMap<String, String> = [("detail".to_string(), "FULL".to_string())].into();
        assert_eq!(EntityQuery::parse(&q).unwrap().detail, Detail::Full);
    }

    #[test]
    fn the_kept_search_copy_is_reused_for_its_snapshot_and_swept_after_it() {
        let world = |seed| {
            Arc::new(sim::World::new(&sim::NewGame {
                seed,
                map_width: 32,
                map_height: 32,
                ..sim::NewGame::default()
            }))
        };
        let (a, b) = (world(1), world(2));
        let kept = SearchWorld::default();
        kept.put(&a, (*a).clone());
        // Its own snapshot keeps it; another one sweeps it away.
        assert!(kept.take_stale(&a).is_none());
        assert!(kept.0.lock().unwrap().is_some());
        assert!(kept.take_stale(&b).is_some());
        assert!(kept.0.lock().unwrap().is_none());
        assert!(kept.take_stale(&b).is_none());
        // A search of `b` now clones `b`, and the next search of `b` takes that copy back.
        let w = kept.take(&b);
        kept.put(&b, w);
        assert!(kept.take_stale(&b).is_none());
        assert!(kept.take_stale(&a).is_some());
    }
}
