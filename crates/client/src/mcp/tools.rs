//! The tool list (composite tools first, then one tool per catalogue route as `catalog` maps
//! them) with descriptions, schemas and annotations, and the dispatch of a call: arguments
//! checked against the schema, the route called (reads in the CLI's compact form for the text
//! and the nested JSON for `structuredContent`), the answer or error returned as a result.

use super::api::Api;
use super::catalog::{self, Effect, ToolSpec};
use super::profile::{self, Profile};
use super::schema::{self, check_args};
use super::{advance, answer, budget, build, composite, overview};
use crate::config::Settings;
use crate::http::Answer;
use crate::output;
use protocol::routes::{self, Method};
use rmcp::model::{CallToolResult, MetaObject, Tool, ToolAnnotations};
use serde_json::{Map, Value};
use std::sync::{Arc, OnceLock};

/// One composite tool: name, description, schema and effect.
struct Composite {
    name: &'static str,
    title: &'static str,
    description: &'static str,
    schema: fn() -> Map<String, Value>,
    effect: Effect,
}

const COMPOSITES: &[Composite] = &[
    Composite {
        name: "colony_overview",
        title: "Colony overview",
        description: "Start every turn here. The colony at a glance in one call: goal, day and \
                      speed, the weather now and when the next drought or badtide starts, \
                      population, homes and jobs, stock and how many days food and water last, \
                      wellbeing, the district centers with their entrance tiles (ends for \
                      place_path), alerts, and `short`: what is lacking, most urgent first, with \
                      what to build about it.",
        schema: no_params,
        effect: Effect::Read,
    },
    Composite {
        name: "map",
        title: "Text map",
        description: "A region as text, one character per tile, north up, with x and y rulers: \
                      terrain height 0-9 a-m, ~ water, T trees, * bushes, + crops, # paths, \
                      B buildings, @ beavers. Without corners: the district center's \
                      surroundings. Cheap in tokens; use it to choose where to build.",
        schema: composite::schemas::map,
        effect: Effect::Read,
    },
    Composite {
        name: "build",
        title: "Build near a point",
        description: "Find a valid spot for a prefab near a point (default: the district \
                      center), place the best one and route a path from its entrance to the \
                      nearest district center, in one call. For pumps, give a point by the \
                      river (map, find_placement). Answers the building's id, position and \
                      entrance and the path placed; a path that could not be completed is \
                      reported in `path.errors`. cut: true marks the trees in a lumberjack \
                      flag's range for cutting; plant: CROP marks a farmhouse's moist soil.",
        schema: build::schema,
        effect: Effect::Write,
    },
    Composite {
        name: "advance",
        title: "Advance time",
        description: "Run the game ahead by hours or days as fast as the machine allows, and \
                      get what happened meanwhile: births, deaths by cause and who died, \
                      buildings finished, droughts or badtides begun or ended, population, \
                      days of food and water left. Refused (disabled) where the game's owner \
                      keeps time, as in an evaluation.",
        schema: advance_schema,
        effect: Effect::Write,
    },
    Composite {
        name: "wait_for_events",
        title: "Wait for game events",
        description: "Wait for live game events (the WebSocket), e.g. beaver.died, \
                      building.finished, drought.start, beaver.born, until max_events arrive or \
                      timeout_seconds pass. Only useful while the game runs (speed above 0).",
        schema: composite::schemas::wait_for_events,
        effect: Effect::Read,
    },
];

fn no_params() -> Map<String, Value> {
    schema::object_schema(Map::new(), &[])
}

fn advance_schema() -> Map<String, Value> {
    let mut hours = schema::route_param(Method::Post, "/api/game/advance", "hours");
    hours["description"] = "game hours to run (give hours or days)".into();
    let mut days = schema::route_param(Method::Post, "/api/game/advance", "days");
    days["description"] = "game days to run (give hours or days)".into();
    let props: Map<String, Value> = [("hours".to_owned(), hours), ("days".to_owned(), days)]
        .into_iter()
        .collect();
    // "One of the two" is checked by the tool: a top-level oneOf is refused by some clients'
    // function-calling APIs.
    schema::object_schema(props, &[])
}

