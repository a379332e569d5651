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
        description: "Start every turn here: the colony in one call (goal, day, weather and the \
                      next drought or badtide, population, homes, jobs, stock and the days food \
                      and water last, wellbeing, district centers with their entrance tiles, \
                      alerts) and `short`: what is lacking, most urgent first, and what to build.",
        schema: no_params,
        effect: Effect::Read,
    },
    Composite {
        name: "map",
        title: "Text map",
        description: "A region as text, one character per tile, north up, with x and y rulers: \
                      terrain height 0-9 a-m, ~ water, T trees, * bushes, + crops, # paths, \
                      B buildings, @ beavers. Without corners: the district center's \
                      surroundings. Use it to choose where to build.",
        schema: composite::schemas::map,
        effect: Effect::Read,
    },
    Composite {
        name: "build",
        title: "Build near a point",
        description: "Find a spot for a prefab near a point (default: the district center), place \
                      the best and join its entrance to the district by path (trying further \
                      spots when none joins), in one call. For pumps give a point by the river. \
                      Answers id, position, entrance and path (`path.errors` if incomplete).",
        schema: build::schema,
        effect: Effect::Write,
    },
    Composite {
        name: "advance",
        title: "Advance time",
        description: "Run the game ahead by hours or days, as fast as the machine allows, and \
                      get what happened: births, deaths by cause, buildings finished, droughts \
                      and badtides, population, days of food and water left. Refused where the \
                      game's owner keeps time (an evaluation).",
        schema: advance_schema,
        effect: Effect::Write,
    },
    Composite {
        name: "wait_for_events",
        title: "Wait for game events",
        description: "Wait for live game events (e.g. beaver.died, building.finished, \
                      drought.start) until max_events arrive or timeout_seconds pass; only while \
                      the game runs (speed above 0).",
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
        // (readOnlyHint and idempotentHint default to false: only the others are said.)
        Effect::Write => a.destructive(false),
        Effect::Set => a.destructive(false).idempotent(true),
        Effect::Destroy => a.destructive(true).idempotent(true),
    }
}

fn route_tool(spec: &ToolSpec) -> Tool {
    let route = routes::find(spec.method, spec.path).expect("catalog tests: a route per tool");
    // The CLI's help says how to filter with `key:value`; a tool's parameters say it already.
    let summary = route
        .summary
        .split(" (detail:")
        .next()
        .unwrap_or(route.summary);
    let mut description = format!("{summary}.");
    if !spec.hint.is_empty() {
        description.push(' ');
        description.push_str(spec.hint);
    }
    // No title: it would only repeat the name (`place_building`), at a cost in every session.
    Tool::new(spec.name, description, Arc::new(route_tool_schema(spec)))
        .with_annotations(annotations(spec.effect))
        .with_meta(route_meta(spec.method, spec.path))
}

/// A route tool's schema: the route's parameters (less those only a person timing the service
/// wants) and, for reads, the budget's (`maxChars`, and `cursor` where the route has no
/// `offset` of its own). A write's answer is short and is never cut: it takes no budget.
fn route_tool_schema(spec: &ToolSpec) -> Map<String, Value> {
    let route = routes::find(spec.method, spec.path).expect("catalog tests: a route per tool");
    let mut s = schema::route_schema(route);
    if let Some(Value::Object(props)) = s.get_mut("properties") {
        props.remove("timings");
        // A long list of names (the crops of both factions) is left to the service, which
        // refuses a wrong one with the nearest names: listing it costs every session tokens.
        for p in props.values_mut().filter_map(Value::as_object_mut) {
            if p.get("enum")
                .and_then(Value::as_array)
                .is_some_and(|e| e.len() > 8)
            {
                p.remove("enum");
            }
            // Ids come from the list tool here, not from the CLI's command.
            if p.get("description").and_then(Value::as_str) == Some(CLI_BUILDING_ID) {
                p.insert("description".into(), "building id (list_buildings)".into());
            }
        }
    }
    if spec.effect == Effect::Read && !budget::SHORT_READS.contains(&spec.name) {
        budget::add_params(&mut s, route.param("offset").is_none());
    }
    s
}

/// How the route catalogue describes a building id, for the CLI.
const CLI_BUILDING_ID: &str = "building id (from `colony buildings`)";

/// A composite tool's schema: its own parameters and, for reads, `maxChars`.
fn composite_schema(c: &Composite) -> Map<String, Value> {
    let mut s = (c.schema)();
    if c.effect == Effect::Read {
        budget::add_params(&mut s, false);
    }
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
    // Reads are fitted to the budget; writes and short reads (no budget) answer whole.
    Some(match &budget {
        Some(b) => budget::fit(result, flat.as_ref(), b),
        None => result,
    })
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
            // Reads say so; the others say whether they destroy (the defaults go unsaid).
            let a = t.annotations.as_ref().unwrap();
            assert!(
                a.read_only_hint == Some(true) || a.destructive_hint.is_some(),
                "{}",
                t.name
            );
            assert_eq!(a.open_world_hint, Some(false), "{}", t.name);
        }
        for name in budget::SHORT_READS {
            assert!(
                tools.iter().any(|t| t.name == *name),
                "SHORT_READS names {name}"
            );
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
        // Not read-only: the default, left unsaid.
        assert_eq!(demolish.read_only_hint, None);
        let read = get("get_summary").unwrap().annotations.unwrap();
        assert_eq!(read.read_only_hint, Some(true));
        let set = get("set_speed").unwrap().annotations.unwrap();
        assert_eq!(
            (set.idempotent_hint, set.destructive_hint),
            (Some(true), Some(false))
        );
        // Route tools carry no title (it would repeat the name); composites have their own.
        assert_eq!(get("place_building").unwrap().title, None);
        assert_eq!(get("map").unwrap().title.as_deref(), Some("Text map"));
        // Writes and short reads take no budget parameters; long reads do.
        let props = |n: &str| get(n).unwrap().input_schema["properties"].clone();
        assert!(props("place_building").get(budget::MAX_CHARS).is_none());
        assert!(props("find_tree_clusters").get(budget::MAX_CHARS).is_none());
        assert!(props("list_prefabs").get(budget::MAX_CHARS).is_some());
        assert!(props("place_path").get("timings").is_none());
        assert_eq!(
            props("demolish_building")["id"]["description"],
            "building id (list_buildings)"
        );
    }
}
