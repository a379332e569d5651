//! The `advance` tool: runs the game ahead (`POST /api/game/advance`) and answers what happened
//! meanwhile, read from the service before and after: births and deaths by cause (the hourly
//! history), who died (the notifications), buildings finished, hazards begun or ended, and the
//! colony's state at the end.

use super::answer;
use super::api::{Api, Failure};
use super::overview::outlook;
use protocol::routes::Method;
use rmcp::model::CallToolResult;
use serde_json::{Map, Value, json};
use std::collections::HashMap;

/// At most this many finished buildings and notifications are listed one by one.
const LIST_MAX: usize = 20;

/// What is read before and after the advance.
struct Snapshot {
    ticks: i64,
    day: i64,
    /// Building id → (name, finished).
    buildings: HashMap<i64, (String, bool, Value)>,
    notifications: i64,
    summary: Value,
}

async fn snapshot(api: &Api) -> Result<Snapshot, Failure> {
    let (time, buildings, notes, summary) = tokio::join!(
        api.get_json("/api/time", vec![]),
        api.get_json("/api/buildings", vec![("limit", json!(0))]),
        api.get_json("/api/notifications", vec![("limit", json!(1))]),
        api.get_json("/api/summary", vec![]),
    );
    let (time, buildings, notes, summary) = (time?, buildings?, notes?, summary?);
    let buildings = buildings
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|b| {
            Some((
                b["id"].as_i64()?,
                (
                    b["name"].as_str().unwrap_or("?").to_owned(),
                    b["finished"].as_bool().unwrap_or(false),
                    json!(format!("{},{},{}", b["x"], b["y"], b["z"])),
                ),
            ))
        })
        .collect();
    Ok(Snapshot {
        ticks: time["ticks"].as_i64().unwrap_or(0),
        day: time["dayNumber"].as_i64().unwrap_or(1),
        buildings,
        notifications: notes["total"].as_i64().unwrap_or(0),
        summary,
    })
}

fn population(summary: &Value) -> i64 {
    summary["districts"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|d| {
            let p = &d["population"];
            p["adults"].as_i64().unwrap_or(0)
                + p["children"].as_i64().unwrap_or(0)
                + p["bots"].as_i64().unwrap_or(0)
        })
        .sum()
}

pub async fn run(api: &Api, args: &Map<String, Value>) -> CallToolResult {
    let mut body = Map::new();
    match (args.get("hours"), args.get("days")) {
        (Some(h), None) => body.insert("hours".into(), h.clone()),
        (None, Some(d)) => body.insert("days".into(), d.clone()),
        _ => {
            return answer::error(
                "invalid_param",
                "give hours or days (one of them), e.g. {\"days\": 1}",
            );
        }
    };
    let before = match snapshot(api).await {
        Ok(s) => s,
        Err(f) => return answer::failure(&f),
    };
    let sent = api
        .send(Method::Post, "/api/game/advance", &body, true)
        .await;
    let ran = match answer::json_or_result(sent) {
        Ok(v) => v,
        Err(r) => return *r,
    };
    let after = match snapshot(api).await {
        Ok(s) => s,
        Err(f) => return answer::failure(&f),
    };
    let new_notes = (after.notifications - before.notifications).clamp(0, 200);
    let (stats, notes) = tokio::join!(
        api.get_json(
            "/api/stats",
            vec![("from", json!(before.day)), ("to", json!(after.day))]
        ),
        async {
            if new_notes == 0 {
                Ok(json!({"items": []}))
            } else {
                api.get_json("/api/notifications", vec![("limit", json!(new_notes))])
                    .await
            }
        }
    );
    let (stats, notes) = match (stats, notes) {
        (Ok(s), Ok(n)) => (s, n),
        (Err(f), _) | (_, Err(f)) => return answer::failure(&f),
    };
    answer::value(report(&before, &after, &ran, &stats, &notes))
}

