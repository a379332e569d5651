//! Schemas of the game's read models the answers serialize straight from `sim` (which has no
//! OpenAPI derive): beavers, buildings, alerts, notifications, population, districts,
//! distribution, wellbeing and the hourly history. Each object is closed (`additionalProperties:
//! false`): a member the game adds without a line here fails the answer test
//! (`tests/e2e/openapi_answers.rs`). Members a read model leaves out when they do not apply
//! (components a building lacks) are optional.

use serde_json::{Map, Value, json};

pub(crate) fn int() -> Value {
    json!({"type": "integer"})
}

pub(crate) fn count() -> Value {
    json!({"type": "integer", "minimum": 0})
}

pub(crate) fn num() -> Value {
    json!({"type": "number"})
}

pub(crate) fn text() -> Value {
    json!({"type": "string"})
}

pub(crate) fn flag() -> Value {
    json!({"type": "boolean"})
}

pub(crate) fn list_of(item: Value) -> Value {
    json!({"type": "array", "items": item})
}

/// An object whose keys are names (goods, causes, roles) and values `v`.
pub(crate) fn map_of(v: Value) -> Value {
    json!({"type": "object", "additionalProperties": v})
}

pub(crate) fn reference(name: &str) -> Value {
    json!({"$ref": format!("#/components/schemas/{name}")})
}

/// `v` with a description.
pub(crate) fn described(mut v: Value, why: &str) -> Value {
    v["description"] = why.into();
    v
}

/// A closed object: `required` members always there, `optional` ones when they apply.
pub(crate) fn object(why: &str, required: &[(&str, Value)], optional: &[(&str, Value)]) -> Value {
    let mut props = Map::new();
    for (k, v) in required.iter().chain(optional) {
        props.insert((*k).to_owned(), v.clone());
    }
    let names: Vec<&str> = required.iter().map(|(k, _)| *k).collect();
    json!({
        "type": "object",
        "description": why,
        "required": names,
        "properties": props,
        "additionalProperties": false
    })
}

/// The read models' schemas, by component name.
pub fn schemas() -> Vec<(&'static str, Value)> {
    vec![
        ("Need", need()),
        ("Beaver", beaver()),
        ("Building", building()),
        ("Automation", automation()),
        ("InReach", in_reach()),
        ("Alert", alert()),
        ("Notification", notification()),
        ("DistrictPopulation", district_population()),
        ("Stock", stock()),
        ("District", district()),
        ("DistributionGood", distribution_good()),
        ("Distribution", distribution()),
        ("WellbeingNeed", wellbeing_need()),
        ("WellbeingCategory", wellbeing_category()),
        ("Wellbeing", wellbeing()),
        ("HistoryRow", history_row()),
        ("Stats", stats()),
    ]
}

fn need() -> Value {
    object(
        "One need of a beaver on the served 0-1 scale.",
        &[
            ("id", text()),
            ("points", described(num(), "0-1, higher is more satisfied")),
            (
                "threshold",
                described(num(), "the served value at which the need turns favourable"),
            ),
            ("wellbeing", int()),
            ("favorable", flag()),
            ("critical", flag()),
        ],
        &[(
            "group",
            described(text(), "the need's group (detail=full only)"),
        )],
    )
}

fn beaver() -> Value {
    object(
        "A beaver or bot (json): detail=basic lists its active needs, detail=full every need with its group.",
        &[
            ("id", int()),
            ("name", text()),
            ("x", count()),
            ("y", count()),
            ("z", count()),
            ("wellbeing", num()),
            (
                "tier",
                described(text(), "ecstatic, happy, okay, unhappy or miserable"),
            ),
            ("district", text()),
            ("needs", list_of(reference("Need"))),
            ("anyCritical", flag()),
            ("critical", described(list_of(text()), "critical need ids")),
            ("lifeProgress", num()),
            (
                "workplace",
                described(text(), "workplace name, empty if none"),
            ),
            ("isBot", flag()),
            ("isChild", flag()),
            ("contaminated", flag()),
            ("activity", text()),
            ("hasHome", flag()),
        ],
        &[
            ("carrying", text()),
            ("carryAmount", count()),
            ("liftingCapacity", count()),
            ("overburdened", flag()),
            ("deterioration", num()),
        ],
    )
}

