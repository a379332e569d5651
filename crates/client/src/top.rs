//! `colony top`: a live view of the colony that redraws in place: settlement, time, speed,
//! weather, science, the agent state and the most recent game events (from the WebSocket).
//! `--once` prints one frame and exits (for scripts and tests). Population, stocks with days
//! left and alerts join the view when the service has those routes.

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

/// What one frame shows.
#[derive(Default)]
pub struct TopData {
    pub settlement: Option<Value>,
    pub time: Option<Value>,
    pub speed: Option<Value>,
    pub weather: Option<Value>,
    pub science: Option<Value>,
    pub agent: Option<Value>,
    /// Set when the game routes answered `game_not_ready`.
    pub gate_closed: bool,
    pub events: Vec<String>,
}

fn get(api: &Api, path: &str, gate_closed: &mut bool) -> Result<Option<Value>, CliError> {
    match api.send(Method::Get, path, &Map::new())? {
        Answer::Ok(v) => Ok(Some(v)),
        Answer::Error { error, .. } if error.code == protocol::error::ErrorCode::GameNotReady => {
            *gate_closed = true;
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
