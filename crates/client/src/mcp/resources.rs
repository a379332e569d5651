//! Resources (the summary, the map of the district, the prefab catalogue, the scenario goal)
//! and the `play_turn` prompt that teaches a model the basics of a colony.

use super::api::{Api, Failure};
use super::composite;
use super::overview::starters;
use crate::http::Answer;
use crate::output;
use protocol::routes::Method;
use rmcp::model::{Resource, ResourceContents};
use serde_json::{Map, Value};

/// (uri, name, description, mime type)
pub const RESOURCES: &[(&str, &str, &str, &str)] = &[
    (
        "colony://summary",
        "summary",
        "The colony at a glance as one TOON row: time, weather, population, stock and days \
         left, wellbeing, alerts, tree and food clusters",
        "text/plain",
    ),
    (
        "colony://map",
        "district map",
        "The text map around the first district center (heights, water, trees, paths, \
         buildings, beavers)",
        "text/plain",
    ),
    (
        "colony://prefabs",
        "prefab catalogue",
        "The faction's buildings: size, cost, science cost, unlocked",
        "text/plain",
    ),
    (
        "colony://goal",
        "scenario goal",
        "The goal set for the agent (the scenario's objective in an evaluation)",
        "text/plain",
    ),
];

pub fn list() -> Vec<Resource> {
    RESOURCES
        .iter()
        .map(|(uri, name, description, mime)| {
            Resource::new(*uri, *name)
                .with_description(*description)
                .with_mime_type(*mime)
        })
        .collect()
}

/// Reads a resource: `Ok(None)` for an unknown URI.
pub async fn read(api: &Api, uri: &str) -> Result<Option<ResourceContents>, Failure> {
    let text = match uri {
        "colony://summary" => flat(api, "/api/summary").await?,
        "colony://prefabs" => flat(api, "/api/prefabs").await?,
        "colony://goal" => {
            let state = api.get_json("/api/agent/state", vec![]).await?;
            match state["goal"].as_str().map(str::trim) {
                Some(g) if !g.is_empty() => g.to_owned(),
                _ => "No goal is set: keep the colony alive and growing.".to_owned(),
            }
        }
        "colony://map" => {
            let r = composite::map(api, &Map::new()).await;
            let text = r
                .content
                .first()
                .and_then(|c| c.as_text())
                .map(|t| t.text.clone())
                .unwrap_or_default();
            if r.is_error == Some(true) {
                return Err(Failure::new("map", text));
            }
            text
        }
        _ => return Ok(None),
    };
    Ok(Some(
        ResourceContents::text(text, uri).with_mime_type("text/plain"),
    ))
}

/// A read in the CLI's compact form, as TOON text.
async fn flat(api: &Api, path: &str) -> Result<String, Failure> {
    match api.send(Method::Get, path, &Map::new(), false).await? {
        Answer::Ok(v) => Ok(output::toon(&v)),
        Answer::Error { error, .. } => Err(Failure::new(
            super::answer::code_of(&error),
            error.message(),
        )),
    }
}

/// The `play_turn` prompt's text. `faction` picks the building names of the examples.
pub fn play_turn(goal: Option<&str>, turn: Option<&str>, faction: &str) -> String {
    let s = starters(faction);
    let mut out = String::from(
        "You are playing Colony, a beaver colony game like Timberborn, through the colony MCP \
         tools.\n",
    );
    if let Some(g) = goal.filter(|g| !g.trim().is_empty()) {
        out.push_str(&format!("Goal: {}\n", g.trim()));
    }
    if let Some(t) = turn.filter(|t| !t.trim().is_empty()) {
        out.push_str(&format!("This is turn {}.\n", t.trim()));
    }
    out.push_str(&format!(
        "\nHow to play a turn:\n\
         1. Call colony_overview. Its `short` list says what is lacking, most urgent first.\n\
         2. Water first: a game starts with little or no water and beavers die of thirst within \
         days. Build a {pump} where find_placement shows waterDepth (by the river), a {tank} \
         beside it to store what it pumps. The build tool finds a spot, places it and lays the \
         path in one call.\n\
         3. Paths: a building is built and staffed only when a path joins its entrance tile to \
         the district center's entrance (colony_overview lists it). place_path reuses existing \
         paths.\n\
         4. Food: berries last about four days. A {gatherer} by a find_food_clusters spot, then a \
         {farm} with crops (mark_planting, e.g. Carrot) on moist land near water.\n\
         5. Homes: {home}; homeless beavers are unhappy and kits are born only in free beds.\n\
         6. Wood: a {lumberjack} by a find_tree_clusters spot and mark_trees_for_cutting around \
         it; logs and planks pay for almost everything.\n\
         7. Droughts stop the river (colony_overview weather.startsInDays): store water in tanks \
         before they come.\n\
         8. Construction takes game hours. When the game lets you control time, advance runs it \
         and reports deaths, births and finished buildings; in an evaluation, time passes \
         between turns.\n\
         Tool errors start with a code (invalid_param, not_unlocked, insufficient_science, \
         placement...) and say what to do instead. Use the map tool to see the land. Finish the \
         turn with log_message saying what you did and why.\n",
        pump = s.pump,
        tank = s.tank,
        gatherer = s.gatherer,
        farm = s.farm,
        home = s.home,
        lumberjack = s.lumberjack,
    ));
    out
}

/// The faction and goal of the running game, for the prompt (either may be missing).
pub async fn game_facts(api: &Api) -> (Option<String>, Option<String>) {
    let (summary, state) = tokio::join!(
        api.get_json("/api/summary", vec![]),
        api.get_json("/api/agent/state", vec![])
    );
    let faction = summary
        .ok()
        .and_then(|s: Value| s["faction"].as_str().map(String::from));
    let goal = state
        .ok()
        .and_then(|s: Value| s["goal"].as_str().map(String::from));
    (faction, goal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prompt_names_the_faction_s_buildings_goal_and_turn() {
        let p = play_turn(Some("Survive 60 days"), Some("3"), "IronTeeth");
        assert!(p.contains("Goal: Survive 60 days\nThis is turn 3."));
        assert!(p.contains("DeepWaterPump.IronTeeth"));
        assert!(p.contains("Water first"));
        let p = play_turn(None, None, "Folktails");
        assert!(!p.contains("Goal:"));
        assert!(p.contains("Lodge.Folktails"));
    }

    #[test]
    fn resources_have_unique_uris() {
        let l = list();
        assert_eq!(l.len(), 4);
        let mut uris: Vec<&str> = RESOURCES.iter().map(|r| r.0).collect();
        uris.dedup();
        assert_eq!(uris.len(), 4);
    }
}