/// The hints of an effect (the title is the tool's own, not repeated here).
fn annotations(effect: Effect) -> ToolAnnotations {
    let a = ToolAnnotations::new().open_world(false);
    match effect {
        Effect::Read => a.read_only(true),
        Effect::Write => a.read_only(false).destructive(false).idempotent(false),
        Effect::Set => a.read_only(false).destructive(false).idempotent(true),
        Effect::Destroy => a.read_only(false).destructive(true).idempotent(true),
    }
}

/// A title from a tool name: `place_building` → `Place building`.
fn title_of(name: &str) -> String {
    let mut t = name.replace('_', " ");
    if let Some(first) = t.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    t
}

fn route_tool(spec: &ToolSpec) -> Tool {
    let route = routes::find(spec.method, spec.path).expect("catalog tests: a route per tool");
    let mut description = format!("{}.", route.summary);
    if !spec.hint.is_empty() {
        description.push(' ');
        description.push_str(spec.hint);
    }
    let title = title_of(spec.name);
    Tool::new(spec.name, description, Arc::new(route_tool_schema(spec)))
        .with_title(title)
        .with_annotations(annotations(spec.effect))
        .with_meta(route_meta(spec.method, spec.path))
}

/// A route tool's schema: the route's parameters and the budget's (`maxChars`, and `cursor`
/// for reads whose route has no `offset` of its own).
fn route_tool_schema(spec: &ToolSpec) -> Map<String, Value> {
    let route = routes::find(spec.method, spec.path).expect("catalog tests: a route per tool");
    let mut s = schema::route_schema(route);
    let cursor = spec.effect == Effect::Read && route.param("offset").is_none();
    budget::add_params(&mut s, cursor);
    s
}

/// A composite tool's schema: its own parameters and `maxChars`.
fn composite_schema(c: &Composite) -> Map<String, Value> {
    let mut s = (c.schema)();
    budget::add_params(&mut s, false);
    s
}

/// The `_meta` key of a tool's route.
pub const ROUTE_META: &str = "colony/route";

/// `_meta` naming the service route a tool calls (`{"colony/route": "POST /api/speed"}`), so a
/// client can tell which routes the tools cover.
fn route_meta(method: Method, path: &str) -> MetaObject {
    let mut m = Map::new();
    m.insert(
        ROUTE_META.into(),
        format!("{} {path}", method.as_str()).into(),
    );
    MetaObject(m)
}

/// Every tool, the `core` profile's first.
#[cfg(test)]
pub fn all() -> Vec<Tool> {
    cached().to_vec()
}

/// Every tool name, composite tools first, then the catalogue's order.
pub fn names() -> Vec<&'static str> {
    COMPOSITES
        .iter()
        .map(|c| c.name)
        .chain(catalog::TOOLS.iter().map(|t| t.name))
        .collect()
}

/// The tools of a profile, in its order.
pub fn of_profile(profile: &Profile) -> Vec<Tool> {
    cached()
        .iter()
        .filter(|t| profile.has(&t.name))
        .cloned()
        .collect()
}

/// The tools, built once.
fn cached() -> &'static [Tool] {
    static ALL: OnceLock<Vec<Tool>> = OnceLock::new();
    ALL.get_or_init(build_all)
}

fn build_all() -> Vec<Tool> {
    let tools: Vec<Tool> = COMPOSITES
        .iter()
        .map(|c| {
            let tool = Tool::new(c.name, c.description, Arc::new(composite_schema(c)))
                .with_title(c.title)
                .with_annotations(annotations(c.effect));
            match catalog::COMPOSITE_ROUTES.iter().find(|r| r.2 == c.name) {
                Some((method, path, _)) => tool.with_meta(route_meta(*method, path)),
                None => tool,
            }
        })
        .chain(catalog::TOOLS.iter().map(route_tool))
        .collect();
    // `core` first, so a client that keeps the first tools keeps the ones the prompt names.
    profile::ordered(&names())
        .into_iter()
        .filter_map(|n| tools.iter().find(|t| t.name == n).cloned())
        .collect()
}

/// The tool with this name.
pub fn get(name: &str) -> Option<Tool> {
    cached().iter().find(|t| t.name == name).cloned()
}

