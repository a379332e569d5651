//! Which route of the catalogue (`protocol::routes`) becomes which MCP tool: its name, what a
//! model should know besides the route's summary, and its effect (read, additive write,
//! idempotent write, destructive write), from which the annotations follow. Routes an agent
//! must not drive are listed in [`EXCLUDED`] with the reason. Tests fail when a catalogue route
//! is neither a tool nor excluded, or a table row names no route.

use protocol::routes::Method::{self, Get, Post};

/// What calling a tool does to the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Reads only.
    Read,
    /// Adds or changes something; calling again does it again.
    Write,
    /// Sets a value: calling again with the same arguments changes nothing more.
    Set,
    /// Removes or overwrites something that is not given back.
    Destroy,
}

/// One route tool.
#[derive(Clone, Copy, Debug)]
pub struct ToolSpec {
    pub name: &'static str,
    pub method: Method,
    pub path: &'static str,
    /// Guidance for the model after the route's summary: what to call first, common errors.
    pub hint: &'static str,
    pub effect: Effect,
}

const fn t(
    name: &'static str,
    method: Method,
    path: &'static str,
    effect: Effect,
    hint: &'static str,
) -> ToolSpec {
    ToolSpec {
        name,
        method,
        path,
        hint,
        effect,
    }
}

use Effect::{Destroy, Read, Set, Write};

