//! `colony top`: a live view of the colony that redraws in place: settlement, time, speed,
//! weather, population, stocks with days left, wellbeing, alerts, science, the agent state and
//! the most recent game events (from the WebSocket). `--once` prints one frame and exits (for
//! scripts and tests). Population, stocks and wellbeing come from `GET /api/summary` (json),
//! alerts from `GET /api/alerts` (every alert, json), game over and the last deaths from the
//! summary and `GET /api/notifications`, the last 24 hours (births, deaths by cause, the
//! population change) from `GET /api/stats`; a service without those routes leaves their lines
//! out.

use crate::config::Settings;
use crate::events::event_line;
use crate::exit::{CliError, EXIT_OK};
use crate::http::{Answer, Api};
use crate::ws::{self, Backoff, Recv};
use protocol::frame::EventPayload;
use protocol::routes::Method;
use serde_json::{Map, Value};
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// Events kept on screen.
const EVENT_LINES: usize = 10;

/// Alerts listed one per line under the counts.
const ALERT_LINES: usize = 3;

/// Goods shown first on the stocks line, with their projection key in the summary.
const MAIN_STOCKS: [(&str, &str); 4] = [
    ("Water", "waterDays"),
    ("Log", "logDays"),
    ("Plank", "plankDays"),
    ("Gear", "gearDays"),
];

/// Alert types in the order the counts show them (others follow by name).
const ALERT_TYPES: [&str; 4] = ["unstaffed", "unpowered", "unreachable", "status"];

/// What one frame shows.
#[derive(Default)]
pub struct TopData {
    pub settlement: Option<Value>,
    pub time: Option<Value>,
    pub speed: Option<Value>,
    pub weather: Option<Value>,
    pub science: Option<Value>,
    /// `GET /api/summary?format=json`.
    pub summary: Option<Value>,
    /// `GET /api/alerts?limit=0&format=json`: every alert.
    pub alerts: Option<Value>,
    /// `GET /api/notifications?limit=20&format=json`: the newest notifications (a page).
    pub notifications: Option<Value>,
    /// `GET /api/stats` from yesterday on (json): the hourly history rows of the last day or two.
    pub stats: Option<Value>,
    pub agent: Option<Value>,
    /// Set when the game routes answered `game_not_ready`.
    pub gate_closed: bool,
    pub events: Vec<String>,
}

fn get(api: &Api, path: &str, gate_closed: &mut bool) -> Result<Option<Value>, CliError> {
    get_with(api, path, &[], gate_closed)
}

/// A GET with query parameters; `None` when the gate is closed (noted in `gate_closed`) or the
/// service does not have the route.
fn get_with(
    api: &Api,
    path: &str,
    query: &[(&str, &str)],
    gate_closed: &mut bool,
) -> Result<Option<Value>, CliError> {
    let query: Map<String, Value> = query
        .iter()
        .map(|(k, v)| ((*k).to_owned(), Value::from(*v)))
        .collect();
    match api.send(Method::Get, path, &query)? {
        Answer::Ok(v) => Ok(Some(v)),
        Answer::Error { error, .. } if error.code == protocol::error::ErrorCode::GameNotReady => {
            *gate_closed = true;
            Ok(None)
        }
        Answer::Error { error, .. }
            if error.code == protocol::error::ErrorCode::UnknownEndpoint =>
        {
            Ok(None)
        }
        Answer::Error { error, status, .. } => Err(CliError::new(
            if status == 401 {
                crate::exit::EXIT_AUTH
            } else {
                crate::exit::for_code(error.code)
            },
            format!("error: {}", error.message()),
        )),
    }
}

/// Reads everything a frame shows (events aside).
pub fn fetch(api: &Api) -> Result<TopData, CliError> {
    let mut d = TopData {
        agent: get(api, "/api/agent/state", &mut false)?,
        ..TopData::default()
    };
    let mut gate = false;
    d.settlement = get(api, "/api/settlement", &mut gate)?;
    if !gate {
        d.time = get(api, "/api/time", &mut gate)?;
        d.speed = get(api, "/api/speed", &mut gate)?;
        d.weather = get(api, "/api/weather", &mut gate)?;
        d.science = get(api, "/api/science", &mut gate)?;
        d.summary = get_with(api, "/api/summary", &[("format", "json")], &mut gate)?;
        d.alerts = get_with(
            api,
            "/api/alerts",
            &[("limit", "0"), ("format", "json")],
            &mut gate,
        )?;
        d.notifications = get_with(
            api,
            "/api/notifications",
            &[("limit", "20"), ("format", "json")],
            &mut gate,
        )?;
        let yesterday = d
            .time
            .as_ref()
            .and_then(|t| t["dayNumber"].as_u64())
            .map_or(1, |day| day.saturating_sub(1).max(1))
            .to_string();
        d.stats = get_with(
            api,
            "/api/stats",
            &[("from", &yesterday), ("format", "json")],
            &mut gate,
        )?;
    }
    d.gate_closed = gate;
    Ok(d)
}