/// The answer: what happened between the two snapshots.
fn report(before: &Snapshot, after: &Snapshot, ran: &Value, stats: &Value, notes: &Value) -> Value {
    let mut o = Map::new();
    let hours = (after.ticks - before.ticks) as f64 / ticks_per_hour(stats).unwrap_or(32.0);
    o.insert(
        "time".into(),
        json!({
            "from": format!("day {} {:.1}h", before.day, before.summary["time"]["hour"].as_f64().unwrap_or(0.0)),
            "to": format!("day {} {:.1}h", after.day, after.summary["time"]["hour"].as_f64().unwrap_or(0.0)),
            "hours": (hours * 10.0).round() / 10.0,
            "wallMs": ran["wallMs"].as_f64().map(|m| m.round()),
        }),
    );
    // The hours that ran, from the hourly history: births, deaths by cause, weather changes.
    let rows: Vec<&Value> = stats["rows"].as_array().into_iter().flatten().collect();
    let mut births = 0i64;
    let mut deaths: Map<String, Value> = Map::new();
    let mut hazards = Vec::new();
    let mut last_weather: Option<String> = rows
        .iter()
        .rev()
        .find(|r| r["ticks"].as_i64().unwrap_or(0) <= before.ticks)
        .and_then(|r| r["weather"].as_str().map(String::from));
    for r in rows.iter().filter(|r| {
        let t = r["ticks"].as_i64().unwrap_or(0);
        t > before.ticks && t <= after.ticks
    }) {
        births += r["births"].as_i64().unwrap_or(0);
        for (cause, n) in r["deaths"].as_object().into_iter().flatten() {
            let sum =
                deaths.get(cause).and_then(Value::as_i64).unwrap_or(0) + n.as_i64().unwrap_or(0);
            deaths.insert(cause.clone(), json!(sum));
        }
        let w = r["weather"].as_str().unwrap_or("temperate").to_owned();
        if let Some(prev) = &last_weather
            && *prev != w
        {
            let what = if w == "temperate" {
                format!("{prev} ended on day {}", r["day"])
            } else {
                format!("{w} began on day {}", r["day"])
            };
            hazards.push(what);
        }
        last_weather = Some(w);
    }
    o.insert(
        "population".into(),
        json!({"before": population(&before.summary), "after": population(&after.summary)}),
    );
    o.insert("births".into(), births.into());
    o.insert("deaths".into(), Value::Object(deaths));
    // Who died and other notices (newest first in the service; oldest first here).
    let mut subjects: Vec<Value> = notes["items"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|n| n["subject"].as_str().map(|s| json!(s)))
        .collect();
    subjects.reverse();
    if !subjects.is_empty() {
        let more = subjects.len().saturating_sub(LIST_MAX);
        subjects.truncate(LIST_MAX);
        o.insert("notifications".into(), json!(subjects));
        if more > 0 {
            o.insert("moreNotifications".into(), json!(more));
        }
    }
    // Buildings finished meanwhile: finished now, a site before (or placed and finished since).
    let mut finished: Vec<(i64, &String, &Value)> = after
        .buildings
        .iter()
        .filter(|(id, (name, done, _))| {
            *done && name.as_str() != "Path" && !before.buildings.get(id).is_some_and(|b| b.1)
        })
        .map(|(id, (name, _, at))| (*id, name, at))
        .collect();
    finished.sort_by_key(|(id, _, _)| *id);
    let count = finished.len();
    let listed: Vec<Value> = finished
        .iter()
        .take(LIST_MAX)
        .map(|(id, name, at)| json!({"id": id, "name": name, "at": at}))
        .collect();
    o.insert("finished".into(), json!(listed));
    if count > LIST_MAX {
        o.insert("moreFinished".into(), json!(count - LIST_MAX));
    }
    let sites = after.buildings.values().filter(|b| !b.1).count();
    o.insert("sitesLeft".into(), json!(sites));
    o.insert("hazards".into(), json!(hazards));
    let day_progress = after.summary["time"]["dayProgress"].as_f64().unwrap_or(0.0);
    o.insert(
        "weather".into(),
        outlook(&after.summary["weather"], day_progress),
    );
    let days = &after.summary["projections"];
    o.insert(
        "daysLeft".into(),
        json!({"food": days["foodDays"], "water": days["waterDays"]}),
    );
    o.insert(
        "wellbeing".into(),
        json!({
            "average": after.summary["wellbeing"]["average"],
            "critical": after.summary["wellbeing"]["critical"],
        }),
    );
    if after.summary["gameOver"].as_bool() == Some(true) {
        o.insert("gameOver".into(), true.into());
    }
    Value::Object(o)
}

