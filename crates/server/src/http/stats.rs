//! `GET /api/stats` (extension): the colony's history, one row per game hour (`sim::history`),
//! filtered by day. The rows are kept by the game as it runs, so a read only copies them out.

use super::AppState;
use super::error::{AppError, invalid_param};
use super::format::Format;
use super::list::int_param;
use axum::Json;
use axum::extract::{Query, State};
use axum::http::Extensions;
use serde::Serialize;
use serde_json::Value;
use sim::history::HistoryRow;
use std::collections::HashMap;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(stats))
}

/// The json answer.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct StatsJson<'a> {
    /// Always `hour`: one row per game hour.
    resolution: &'static str,
    from: u32,
    to: u32,
    rows: &'a [HistoryRow],
}

/// The colony's history: one row per game hour, recorded at each full hour and kept in saves.
/// `from` and `to` are day numbers (inclusive; default: the whole game). json:
/// `{resolution: "hour", from, to, rows}`; each row `{day, hour, ticks, adults, children, bots,
/// births, deaths: {cause: n}, stock: {good: n}, foodDays, waterDays, wellbeing, miserable,
/// critical, buildings: {role: n}, sites, science, scienceEarned, unlocked, produced: {good: n},
/// consumed: {good: n}, weather, powerNetworks, waterPowered: {prefab: n}, districts, districtLinks,
/// automated: {prefab: n}, gameOver}`
/// (`waterPowered`: consumers at work in a network water wheels feed; `automated`: finished
/// automated buildings whose input is linked to a transmitter; births, deaths, produced,
/// consumed and scienceEarned count that hour only). toon: one flat row per hour, the maps as
/// `key:n/key:n`.
#[utoipa::path(get, path = "/api/stats", tag = "colony",
    params(
        ("from" = Option<i64>, Query, description = "first day (>= 1; default 1)"),
        ("to" = Option<i64>, Query, description = "last day (>= from; default: today)")),
    responses((status = 200, description = "{resolution, from, to, rows}: one row per game hour")))]
async fn stats(
    State(state): State<AppState>,
    ext: Extensions,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Json<Value>, AppError> {
    let from = int_param(&q, "from", 1)?.unwrap_or(1);
    let to = int_param(&q, "to", 1)?;
    if let Some(to) = to
        && to < from
    {
        return Err(invalid_param(
            format!(
                "to ({to}) must not be before from ({from}); days are inclusive, e.g. from=3&to=5"
            ),
            serde_json::json!({"from": from, "to": to}),
        ));
    }
    let w = state.host.snapshot();
    let clamp = |d: i64| u32::try_from(d).unwrap_or(u32::MAX);
    let (from, to) = (clamp(from), clamp(to.unwrap_or(i64::from(w.day()))));
    let rows = w.history().between(from, to);
    let out = if Format::of(&ext).is_json() {
        serde_json::to_value(StatsJson {
            resolution: "hour",
            from,
            to,
            rows,
        })
    } else {
        serde_json::to_value(super::rows::uniform(
            rows.iter().map(super::rows::flatten).collect(),
        ))
    };
    Ok(Json(out.expect("history rows serialize")))
}