fn speed_name(s: i64) -> &'static str {
    match s {
        0 => "paused",
        1 => "normal",
        2 => "fast",
        3 => "fastest",
        _ => "?",
    }
}

/// Renders one frame.
pub fn render(d: &TopData) -> String {
    let mut out = String::new();
    let name = d
        .settlement
        .as_ref()
        .and_then(|s| s["name"].as_str())
        .unwrap_or("colony");
    if d.gate_closed {
        out.push_str(&format!(
            "{name}: the ready gate is closed (`colony ready true` opens it)\n"
        ));
    }
    if let Some(t) = &d.time {
        let hour = t["hour"].as_f64().unwrap_or(0.0);
        let speed = d
            .speed
            .as_ref()
            .and_then(|s| s["speed"].as_i64())
            .unwrap_or(-1);
        out.push_str(&format!(
            "{name} — day {}, {:02}:{:02} ({:.0}% of the day)   speed {speed} ({})\n",
            t["dayNumber"],
            hour as u32,
            ((hour.fract()) * 60.0) as u32,
            t["dayProgress"].as_f64().unwrap_or(0.0) * 100.0,
            speed_name(speed),
        ));
    }
    if let Some(w) = &d.weather {
        let hazard = w["hazard"].as_str().unwrap_or("hazard");
        let temperate = w["temperateWeatherDuration"].as_i64().unwrap_or(0);
        let day = w["cycleDay"].as_i64().unwrap_or(0);
        let state = if w["isHazardous"].as_bool().unwrap_or(false) {
            format!("{hazard} now ({} days)", w["hazardousWeatherDuration"])
        } else {
            format!(
                "temperate; {hazard} ({} days) in {} days",
                w["hazardousWeatherDuration"],
                (temperate - day + 1).max(0)
            )
        };
        out.push_str(&format!(
            "Weather: cycle {}, day {day} of {}: {state}\n",
            w["cycle"], w["cycleLengthInDays"]
        ));
    }
    ending_lines(&mut out, d);
    if let Some(s) = &d.stats {
        last_day_line(&mut out, s);
    }
    if let Some(s) = &d.summary {
        colony_lines(&mut out, s);
    }
    alert_lines(&mut out, d.alerts.as_ref(), d.summary.as_ref());
    if let Some(s) = &d.science {
        let open = s["unlockables"]
            .as_array()
            .map_or(0, |u| u.iter().filter(|x| x["unlocked"] == false).count());
        out.push_str(&format!(
            "Science: {} points ({open} buildings still to unlock)\n",
            s["points"]
        ));
    }
    if let Some(a) = &d.agent {
        let pending = match a["pendingRequest"].as_object() {
            Some(p) => format!(
                "pending #{} {:?}",
                p["id"],
                p["prompt"].as_str().unwrap_or("")
            ),
            None => "no pending prompt".into(),
        };
        let status = a["agentStatus"]
            .as_str()
            .filter(|s| !s.is_empty())
            .unwrap_or("-");
        out.push_str(&format!(
            "Agent: {} mode, status {status}, gate {}, {pending}\n",
            a["mode"].as_str().unwrap_or("?"),
            if a["ready"] == true { "open" } else { "closed" },
        ));
        if let Some(goal) = a["goal"].as_str().filter(|g| !g.is_empty()) {
            out.push_str(&format!("Goal: {goal}\n"));
        }
        if let Some(e) = a["lastError"].as_str() {
            out.push_str(&format!("Last error: {e}\n"));
        }
    }
    out.push_str("Recent events:\n");
    if d.events.is_empty() {
        out.push_str("  (none yet)\n");
    }
    for e in &d.events {
        out.push_str(&format!("  {e}\n"));
    }
    out
}

