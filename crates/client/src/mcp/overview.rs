//! The `colony_overview` tool: the summary, the alerts, the weather outlook and what is short,
//! in one compact answer (what a model reads at the start of every turn).

use super::answer;
use super::api::Api;
use rmcp::model::CallToolResult;
use serde_json::{Map, Value, json};

/// How many alert rows the overview shows.
const ALERT_ROWS: usize = 5;

/// The first buildings of each faction, for the advice on what is short.
pub struct Starters {
    pub pump: &'static str,
    pub tank: &'static str,
    pub gatherer: &'static str,
    pub farm: &'static str,
    pub home: &'static str,
    pub lumberjack: &'static str,
}

pub fn starters(faction: &str) -> Starters {
    if faction.eq_ignore_ascii_case("IronTeeth") {
        Starters {
            pump: "DeepWaterPump.IronTeeth",
            tank: "SmallTank.IronTeeth",
            gatherer: "GathererFlag.IronTeeth",
            farm: "FarmHouse.IronTeeth",
            home: "Rowhouse.IronTeeth",
            lumberjack: "LumberjackFlag.IronTeeth",
        }
    } else {
        Starters {
            pump: "WaterPump.Folktails",
            tank: "SmallTank.Folktails",
            gatherer: "GathererFlag.Folktails",
            farm: "EfficientFarmHouse.Folktails",
            home: "Lodge.Folktails",
            lumberjack: "LumberjackFlag.Folktails",
        }
    }
}

pub async fn run(api: &Api) -> CallToolResult {
    let (summary, alerts, agent) = tokio::join!(
        api.get_json("/api/summary", vec![]),
        api.get_json("/api/alerts", vec![("limit", json!(ALERT_ROWS))]),
        api.get_json("/api/agent/state", vec![]),
    );
    let summary = match summary {
        Ok(s) => s,
        Err(f) => return answer::failure(&f),
    };
    // The goal and the alert rows are extras: the overview stands without them.
    let goal = agent
        .ok()
        .and_then(|a| a["goal"].as_str().map(String::from))
        .filter(|g| !g.trim().is_empty());
    answer::value(build(&summary, alerts.as_ref().ok(), goal.as_deref()))
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or(0.0)
}

/// A count as an integer when it is whole (sums of JSON numbers come out as floats).
pub fn whole(v: f64) -> Value {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        json!(v as i64)
    } else {
        json!(v)
    }
}

fn round1(v: f64) -> Value {
    json!((v * 10.0).round() / 10.0)
}

/// The weather now and the next change, in game days (the hazard begins at a day's start).
pub fn outlook(weather: &Value, day_progress: f64) -> Value {
    let cycle_day = num(&weather["cycleDay"]);
    let temperate = num(&weather["temperateWeatherDuration"]);
    let length = num(&weather["cycleLengthInDays"]);
    let hazard = weather["hazard"].as_str().unwrap_or("drought");
    let elapsed = cycle_day - 1.0 + day_progress;
    let mut o = Map::new();
    let hazardous = weather["isHazardous"].as_bool().unwrap_or(false);
    o.insert(
        "now".into(),
        if hazardous { hazard } else { "temperate" }.into(),
    );
    o.insert("cycle".into(), weather["cycle"].clone());
    o.insert("cycleDay".into(), weather["cycleDay"].clone());
    o.insert("hazard".into(), hazard.into());
    o.insert(
        "hazardDays".into(),
        weather["hazardousWeatherDuration"].clone(),
    );
    if hazardous {
        o.insert("endsInDays".into(), round1((length - elapsed).max(0.0)));
    } else {
        o.insert(
            "startsInDays".into(),
            round1((temperate - elapsed).max(0.0)),
        );
    }
    Value::Object(o)
}

/// Sums a member of every district's object `group` (e.g. `population.adults`).
fn district_sum(summary: &Value, group: &str, key: &str) -> f64 {
    summary["districts"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|d| num(&d[group][key]))
        .sum()
}

