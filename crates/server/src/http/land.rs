//! Land routes: tiles, trees, crops, gatherables, clusters, the cutting area, planting marks and
//! crop demolition. Reads build their answer from the published snapshot; writes go through the
//! game host and are validated in full by the simulation before anything changes.

use super::AppState;
use super::body::{Body, BodySpec};
use super::error::{ApiResult, AppError};
use super::format::{Format, json_off_runtime};
use super::list::{ListParams, ListQuery, Page};
use axum::Json;
use axum::extract::{Query, State};
use axum::http::Extensions;
use axum::response::{IntoResponse, Response};
use protocol::error::{ApiError, ErrorCode};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::HashMap;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(tiles))
        .routes(routes!(trees))
        .routes(routes!(crops))
        .routes(routes!(gatherables))
        .routes(routes!(tree_clusters))
        .routes(routes!(food_clusters))
        .routes(routes!(cutting_area))
        .routes(routes!(planting_mark))
        .routes(routes!(planting_clear))
        .routes(routes!(planting_find))
        .routes(routes!(crop_demolish))
}

/// A required integer query parameter.
fn required_int(q: &HashMap<String, String>, key: &str, example: &str) -> Result<i64, AppError> {
    super::list::int_param(q, key, i64::MIN)?.ok_or_else(|| {
        AppError(
            ApiError::new(
                ErrorCode::InvalidParam,
                format!("missing required parameter {key}; e.g. {example}"),
            )
            .with("got", Value::Null),
        )
    })
}

/// A tile as the contract shows it.
#[derive(Serialize, ToSchema)]
pub struct TileJson {
    pub x: u32,
    pub y: u32,
    pub terrain: u32,
    pub water: f64,
    /// Badwater share 0-1, present when above 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub badwater: Option<f64>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub occupants: Vec<Occupant>,
    #[serde(skip_serializing_if = "is_false")]
    pub entrance: bool,
    #[serde(skip_serializing_if = "is_false")]
    pub seedling: bool,
    #[serde(skip_serializing_if = "is_false")]
    pub dead: bool,
    #[serde(skip_serializing_if = "is_false")]
    pub contaminated: bool,
    #[serde(skip_serializing_if = "is_false")]
    pub moist: bool,
    /// An aquifer tile, where an aquifer drill may stand; present when true.
    #[serde(skip_serializing_if = "is_false")]
    pub aquifer: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Something standing on a tile.
#[derive(Serialize, ToSchema)]
pub struct Occupant {
    pub name: String,
    pub z: u32,
}

/// `GET /api/tiles` answer.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TilesResponse {
    pub map_size: Value,
    pub region: Value,
    /// json: Tile objects with optional members; toon: flat rows with every key.
    #[schema(value_type = Vec<Object>)]
    pub tiles: Tiles,
}

/// Depths and shares to a millimetre: exact enough, and short on the wire.
fn round3(v: f32) -> f64 {
    (f64::from(v) * 1000.0).round() / 1000.0
}

/// The tiles in the requested shape.
#[derive(Serialize)]
#[serde(untagged)]
pub enum Tiles {
    Json(Vec<TileJson>),
    Toon(Vec<TileRow>),
}

impl From<sim::TileView> for TileJson {
    fn from(t: sim::TileView) -> Self {
        TileJson {
            x: t.x,
            y: t.y,
            terrain: t.terrain as u32,
            water: round3(t.water),
            badwater: t.badwater.map(round3),
            occupants: t
                .occupants
                .into_iter()
                .map(|o| Occupant {
                    name: o.name,
                    z: o.z,
                })
                .collect(),
            entrance: t.entrance,
            seedling: t.seedling,
            dead: t.dead,
            contaminated: t.contaminated,
            moist: t.moist,
            aquifer: t.aquifer,
        }
    }
}

/// A tile as a flat toon row: every key present, occupants as `name:z/name:z`.
#[derive(Serialize)]
pub struct TileRow {
    pub x: u32,
    pub y: u32,
    pub terrain: u32,
    pub water: f64,
    pub badwater: f64,
    pub occupants: String,
    pub entrance: bool,
    pub seedling: bool,
    pub dead: bool,
    pub contaminated: bool,
    pub moist: bool,
    pub aquifer: bool,
}