/// A summary number (0 when absent).
fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or(0.0)
}

/// Days left as the summary gives them (one decimal); `-` when nobody uses the stock.
/// Game over (the summary's `gameOver`, or a "Game over" notification as the newest) and the
/// last deaths with their causes.
fn ending_lines(out: &mut String, d: &TopData) {
    let notes: Vec<&Value> = d
        .notifications
        .as_ref()
        .and_then(|n| n["items"].as_array())
        .map(|a| a.iter().collect())
        .unwrap_or_default();
    let over = d.summary.as_ref().is_some_and(|s| s["gameOver"] == true)
        || notes
            .first()
            .is_some_and(|n| n["subject"].as_str() == Some("Game over"));
    if over {
        out.push_str(
            "GAME OVER: every beaver has died. Start again with `colony new-game` or load a save (`colony load`).\n",
        );
    }
    let deaths: Vec<String> = notes
        .iter()
        .filter_map(|n| {
            let s = n["subject"].as_str()?;
            // The game's death subjects: "died of thirst", "starved", "died of old age", "wore out".
            [" died", " starved", " wore out", " killed"]
                .iter()
                .any(|w| s.contains(w))
                .then(|| format!("{s} (cycle {} day {})", n["cycle"], n["cycleDay"]))
        })
        .take(3)
        .collect();
    if !deaths.is_empty() {
        out.push_str(&format!("Last deaths: {}\n", deaths.join("; ")));
    }
}

