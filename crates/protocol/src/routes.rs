//! The route catalogue: every HTTP route the service serves, with the command name the `colony`
//! client gives it, a one-line summary and its parameters.
//!
//! The client builds its whole command table from this list, and the server is tested against it
//! (the catalogue must equal the served routes), so a route added to the service without a
//! catalogue entry — or the other way round — fails a test. Parameters are the JSON body members
//! of a POST (or query members of a GET), spelled as on the wire.

/// The HTTP method of a route.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Method {
    Get,
    Post,
}

impl Method {
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
        }
    }
}

/// The type of a parameter value, which decides how a command-line value is parsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamType {
    /// A JSON integer (`-3`, `42`).
    Int,
    /// A JSON number (`1.5`, `2`).
    Float,
    /// `true` or `false`.
    Bool,
    /// Any text.
    String,
    /// Only JSON `null` (used to dismiss a value).
    Null,
    /// A list of strings (comma-separated on the command line, or a JSON array).
    List,
    /// Any JSON value, written as JSON on the command line (e.g. an array of objects).
    Json,
}

impl ParamType {
    pub fn as_str(self) -> &'static str {
        match self {
            ParamType::Int => "int",
            ParamType::Float => "float",
            ParamType::Bool => "bool",
            ParamType::String => "string",
            ParamType::Null => "null",
            ParamType::List => "list",
            ParamType::Json => "json",
        }
    }
}

/// One parameter of a route.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    /// The member name on the wire (camelCase).
    pub name: &'static str,
    pub ty: ParamType,
    pub required: bool,
    pub help: &'static str,
}

/// One route of the service.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Route {
    pub method: Method,
    /// The path as served, e.g. `/api/speed`.
    pub path: &'static str,
    /// The client's command name. A GET and a POST on one path may share it: the client sends the
    /// GET when no parameter is given and the POST otherwise.
    pub command: &'static str,
    /// One line saying what the route does.
    pub summary: &'static str,
    pub params: &'static [Param],
    /// Whether members other than `params` are accepted (free-form bodies such as settings).
    pub open: bool,
}

impl Route {
    /// The parameter with this wire name.
    pub fn param(&self, name: &str) -> Option<&'static Param> {
        self.params.iter().find(|p| p.name == name)
    }
}

const fn p(name: &'static str, ty: ParamType, required: bool, help: &'static str) -> Param {
    Param {
        name,
        ty,
        required,
        help,
    }
}

const fn route(
    method: Method,
    path: &'static str,
    command: &'static str,
    summary: &'static str,
    params: &'static [Param],
) -> Route {
    Route {
        method,
        path,
        command,
        summary,
        params,
        open: false,
    }
}

use Method::{Get, Post};
use ParamType::{Bool, Float, Int, Json, List, Null, String as Str};

/// The query parameters of the list routes.
const LIST_PARAMS: [Param; 6] = [
    p(
        "limit",
        Int,
        false,
        "page size (default 100; 0 = all, as a flat array)",
    ),
    p("offset", Int, false, "rows to skip"),
    p("name", Str, false, "case-insensitive part of the name"),
    p("x", Int, false, "proximity centre x (with y)"),
    p("y", Int, false, "proximity centre y (with x)"),
    p("radius", Int, false, "Manhattan radius (default 30)"),
];
const LIST: &[Param] = &LIST_PARAMS;

/// The query parameters of a list without positions (notifications): paging and `name` only.
const UNPLACED_LIST: &[Param] = LIST_PARAMS.split_at(3).0;

/// The query parameters of the entity lists (buildings, beavers): the list's, `detail` and `id`.
const ENTITY_LIST: &[Param] = &{
    let mut all = [LIST_PARAMS[0]; 8];
    let mut i = 1;
    while i < LIST_PARAMS.len() {
        all[i] = LIST_PARAMS[i];
        i += 1;
    }
    all[6] = p(
        "detail",
        Str,
        false,
        "basic (default) or full (every field)",
    );
    all[7] = p("id", Int, false, "one entity by id, full detail");
    all
};