impl From<sim::TileView> for TileRow {
    fn from(t: sim::TileView) -> Self {
        let occupants = t
            .occupants
            .iter()
            .map(|o| format!("{}:{}", o.name, o.z))
            .collect::<Vec<_>>()
            .join("/");
        TileRow {
            x: t.x,
            y: t.y,
            terrain: t.terrain as u32,
            water: round3(t.water),
            badwater: round3(t.badwater.unwrap_or(0.0)),
            occupants,
            entrance: t.entrance,
            seedling: t.seedling,
            dead: t.dead,
            contaminated: t.contaminated,
            moist: t.moist,
            aquifer: t.aquifer,
        }
    }
}

/// Terrain, water and what stands on each tile of a region (clamped to the map).
#[utoipa::path(get, path = "/api/tiles", tag = "land",
    params(("x1" = i64, Query), ("y1" = i64, Query), ("x2" = i64, Query), ("y2" = i64, Query)),
    responses((status = 200, body = TilesResponse)))]
async fn tiles(
    State(state): State<AppState>,
    ext: Extensions,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Response, AppError> {
    let ex = "/api/tiles?x1=0&y1=0&x2=31&y2=31";
    let (x1, y1, x2, y2) = (
        required_int(&q, "x1", ex)?,
        required_int(&q, "y1", ex)?,
        required_int(&q, "x2", ex)?,
        required_int(&q, "y2", ex)?,
    );
    let world = state.host.snapshot();
    let json = Format::of(&ext).is_json();
    let build = move || tiles_answer(&world, (x1, y1, x2, y2), json);
    // A large region (a whole 256 map is 65,536 rows) is built off the runtime's core threads.
    let side = |a: i64, b: i64| b.saturating_sub(a).unsigned_abs().saturating_add(1);
    let area = side(x1, x2).saturating_mul(side(y1, y2));
    if area > LARGE_REGION_TILES {
        return Ok(json_off_runtime(build).await?);
    }
    Ok(Json(build()?).into_response())
}

/// Regions of more tiles than this are built on the blocking pool.
const LARGE_REGION_TILES: u64 = 16 * 1024;

/// The `GET /api/tiles` answer for a region, in the requested shape.
fn tiles_answer(
    world: &sim::World,
    (x1, y1, x2, y2): (i64, i64, i64, i64),
    json: bool,
) -> Result<TilesResponse, ApiError> {
    let region = world
        .tiles(x1, y1, x2, y2)
        .map_err(crate::host::command_error)?;
    let map = world.map();
    let tiles = if json {
        Tiles::Json(region.tiles.into_iter().map(TileJson::from).collect())
    } else {
        Tiles::Toon(region.tiles.into_iter().map(TileRow::from).collect())
    };
    let sim::Area {
        x1: rx1,
        y1: ry1,
        x2: rx2,
        y2: ry2,
    } = region.region;
    Ok(TilesResponse {
        map_size: json!({"x": map.width(), "y": map.height(), "z": map.max_height()}),
        region: json!({"x1": rx1, "y1": ry1, "x2": rx2, "y2": ry2}),
        tiles,
    })
}

/// A tree or crop row.
#[derive(Serialize, ToSchema)]
pub struct PlantRow {
    pub id: i32,
    pub name: String,
    pub x: u32,
    pub y: u32,
    pub z: u32,
    pub alive: bool,
    pub marked: bool,
    pub grown: bool,
    pub growth: f64,
}

fn plant_rows(plants: Vec<sim::PlantView>) -> Vec<PlantRow> {
    plants
        .into_iter()
        .map(|p| PlantRow {
            id: p.id,
            name: p.name,
            x: p.x,
            y: p.y,
            z: p.z,
            alive: p.alive,
            marked: p.marked,
            grown: p.grown,
            growth: round3(p.growth),
        })
        .collect()
}

/// Trees (paginated; `name`, `x`/`y`/`radius` filters).
#[utoipa::path(get, path = "/api/trees", tag = "land",
    params(ListParams),
    responses((status = 200, description = "a page of PlantRow (limit=0: an array)")))]