/// Every route tool, in the order `tools/list` shows them (the composite tools come first).
pub const TOOLS: &[ToolSpec] = &[
    // Placing and building.
    t(
        "find_placement",
        Post,
        "/api/placement/find",
        Read,
        "Answers x, y, z, orientation, entrance, waterDepth (pumps) and inReach (what a flag, \
         farm or wheel works with; ranked by it); none found: reason and detail say why. Keep \
         the area about 30x30.",
    ),
    t(
        "place_building",
        Post,
        "/api/building/place",
        Write,
        "Take x, y, z and orientation from find_placement. The site is built once a path joins \
         its entrance to the district (place_path) and builders bring the materials.",
    ),
    t(
        "place_path",
        Post,
        "/api/path/place",
        Set,
        "Join a building's entrance (entranceX/Y from find_placement) to the district center's \
         entrance (colony_overview) or any path; one-level steps need stairs unlocked \
         (unlock_building).",
    ),
    t(
        "demolish_building",
        Post,
        "/api/building/demolish",
        Destroy,
        "Removes it at once; materials come back at the mode's refund rate. Ids from \
         list_buildings.",
    ),
    t(
        "detonate_dynamite",
        Post,
        "/api/dynamite/detonate",
        Destroy,
        "Fires a finished Dynamite (1 block), DoubleDynamite (2) or TripleDynamite (3): its \
         tile's terrain drops and whatever stands there dies. Digs reservoirs and canals.",
    ),
    t(
        "connect_zipline",
        Post,
        "/api/zipline/connect",
        Write,
        "Joins two zipline towers (ZiplineStation, ZiplinePylon, ZiplineBeam; ids from \
         list_buildings) with a cable: beavers board at stations and ride at 2.5x walking speed \
         once both towers are built. The line must run clear of terrain and buildings.",
    ),
    t(
        "disconnect_zipline",
        Post,
        "/api/zipline/disconnect",
        Destroy,
        "Takes down the cable between two zipline towers.",
    ),
    t(
        "list_prefabs",
        Get,
        "/api/prefabs",
        Read,
        "Names carry the faction suffix (WaterPump.Folktails). unlocked:false needs \
         unlock_building with science points.",
    ),
    t(
        "get_science",
        Get,
        "/api/science",
        Read,
        "Points and what they unlock.",
    ),
    t(
        "unlock_building",
        Post,
        "/api/science/unlock",
        Write,
        "Fails with insufficient_science when points are short; get_science shows the costs.",
    ),
    // The colony.
    t(
        "get_summary",
        Get,
        "/api/summary",
        Read,
        "colony_overview adds alerts, the weather outlook and what is short in one call.",
    ),
    t(
        "get_history",
        Get,
        "/api/stats",
        Read,
        "Large over many days: give from and to.",
    ),
    t(
        "list_buildings",
        Get,
        "/api/buildings",
        Read,
        "Ids change as buildings come and go.",
    ),
    t(
        "list_beavers",
        Get,
        "/api/beavers",
        Read,
        "Need points are 0-1, higher is better; critical needs kill in a few days.",
    ),
    t("get_population", Get, "/api/population", Read, ""),
    t("get_resources", Get, "/api/resources", Read, ""),
    t("list_districts", Get, "/api/districts", Read, ""),
    t("get_distribution", Get, "/api/distribution", Read, ""),
    t(
        "set_distribution",
        Post,
        "/api/distribution",
        Set,
        "Only matters with two districts joined by a district crossing.",
    ),
    t(
        "migrate_beavers",
        Post,
        "/api/district/migrate",
        Write,
        "District names from list_districts.",
    ),
    t("get_wellbeing", Get, "/api/wellbeing", Read, ""),
    t(
        "list_alerts",
        Get,
        "/api/alerts",
        Read,
        "Unreachable buildings need a path from their entrance to the district.",
    ),
    t(
        "list_notifications",
        Get,
        "/api/notifications",
        Read,
        "Deaths with their cause and game over.",
    ),
    // Building settings.
    t(
        "set_building_paused",
        Post,
        "/api/building/pause",
        Set,
        "Ids from list_buildings.",
    ),
    t(
        "set_workers",
        Post,
        "/api/building/workers",
        Set,
        "Ids from list_buildings; unemployed beavers fill the places by workplace priority.",
    ),
    t(
        "set_priority",
        Post,
        "/api/building/priority",
        Set,
        "High construction priority gets a site built first.",
    ),
    t(
        "set_haul_priority",
        Post,
        "/api/building/hauling",
        Set,
        "Haulers serve a prioritized building first (e.g. a site waiting for materials).",
    ),
    t(
        "set_recipe",
        Post,
        "/api/building/recipe",
        Set,
        "Recipe ids are in list_buildings with id (detail full).",
    ),
    t(
        "set_farmhouse_action",
        Post,
        "/api/building/farmhouse",
        Set,
        "",
    ),
    t(
        "set_plantable_priority",
        Post,
        "/api/building/plantable",
        Set,
        "",
    ),
    t(
        "set_storage",
        Post,
        "/api/building/storage",
        Set,
        "Goods by name, e.g. Log, Plank, Water; mode obtain pulls the good in from other stores.",
    ),
    t(
        "set_floodgate_height",
        Post,
        "/api/building/floodgate",
        Set,
        "",
    ),
    t(
        "get_work_range",
        Post,
        "/api/building/range",
        Read,
        "Where a lumberjack, gatherer, farmhouse or forester works.",
    ),
    // Land.
    t(
        "get_tiles",
        Get,
        "/api/tiles",
        Read,
        "Large regions are long: the map tool draws a region in one character per tile.",
    ),
    t(
        "list_trees",
        Get,
        "/api/trees",
        Read,
        "Filter with name (e.g. Pine) or x, y and radius.",
    ),
    t("list_crops", Get, "/api/crops", Read, ""),
    t(
        "list_gatherables",
        Get,
        "/api/gatherables",
        Read,
        "Berry bushes feed the colony through a gatherer flag.",
    ),
    t(
        "find_tree_clusters",
        Get,
        "/api/tree_clusters",
        Read,
        "Where to put a lumberjack flag.",
    ),
    t(
        "find_food_clusters",
        Get,
        "/api/food_clusters",
        Read,
        "Where to put a gatherer flag.",
    ),
    t(
        "mark_trees_for_cutting",
        Post,
        "/api/cutting/area",
        Set,
        "z is the terrain height of the tiles (the map tool's digits). Lumberjacks cut marked grown trees \
         within reach of their flag.",
    ),
    t(
        "mark_planting",
        Post,
        "/api/planting/mark",
        Set,
        "Crops need a farmhouse nearby, trees a forester; find_planting_spots finds free land.",
    ),
    t(
        "clear_planting",
        Post,
        "/api/planting/clear",
        Destroy,
        "z is the terrain height of the tiles.",
    ),
    t(
        "find_planting_spots",
        Post,
        "/api/planting/find",
        Read,
        "Give a farmhouse's or forester's id to search its range.",
    ),
    t(
        "demolish_crop",
        Post,
        "/api/crop/demolish",
        Destroy,
        "Crop ids from list_crops.",
    ),
    // Power and automation.
    t(
        "get_power_networks",
        Get,
        "/api/power",
        Read,
        "Buildings that need power work as far as their network's supply allows.",
    ),
    t("set_clutch", Post, "/api/building/clutch", Set, ""),
    t(
        "link_automation",
        Post,
        "/api/automation/link",
        Write,
        "Ids from list_buildings.",
    ),
    t(
        "unlink_automation",
        Post,
        "/api/automation/unlink",
        Destroy,
        "",
    ),
    t(
        "configure_automation",
        Post,
        "/api/automation/configure",
        Set,
        "Ids from list_buildings; the properties depend on the device.",
    ),
    // Time and the game.
    t("get_time", Get, "/api/time", Read, ""),
    t(
        "get_weather",
        Get,
        "/api/weather",
        Read,
        "Droughts stop the river: store water (tanks) before the hazard.",
    ),
    t("get_speed", Get, "/api/speed", Read, ""),
    t(
        "set_speed",
        Post,
        "/api/speed",
        Set,
        "Pause (0) while planning; the advance tool runs time in one step. Refused as disabled \
         in an evaluation, where the harness owns time.",
    ),
    t("get_work_hours", Get, "/api/workhours", Read, ""),
    t("set_work_hours", Post, "/api/workhours", Set, ""),
    t("get_settlement", Get, "/api/settlement", Read, ""),
    t(
        "save_game",
        Post,
        "/api/game/save",
        Destroy,
        "Overwrites a save of the same name.",
    ),
    t("list_saves", Get, "/api/game/saves", Read, ""),
    // The agent's side.
    t(
        "get_agent_state",
        Get,
        "/api/agent/state",
        Read,
        "The goal set for the agent is here.",
    ),
    t(
        "log_message",
        Post,
        "/api/agent/message",
        Write,
        "Say what you did and why; people watching the dashboard read it.",
    ),
    t("get_action_log", Get, "/api/agent/log", Read, ""),
];