/// The query parameters of the building list: the entity list's, `role` and `exclude`.
const BUILDING_LIST: &[Param] = &{
    let mut all = [LIST_PARAMS[0]; 10];
    let mut i = 1;
    while i < ENTITY_LIST.len() {
        all[i] = ENTITY_LIST[i];
        i += 1;
    }
    all[8] = p(
        "role",
        Str,
        false,
        "only these roles, comma-separated (water,food,wood,housing,storage,paths,...)",
    );
    all[9] = p(
        "exclude",
        Str,
        false,
        "leave these roles out, comma-separated (exclude:paths drops paths and stairs)",
    );
    all
};

/// The `id` of a building action.
const BUILDING_ID: Param = p("id", Int, true, "building id (from `colony buildings`)");
const TOWER_FROM: Param = p("from", Int, true, "a zipline tower's building id");
const TOWER_TO: Param = p(
    "to",
    Int,
    true,
    "the zipline tower at the cable's other end",
);

/// Every route the service serves, in the order the client lists its commands.
pub const ROUTES: &[Route] = &[
    // Game state.
    route(
        Get,
        "/api/ping",
        "ping",
        "Check that the service is alive (never gated, needs no token)",
        &[],
    ),
    route(
        Get,
        "/api/time",
        "time",
        "Show the game clock: day, progress through the day, hour, ticks",
        &[],
    ),
    route(
        Get,
        "/api/weather",
        "weather",
        "Show the weather cycle: cycle, day in cycle, hazard and its durations",
        &[],
    ),
    route(
        Get,
        "/api/speed",
        "speed",
        "Show the game speed (0 pause, 1 normal, 2 fast, 3 fastest)",
        &[],
    ),
    route(
        Post,
        "/api/speed",
        "speed",
        "Set the game speed with speed:N",
        &[p(
            "speed",
            Int,
            true,
            "0 pause, 1 normal, 2 fast, 3 fastest",
        )],
    ),
    route(
        Get,
        "/api/workhours",
        "workhours",
        "Show the hour work ends and whether beavers are working now",
        &[],
    ),
    route(
        Post,
        "/api/workhours",
        "workhours",
        "Set the hour work ends with endHours:N",
        &[p("endHours", Int, true, "hour work ends, 1-24")],
    ),
    route(
        Get,
        "/api/settlement",
        "settlement",
        "Show the settlement's name",
        &[],
    ),
    // Agent and gate.
    route(
        Get,
        "/api/agent/state",
        "agent",
        "Show the agent state: mode, goal, ready gate, pending prompt, status, last error, epoch",
        &[],
    ),
    route(
        Post,
        "/api/agent/config",
        "agent-config",
        "Change the agent mode or goal, or dismiss the connector's last error",
        &[
            p(
                "mode",
                Str,
                false,
                "request (one run per prompt) or autonomous",
            ),
            p(
                "goal",
                Str,
                false,
                "objective text; the prompt of autonomous turns",
            ),
            p(
                "lastError",
                Null,
                false,
                "only null: dismisses the connector's last error",
            ),
        ],
    ),
    route(
        Post,
        "/api/agent/request",
        "request",
        "Post a prompt for the connected agent (refused while one waits, unless replace:true)",
        &[
            p("prompt", Str, true, "the prompt text, non-empty"),
            p(
                "replace",
                Bool,
                false,
                "replace a prompt that is still waiting (default false)",
            ),
        ],
    ),
    route(
        Post,
        "/api/agent/message",
        "message",
        "Append a line to the action log shown on the dashboard",
        &[p("message", Str, true, "the line, non-empty")],
    ),
    route(
        Get,
        "/api/agent/log",
        "log",
        "Show the action log, oldest first",
        &[],
    ),
    route(
        Post,
        "/api/ready",
        "ready",
        "Open or close the ready gate (closed: game routes answer game_not_ready)",
        &[p(
            "ready",
            Bool,
            true,
            "true opens the gate, false closes it",
        )],
    ),
    // Game lifecycle.
    route(
        Post,
        "/api/game/new",
        "new-game",
        "Start a new game (closes the ready gate, clears the pending prompt)",
        &[
            p(
                "seed",
                Int,
                false,
                "seed of the map and randomness (default random)",
            ),
            p("faction", Str, false, "Folktails (default) or IronTeeth"),
            p("map", Str, false, "map size: 128 or 128x96 (default 128)"),
            p("settlement", Str, false, "settlement name"),
            p("mode", Str, false, "Easy, Normal (default) or Hard"),
        ],
    ),
    route(
        Post,
        "/api/game/save",
        "save",
        "Save the game",
        &[p("name", Str, false, "save name (default quicksave)")],
    ),
    route(
        Post,
        "/api/game/load",
        "load",
        "Load a save (closes the ready gate, clears the pending prompt)",
        &[p("name", Str, true, "a save name from `colony saves`")],
    ),
    route(
        Get,
        "/api/game/saves",
        "saves",
        "List the saves, newest first",
        &[],
    ),
    route(
        Get,
        "/api/game/hash",
        "hash",
        "The game's state hash (equal games hash equal; what `colony replay --check` compares)",
        &[],
    ),
    route(
        Get,
        "/api/replay",
        "replay-info",
        "Replay mode (`colony replay`): the episode, its turns with the agent's requests, the turn shown",
        &[],
    ),
    route(
        Post,
        "/api/replay/turn",
        "replay-turn",
        "Replay mode: show another turn (loads its save; the one write a replay takes)",
        &[p(
            "turn",
            Int,
            true,
            "0 (the start) to the replay's turnCount",
        )],
    ),
    route(
        Post,
        "/api/game/advance",
        "advance",
        "Run the simulation ahead as fast as the machine allows (give hours or days)",
        &[
            p("hours", Float, false, "in-game hours to run"),
            p("days", Float, false, "in-game days to run"),
        ],
    ),
    // Land.
    route(
        Get,
        "/api/tiles",
        "tiles",
        "Show terrain, water, moisture and occupants of a region (all four corners required)",
        &[
            p("x1", Int, true, "first corner x"),
            p("y1", Int, true, "first corner y"),
            p("x2", Int, true, "second corner x (>= x1)"),
            p("y2", Int, true, "second corner y (>= y1)"),
        ],
    ),
    route(
        Get,
        "/api/trees",
        "trees",
        "List trees (growth, cutting marks); paginated and filtered",
        LIST,
    ),
    route(
        Get,
        "/api/crops",
        "crops",
        "List crops (growth); paginated and filtered",
        LIST,
    ),
    route(
        Get,
        "/api/gatherables",
        "gatherables",
        "List gatherable bushes; paginated and filtered",
        LIST,
    ),
    route(
        Get,
        "/api/tree_clusters",
        "tree-clusters",
        "Show the five densest clusters of grown trees",
        &[],
    ),
    route(
        Get,
        "/api/food_clusters",
        "food-clusters",
        "Show the five densest clusters of gatherable food",
        &[],
    ),
    route(
        Post,
        "/api/cutting/area",
        "cut",
        "Mark (or unmark) the trees of an area at level z for cutting",
        &[
            p("x1", Int, true, "first corner x"),
            p("y1", Int, true, "first corner y"),
            p("x2", Int, true, "second corner x"),
            p("y2", Int, true, "second corner y"),
            p("z", Int, true, "terrain level of the tiles"),
            p("marked", Bool, true, "true marks, false unmarks"),
        ],
    ),
    route(
        Post,
        "/api/planting/mark",
        "plant",
        "Mark free land of an area at level z for planting a crop",
        &[
            p("x1", Int, true, "first corner x"),
            p("y1", Int, true, "first corner y"),
            p("x2", Int, true, "second corner x"),
            p("y2", Int, true, "second corner y"),
            p("z", Int, true, "terrain level of the tiles"),
            p(
                "crop",
                Str,
                true,
                "crop (or tree species for foresters), e.g. Carrot",
            ),
        ],
    ),
    route(
        Post,
        "/api/planting/clear",
        "unplant",
        "Clear the planting marks of an area at level z",
        &[
            p("x1", Int, true, "first corner x"),
            p("y1", Int, true, "first corner y"),
            p("x2", Int, true, "second corner x"),
            p("y2", Int, true, "second corner y"),
            p("z", Int, true, "terrain level of the tiles"),
        ],
    ),
    route(
        Post,
        "/api/planting/find",
        "planting-spots",
        "Find free, plantable land for a crop in an area",
        &[
            p("crop", Str, true, "crop or tree species"),
            p("x1", Int, false, "first corner x"),
            p("y1", Int, false, "first corner y"),
            p("x2", Int, false, "second corner x"),
            p("y2", Int, false, "second corner y"),
            p("z", Int, false, "only tiles at this level"),
            p(
                "id",
                Int,
                false,
                "a farmhouse or forester: spots in its range",
            ),
        ],
    ),
    route(
        Post,
        "/api/crop/demolish",
        "demolish-crop",
        "Remove a crop by id",
        &[p("id", Int, true, "crop id")],
    ),
    // Power.
    route(
        Get,
        "/api/power",
        "power",
        "List the power networks: supply, demand and buildings of each",
        &[],
    ),
    route(
        Post,
        "/api/building/clutch",
        "clutch",
        "Engage or disengage a clutch (disengaged, it cuts its power network)",
        &[
            p("id", Int, true, "clutch building id"),
            p("engaged", Bool, true, "true joins, false cuts"),
        ],
    ),
    // Automation.
    route(
        Post,
        "/api/automation/link",
        "link",
        "Link a transmitter to an input of a relay, memory cell or automatable building",
        &[
            p(
                "sourceId",
                Int,
                true,
                "transmitter id (sensor, counter, lever, relay...)",
            ),
            p(
                "targetId",
                Int,
                true,
                "relay, memory cell or automatable building id",
            ),
            p(
                "input",
                Str,
                false,
                "relay a-h, memory a, b or reset (default a)",
            ),
        ],
    ),
    route(
        Post,
        "/api/automation/unlink",
        "unlink",
        "Empty an automation input (later letters keep theirs)",
        &[
            p("id", Int, true, "building id"),
            p("input", Str, false, "input letter (default a)"),
        ],
    ),
    route(
        Post,
        "/api/automation/configure",
        "configure",
        "Set one property of an automation device",
        &[
            p("id", Int, true, "device id"),
            p("property", Str, true, "e.g. threshold, mode, goodId"),
            p("value", Str, true, "value as text, e.g. 0.5, Greater, true"),
        ],
    ),
    route(
        Post,
        "/api/path/place",
        "path",
        "Route a path between two tiles with A*, placing paths and stairs (reuses existing ones)",
        &[
            p("x1", Int, true, "start x"),
            p("y1", Int, true, "start y"),
            p("x2", Int, true, "end x"),
            p("y2", Int, true, "end y"),
            p(
                "style",
                Str,
                false,
                "direct (default) or straight (fewer turns)",
            ),
            p(
                "sections",
                Int,
                false,
                "stop at the landing after N level changes (default 0: no limit)",
            ),
            p("timings", Bool, false, "add phase timings to the answer"),
        ],
    ),
    // Colony.
    route(
        Get,
        "/api/prefabs",
        "prefabs",
        "List the buildings of the game's faction: size, cost, science cost, unlocked",
        &[],
    ),
    route(
        Get,
        "/api/science",
        "science",
        "Show science points and the buildings they unlock",
        &[],
    ),
    route(
        Post,
        "/api/science/unlock",
        "unlock",
        "Spend science points to unlock a building",
        &[p(
            "building",
            Str,
            true,
            "prefab name with its faction suffix, e.g. Observatory.Folktails",
        )],
    ),
    route(
        Get,
        "/api/summary",
        "summary",
        "Show the colony at a glance: time, weather, districts, stocks and how long they last, trees, crops, wellbeing, alerts",
        &[],
    ),
    route(
        Get,
        "/api/stats",
        "stats",
        "Show the colony's history, one row per game hour: population, births, deaths, stock, food and water days, wellbeing, goods made and used, weather",
        &[
            p("from", Int, false, "first day (default 1)"),
            p("to", Int, false, "last day (default: today)"),
        ],
    ),
    route(
        Post,
        "/api/score",
        "score",
        "Score the game so far as colony eval scores a scenario: weighted metric terms (0-100) and success conditions",
        &[
            p(
                "horizonDays",
                Float,
                true,
                "the episode's game days (survival-scaled terms count the share lived)",
            ),
            p(
                "terms",
                Json,
                true,
                "JSON array of {metric, weight, target, lowerIsBetter, survivalScaled}",
            ),
            p(
                "success",
                Json,
                false,
                "JSON array of {metric, op, value} (default: anyone alive)",
            ),
        ],
    ),
    route(
        Get,
        "/api/buildings",
        "buildings",
        "List buildings (detail:full for every field, id:N for one, role:water,food or exclude:paths); paginated and filtered",
        BUILDING_LIST,
    ),
    route(
        Get,
        "/api/beavers",
        "beavers",
        "List beavers and bots with wellbeing, needs and work (detail:full, id:N); paginated and filtered",
        ENTITY_LIST,
    ),
    route(
        Get,
        "/api/population",
        "population",
        "Show adults, children and bots per district",
        &[],
    ),
    route(
        Get,
        "/api/resources",
        "resources",
        "Show the goods per district (available and all)",
        &[],
    ),
    route(
        Get,
        "/api/districts",
        "districts",
        "Show the districts with their population and goods",
        &[],
    ),
    route(
        Get,
        "/api/distribution",
        "distribution",
        "Show each district's import option and export threshold per good",
        &[],
    ),
    route(
        Post,
        "/api/distribution",
        "distribution",
        "Set a district's import option and/or export threshold for a good",
        &[
            p("district", Str, true, "district name"),
            p("good", Str, true, "good, e.g. Log"),
            p(
                "import",
                Str,
                false,
                "None, Auto (or Allowed) or Forced; empty leaves it",
            ),
            p(
                "exportThreshold",
                Int,
                false,
                "keep at least this many; -1 leaves it",
            ),
        ],
    ),
    route(
        Post,
        "/api/district/migrate",
        "migrate",
        "Move adult beavers from one district to another",
        &[
            p("from", Str, true, "district they leave"),
            p("to", Str, true, "district they join"),
            p("count", Int, true, "how many (at least 1)"),
        ],
    ),
    route(
        Get,
        "/api/wellbeing",
        "wellbeing",
        "Show the colony's wellbeing by need group",
        &[],
    ),
    route(
        Get,
        "/api/alerts",
        "alerts",
        "List buildings that are unstaffed, unpowered, unreachable or stuck; paginated and filtered",
        LIST,
    ),
    route(
        Get,
        "/api/notifications",
        "notifications",
        "List notifications (births, deaths, hazards), newest first; paginated, name filter",
        UNPLACED_LIST,
    ),
    // Building actions.
    route(
        Post,
        "/api/building/place",
        "place",
        "Place a building site",
        &[
            p(
                "prefab",
                Str,
                true,
                "prefab name with its faction suffix, e.g. Lodge.Folktails",
            ),
            p("x", Int, true, "footprint's bottom-left x"),
            p("y", Int, true, "footprint's bottom-left y"),
            p("z", Int, true, "terrain height there"),
            p("orientation", Str, true, "south, west, north or east"),
        ],
    ),
    route(
        Post,
        "/api/placement/mask",
        "placement-mask",
        "Every spot where place would accept each prefab, over the whole map (base64 bytes per tile and orientation)",
        &[p(
            "prefabs",
            List,
            true,
            "prefab names with their faction suffix",
        )],
    ),
    route(
        Post,
        "/api/placement/find",
        "find-placement",
        "Find up to 10 valid spots for a building in an area, best first",
        &[
            p("prefab", Str, true, "prefab name with its faction suffix"),
            p("x1", Int, true, "first corner x"),
            p("y1", Int, true, "first corner y"),
            p("x2", Int, true, "second corner x"),
            p("y2", Int, true, "second corner y"),
        ],
    ),
    route(
        Post,
        "/api/building/demolish",
        "demolish",
        "Demolish a building",
        &[BUILDING_ID],
    ),
    route(
        Post,
        "/api/dynamite/detonate",
        "detonate",
        "Detonate a finished dynamite charge: its tile loses 1-3 blocks of terrain",
        &[BUILDING_ID],
    ),
    route(
        Post,
        "/api/zipline/connect",
        "zipline-connect",
        "String a zipline cable between two towers (beavers ride it at 2.5x walking speed)",
        &[TOWER_FROM, TOWER_TO],
    ),
    route(
        Post,
        "/api/zipline/disconnect",
        "zipline-disconnect",
        "Take down the zipline cable between two towers",
        &[TOWER_FROM, TOWER_TO],
    ),
    route(
        Post,
        "/api/building/demolish/mark",
        "mark-demolish",
        "Mark a finished building for the builders to take down over time, or unmark it",
        &[
            BUILDING_ID,
            p("marked", Bool, true, "true marks, false unmarks"),
        ],
    ),
    route(
        Post,
        "/api/entity/rename",
        "rename",
        "Rename a beaver, a bot, a district center (its district) or an automation device",
        &[
            p("id", Int, true, "beaver, bot or building id"),
            p(
                "name",
                Str,
                true,
                "1-32 characters: letters, digits, spaces and -'._#()!?&",
            ),
        ],
    ),
    route(
        Post,
        "/api/building/pause",
        "pause",
        "Pause or resume a building",
        &[
            BUILDING_ID,
            p("paused", Bool, true, "true pauses, false resumes"),
        ],
    ),
    route(
        Post,
        "/api/building/workers",
        "workers",
        "Set a workplace's desired workers (clamped to 0..maxWorkers)",
        &[BUILDING_ID, p("count", Int, true, "desired workers")],
    ),
    route(
        Post,
        "/api/building/priority",
        "priority",
        "Set a building's construction or workplace priority",
        &[
            BUILDING_ID,
            p(
                "priority",
                Str,
                true,
                "VeryLow, Low, Normal, High or VeryHigh",
            ),
            p(
                "type",
                Str,
                false,
                "construction or workplace (default: whichever applies)",
            ),
        ],
    ),
    route(
        Post,
        "/api/building/hauling",
        "hauling",
        "Set or clear a building's haul priority",
        &[
            BUILDING_ID,
            p("prioritized", Bool, true, "true: haulers serve it first"),
        ],
    ),
    route(
        Post,
        "/api/building/recipe",
        "recipe",
        "Select a manufactory's recipe",
        &[
            BUILDING_ID,
            p("recipe", Str, true, "recipe id, or none to clear"),
        ],
    ),
    route(
        Post,
        "/api/building/farmhouse",
        "farmhouse",
        "Set what a farmhouse does first",
        &[
            BUILDING_ID,
            p("action", Str, true, "planting or harvesting"),
        ],
    ),
    route(
        Post,
        "/api/building/plantable",
        "plantable",
        "Prioritize what a farmhouse or forester plants",
        &[
            BUILDING_ID,
            p(
                "plantable",
                Str,
                true,
                "crop or tree species, or none to clear",
            ),
        ],
    ),
    route(
        Post,
        "/api/building/storage",
        "storage",
        "Set a storage building's good and/or mode",
        &[
            BUILDING_ID,
            p("good", Str, false, "good to store, or none"),
            p("mode", Str, false, "accept, obtain, supply or empty"),
        ],
    ),
    route(
        Post,
        "/api/building/floodgate",
        "floodgate",
        "Set a floodgate's height (clamped to 0..maxHeight)",
        &[BUILDING_ID, p("height", Float, true, "gate height")],
    ),
    route(
        Post,
        "/api/building/range",
        "range",
        "Show a flag's or planter's work range: tiles, moist tiles, bounds",
        &[BUILDING_ID],
    ),
    // Service.
    route(
        Get,
        "/api/openapi.json",
        "openapi",
        "Print the service's OpenAPI document",
        &[],
    ),
    route(
        Get,
        "/api/settings",
        "settings",
        "Show the service settings (token hidden) and the settings file",
        &[],
    ),
    Route {
        method: Post,
        path: "/api/settings",
        command: "settings",
        summary: "Change service settings at run time: key:value per setting (e.g. corsOrigin:*)",
        params: &[],
        open: true,
    },
    route(
        Post,
        "/api/benchmark",
        "benchmark",
        "Time read routes inside the service (needs debugEndpointEnabled)",
        &[
            p(
                "iterations",
                Int,
                false,
                "runs per route, 1-10000 (default 100)",
            ),
            p(
                "routes",
                List,
                false,
                "GET routes to time, comma-separated (default: all)",
            ),
        ],
    ),
];