/// Ticks per game hour, from two consecutive history rows.
fn ticks_per_hour(stats: &Value) -> Option<f64> {
    let rows = stats["rows"].as_array()?;
    let a = rows.first()?["ticks"].as_f64()?;
    let b = rows.get(1)?["ticks"].as_f64()?;
    (b > a).then_some(b - a)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(adults: i64, hazardous: bool) -> Value {
        json!({
            "time": {"dayNumber": 2, "hour": 6.0, "dayProgress": 0.25},
            "weather": {"cycle": 1, "cycleDay": 2, "isHazardous": hazardous, "temperateWeatherDuration": 1,
                        "hazardousWeatherDuration": 2, "cycleLengthInDays": 3, "hazard": "drought"},
            "districts": [{"population": {"adults": adults, "children": 0, "bots": 0}}],
            "projections": {"foodDays": 2.0, "waterDays": 0.5},
            "wellbeing": {"average": 3.0, "critical": 1},
            "gameOver": false
        })
    }

    #[test]
    fn the_report_counts_births_deaths_finished_buildings_and_hazards() {
        let site = |id: i64, done: bool| (id, ("Lodge.Folktails".to_owned(), done, json!("1,2,4")));
        let before = Snapshot {
            ticks: 100,
            day: 1,
            buildings: [site(1, false), site(2, true), site(3, false)]
                .into_iter()
                .collect(),
            notifications: 2,
            summary: summary(8, false),
        };
        let after = Snapshot {
            ticks: 196,
            day: 2,
            buildings: [site(1, true), site(2, true), site(3, false), site(4, true)]
                .into_iter()
                .collect(),
            notifications: 3,
            summary: summary(7, true),
        };
        let row = |ticks: i64, births: i64, deaths: Value, weather: &str| json!({"day": 1 + ticks / 768, "ticks": ticks, "births": births, "deaths": deaths, "weather": weather});
        let stats = json!({"rows": [
            row(96, 5, json!({}), "temperate"),
            row(128, 1, json!({"thirst": 1}), "temperate"),
            row(160, 0, json!({}), "drought"),
            row(192, 1, json!({"thirst": 1, "oldAge": 1}), "drought"),
            row(224, 9, json!({}), "drought"),
        ]});
        let notes = json!({"items": [{"subject": "Ash died of thirst"}]});
        let r = report(&before, &after, &json!({"wallMs": 12.4}), &stats, &notes);
        assert_eq!(r["births"], 2);
        assert_eq!(r["deaths"], json!({"thirst": 2, "oldAge": 1}));
        assert_eq!(r["hazards"], json!(["drought began on day 1"]));
        assert_eq!(r["population"], json!({"before": 8, "after": 7}));
        assert_eq!(r["notifications"], json!(["Ash died of thirst"]));
        let ids: Vec<i64> = r["finished"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["id"].as_i64().unwrap())
            .collect();
        assert_eq!(ids, vec![1, 4]);
        assert_eq!(r["sitesLeft"], 1);
        assert_eq!(r["time"]["hours"], 3.0);
        assert_eq!(r["weather"]["now"], "drought");
    }
}
