//! Colony reads and district commands: beavers, population, resources, districts, distribution
//! (read and set), migration, wellbeing, alerts and notifications. Reads build their answer from
//! the published snapshot; writes go through the game host.

use super::AppState;
use super::body::{Body, BodySpec};
use super::error::{ApiResult, AppError};
use super::format::Format;
use super::list::{Entity, EntityQuery, ListParams, ListQuery, Page, Rows, listed};
use super::rows::{self, Row};
use axum::Json;
use axum::extract::{Query, State};
use axum::http::Extensions;
use protocol::error::{ApiError, ErrorCode};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use sim::colony::{AlertView, BeaverView, NotificationView, PopulationView};
use std::collections::{BTreeMap, HashMap};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(beavers))
        .routes(routes!(population))
        .routes(routes!(resources))
        .routes(routes!(districts))
        .routes(routes!(get_distribution, set_distribution))
        .routes(routes!(migrate))
        .routes(routes!(wellbeing))
        .routes(routes!(alerts))
        .routes(routes!(notifications))
}

/// A beaver or bot as a toon row.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BeaverRow {
    pub id: i32,
    pub name: String,
    pub wellbeing: f64,
    /// By wellbeing: >=16 ecstatic, >=12 happy, >=8 okay, >=4 unhappy, else miserable.
    pub tier: String,
    pub is_bot: bool,
    /// Workplace name, empty if none.
    pub workplace: String,
    /// Critical need ids joined by `+` (json: `Beaver.critical`, an array).
    pub critical: String,
}

/// A beaver of a basic list: the Beaver object (json) or its row (toon).
#[derive(Serialize)]
#[serde(untagged)]
pub enum BeaverBasic {
    Json(BeaverView),
    Row(BeaverRow),
}

impl BeaverBasic {
    /// The basic form of a beaver's view (with its active needs) in the requested format.
    fn of(b: BeaverView, json: bool) -> BeaverBasic {
        if json {
            return BeaverBasic::Json(b);
        }
        BeaverBasic::Row(BeaverRow {
            id: b.id,
            name: b.name,
            wellbeing: b.wellbeing,
            tier: b.tier,
            is_bot: b.is_bot,
            workplace: b.workplace,
            critical: b.critical.join("+"),
        })
    }
}

impl Entity for BeaverView {
    const KIND: &'static str = "beaver or bot";
    const LIST: &'static str = "/api/beavers";

    type Basic = BeaverBasic;

    /// Every field, with `needs` as `Need:points/Need:points` and `critical` joined by `+`.
    fn flat(mut self) -> Row {
        let needs = rows::pairs_text(self.needs.iter().map(|n| (&n.id, n.points)));
        // The needs are replaced by their text in place (same key, same position): not
        // flattened first for nothing.
        self.needs.clear();
        let mut row = rows::flatten(self);
        row.insert("needs", needs);
        row
    }
}

/// Beavers and bots (paginated; `name`, `x`/`y`/`radius` filters). json: the Beaver object with
/// active needs (`detail=basic`) or every need with its group (`detail=full`); toon: rows `id,
/// name, wellbeing, tier, isBot, workplace, critical` (`detail=full`: every field flat, needs as
/// `Need:points/...`). `id=N` gives that one in full (`not_found` when there is none).
#[utoipa::path(get, path = "/api/beavers", tag = "colony",
    params(ListParams,
        ("detail" = Option<String>, Query, description = "basic (default: active needs) or full (every need with its group)"),
        ("id" = Option<i64>, Query, description = "one beaver or bot, full detail")),
    responses((status = 200, description = "a page of Beaver (json) or BeaverRow (toon); limit=0: an array")))]
async fn beavers(
    State(state): State<AppState>,
    ext: Extensions,
    Query(q): Query<HashMap<String, String>>,
) -> Result<axum::response::Response, AppError> {
    let w = state.host.snapshot();
    EntityQuery::serve(
        &q,
        &ext,
        |id| w.beaver_view(id, true),
        w.beaver_keys(),
        Rows {
            full: |ids: &[i32]| w.beavers_of(ids, true),
            basic: |ids: &[i32], json| {
                let basic = w.beavers_of(ids, false).into_iter();
                basic.map(|b| BeaverBasic::of(b, json)).collect()
            },
        },
    )
}

/// A district's population.
#[derive(Serialize, ToSchema)]
pub struct Population {
    pub adults: u32,
    pub children: u32,
    pub bots: u32,
}

impl From<&sim::colony::DistrictView> for Population {
    fn from(d: &sim::colony::DistrictView) -> Self {
        Population {
            adults: d.adults,
            children: d.children,
            bots: d.bots,
        }
    }
}

