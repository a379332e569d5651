//! Resources (the summary, the map of the district, the prefab catalogue, the scenario goal)
//! and the `play_turn` prompt that teaches a model the basics of a colony.

use super::api::{Api, Failure};
use super::composite;
use super::overview::starters;
use super::profile::Profile;
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

/// What the server tells a client at initialize, naming only the profile's tools.
pub fn instructions(profile: &Profile) -> String {
    let has = |n: &str| profile.has(n);
    let mut out =
        String::from("Colony: a beaver colony game (like Timberborn) played through these tools. ");
    if has("colony_overview") {
        out.push_str(
            "Start each turn with `colony_overview`; its `short` list says what is lacking. ",
        );
    }
    out.push_str(
        "Water first (a pump by the river and a tank), then food, homes and wood; every building \
         needs a path from its entrance to the district center",
    );
    out.push_str(if has("build") {
        " (the `build` tool places a building and its path in one call). "
    } else {
        ". "
    });
    out.push_str(&format!(
        "Answers are compact TOON text; errors start with a code and say what to do instead. The \
         play_turn prompt has the basics. Tool profile: {} ({} tools){}.",
        profile.label,
        profile.names().len(),
        if profile.label == "all" {
            ""
        } else {
            "; `colony mcp --tools all` offers every tool"
        }
    ));
    out
}

/// The `play_turn` prompt's text. `faction` picks the building names of the examples; only the
/// profile's tools are named (in backticks).
pub fn play_turn(
    goal: Option<&str>,
    turn: Option<&str>,
    faction: &str,
    profile: &Profile,
) -> String {
    let s = starters(faction);
    let has = |n: &str| profile.has(n);
    // `text` when the profile has `tool`, else nothing.
    let with = |tool: &str, text: &str| {
        if has(tool) {
            text.to_owned()
        } else {
            String::new()
        }
    };
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
    let mut steps = Vec::new();
    steps.push(if has("colony_overview") {
        "Call `colony_overview`. Its `short` list says what is lacking, most urgent first."
            .to_owned()
    } else if has("get_summary") {
        "Read the colony with `get_summary`: water, food, homes, wood.".to_owned()
    } else {
        "Take stock of the colony: water, food, homes, wood.".to_owned()
    });
    steps.push(format!(
        "Water first: a game starts with little or no water and beavers die of thirst within \
         days. Build a {pump} by the river{where_}, a {tank} beside it to store what it pumps.{how}",
        pump = s.pump,
        tank = s.tank,
        where_ = with("find_placement", " (`find_placement` shows waterDepth there)"),
        how = if has("build") {
            " The `build` tool finds a spot, places it and lays the path in one call."
        } else if has("place_building") {
            " `place_building` places it."
        } else {
            ""
        },
    ));
    steps.push(format!(
        "Paths: a building is built and staffed only when a path joins its entrance tile to the \
         district center's entrance{}.{}",
        with("colony_overview", " (`colony_overview` lists it)"),
        with("place_path", " `place_path` reuses existing paths.")
    ));
    steps.push(format!(
        "Food: berries last about four days. A {gatherer}{food}, then a {farm} with crops{mark} \
         on moist land near water.",
        gatherer = s.gatherer,
        farm = s.farm,
        food = with("find_food_clusters", " by a `find_food_clusters` spot"),
        mark = with("mark_planting", " (`mark_planting`, e.g. Carrot)"),
    ));
    steps.push(format!(
        "Homes: {home}; homeless beavers are unhappy and kits are born only in free beds.",
        home = s.home
    ));
    steps.push(format!(
        "Wood: a {lumberjack}{trees} and the trees around it marked for cutting{mark}; logs and \
         planks pay for almost everything.",
        lumberjack = s.lumberjack,
        trees = with("find_tree_clusters", " by a `find_tree_clusters` spot"),
        mark = with("mark_trees_for_cutting", " (`mark_trees_for_cutting`)"),
    ));
    steps.push(format!(
        "Droughts stop the river{}: store water in tanks before they come.",
        with(
            "colony_overview",
            " (`colony_overview` weather.startsInDays)"
        )
    ));
    steps.push(format!(
        "Construction takes game hours. {}In an evaluation, time passes between turns.",
        with(
            "advance",
            "When the game lets you control time, `advance` runs it and reports deaths, births \
             and finished buildings. "
        )
    ));
    out.push_str("\nHow to play a turn:\n");
    for (i, step) in steps.iter().enumerate() {
        out.push_str(&format!("{}. {step}\n", i + 1));
    }
    out.push_str(&format!(
        "Tool errors start with a code (invalid_param, not_unlocked, insufficient_science, \
         placement, no_route...) and say what to do instead; a write that changed nothing is an \
         error too.{}{}\n",
        with("map", " Use the `map` tool to see the land."),
        with(
            "log_message",
            " Finish the turn with `log_message` saying what you did and why."
        ),
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

    fn profile(spec: &str) -> Profile {
        Profile::parse(spec, &super::super::tools::names()).unwrap()
    }

    #[test]
    fn the_prompt_names_the_faction_s_buildings_goal_and_turn() {
        let core = profile("core");
        let p = play_turn(Some("Survive 60 days"), Some("3"), "IronTeeth", &core);
        assert!(p.contains("Goal: Survive 60 days\nThis is turn 3."));
        assert!(p.contains("DeepWaterPump.IronTeeth"));
        assert!(p.contains("Water first"));
        assert!(p.contains("`colony_overview`") && p.contains("`log_message`"));
        let p = play_turn(None, None, "Folktails", &core);
        assert!(!p.contains("Goal:"));
        assert!(p.contains("Lodge.Folktails"));
    }

    /// Every tool name in a text: words in backticks, and snake_case words that name a tool.
    fn named_tools(text: &str) -> Vec<String> {
        let every = super::super::tools::names();
        let mut out: Vec<String> = text
            .split('`')
            .skip(1)
            .step_by(2)
            .filter(|w| every.contains(w))
            .map(String::from)
            .collect();
        for word in text.split(|c: char| !(c.is_ascii_lowercase() || c == '_')) {
            if word.contains('_') && every.contains(&word) {
                out.push(word.to_owned());
            }
        }
        out
    }

    #[test]
    fn the_prompt_and_instructions_name_only_the_profile_s_tools() {
        for spec in [
            "core",
            "all",
            "get_time,advance",
            "map",
            "place_building,get_summary",
        ] {
            let p = profile(spec);
            let text = play_turn(Some("g"), Some("1"), "Folktails", &p) + &instructions(&p);
            let named = named_tools(&text);
            for n in &named {
                assert!(p.has(n), "{spec}: names {n}\n{text}");
            }
            if spec != "get_time,advance" {
                assert!(!named.is_empty(), "{spec}");
            }
        }
        let all = play_turn(None, None, "Folktails", &profile("all"));
        let core = play_turn(None, None, "Folktails", &profile("core"));
        assert_eq!(all, core, "core has every tool the prompt names");
        assert!(instructions(&profile("core")).contains("Tool profile: core (21 tools)"));
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