/// Births, deaths (by cause) and the population change over the last 24 hourly rows of
/// `GET /api/stats`.
fn last_day_line(out: &mut String, stats: &Value) {
    let Some(rows) = stats["rows"].as_array().filter(|r| !r.is_empty()) else {
        return;
    };
    let last = &rows[rows.len().saturating_sub(24)..];
    let pop = |r: &Value| {
        ["adults", "children", "bots"]
            .iter()
            .map(|k| r[*k].as_u64().unwrap_or(0))
            .sum::<u64>()
    };
    let born: u64 = last.iter().map(|r| r["births"].as_u64().unwrap_or(0)).sum();
    let mut causes: std::collections::BTreeMap<String, u64> = std::collections::BTreeMap::new();
    for r in last {
        for (c, n) in r["deaths"].as_object().into_iter().flatten() {
            *causes.entry(c.clone()).or_default() += n.as_u64().unwrap_or(0);
        }
    }
    let died: u64 = causes.values().sum();
    let how = if causes.is_empty() {
        String::new()
    } else {
        format!(
            " ({})",
            causes
                .iter()
                .map(|(c, n)| format!("{c} {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    // The population before the window: the first row's, less its own births and deaths.
    let first = &last[0];
    let first_died: u64 = first["deaths"]
        .as_object()
        .map_or(0, |m| m.values().filter_map(Value::as_u64).sum());
    let before = (pop(first) + first_died).saturating_sub(first["births"].as_u64().unwrap_or(0));
    out.push_str(&format!(
        "Last {} h: {born} born, {died} died{how}; population {before} -> {}\n",
        last.len(),
        pop(&last[last.len() - 1])
    ));
}

fn days_text(v: &Value) -> String {
    match v.as_f64() {
        Some(d) if d >= 0.0 => format!("{d:.1}d"),
        _ => "-".into(),
    }
}

/// Population, stocks and wellbeing from the summary (json), summed over districts.
fn colony_lines(out: &mut String, s: &Value) {
    let districts = s["districts"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    let sum = |f: &dyn Fn(&Value) -> &Value| -> u64 {
        districts.iter().map(|d| f(d).as_u64().unwrap_or(0)).sum()
    };
    out.push_str(&format!(
        "Population: {} adults, {} children, {} bots; {} homeless, {} unemployed; beds {}/{}, workers {}/{}\n",
        sum(&|d| &d["population"]["adults"]),
        sum(&|d| &d["population"]["children"]),
        sum(&|d| &d["population"]["bots"]),
        sum(&|d| &d["housing"]["homeless"]),
        sum(&|d| &d["employment"]["unemployed"]),
        sum(&|d| &d["housing"]["occupiedBeds"]),
        sum(&|d| &d["housing"]["totalBeds"]),
        sum(&|d| &d["employment"]["assigned"]),
        sum(&|d| &d["employment"]["assigned"]) + sum(&|d| &d["employment"]["vacancies"]),
    ));
    let mut stock: std::collections::BTreeMap<&str, u64> = std::collections::BTreeMap::new();
    for d in districts {
        for (good, n) in d["resources"].as_object().into_iter().flatten() {
            *stock.entry(good.as_str()).or_default() += n.as_u64().unwrap_or(0);
        }
    }
    let p = &s["projections"];
    let mut items: Vec<String> = Vec::new();
    for (good, key) in MAIN_STOCKS {
        items.push(format!(
            "{good} {} ({})",
            stock.remove(good).unwrap_or(0),
            days_text(&p[key])
        ));
        if good == "Water" {
            items.push(format!("food ({})", days_text(&p["foodDays"])));
        }
    }
    let others: Vec<String> = stock
        .iter()
        .filter(|(_, n)| **n > 0)
        .map(|(g, n)| format!("{g} {n}"))
        .collect();
    out.push_str(&format!("Stocks: {}", items.join(", ")));
    if !others.is_empty() {
        out.push_str(&format!("; other goods: {}", others.join(", ")));
    }
    out.push('\n');
    let wb = &s["wellbeing"];
    out.push_str(&format!(
        "Wellbeing: average {:.1}, {} miserable, {} critical\n",
        num(&wb["average"]),
        num(&wb["miserable"]),
        num(&wb["critical"]),
    ));
}

/// Alert counts by type and the first few alerts. From the alert list when there is one, else
/// the summary's counts.
fn alert_lines(out: &mut String, alerts: Option<&Value>, summary: Option<&Value>) {
    let mut counts: Vec<(String, u64)> = Vec::new();
    let mut count = |kind: &str, n: u64| match counts.iter_mut().find(|(k, _)| k == kind) {
        Some(c) => c.1 += n,
        None => counts.push((kind.to_owned(), n)),
    };
    let list = alerts.and_then(Value::as_array);
    match (list, summary) {
        (Some(list), _) => {
            for a in list {
                count(a["type"].as_str().unwrap_or("?"), 1);
            }
        }
        (None, Some(s)) => {
            for (kind, n) in s["alerts"].as_object().into_iter().flatten() {
                count(kind, n.as_u64().unwrap_or(0));
            }
        }
        (None, None) => return,
    }
    counts.retain(|(_, n)| *n > 0);
    counts.sort_by_key(|(k, _)| {
        (
            ALERT_TYPES
                .iter()
                .position(|t| t == k)
                .unwrap_or(ALERT_TYPES.len()),
            k.clone(),
        )
    });
    if counts.is_empty() {
        out.push_str("Alerts: none\n");
        return;
    }
    let text: Vec<String> = counts.iter().map(|(k, n)| format!("{k} {n}")).collect();
    out.push_str(&format!("Alerts: {}\n", text.join(", ")));
    let list = list.map(Vec::as_slice).unwrap_or(&[]);
    for a in list.iter().take(ALERT_LINES) {
        let detail = match a["type"].as_str() {
            Some("unstaffed") => format!(" workers {}", a["workers"].as_str().unwrap_or("?")),
            Some("status") => format!(" {}", a["status"].as_str().unwrap_or("")),
            _ => String::new(),
        };
        out.push_str(&format!(
            "  {} {} #{} at {},{},{}{detail}\n",
            a["type"].as_str().unwrap_or("?"),
            a["name"].as_str().unwrap_or("?"),
            a["id"],
            a["x"],
            a["y"],
            a["z"],
        ));
    }
    if list.len() > ALERT_LINES {
        out.push_str(&format!(
            "  ... {} more (`colony alerts`)\n",
            list.len() - ALERT_LINES
        ));
    }
}

/// Runs the view: once, or redrawing every `interval` until interrupted.
pub fn run(settings: &Settings, interval: Duration, once: bool) -> Result<i32, CliError> {
    use std::io::{IsTerminal, Write};
    let api = Api::new(settings)?;
    if once {
        print!("{}", render(&fetch(&api)?));
        return Ok(EXIT_OK);
    }
    let terminal = std::io::stdout().is_terminal();
    let mut events: VecDeque<String> = VecDeque::new();
    let mut conn = None;
    let mut backoff = Backoff::default();
    let mut retry_at = Instant::now();
    let mut next_draw = Instant::now();
    loop {
        if conn.is_none() && Instant::now() >= retry_at {
            match ws::connect(settings) {
                Ok(c) => {
                    conn = Some(c);
                    backoff.reset();
                }
                Err(_) => retry_at = Instant::now() + backoff.next_delay(),
            }
        }
        if let Some(c) = conn.as_mut() {
            match c.recv() {
                Recv::Frame(f) if f.kind.eq_ignore_ascii_case("event") => {
                    if let Some(e) = f
                        .payload
                        .and_then(|p| serde_json::from_value::<EventPayload>(p).ok())
                    {
                        events.push_front(event_line(&e));
                        events.truncate(EVENT_LINES);
                    }
                }
                Recv::Closed(_) => {
                    conn = None;
                    retry_at = Instant::now() + backoff.next_delay();
                }
                _ => {}
            }
        } else {
            std::thread::sleep(ws::POLL);
        }
        if Instant::now() >= next_draw {
            next_draw = Instant::now() + interval;
            let mut data = fetch(&api)?;
            data.events = events.iter().cloned().collect();
            let frame = render(&data);
            let mut stdout = std::io::stdout().lock();
            if terminal {
                // Home and clear, then the frame: the view redraws in place.
                let _ = write!(stdout, "\x1b[H\x1b[2J{frame}");
            } else {
                let _ = writeln!(stdout, "{frame}");
            }
            let _ = stdout.flush();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_last_day_line_sums_births_and_deaths_of_the_last_24_rows() {
        let row = |births: u64, deaths: Value, adults: u64| json!({"births": births, "deaths": deaths, "adults": adults, "children": 2, "bots": 0});
        // 30 rows: the first 6 fall outside the window.
        let mut rows: Vec<Value> = (0..30).map(|_| row(0, json!({}), 10)).collect();
        rows[2] = row(5, json!({"thirst": 9}), 10);
        rows[6] = row(1, json!({}), 11);
        rows[20] = row(0, json!({"thirst": 2, "hunger": 1}), 8);
        for r in rows.iter_mut().skip(21) {
            r["adults"] = json!(8);
        }
        let d = TopData {
            stats: Some(json!({"rows": rows})),
            ..TopData::default()
        };
        let text = render(&d);
        assert!(
            text.contains("Last 24 h: 1 born, 3 died (hunger 1, thirst 2); population 12 -> 10\n"),
            "{text}"
        );
    }

    #[test]
    fn a_dead_colony_says_game_over_and_its_last_deaths() {
        let note =
            |s: &str, d: u32| json!({"subject": s, "description": "", "cycle": 1, "cycleDay": d});
        let d = TopData {
            notifications: Some(json!({"total": 5, "items": [
                note("Game over", 6), note("Ash died of thirst", 6), note("Fern starved", 5),
                note("Drought started", 4), note("Elm died of thirst", 3), note("Oak died of thirst", 2),
            ]})),
            ..TopData::default()
        };
        let text = render(&d);
        assert!(text.contains("GAME OVER"), "{text}");
        assert!(
            text.contains("Last deaths: Ash died of thirst (cycle 1 day 6); Fern starved (cycle 1 day 5); Elm died of thirst (cycle 1 day 3)\n"),
            "{text}"
        );
        // The summary's flag says it too; a living colony with no deaths says neither.
        let d = TopData {
            summary: Some(json!({"gameOver": true})),
            ..TopData::default()
        };
        assert!(render(&d).contains("GAME OVER"));
        let d = TopData {
            notifications: Some(json!({"total": 1, "items": [note("Kit Ash was born", 2)]})),
            ..TopData::default()
        };
        let text = render(&d);
        assert!(
            !text.contains("GAME OVER") && !text.contains("Last deaths"),
            "{text}"
        );
    }

    #[test]
    fn a_frame_shows_time_weather_science_agent_and_events() {
        let d = TopData {
            settlement: Some(json!({"name": "Dam Town"})),
            time: Some(json!({"dayNumber": 4, "dayProgress": 0.25, "hour": 6.5})),
            speed: Some(json!({"speed": 2})),
            weather: Some(
                json!({"cycle": 1, "cycleDay": 4, "isHazardous": false, "temperateWeatherDuration": 14,
                                  "hazardousWeatherDuration": 3, "cycleLengthInDays": 17, "hazard": "drought"}),
            ),
            science: Some(
                json!({"points": 12, "unlockables": [{"name": "A", "cost": 5, "unlocked": false}]}),
            ),
            agent: Some(
                json!({"mode": "request", "goal": "grow", "ready": true, "pendingRequest": {"id": 2, "prompt": "dig"},
                                "agentStatus": "running", "lastError": null}),
            ),
            summary: None,
            alerts: None,
            notifications: None,
            stats: None,
            gate_closed: false,
            events: vec!["day 4  speed.changed  {\"speed\":2}".into()],
        };
        let text = render(&d);
        assert!(
            text.contains("Dam Town — day 4, 06:30 (25% of the day)   speed 2 (fast)"),
            "{text}"
        );
        assert!(
            text.contains("Weather: cycle 1, day 4 of 17: temperate; drought (3 days) in 11 days"),
            "{text}"
        );
        assert!(text.contains("Science: 12 points (1 buildings still to unlock)"));
        assert!(
            text.contains("Agent: request mode, status running, gate open, pending #2 \"dig\"")
        );
        assert!(text.contains("Goal: grow"));
        assert!(text.contains("  day 4  speed.changed"));
    }

    #[test]
    fn a_frame_shows_population_stocks_wellbeing_and_alerts() {
        let district = |adults: u32, log: u32, homeless: u32| {
            json!({"name": "D", "population": {"adults": adults, "children": 2, "bots": 1},
                   "resources": {"Log": log, "Berries": 5, "Water": 0},
                   "housing": {"occupiedBeds": 3, "totalBeds": 4, "homeless": homeless},
                   "employment": {"assigned": 2, "vacancies": 1, "unemployed": 4}})
        };
        let alert = |kind: &str, id: i64| {
            json!({"type": kind, "id": id, "name": "Lodge", "x": 1, "y": 2, "z": 3,
                   "workers": if kind == "unstaffed" { "0/2" } else { "" },
                   "status": if kind == "status" { "no materials" } else { "" }})
        };
        let d = TopData {
            summary: Some(json!({
                "districts": [district(8, 40, 1), district(3, 2, 0)],
                "wellbeing": {"average": 7.25, "miserable": 2, "critical": 1},
                "alerts": {"unstaffed": 9, "unpowered": 0, "unreachable": 0},
                "projections": {"foodDays": 4.1, "waterDays": 0.0, "logDays": 2.8,
                                "plankDays": 0.0, "gearDays": -1.0}})),
            alerts: Some(json!([
                alert("status", 7),
                alert("unstaffed", 5),
                alert("unstaffed", 6),
                alert("unreachable", 8)
            ])),
            ..TopData::default()
        };
        let text = render(&d);
        assert!(
            text.contains(
                "Population: 11 adults, 4 children, 2 bots; 1 homeless, 8 unemployed; beds 6/8, workers 4/6\n"
            ),
            "{text}"
        );
        assert!(
            text.contains(
                "Stocks: Water 0 (0.0d), food (4.1d), Log 42 (2.8d), Plank 0 (0.0d), Gear 0 (-); other goods: Berries 10\n"
            ),
            "{text}"
        );
        assert!(
            text.contains("Wellbeing: average 7.2, 2 miserable, 1 critical\n"),
            "{text}"
        );
        // Counts come from the list (status included), in the documented order.
        assert!(
            text.contains("Alerts: unstaffed 2, unreachable 1, status 1\n"),
            "{text}"
        );
        assert!(
            text.contains("  status Lodge #7 at 1,2,3 no materials\n  unstaffed Lodge #5 at 1,2,3 workers 0/2\n  unstaffed Lodge #6 at 1,2,3 workers 0/2\n  ... 1 more"),
            "{text}"
        );
        // Without the list, the summary's counts.
        let d = TopData { alerts: None, ..d };
        assert!(render(&d).contains("Alerts: unstaffed 9\n"));
        let d = TopData {
            alerts: Some(json!([])),
            ..d
        };
        assert!(render(&d).contains("Alerts: none\n"));
    }

    #[test]
    fn a_closed_gate_says_how_to_open_it() {
        let d = TopData {
            gate_closed: true,
            agent: Some(json!({"mode": "request", "ready": false})),
            ..TopData::default()
        };
        let text = render(&d);
        assert!(text.contains("ready gate is closed"));
        assert!(text.contains("(none yet)"));
    }
}