fn building() -> Value {
    let workers = described(text(), "assigned/desired");
    object(
        "A building in full (detail=full or id=N; json): components the building lacks are absent; `inReach` only in the single-building view.",
        &[
            ("id", int()),
            ("name", text()),
            ("x", count()),
            ("y", count()),
            ("z", count()),
            ("orientation", text()),
            ("finished", flag()),
            ("pausable", flag()),
            ("paused", flag()),
            ("priority", text()),
            ("workers", workers),
            ("role", text()),
            ("constructionPriority", text()),
            ("reachable", flag()),
            ("district", text()),
            ("buildProgress", num()),
            ("materialProgress", num()),
            ("hasMaterials", flag()),
            ("inventory", map_of(count())),
            ("statuses", list_of(text())),
        ],
        &[
            (
                "customName",
                described(
                    text(),
                    "buildings the game names (district centers: their district's name; automation devices): the given name, empty when none",
                ),
            ),
            (
                "markedForDemolition",
                described(
                    flag(),
                    "finished buildings but district centers: marked for the builders to take down (POST /api/building/demolish/mark)",
                ),
            ),
            ("floodgate", flag()),
            ("height", num()),
            ("maxHeight", num()),
            ("workplacePriority", text()),
            ("maxWorkers", count()),
            ("desiredWorkers", count()),
            ("assignedWorkers", count()),
            ("powered", flag()),
            ("isConsumer", flag()),
            ("nominalPowerInput", int()),
            ("isGenerator", flag()),
            ("nominalPowerOutput", int()),
            ("powerDemand", int()),
            ("powerSupply", int()),
            ("isWonder", flag()),
            ("wonderActive", flag()),
            (
                "waterOutput",
                described(num(), "aquifer drills: m3/s of clean water given now"),
            ),
            (
                "valveOpen",
                described(flag(), "valves and fill valves: open (not closed)"),
            ),
            (
                "flowLimit",
                described(num(), "valves: the most m3/s let through while open"),
            ),
            (
                "fillHeight",
                described(
                    num(),
                    "fill valves: blocks above its base it fills its front to",
                ),
            ),
            (
                "passing",
                described(flag(), "fill valves: passing water now"),
            ),
            (
                "valveFlow",
                described(
                    num(),
                    "valves and fill valves: m3/s that left the tile in the last water step",
                ),
            ),
            ("isClutch", flag()),
            ("clutchEngaged", flag()),
            ("automation", reference("Automation")),
            ("dwellers", count()),
            ("maxDwellers", count()),
            ("stock", count()),
            ("capacity", count()),
            ("storageMode", text()),
            ("allowedGood", text()),
            ("recipes", list_of(text())),
            ("currentRecipe", text()),
            ("needsNutrients", flag()),
            ("nutrients", count()),
            ("haulPrioritized", flag()),
            ("entranceX", count()),
            ("entranceY", count()),
            ("entranceZ", count()),
            ("inReach", reference("InReach")),
        ],
    )
}

fn automation() -> Value {
    let part = |key: bool| {
        let mut members = vec![("id", int()), ("name", text())];
        if key {
            members.insert(0, ("key", text()));
        }
        object("A part this one reads from or feeds.", &members, &[])
    };
    object(
        "The automation object of a device or an automated building.",
        &[
            (
                "type",
                described(text(), "the device (Relay, DepthSensor...) or Automatable"),
            ),
            ("state", text()),
            (
                "config",
                described(
                    json!({"type": "object"}),
                    "the device's settings, by property",
                ),
            ),
            ("inputs", list_of(part(true))),
            ("outputs", list_of(part(false))),
            ("hasAutomator", flag()),
            ("isTransmitter", flag()),
            ("isAutomated", flag()),
        ],
        &[],
    )
}

fn in_reach() -> Value {
    let counts = [
        "trees",
        "treesMarked",
        "saplings",
        "bushes",
        "bushesRipe",
        "cropsGrowing",
        "cropsReady",
        "plantable",
        "markedForPlanting",
        "ruins",
    ];
    let mut optional: Vec<(&str, Value)> = counts.iter().map(|k| (*k, count())).collect();
    optional.push(("flow", described(num(), "m3/s through the footprint")));
    object(
        "What lies in a building's reach (the counts that apply to it).",
        &[],
        &optional,
    )
}

fn alert() -> Value {
    object(
        "An alert: `workers` (assigned/desired) for unstaffed, `status` for status; the other member is empty.",
        &[
            (
                "type",
                json!({"type": "string", "enum": ["unstaffed", "unpowered", "unreachable", "status"]}),
            ),
            ("id", int()),
            ("name", text()),
            ("x", count()),
            ("y", count()),
            ("z", count()),
            ("workers", text()),
            ("status", text()),
        ],
        &[],
    )
}