/// What a tool call needs.
pub struct Ctx {
    pub api: Api,
    pub settings: Settings,
    /// The tools this server lists and runs (`--tools`).
    pub profile: Profile,
    /// Where each tools/call is recorded (`--record`).
    pub record: Option<super::record::Recorder>,
}

/// Runs a tool. `None` for an unknown tool name; a tool outside the profile is refused
/// (`not_in_profile`, saying how to enable it).
pub async fn call(ctx: &Ctx, name: &str, args: Map<String, Value>) -> Option<CallToolResult> {
    // The schema the tool was listed with (built once).
    let schema = &cached().iter().find(|t| t.name == name)?.input_schema;
    if !ctx.profile.has(name) {
        return Some(answer::error("not_in_profile", ctx.profile.refusal(name)));
    }
    let mut args = args;
    let budget = match budget::take(name, schema, &mut args) {
        Ok(b) => b,
        Err(e) => return Some(answer::error("invalid_param", format!("{name}: {e}"))),
    };
    let args = match check_args(schema, args) {
        Ok(a) => a,
        Err(e) => return Some(answer::error("invalid_param", format!("{name}: {e}"))),
    };
    let api = &ctx.api;
    let (result, flat) = match name {
        "colony_overview" => (overview::run(api).await, None),
        "map" => (composite::map(api, &args).await, None),
        "build" => (build::tool(api, &args).await, None),
        "advance" => (advance::run(api, &args).await, None),
        "wait_for_events" => (
            composite::wait_for_events(api, &ctx.settings, &args).await,
            None,
        ),
        _ => call_route(api, catalog::find(name)?, &args).await,
    };
    Some(budget::fit(result, flat.as_ref(), &budget))
}

/// One route: a read asks for the CLI's compact rows (the text) and the nested JSON
/// (`structuredContent`) at once; a write is sent once, asking for the nested JSON. The compact
/// rows come back too, for the budget to cut.
async fn call_route(
    api: &Api,
    spec: &ToolSpec,
    args: &Map<String, Value>,
) -> (CallToolResult, Option<Value>) {
    if spec.method == Method::Get {
        let (flat, nested) = tokio::join!(
            api.send(Method::Get, spec.path, args, false),
            api.send(Method::Get, spec.path, args, true),
        );
        return match (flat, nested) {
            (Ok(Answer::Ok(flat)), Ok(Answer::Ok(nested))) => {
                (answer::success(output::toon(&flat), nested), Some(flat))
            }
            (Ok(e @ Answer::Error { .. }), _) | (_, Ok(e @ Answer::Error { .. })) => {
                (answer::from_answer(e), None)
            }
            (Err(f), _) | (_, Err(f)) => (answer::failure(&f), None),
        };
    }
    (call_write(api, spec, args).await, None)
}

async fn call_write(api: &Api, spec: &ToolSpec, args: &Map<String, Value>) -> CallToolResult {
    match api.send(Method::Post, spec.path, args, true).await {
        Ok(Answer::Ok(v)) => match unchanged(spec.name, args, &v) {
            Some((code, detail)) => {
                answer::error_with(code, detail, v.as_object().cloned().unwrap_or_default())
            }
            None => answer::value(v),
        },
        Ok(a) => answer::from_answer(a),
        Err(f) => answer::failure(&f),
    }
}