/// The overview of a `/api/summary?format=json` answer and the first alert rows.
pub fn build(summary: &Value, alerts: Option<&Value>, goal: Option<&str>) -> Value {
    let mut o = Map::new();
    let faction = summary["faction"].as_str().unwrap_or("Folktails");
    o.insert(
        "settlement".into(),
        format!(
            "{} ({faction})",
            summary["settlement"].as_str().unwrap_or("?")
        )
        .into(),
    );
    if let Some(g) = goal {
        o.insert("goal".into(), g.into());
    }
    let time = &summary["time"];
    o.insert(
        "time".into(),
        json!({"day": time["dayNumber"], "hour": round1(num(&time["hour"])), "speed": time["speed"]}),
    );
    let weather = outlook(&summary["weather"], num(&time["dayProgress"]));
    o.insert("weather".into(), weather.clone());
    let pop = |k: &str| district_sum(summary, "population", k);
    let population = pop("adults") + pop("children") + pop("bots");
    o.insert(
        "population".into(),
        json!({
            "adults": whole(pop("adults")),
            "children": whole(pop("children")),
            "bots": whole(pop("bots")),
            "beds": format!("{}/{}", district_sum(summary, "housing", "occupiedBeds"), district_sum(summary, "housing", "totalBeds")),
            "homeless": whole(district_sum(summary, "housing", "homeless")),
            "unemployed": whole(district_sum(summary, "employment", "unemployed")),
            "vacancies": whole(district_sum(summary, "employment", "vacancies")),
        }),
    );
    let mut stock = Map::new();
    for d in summary["districts"].as_array().into_iter().flatten() {
        for (good, n) in d["resources"].as_object().into_iter().flatten() {
            let sum = num(stock.get(good).unwrap_or(&json!(0))) + num(n);
            stock.insert(good.clone(), whole(sum));
        }
    }
    o.insert("stock".into(), Value::Object(stock.clone()));
    let days = &summary["projections"];
    o.insert("daysLeft".into(), days.clone());
    o.insert("wellbeing".into(), summary["wellbeing"].clone());
    o["wellbeing"]
        .as_object_mut()
        .map(|w| w.remove("categories"));
    let districts: Vec<Value> = summary["districts"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|d| {
            let dc = &d["dc"];
            json!({
                "name": d["name"],
                "center": format!("{},{},{}", dc["x"], dc["y"], dc["z"]),
                "entrance": format!("{},{}", dc["entranceX"], dc["entranceY"]),
            })
        })
        .collect();
    o.insert("districts".into(), json!(districts));
    o.insert("buildings".into(), summary["buildings"].clone());
    o.insert("science".into(), summary["science"].clone());
    let mut alert = summary["alerts"].clone();
    if let (Some(a), Some(rows)) = (
        alert.as_object_mut(),
        alerts.and_then(|v| v["items"].as_array()),
    ) && !rows.is_empty()
    {
        let first: Vec<Value> = rows
            .iter()
            .take(ALERT_ROWS)
            .map(|r| {
                json!({"type": r["type"], "id": r["id"], "name": r["name"],
                       "at": format!("{},{},{}", r["x"], r["y"], r["z"]), "status": r["status"]})
            })
            .collect();
        a.insert("first".into(), json!(first));
    }
    o.insert("alerts".into(), alert);
    let short = shortages(summary, &weather, population, &stock);
    o.insert("short".into(), json!(short));
    if summary["gameOver"].as_bool() == Some(true) {
        o.insert("gameOver".into(), true.into());
    }
    Value::Object(o)
}

