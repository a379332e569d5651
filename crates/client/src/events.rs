//! `colony events [FILTER...]`: streams the service's game events, one line each, reconnecting
//! with backoff when the connection drops.

use crate::config::Settings;
use crate::ws::{self, Backoff, Recv};
use protocol::frame::EventPayload;
use std::time::Instant;

/// Options of `colony events`.
pub struct EventsOpts {
    /// Event-name substrings (a prefix such as `drought.` or any part such as `day`); an event
    /// is shown when it matches any of them, or always when there are none.
    pub filters: Vec<String>,
    /// Print each event's payload as one JSON line.
    pub json: bool,
    /// Stop after this many events.
    pub count: Option<u64>,
}

/// One event as a line of text: `day N  name  data`.
pub fn event_line(e: &EventPayload) -> String {
    let data = if e.data.is_null() {
        String::new()
    } else {
        format!("  {}", e.data)
    };
    format!("day {}  {}{data}", e.day, e.event)
}

pub fn matches(filters: &[String], name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    filters.is_empty()
        || filters
            .iter()
            .any(|f| name.contains(&f.to_ascii_lowercase()))
}

/// Runs until `count` events were shown (or forever).
pub fn run(settings: &Settings, opts: &EventsOpts) -> i32 {
    let mut backoff = Backoff::default();
    let mut shown = 0u64;
    loop {
        let mut conn = match ws::connect(settings) {
            Ok(c) => c,
            Err(e) => {
                let d = backoff.next_delay();
                eprintln!("colony events: {e}; retrying in {:.1} s", d.as_secs_f64());
                std::thread::sleep(d);
                continue;
            }
        };
        eprintln!("colony events: connected to {}", settings.ws_url());
        let connected_at = Instant::now();
        let reason = loop {
            match conn.recv() {
                Recv::Frame(f) if f.kind.eq_ignore_ascii_case("event") => {
                    let Some(payload) = f.payload else { continue };
                    let Ok(e) = serde_json::from_value::<EventPayload>(payload.clone()) else {
                        continue;
                    };
                    if !matches(&opts.filters, &e.event) {
                        continue;
                    }
                    if opts.json {
                        println!("{payload}");
                    } else {
                        println!("{}", event_line(&e));
                    }
                    shown += 1;
                    if opts.count.is_some_and(|c| shown >= c) {
                        return 0;
                    }
                }
                Recv::Frame(_) | Recv::Other | Recv::Idle => {}
                Recv::Closed(reason) => break reason,
            }
        };
        // A connection that lived a while resets the backoff.
        if connected_at.elapsed() > Backoff::MAX {
            backoff.reset();
        }
        let d = backoff.next_delay();
        eprintln!(
            "colony events: {reason}; reconnecting in {:.1} s",
            d.as_secs_f64()
        );
        std::thread::sleep(d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn filters_match_substrings_case_insensitively() {
        assert!(matches(&[], "day.start"));
        assert!(matches(&["drought.".into()], "drought.start"));
        assert!(matches(&["START".into()], "day.start"));
        assert!(!matches(&["speed".into(), "cycle".into()], "day.start"));
    }

    #[test]
    fn lines_show_day_name_and_data() {
        let e = EventPayload {
            event: "speed.changed".into(),
            day: 3,
            timestamp: 0,
            data: json!({"speed": 2}),
        };
        assert_eq!(event_line(&e), r#"day 3  speed.changed  {"speed":2}"#);
    }
}