/// A write the service answered without changing anything, though what was asked is not in
/// place: the code and reason of the tool error it becomes (the answer's members go with it).
/// A setter that finds its value already set, or an unlock of an unlocked building, is no
/// error: what was asked holds.
fn unchanged(tool: &str, args: &Map<String, Value>, v: &Value) -> Option<(&'static str, String)> {
    let n = |k: &str| v[k].as_u64().unwrap_or(0);
    let arg = |k: &str| args.get(k).map(|x| x.to_string()).unwrap_or_default();
    let area = || {
        format!(
            "{},{} to {},{} at z {}",
            arg("x1"),
            arg("y1"),
            arg("x2"),
            arg("y2"),
            arg("z")
        )
    };
    match tool {
        // Nothing placed and something in the way: no route, or every tile refused. A route
        // over existing paths only places nothing without errors, and is joined already.
        "place_path" => {
            let placed = &v["placed"];
            let count: u64 = ["paths", "stairs", "platforms"]
                .iter()
                .map(|k| placed[*k].as_u64().unwrap_or(0))
                .sum();
            let first = v["errors"].as_array()?.first()?;
            if count > 0 {
                return None;
            }
            let why = first["error"].as_str().unwrap_or("every tile was refused");
            let (code, why) = match why
                .split_once(": ")
                .and_then(|(c, rest)| PATH_CODES.iter().find(|k| **k == c).map(|k| (*k, rest)))
            {
                Some(known) => known,
                None => ("placement", why),
            };
            Some((
                code,
                format!(
                    "no path tile was placed from {},{} to {},{}: {why}",
                    arg("x1"),
                    arg("y1"),
                    arg("x2"),
                    arg("y2")
                ),
            ))
        }
        "mark_trees_for_cutting" if n("tiles") == 0 => Some((
            "nothing_changed",
            format!(
                "no tile of {} is at that terrain height, so nothing was marked; z must be the \
                 height of the tiles (get_tiles, or the map tool's digits)",
                area()
            ),
        )),
        "mark_planting" if n("marked") == 0 => Some((
            "nothing_changed",
            format!(
                "none of the {} tiles of {} could be marked for {} (occupied, water or dry land, \
                 or another height); find_planting_spots finds free land",
                n("skipped"),
                area(),
                v["crop"].as_str().unwrap_or("the crop")
            ),
        )),
        "clear_planting" if n("tiles") == 0 => Some((
            "nothing_changed",
            format!(
                "no tile of {} had a planting mark, so nothing was cleared (z must be the tiles' \
                 terrain height)",
                area()
            ),
        )),
        _ => None,
    }
}