/// Population per district: `{district, adults, children, bots}` rows (both formats).
#[utoipa::path(get, path = "/api/population", tag = "colony", responses((status = 200, description = "[{district, adults, children, bots}]")))]
async fn population(State(state): State<AppState>) -> Json<Vec<PopulationView>> {
    Json(state.host.snapshot().population())
}

/// A stock as json: good -> `{available, all}` (`available` excludes goods reserved for
/// construction and recipes; `all` is everything in the district's buildings).
pub fn stock_json(stock: &BTreeMap<String, (u32, u32)>) -> Value {
    stock
        .iter()
        .map(|(g, (a, t))| (g.clone(), json!({"available": a, "all": t})))
        .collect::<Map<_, _>>()
        .into()
}

/// Goods per district. json: `{district: {good: {available, all}}}`; toon: rows `{district, good,
/// available, all}`, only goods with stock above 0.
#[utoipa::path(get, path = "/api/resources", tag = "colony", responses((status = 200, description = "json: {district: {good: {available, all}}}; toon: [{district, good, available, all}]")))]
async fn resources(State(state): State<AppState>, ext: Extensions) -> Json<Value> {
    let ds = state.host.snapshot().districts();
    if Format::of(&ext).is_json() {
        return Json(
            ds.iter()
                .map(|d| (d.name.clone(), stock_json(&d.resources)))
                .collect::<Map<_, _>>()
                .into(),
        );
    }
    let rows: Vec<Value> =
        ds.iter()
            .flat_map(|d| {
                d.resources.iter().filter(|(_, (_, all))| *all > 0).map(
                    |(g, (a, t))| json!({"district": d.name, "good": g, "available": a, "all": t}),
                )
            })
            .collect();
    Json(rows.into())
}

/// Districts. json: `[{name, population: {adults, children, bots}, resources: {good: {available,
/// all}}}]`; toon: rows `name, adults, children, bots` plus one key per good any district holds
/// (its total, `all`; 0 where a district has none, so every row has the same keys).
#[utoipa::path(get, path = "/api/districts", tag = "colony", responses((status = 200, description = "json: [{name, population, resources}]; toon: [{name, adults, children, bots, <good>...}]")))]
async fn districts(State(state): State<AppState>, ext: Extensions) -> Json<Value> {
    let ds = state.host.snapshot().districts();
    if Format::of(&ext).is_json() {
        let list: Vec<Value> = ds
            .iter()
            .map(|d| {
                json!({"name": d.name, "population": Population::from(d),
                       "resources": stock_json(&d.resources)})
            })
            .collect();
        return Json(list.into());
    }
    let flat: Vec<Row> = ds
        .iter()
        .map(|d| {
            let mut row = rows::flatten(json!({"name": d.name}));
            row.extend(rows::flatten(Population::from(d)));
            for (g, (_, all)) in d.resources.iter().filter(|(_, (_, all))| *all > 0) {
                row.insert(g.clone(), *all);
            }
            row
        })
        .collect();
    Json(serde_json::to_value(rows::uniform(flat)).expect("rows serialize"))
}

/// Distribution settings per district. json: `[{district, goods: [{good, importOption,
/// exportThreshold}]}]` (every good of the faction; `Auto` and 0 unless set); toon: rows
/// `{district, good, importOption, exportThreshold}`.
#[utoipa::path(get, path = "/api/distribution", tag = "colony", responses((status = 200, description = "[{district, goods: [{good, importOption, exportThreshold}]}]")))]
async fn get_distribution(State(state): State<AppState>, ext: Extensions) -> Json<Value> {
    let list = state.host.snapshot().distribution();
    if Format::of(&ext).is_json() {
        return Json(serde_json::to_value(list).expect("distribution serializes"));
    }
    let rows: Vec<Row> = list
        .into_iter()
        .flat_map(|d| {
            d.goods.into_iter().map(move |g| {
                let mut row = rows::flatten(json!({"district": d.district}));
                row.extend(rows::flatten(g));
                row
            })
        })
        .collect();
    Json(serde_json::to_value(rows).expect("rows serialize"))
}

/// `POST /api/distribution`.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DistributionBody {
    pub district: String,
    pub good: String,
    /// `None`, `Auto`, `Allowed` (same as `Auto`) or `Forced`, any case; empty or absent leaves
    /// it unchanged.
    #[serde(default)]
    pub import: Option<String>,
    /// 0 or more; -1 or absent leaves it unchanged.
    #[serde(default)]
    pub export_threshold: Option<i64>,
}

impl BodySpec for DistributionBody {
    const EXAMPLE: &'static str =
        r#"{"district": "District 1", "good": "Log", "import": "Forced", "exportThreshold": 20}"#;
}