/// Routes a composite tool stands for (the route's own tool would only duplicate it).
pub const COMPOSITE_ROUTES: &[(Method, &str, &str)] = &[(Post, "/api/game/advance", "advance")];

/// Routes no tool calls, and why: they replace the game, configure the service or speak for the
/// person running it. Read by the tests; docs/mcp.md and the end-to-end test repeat it.
#[allow(dead_code)]
pub const EXCLUDED: &[(Method, &str, &str)] = &[
    (
        Get,
        "/api/ping",
        "a liveness check for operators; every tool reports an unreachable service itself",
    ),
    (
        Get,
        "/api/game/hash",
        "a check for harnesses and replays (`colony replay --check`); it tells nothing about the colony",
    ),
    (
        Get,
        "/api/replay",
        "replay mode only (`colony replay`): a recorded episode for a person to watch, not a game to play",
    ),
    (
        Post,
        "/api/replay/turn",
        "replay mode only (`colony replay`): steps a person through a recorded episode; it plays nothing",
    ),
    (
        Post,
        "/api/building/demolish/mark",
        "`demolish_building` removes a building at once; the game's slower way (builders take it down) is for a person playing",
    ),
    (
        Post,
        "/api/entity/rename",
        "a name changes nothing in play; it is for the person watching, and a tool for it would only cost an agent's context",
    ),
    (
        Post,
        "/api/placement/mask",
        "a whole-map bitmap for learning environments; `find_placement` answers an agent with ranked spots",
    ),
    (
        Post,
        "/api/agent/config",
        "the mode and goal are set by the person or harness running the agent",
    ),
    (
        Post,
        "/api/agent/request",
        "prompts come from the person to the agent, not from the agent",
    ),
    (
        Post,
        "/api/ready",
        "the ready gate belongs to whoever runs the game",
    ),
    (
        Post,
        "/api/game/new",
        "replaces the game: the operator's decision",
    ),
    (
        Post,
        "/api/game/load",
        "replaces the game: the operator's decision",
    ),
    (
        Get,
        "/api/openapi.json",
        "the tools already carry the schemas; the document is long",
    ),
    (Get, "/api/settings", "service configuration, not play"),
    (Post, "/api/settings", "service configuration, not play"),
    (
        Post,
        "/api/benchmark",
        "a debugging route that would skew the game's timing",
    ),
    (
        Post,
        "/api/score",
        "scoring is the evaluator's (harness, Gym reward); get_history has what the score reads",
    ),
];

/// The route tool with this name.
pub fn find(name: &str) -> Option<&'static ToolSpec> {
    TOOLS.iter().find(|t| t.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::routes::{self, ROUTES};
    use std::collections::HashSet;

    fn covered(method: Method, path: &str) -> usize {
        TOOLS
            .iter()
            .filter(|t| t.method == method && t.path == path)
            .count()
            + COMPOSITE_ROUTES
                .iter()
                .chain(EXCLUDED)
                .filter(|(m, p, _)| *m == method && *p == path)
                .count()
    }

    #[test]
    fn every_catalogue_route_is_a_tool_a_composite_or_excluded_once() {
        for r in ROUTES {
            assert_eq!(
                covered(r.method, r.path),
                1,
                "{} {} must be a tool, a composite's route or excluded, once",
                r.method.as_str(),
                r.path
            );
        }
    }

    #[test]
    fn every_tool_and_exclusion_names_a_catalogue_route() {
        for t in TOOLS {
            assert!(
                routes::find(t.method, t.path).is_some(),
                "tool {} names {} {}, which the catalogue lacks",
                t.name,
                t.method.as_str(),
                t.path
            );
        }
        for (m, p, why) in COMPOSITE_ROUTES.iter().chain(EXCLUDED) {
            assert!(routes::find(*m, p).is_some(), "{p} ({why}) is no route");
            assert!(!why.is_empty());
        }
    }

    #[test]
    fn tool_names_are_unique_snake_case_and_reads_are_gets_or_searches() {
        let mut seen = HashSet::new();
        for t in TOOLS {
            assert!(seen.insert(t.name), "{} twice", t.name);
            assert!(
                t.name.chars().all(|c| c.is_ascii_lowercase() || c == '_') && t.name.len() <= 64,
                "{}",
                t.name
            );
            if t.method == Get {
                assert_eq!(t.effect, Read, "{}: a GET only reads", t.name);
            }
        }
    }
}