async fn trees(
    State(state): State<AppState>,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Page<PlantRow>, AppError> {
    // Filtered and paged on the plants' keys; only the page's views are built.
    let w = state.host.snapshot();
    let list = ListQuery::parse(&q)?;
    let (total, ids) = list.select(w.tree_keys());
    Ok(Page::of(&list, total, plant_rows(w.plant_views_of(&ids))))
}

/// Crops (paginated; same filters as trees).
#[utoipa::path(get, path = "/api/crops", tag = "land",
    params(ListParams),
    responses((status = 200, description = "a page of PlantRow (limit=0: an array)")))]
async fn crops(
    State(state): State<AppState>,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Page<PlantRow>, AppError> {
    // Filtered and paged on the plants' keys; only the page's views are built.
    let w = state.host.snapshot();
    let list = ListQuery::parse(&q)?;
    let (total, ids) = list.select(w.crop_keys());
    Ok(Page::of(&list, total, plant_rows(w.plant_views_of(&ids))))
}

/// A gatherable bush.
#[derive(Serialize, ToSchema)]
pub struct GatherableRow {
    pub id: i32,
    pub name: String,
    pub x: u32,
    pub y: u32,
    pub z: u32,
    pub alive: bool,
}

/// Gatherable bushes (paginated; same filters as trees).
#[utoipa::path(get, path = "/api/gatherables", tag = "land",
    params(ListParams),
    responses((status = 200, description = "a page of GatherableRow (limit=0: an array)")))]