/// What the colony lacks, most urgent first, each with what to do about it.
fn shortages(
    summary: &Value,
    weather: &Value,
    population: f64,
    stock: &Map<String, Value>,
) -> Vec<String> {
    let mut out = Vec::new();
    if summary["gameOver"].as_bool() == Some(true) {
        out.push("everyone has died: the game is over".to_owned());
        return out;
    }
    if population <= 0.0 {
        return out;
    }
    let s = starters(summary["faction"].as_str().unwrap_or("Folktails"));
    let days = &summary["projections"];
    let water = num(&days["waterDays"]);
    let food = num(&days["foodDays"]);
    let critical = num(&summary["wellbeing"]["critical"]);
    if critical > 0.0 {
        out.push(format!(
            "{critical} beavers in a critical need: thirst or hunger kills about four days after \
             it turns critical (the beavers list with detail:full shows which)"
        ));
    }
    let has = |role: &str| num(&summary["buildings"][role]);
    if water < 3.0 {
        out.push(if has("water") > 0.0 {
            format!(
                "water: {water:.1} days left with {} water buildings: more {} and {}, joined by \
                 path (list_alerts shows a pump that stopped)",
                has("water"),
                s.pump,
                s.tank
            )
        } else {
            format!(
                "water: {water:.1} days left: build {} where find_placement shows waterDepth, {} \
                 beside it, and paths to both",
                s.pump, s.tank
            )
        });
    }
    if food < 3.0 {
        out.push(if has("food") > 0.0 {
            format!(
                "food: {food:.1} days left with {} food buildings: more gatherers by \
                 find_food_clusters spots, {} with crops (mark_planting)",
                has("food"),
                s.farm
            )
        } else {
            format!(
                "food: {food:.1} days left: build {} by a find_food_clusters spot, then {} with \
                 crops (mark_planting)",
                s.gatherer, s.farm
            )
        });
    }
    let hazard_days = num(&weather["hazardDays"]);
    let soon = weather["startsInDays"].as_f64().is_some_and(|d| d <= 5.0);
    let now = weather["endsInDays"].is_number();
    if (soon || now) && water < hazard_days + 1.0 {
        let hazard = weather["hazard"].as_str().unwrap_or("drought");
        out.push(format!(
            "the {hazard} ({hazard_days} days) {}: water for {water:.1} days; store more (tanks, \
             pumps) before the river stops",
            if now { "is under way" } else { "is coming" }
        ));
    }
    let homeless = district_sum(summary, "housing", "homeless");
    if homeless > 0.0 {
        out.push(format!("homes: {homeless} homeless: build {}", s.home));
    }
    let logs = num(stock.get("Log").unwrap_or(&Value::Null));
    if num(&summary["buildings"]["wood"]) == 0.0 {
        out.push(format!(
            "wood: {logs} logs and no lumberjack: build {} by a find_tree_clusters spot, and \
             mark_trees_for_cutting around it",
            s.lumberjack
        ));
    }
    let unreachable = num(&summary["alerts"]["unreachable"]);
    if unreachable > 0.0 {
        out.push(format!(
            "{unreachable} buildings unreachable: place_path from each entrance to a path of the \
             district"
        ));
    }
    let unpowered = num(&summary["alerts"]["unpowered"]);
    if unpowered > 0.0 {
        out.push(format!(
            "{unpowered} buildings lack power (get_power_networks)"
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary() -> Value {
        json!({
            "settlement": "New Colony", "faction": "Folktails",
            "time": {"dayNumber": 3, "dayProgress": 0.5, "hour": 12.04, "speed": 0},
            "weather": {"cycle": 1, "cycleDay": 3, "isHazardous": false, "temperateWeatherDuration": 6,
                        "hazardousWeatherDuration": 2, "cycleLengthInDays": 8, "hazard": "drought"},
            "districts": [{"name": "District 1",
                "population": {"adults": 8, "children": 4, "bots": 0},
                "resources": {"Berries": 130, "Log": 40},
                "housing": {"occupiedBeds": 0, "totalBeds": 0, "homeless": 12},
                "employment": {"assigned": 0, "vacancies": 2, "unemployed": 8},
                "wellbeing": {"average": 5.0, "miserable": 0, "critical": 0},
                "dc": {"x": 31, "y": 24, "z": 4, "orientation": "south", "entranceX": 32, "entranceY": 23}}],
            "wellbeing": {"average": 5.0, "miserable": 0, "critical": 0, "categories": []},
            "science": 0,
            "alerts": {"unstaffed": 1, "unpowered": 0, "unreachable": 0},
            "buildings": {"food": 0, "wood": 0},
            "projections": {"foodDays": 4.1, "waterDays": 0.0, "logDays": 3.3, "plankDays": 1.7, "gearDays": 0.0},
            "gameOver": false
        })
    }

    #[test]
    fn the_overview_says_what_is_short_and_when_the_hazard_comes() {
        let alerts = json!({"items": [{"type": "unstaffed", "id": 5, "name": "DistrictCenter.Folktails",
                                        "x": 31, "y": 24, "z": 4, "workers": "0/2", "status": ""}]});
        let o = build(&summary(), Some(&alerts), Some("Survive"));
        assert_eq!(o["goal"], "Survive");
        assert_eq!(o["weather"]["startsInDays"], 3.5);
        assert_eq!(o["population"]["homeless"], 12);
        assert_eq!(o["districts"][0]["entrance"], "32,23");
        assert_eq!(o["alerts"]["first"][0]["at"], "31,24,4");
        assert!(o["wellbeing"].get("categories").is_none());
        let short: Vec<&str> = o["short"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        assert!(
            short[0].starts_with("water: 0.0 days left: build WaterPump.Folktails"),
            "{short:?}"
        );
        assert!(
            short
                .iter()
                .any(|s| s.starts_with("the drought (2 days) is coming"))
        );
        assert!(
            short
                .iter()
                .any(|s| s.starts_with("homes: 12 homeless: build Lodge.Folktails"))
        );
        assert!(
            short
                .iter()
                .any(|s| s.starts_with("wood: 40 logs and no lumberjack"))
        );
        assert!(!short.iter().any(|s| s.starts_with("food")));
        let mut with_pump = summary();
        with_pump["buildings"]["water"] = json!(1);
        let o = build(&with_pump, None, None);
        assert!(
            o["short"][0]
                .as_str()
                .unwrap()
                .starts_with("water: 0.0 days left with 1 water buildings: more WaterPump"),
            "{o}"
        );
        assert!(o.get("goal").is_none());
    }

    #[test]
    fn a_hazard_under_way_counts_down_to_its_end() {
        let w = json!({"cycle": 2, "cycleDay": 7, "isHazardous": true, "temperateWeatherDuration": 6,
                       "hazardousWeatherDuration": 2, "cycleLengthInDays": 8, "hazard": "badtide"});
        let o = outlook(&w, 0.25);
        assert_eq!(o["now"], "badtide");
        assert_eq!(o["endsInDays"], 1.8);
        assert!(o.get("startsInDays").is_none());
    }
}