/// The codes a path error may start with (a placement refusal has none: `placement`).
const PATH_CODES: &[&str] = &["no_route", "not_unlocked", "invalid_param", "not_found"];

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::collections::HashSet;

    #[test]
    fn every_tool_has_a_unique_name_a_description_an_object_schema_and_annotations() {
        let tools = all();
        let mut names = HashSet::new();
        for t in &tools {
            assert!(names.insert(t.name.to_string()), "{} twice", t.name);
            assert!(
                t.description.as_ref().is_some_and(|d| d.len() > 10),
                "{}",
                t.name
            );
            assert_eq!(t.input_schema["type"], "object", "{}", t.name);
            assert_eq!(t.input_schema["additionalProperties"], false);
            let a = t.annotations.as_ref().unwrap();
            assert!(a.read_only_hint.is_some(), "{}", t.name);
        }
        assert_eq!(tools.len(), COMPOSITES.len() + catalog::TOOLS.len());
        for name in [
            "colony_overview",
            "map",
            "advance",
            "wait_for_events",
            "build",
            "place_building",
            "find_placement",
            "mark_trees_for_cutting",
        ] {
            assert!(names.contains(name), "{name}");
        }
        // The composites that stand for a route are named in the catalogue table.
        for (_, _, tool) in catalog::COMPOSITE_ROUTES {
            assert!(COMPOSITES.iter().any(|c| c.name == *tool), "{tool}");
        }
        let advance = get("advance").unwrap().meta.unwrap();
        assert_eq!(advance.0[ROUTE_META], "POST /api/game/advance");
        let place = get("place_building").unwrap().meta.unwrap();
        assert_eq!(place.0[ROUTE_META], "POST /api/building/place");
    }

    #[test]
    fn docs_mcp_md_lists_every_tool_and_excluded_route() {
        let doc =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/mcp.md"))
                .unwrap();
        for t in all() {
            assert!(
                doc.contains(&format!("| `{}` |", t.name)),
                "docs/mcp.md has no row for {}",
                t.name
            );
        }
        for (method, path, _) in catalog::EXCLUDED {
            assert!(
                doc.contains(&format!("`{} {path}`", method.as_str())),
                "docs/mcp.md does not list the excluded {path}"
            );
        }
    }

    /// tools/list as sent, in compact JSON characters, for `core` and `all` (docs/mcp.md,
    /// "Tool profiles"; `--nocapture` prints them).
    #[test]
    fn tools_list_sizes_of_the_profiles() {
        use rmcp::model::ListToolsResult;
        let every = names();
        let size = |spec: &str| {
            let p = Profile::parse(spec, &every).unwrap();
            let tools = of_profile(&p);
            let json = serde_json::to_string(&ListToolsResult::with_all_items(tools.clone()));
            (tools.len(), json.unwrap().len())
        };
        let (core, all) = (size("core"), size("all"));
        println!(
            "tools/list: core {} tools, {} chars; all {} tools, {} chars",
            core.0, core.1, all.0, all.1
        );
        assert!(core.0 <= 25 && all.0 == every.len());
        assert!(core.1 * 3 < all.1 * 2, "core is much shorter");
        let first: Vec<String> = super::all()
            .iter()
            .take(core.0)
            .map(|t| t.name.to_string())
            .collect();
        assert_eq!(first, profile::CORE, "all lists core first");
    }

    #[test]
    fn writes_that_change_nothing_are_errors() {
        let args: Map<String, Value> =
            serde_json::from_value(json!({"x1": 1, "y1": 2, "x2": 3, "y2": 4, "z": 5})).unwrap();
        let no_route = json!({"placed": {"paths": 0}, "skipped": 0, "errors": [{"prefab": "Path", "error": "no_route: the end (3, 4) cannot hold a path: water"}]});
        let (code, why) = unchanged("place_path", &args, &no_route).unwrap();
        assert_eq!(code, "no_route");
        assert_eq!(
            why,
            "no path tile was placed from 1,2 to 3,4: the end (3, 4) cannot hold a path: water"
        );
        let skipped = json!({"placed": {"paths": 0}, "skipped": 2, "errors": [{"prefab": "Path", "error": "tile 3,4 is occupied"}]});
        assert_eq!(
            unchanged("place_path", &args, &skipped).unwrap().0,
            "placement"
        );
        let joined = json!({"placed": {"paths": 0}, "skipped": 0, "errors": []});
        assert!(unchanged("place_path", &args, &joined).is_none());
        let partial = json!({"placed": {"paths": 3}, "skipped": 1, "errors": [{"error": "tile 3,4 is occupied"}]});
        assert!(unchanged("place_path", &args, &partial).is_none());
        let stairs_only = json!({"placed": {"paths": 0, "stairs": 1}, "errors": [{"error": "x"}]});
        assert!(unchanged("place_path", &args, &stairs_only).is_none());
        let (code, why) = unchanged("mark_trees_for_cutting", &args, &json!({"tiles": 0})).unwrap();
        assert_eq!(code, "nothing_changed");
        assert!(
            why.starts_with("no tile of 1,2 to 3,4 at z 5 is at that terrain height"),
            "{why}"
        );
        assert!(unchanged("mark_trees_for_cutting", &args, &json!({"tiles": 4})).is_none());
        let none = json!({"marked": 0, "planted": 0, "skipped": 9, "crop": "Carrot"});
        assert!(
            unchanged("mark_planting", &args, &none)
                .unwrap()
                .1
                .contains("none of the 9 tiles")
        );
        assert!(unchanged("mark_planting", &args, &json!({"marked": 2})).is_none());
        assert!(unchanged("clear_planting", &args, &json!({"tiles": 0})).is_some());
        assert!(unchanged("set_speed", &args, &json!({})).is_none());
    }

    #[test]
    fn annotations_follow_the_effect() {
        let demolish = get("demolish_building").unwrap().annotations.unwrap();
        assert_eq!(demolish.destructive_hint, Some(true));
        assert_eq!(demolish.read_only_hint, Some(false));
        let read = get("get_summary").unwrap().annotations.unwrap();
        assert_eq!(read.read_only_hint, Some(true));
        let set = get("set_speed").unwrap().annotations.unwrap();
        assert_eq!(
            (set.idempotent_hint, set.destructive_hint),
            (Some(true), Some(false))
        );
        assert_eq!(
            get("place_building").unwrap().title.as_deref(),
            Some("Place building")
        );
    }
}