async fn gatherables(
    State(state): State<AppState>,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Page<GatherableRow>, AppError> {
    // Filtered and paged on the bushes' keys, as trees are.
    let w = state.host.snapshot();
    let list = ListQuery::parse(&q)?;
    let (total, ids) = list.select(w.gatherable_keys());
    let rows: Vec<GatherableRow> = w
        .gatherable_views_of(&ids)
        .into_iter()
        .map(|g| GatherableRow {
            id: g.id,
            name: g.name,
            x: g.x,
            y: g.y,
            z: g.z,
            alive: g.alive,
        })
        .collect();
    Ok(Page::of(&list, total, rows))
}

/// A cluster of trees or food.
#[derive(Serialize, ToSchema)]
pub struct ClusterRow {
    pub x: u32,
    pub y: u32,
    pub z: u32,
    pub grown: u32,
    pub total: u32,
    /// json: species name to count; toon: `Name:N/Name:N`.
    #[schema(value_type = HashMap<String, u32>)]
    pub species: Value,
}

/// Renders clusters in the requested format.
pub fn cluster_rows(clusters: Vec<sim::ClusterView>, format: Format) -> Vec<ClusterRow> {
    clusters
        .into_iter()
        .map(|c| {
            let species = if format.is_json() {
                serde_json::to_value(&c.species).expect("species serialize")
            } else {
                Value::String(super::rows::pairs_text(&c.species))
            };
            ClusterRow {
                x: c.x,
                y: c.y,
                z: c.z,
                grown: c.grown,
                total: c.total,
                species,
            }
        })
        .collect()
}

/// The five densest clusters of grown trees.
#[utoipa::path(get, path = "/api/tree_clusters", tag = "land", responses((status = 200, body = Vec<ClusterRow>)))]
async fn tree_clusters(State(state): State<AppState>, ext: Extensions) -> Json<Vec<ClusterRow>> {
    Json(cluster_rows(
        state.host.snapshot().tree_clusters(),
        Format::of(&ext),
    ))
}

/// The five densest clusters of gatherable food (trees excluded).
#[utoipa::path(get, path = "/api/food_clusters", tag = "land", responses((status = 200, body = Vec<ClusterRow>)))]
async fn food_clusters(State(state): State<AppState>, ext: Extensions) -> Json<Vec<ClusterRow>> {
    Json(cluster_rows(
        state.host.snapshot().food_clusters(),
        Format::of(&ext),
    ))
}

/// An area at one level.
#[derive(Deserialize, Serialize, ToSchema, Clone, Copy)]
pub struct Area {
    pub x1: i64,
    pub y1: i64,
    pub x2: i64,
    pub y2: i64,
    pub z: i64,
}

/// `POST /api/cutting/area`.
#[derive(Deserialize, ToSchema)]
pub struct CuttingBody {
    #[serde(flatten)]
    pub area: Area,
    pub marked: bool,
}

impl BodySpec for CuttingBody {
    const EXAMPLE: &'static str =
        r#"{"x1": 10, "y1": 10, "x2": 20, "y2": 20, "z": 4, "marked": true}"#;
}

/// The answer of an area action: the area's fields plus the action's own.
fn area_answer<const N: usize>(a: &Area, extra: [(&str, Value); N]) -> Json<Value> {
    let mut out = match serde_json::to_value(a).expect("area serializes") {
        Value::Object(m) => m,
        _ => unreachable!("a struct serializes to an object"),
    };
    for (k, v) in extra {
        out.insert(k.to_string(), v);
    }
    Json(Value::Object(out))
}

/// Marks (or unmarks) the trees of an area for cutting.
#[utoipa::path(post, path = "/api/cutting/area", tag = "land", request_body = CuttingBody, responses((status = 200, description = "the area, marked and tiles")))]
async fn cutting_area(
    State(state): State<AppState>,
    Body(body): Body<CuttingBody>,
) -> ApiResult<Value> {
    let a = body.area;
    let marked = body.marked;
    let tiles = state
        .host
        .write(move |w| w.set_cutting_area(a.x1, a.y1, a.x2, a.y2, a.z, marked))
        .await??;
    Ok(area_answer(
        &a,
        [("marked", marked.into()), ("tiles", tiles.into())],
    ))
}

/// `POST /api/planting/mark`.
#[derive(Deserialize, ToSchema)]
pub struct PlantingMarkBody {
    #[serde(flatten)]
    pub area: Area,
    /// A crop (or, for foresters, a tree species).
    pub crop: String,
}

impl BodySpec for PlantingMarkBody {
    const EXAMPLE: &'static str =
        r#"{"x1": 10, "y1": 10, "x2": 14, "y2": 14, "z": 4, "crop": "Carrot"}"#;
}

/// Marks free land of an area for planting a crop; skips occupied, water and wrong-level tiles.
#[utoipa::path(post, path = "/api/planting/mark", tag = "land", request_body = PlantingMarkBody, responses((status = 200, description = "the area, crop, marked (tiles marked for planting), planted (the same count, the contract's name) and skipped")))]
async fn planting_mark(
    State(state): State<AppState>,
    Body(body): Body<PlantingMarkBody>,
) -> ApiResult<Value> {
    let a = body.area;
    let crop = body.crop.clone();
    let (planted, skipped) = state
        .host
        .write(move |w| w.mark_planting(a.x1, a.y1, a.x2, a.y2, a.z, &crop))
        .await??;
    Ok(area_answer(
        &a,
        [
            ("crop", body.crop.into()),
            // `marked` says what happened (tiles marked for planting; farmers plant them later);
            // `planted` is the contract's name for the same count, kept for its clients.
            ("marked", planted.into()),
            ("planted", planted.into()),
            ("skipped", skipped.into()),
        ],
    ))
}

/// `POST /api/planting/clear`.
#[derive(Deserialize, ToSchema)]
pub struct PlantingClearBody {
    #[serde(flatten)]
    pub area: Area,
}

impl BodySpec for PlantingClearBody {
    const EXAMPLE: &'static str = r#"{"x1": 10, "y1": 10, "x2": 14, "y2": 14, "z": 4}"#;
}

/// Clears the planting marks of an area.
#[utoipa::path(post, path = "/api/planting/clear", tag = "land", request_body = PlantingClearBody, responses((status = 200, description = "the area, cleared and tiles")))]
async fn planting_clear(
    State(state): State<AppState>,
    Body(body): Body<PlantingClearBody>,
) -> ApiResult<Value> {
    let a = body.area;
    let tiles = state
        .host
        .write(move |w| w.clear_planting(a.x1, a.y1, a.x2, a.y2, a.z))
        .await??;
    Ok(area_answer(
        &a,
        [("cleared", true.into()), ("tiles", tiles.into())],
    ))
}

/// `POST /api/planting/find`.
#[derive(Deserialize, ToSchema)]
pub struct PlantingFindBody {
    pub crop: String,
    /// A farmhouse or forester (finished or not): spots within its range, at its level unless
    /// `z` is given (0 or absent: scan the area x1, y1, x2, y2).
    #[serde(default)]
    pub id: i64,
    pub x1: Option<i64>,
    pub y1: Option<i64>,
    pub x2: Option<i64>,
    pub y2: Option<i64>,
    pub z: Option<i64>,
}

impl BodySpec for PlantingFindBody {
    const EXAMPLE: &'static str = r#"{"crop": "Carrot", "x1": 0, "y1": 0, "x2": 40, "y2": 40}"#;
}

/// A place to plant.
#[derive(Serialize, ToSchema)]
pub struct Spot {
    pub x: u32,
    pub y: u32,
    pub z: u32,
    pub moist: bool,
    pub planted: bool,
}

/// `POST /api/planting/find` answer.
#[derive(Serialize, ToSchema)]
pub struct SpotsResponse {
    pub crop: String,
    pub spots: Vec<Spot>,
}

/// Free, plantable land for a crop in an area.
#[utoipa::path(post, path = "/api/planting/find", tag = "land", request_body = PlantingFindBody, responses((status = 200, body = SpotsResponse)))]
async fn planting_find(
    State(state): State<AppState>,
    Body(body): Body<PlantingFindBody>,
) -> ApiResult<SpotsResponse> {
    if body.id != 0 {
        let w = state.host.snapshot();
        let spots = match i32::try_from(body.id) {
            Ok(id) => w.find_planting_spots_for(&body.crop, id, body.z)?,
            Err(_) => {
                return Err(AppError(
                    ApiError::new(
                        ErrorCode::NotFound,
                        format!(
                            "no building with id {}; re-query GET /api/buildings",
                            body.id
                        ),
                    )
                    .with("id", body.id),
                ));
            }
        };
        return Ok(Json(SpotsResponse::of(body.crop, spots)));
    }
    let area = match (body.x1, body.y1, body.x2, body.y2) {
        (Some(x1), Some(y1), Some(x2), Some(y2)) => (x1, y1, x2, y2),
        _ => {
            return Err(super::error::invalid_param(
                format!(
                    "send an area x1, y1, x2, y2 (and optionally z), e.g. {}",
                    PlantingFindBody::EXAMPLE
                ),
                json!({"x1": body.x1, "y1": body.y1, "x2": body.x2, "y2": body.y2}),
            ));
        }
    };
    let spots = state
        .host
        .snapshot()
        .find_planting_spots(&body.crop, area.0, area.1, area.2, area.3, body.z)?;
    Ok(Json(SpotsResponse::of(body.crop, spots)))
}

impl SpotsResponse {
    fn of(crop: String, spots: Vec<sim::Spot>) -> SpotsResponse {
        SpotsResponse {
            crop,
            spots: spots
                .into_iter()
                .map(|s| Spot {
                    x: s.x,
                    y: s.y,
                    z: s.z,
                    moist: s.moist,
                    planted: s.planted,
                })
                .collect(),
        }
    }
}

/// `{id}`.
#[derive(Deserialize, ToSchema)]
pub struct IdBody {
    pub id: i64,
}

impl BodySpec for IdBody {
    const EXAMPLE: &'static str = r#"{"id": 123456}"#;
}

/// Removes a crop.
#[utoipa::path(post, path = "/api/crop/demolish", tag = "land", request_body = IdBody, responses((status = 200, description = "{id, name, demolished: true}")))]
async fn crop_demolish(
    State(state): State<AppState>,
    Body(body): Body<IdBody>,
) -> ApiResult<Value> {
    let id = super::error::entity_id(body.id, "crop", "/api/crops")?;
    let (id, name) = state.host.write(move |w| w.demolish_crop(id)).await??;
    Ok(Json(json!({"id": id, "name": name, "demolished": true})))
}
