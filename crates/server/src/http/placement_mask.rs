//! `POST /api/placement/mask` (extension): every spot `POST /api/building/place` would accept
//! (with a doorstep that could be reached) for each of a list of prefabs, over the whole map, in
//! one answer: the Gym environment's
//! placement mask over HTTP (`sim::colony::PlacementMasks`). A read: it works on the published
//! snapshot on the blocking pool, never on the game's writer thread. The masks of the last list
//! asked for are kept and brought up to date on the next snapshot, rechecking only the spots a
//! changed tile can reach, so an agent asking every turn pays for what changed.

use super::AppState;
use super::body::{Body, BodySpec};
use super::error::{AppError, invalid_param};
use axum::Json;
use axum::extract::State;
use base64::Engine as _;
use serde::{Deserialize, Serialize};
use std::sync::{Arc, Mutex};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(placement_mask))
}

/// The most prefabs one request may ask for.
pub const MAX_PREFABS: usize = 32;

/// `POST /api/placement/mask` body.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MaskBody {
    /// Full prefab names (`Lodge.Folktails`, `Path`), 1-32.
    pub prefabs: Vec<String>,
}

impl BodySpec for MaskBody {
    const EXAMPLE: &'static str = r#"{"prefabs": ["Lodge.Folktails", "WaterPump.Folktails"]}"#;
}

/// One prefab's mask.
#[derive(Serialize, ToSchema)]
pub struct PrefabMask {
    pub prefab: String,
    /// How many spots (tile and orientation) are valid.
    pub valid: usize,
    /// Base64 of `height * width * 4` bytes, row by row from y 0, each tile's four
    /// orientations (south, west, north, east) in turn: the height the prefab stands at plus
    /// one where `place` accepts it, 0 where it refuses.
    pub spots: String,
}

/// `POST /api/placement/mask` answer.
#[derive(Serialize, ToSchema)]
pub struct MaskAnswer {
    pub width: u32,
    pub height: u32,
    pub orientations: [&'static str; 4],
    pub masks: Vec<PrefabMask>,
}

/// The masks of the last list asked for, kept for the next request.
#[derive(Clone, Default)]
pub struct KeptMasks(Arc<Mutex<Option<Kept>>>);

/// A list of prefab names and their masks.
type Kept = (Vec<String>, sim::colony::PlacementMasks);

/// Extension: for each prefab, every tile and orientation where `POST /api/building/place`
/// would accept it with a doorstep that could be reached (the placement rules, and no other
/// building on the doorstep; nothing of `/api/placement/find`'s ranking), and at which height,
/// over the whole map. Always json. Errors: `invalid_param` (an empty list or
/// more than 32 prefabs), `invalid_prefab`.
#[utoipa::path(post, path = "/api/placement/mask", tag = "colony", request_body = MaskBody,
    responses((status = 200, body = MaskAnswer)))]
async fn placement_mask(
    State(state): State<AppState>,
    Body(b): Body<MaskBody>,
) -> Result<Json<MaskAnswer>, AppError> {
    if b.prefabs.is_empty() || b.prefabs.len() > MAX_PREFABS {
        return Err(invalid_param(
            format!(
                "prefabs must list 1-{MAX_PREFABS} prefab names, e.g. [\"Lodge.Folktails\"]; got {}",
                b.prefabs.len()
            ),
            b.prefabs.len(),
        ));
    }
    let world = state.host.snapshot();
    let kept = state.kept_masks.clone();
    let answer = super::lifecycle::blocking(move || {
        let mut slot = kept.0.lock().unwrap_or_else(|e| e.into_inner());
        let masks = match slot.take() {
            Some((list, mut m)) if list == b.prefabs => {
                m.update(&world);
                m
            }
            _ => {
                let names: Vec<&str> = b.prefabs.iter().map(String::as_str).collect();
                sim::colony::PlacementMasks::new(&world, &names)
                    .map_err(crate::host::command_error)?
            }
        };
        let b64 = base64::engine::general_purpose::STANDARD;
        let answer = MaskAnswer {
            width: world.map().width(),
            height: world.map().height(),
            orientations: ["south", "west", "north", "east"],
            masks: masks
                .masks()
                .iter()
                .map(|m| PrefabMask {
                    prefab: m.prefab.clone(),
                    valid: m.count(),
                    spots: b64.encode(&m.spots),
                })
                .collect(),
        };
        *slot = Some((b.prefabs, masks));
        Ok(answer)
    })
    .await?;
    Ok(Json(answer))
}