/// Sets a district's import option and/or export threshold for a good. Unknown district:
/// `not_found` with `district` and `districts`; unknown good or option: `invalid_param`.
#[utoipa::path(post, path = "/api/distribution", tag = "colony", request_body = DistributionBody, responses((status = 200, description = "{district, good, importOption, exportThreshold}")))]
async fn set_distribution(
    State(state): State<AppState>,
    Body(b): Body<DistributionBody>,
) -> ApiResult<Value> {
    let (district, good, import, threshold) = state
        .host
        .write(move |w| {
            w.set_distribution(
                &b.district,
                &b.good,
                b.import.as_deref(),
                b.export_threshold,
            )
        })
        .await??;
    Ok(Json(json!({
        "district": district, "good": good, "importOption": import, "exportThreshold": threshold,
    })))
}

/// `POST /api/district/migrate`.
#[derive(Deserialize, ToSchema)]
pub struct MigrateBody {
    pub from: String,
    pub to: String,
    /// At least 1; fewer move when fewer adults are there.
    pub count: i64,
}

impl BodySpec for MigrateBody {
    const EXAMPLE: &'static str = r#"{"from": "District 1", "to": "District 2", "count": 2}"#;
}

/// Moves adult beavers from one district to another (they leave home and work and walk to the
/// new district center); emits `migration {from, to, count}`. Unknown district: `not_found` with
/// `from` or `to` (whichever is unknown) and `districts`; the same district twice:
/// `invalid_param`; no adults to move: `no_population` with `from`, `available`, `requested`;
/// more than it has: `invalid_param` with the same three (nobody moves).
#[utoipa::path(post, path = "/api/district/migrate", tag = "colony", request_body = MigrateBody, responses((status = 200, description = "{from, to, migrated}")))]
async fn migrate(State(state): State<AppState>, Body(b): Body<MigrateBody>) -> ApiResult<Value> {
    let (from, to, count) = (b.from.clone(), b.to.clone(), b.count);
    let migrated = state
        .host
        .write(move |w| w.migrate(&from, &to, count))
        .await??;
    Ok(Json(
        json!({"from": b.from, "to": b.to, "migrated": migrated}),
    ))
}

/// Wellbeing of the colony's beavers (bots excluded): `beavers`, `average`, `miserable` (below
/// 4), `critical` (with a critical need), and per need group the average `current` and the
/// `max` with each need's favorable and unfavorable wellbeing. toon: the same object with
/// `categories` as flat rows, `needs` as `Need:favorable:unfavorable/...`.
#[utoipa::path(get, path = "/api/wellbeing", tag = "colony", responses((status = 200, description = "{beavers, average, miserable, critical, categories: [{group, current, max, needs}]}")))]
async fn wellbeing(State(state): State<AppState>, ext: Extensions) -> Json<Value> {
    let wb = state.host.snapshot().wellbeing();
    if Format::of(&ext).is_json() {
        return Json(serde_json::to_value(wb).expect("wellbeing serializes"));
    }
    let categories = rows::flat_rows(&wb.categories);
    let mut out = serde_json::to_value(&wb).expect("wellbeing serializes");
    out["categories"] = serde_json::to_value(categories).expect("rows serialize");
    Json(out)
}

/// Alerts (paginated; `name`, `x`/`y`/`radius` filters): rows `{type, id, name, x, y, z, workers,
/// status}` in both formats; `type` is `unstaffed` (with `workers` as `assigned/desired`),
/// `unpowered`, `unreachable` or `status` (with the `status` text); the other member is empty.
#[utoipa::path(get, path = "/api/alerts", tag = "colony", params(ListParams), responses((status = 200, description = "[{type, id, name, x, y, z, workers, status}]")))]
async fn alerts(
    State(state): State<AppState>,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Page<AlertView>, AppError> {
    listed(&q, state.host.snapshot().alerts(), |a| {
        (&a.name, a.x.into(), a.y.into())
    })
}

/// Notifications, newest first (paginated; `name` matches the subject; they have no position, so
/// `x`/`y` are `invalid_param`): `{subject, description, cycle, cycleDay}`.
#[utoipa::path(get, path = "/api/notifications", tag = "colony", params(ListParams), responses((status = 200, description = "[{subject, description, cycle, cycleDay}]")))]
async fn notifications(
    State(state): State<AppState>,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Page<NotificationView>, AppError> {
    let lq = ListQuery::parse(&q)?;
    if lq.near.is_some() {
        return Err(AppError(
            ApiError::new(
                ErrorCode::InvalidParam,
                "notifications have no position; filter them by name (part of the subject)",
            )
            .with("got", json!({"x": q.get("x"), "y": q.get("y")})),
        ));
    }
    let mut list = state.host.snapshot().notifications();
    list.reverse();
    Ok(lq.page(list, |n| (&n.subject, 0, 0)))
}