fn notification() -> Value {
    object(
        "A notification.",
        &[
            ("subject", text()),
            ("description", text()),
            ("cycle", count()),
            ("cycleDay", count()),
        ],
        &[],
    )
}

fn district_population() -> Value {
    object(
        "A district's population.",
        &[
            ("district", text()),
            ("adults", count()),
            ("children", count()),
            ("bots", count()),
        ],
        &[],
    )
}

fn stock() -> Value {
    let amount = object(
        "`available` excludes goods reserved for construction and recipes; `all` is everything in the district's buildings.",
        &[("available", count()), ("all", count())],
        &[],
    );
    described(map_of(amount), "good -> {available, all}")
}

fn district() -> Value {
    object(
        "A district (json).",
        &[
            ("name", text()),
            ("population", reference("Population")),
            ("resources", reference("Stock")),
        ],
        &[],
    )
}

fn distribution_good() -> Value {
    object(
        "One good's distribution setting (`Auto` and 0 unless set).",
        &[
            ("good", text()),
            (
                "importOption",
                json!({"type": "string", "enum": ["None", "Auto", "Forced"]}),
            ),
            ("exportThreshold", json!({"type": "number", "minimum": 0})),
        ],
        &[],
    )
}

fn distribution() -> Value {
    object(
        "A district's distribution settings (json): every good of the faction.",
        &[
            ("district", text()),
            ("goods", list_of(reference("DistributionGood"))),
        ],
        &[],
    )
}

fn wellbeing_need() -> Value {
    object(
        "What a need adds when favourable and takes when not.",
        &[
            ("id", text()),
            ("favorableWellbeing", num()),
            ("unfavorableWellbeing", num()),
        ],
        &[],
    )
}

fn wellbeing_category() -> Value {
    object(
        "A need group: the beavers' average `current` and the `max`.",
        &[
            ("group", text()),
            ("current", num()),
            ("max", num()),
            ("needs", list_of(reference("WellbeingNeed"))),
        ],
        &[],
    )
}

fn wellbeing() -> Value {
    object(
        "Wellbeing of the colony's beavers (bots excluded): `miserable` below 4, `critical` with a critical need.",
        &[
            ("beavers", count()),
            ("average", num()),
            ("miserable", count()),
            ("critical", count()),
            ("categories", list_of(reference("WellbeingCategory"))),
        ],
        &[],
    )
}

fn history_row() -> Value {
    let hour_counts = "that hour only";
    object(
        "One game hour of the colony's history.",
        &[
            ("day", count()),
            ("hour", count()),
            ("ticks", count()),
            ("adults", count()),
            ("children", count()),
            ("bots", count()),
            ("births", described(count(), hour_counts)),
            (
                "deaths",
                described(map_of(count()), "cause -> n, that hour only"),
            ),
            ("stock", map_of(count())),
            ("foodDays", num()),
            ("waterDays", num()),
            ("wellbeing", num()),
            ("miserable", count()),
            ("critical", count()),
            ("buildings", described(map_of(count()), "role -> n")),
            ("sites", count()),
            ("science", count()),
            ("scienceEarned", described(num(), hour_counts)),
            ("unlocked", count()),
            (
                "produced",
                described(map_of(num()), "good -> n, that hour only"),
            ),
            (
                "consumed",
                described(map_of(num()), "good -> n, that hour only"),
            ),
            ("weather", text()),
            ("powerNetworks", count()),
            (
                "waterPowered",
                described(
                    map_of(count()),
                    "prefab -> consumers at work in a network water wheels feed",
                ),
            ),
            ("districts", count()),
            (
                "districtLinks",
                described(count(), "district crossings linking two districts"),
            ),
            (
                "automated",
                described(
                    map_of(count()),
                    "prefab -> finished automated buildings whose input is linked",
                ),
            ),
            ("gameOver", flag()),
        ],
        &[],
    )
}

fn stats() -> Value {
    object(
        "The colony's history (json), one row per game hour of days `from` to `to`.",
        &[
            ("resolution", json!({"type": "string", "enum": ["hour"]})),
            ("from", count()),
            ("to", count()),
            ("rows", list_of(reference("HistoryRow"))),
        ],
        &[],
    )
}