/// The route served at this method and path, if any.
pub fn find(method: Method, path: &str) -> Option<&'static Route> {
    ROUTES.iter().find(|r| r.method == method && r.path == path)
}

/// The routes a command name stands for (one, or a GET and a POST).
pub fn by_command(command: &str) -> Vec<&'static Route> {
    ROUTES.iter().filter(|r| r.command == command).collect()
}

/// The command names, each once, in catalogue order.
pub fn commands() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for r in ROUTES {
        if !out.contains(&r.command) {
            out.push(r.command);
        }
    }
    out
}

/// `(method, path)` of every route, sorted; what a server test compares with the served routes.
pub fn method_paths() -> Vec<(Method, &'static str)> {
    let mut v: Vec<_> = ROUTES.iter().map(|r| (r.method, r.path)).collect();
    v.sort();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_are_unique_and_well_formed() {
        let all = method_paths();
        let mut dedup = all.clone();
        dedup.dedup();
        assert_eq!(all, dedup, "a method and path appear twice");
        for r in ROUTES {
            assert!(r.path.starts_with("/api/"), "{}", r.path);
            assert!(!r.summary.is_empty());
            assert!(
                r.command
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c == '-'),
                "{}",
                r.command
            );
        }
    }

    #[test]
    fn a_shared_command_is_a_get_without_required_params_and_a_post() {
        for c in commands() {
            let rs = by_command(c);
            match rs.as_slice() {
                [_] => {}
                [a, b] => {
                    assert_eq!(a.path, b.path, "{c}");
                    assert_eq!((a.method, b.method), (Method::Get, Method::Post), "{c}");
                    assert!(a.params.is_empty(), "{c}");
                }
                _ => panic!("command {c} has {} routes", rs.len()),
            }
        }
    }

    #[test]
    fn the_catalogue_lists_this_version_s_routes() {
        assert_eq!(ROUTES.len(), 79);
        assert!(find(Method::Get, "/api/stats").is_some());
        assert!(
            find(Method::Get, "/api/tiles").is_some_and(|r| r.params.iter().all(|p| p.required))
        );
        assert!(find(Method::Post, "/api/speed").is_some());
        assert!(find(Method::Get, "/api/ready").is_none());
        assert_eq!(by_command("speed").len(), 2);
    }

    #[test]
    fn notifications_take_paging_and_name_but_no_position() {
        let r = find(Method::Get, "/api/notifications").unwrap();
        let names: Vec<&str> = r.params.iter().map(|p| p.name).collect();
        assert_eq!(names, ["limit", "offset", "name"]);
    }
}
