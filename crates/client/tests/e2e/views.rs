//! `colony top` and `colony map` against a running colony: the numbers and positions they show
//! are the service's own (read straight from `/api/summary`, `/api/alerts`, `/api/beavers` and
//! `/api/tiles` while the game is paused).

use crate::support::Server;
use serde_json::{Value, json};
use std::collections::HashMap;

/// A paused colony that has lived a few hours: a path south of the district center's doorstep,
/// a lodge at its far end (builders walk there, then beavers move in) and a lodge out of reach (alerts).
fn lived_in_colony() -> (Server, Value) {
    let s = Server::start();
    assert_eq!(s.post("/api/speed", json!({"speed": 0}))["speed"], 0);
    let summary = s.get("/api/summary?format=json");
    let dc = summary["districts"][0]["dc"].clone();
    let (ex, ey) = (
        dc["entranceX"].as_i64().unwrap(),
        dc["entranceY"].as_i64().unwrap(),
    );
    let path = s.post(
        "/api/path/place",
        json!({"x1": ex, "y1": ey, "x2": ex, "y2": ey - 6}),
    );
    assert!(path["placed"]["paths"].as_u64().unwrap() > 0, "{path}");
    let spots = s.post(
        "/api/placement/find",
        json!({"prefab": "Lodge.Folktails", "x1": ex - 4, "y1": ey - 8, "x2": ex + 4, "y2": ey - 5}),
    );
    let spot = spots
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["reachable"] == 1)
        .unwrap_or_else(|| panic!("a reachable lodge spot near the path: {spots}"))
        .clone();
    let placed = s.post(
        "/api/building/place",
        json!({"prefab": "Lodge.Folktails", "x": spot["x"], "y": spot["y"], "z": spot["z"],
               "orientation": spot["orientation"]}),
    );
    assert!(placed.get("error").is_none(), "{placed}");
    let far = s.post(
        "/api/placement/find",
        json!({"prefab": "Lodge.Folktails", "x1": 45, "y1": 40, "x2": 60, "y2": 55}),
    );
    let far = far.as_array().unwrap().first().unwrap().clone();
    let placed = s.post(
        "/api/building/place",
        json!({"prefab": "Lodge.Folktails", "x": far["x"], "y": far["y"], "z": far["z"],
               "orientation": far["orientation"]}),
    );
    assert!(placed.get("error").is_none(), "{placed}");
    let advanced = s.post("/api/game/advance", json!({"hours": 3}));
    assert!(advanced.get("error").is_none(), "{advanced}");
    (s, dc)
}

fn n(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a count: {v}"))
}

#[test]
fn top_once_shows_population_stocks_wellbeing_and_alerts_from_the_service() {
    let (s, _) = lived_in_colony();
    let home = tempfile::tempdir().unwrap();
    let text = s.run(home.path(), &["top", "--once"]).ok().to_string();
    let summary = s.get("/api/summary?format=json");
    let alerts = s.get("/api/alerts?limit=0&format=json");
    let line = |prefix: &str| {
        text.lines()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no {prefix:?} line:\n{text}"))
            .to_string()
    };
    // One district at the start: its numbers are the colony's.
    assert_eq!(summary["districts"].as_array().unwrap().len(), 1);
    let d = &summary["districts"][0];
    let (pop, housing, jobs) = (&d["population"], &d["housing"], &d["employment"]);
    assert!(n(&pop["adults"]) + n(&pop["children"]) > 0, "{summary}");
    assert_eq!(
        line("Population: "),
        format!(
            "Population: {} adults, {} children, {} bots; {} homeless, {} unemployed; beds {}/{}, workers {}/{}",
            n(&pop["adults"]),
            n(&pop["children"]),
            n(&pop["bots"]),
            n(&housing["homeless"]),
            n(&jobs["unemployed"]),
            n(&housing["occupiedBeds"]),
            n(&housing["totalBeds"]),
            n(&jobs["assigned"]),
            n(&jobs["assigned"]) + n(&jobs["vacancies"]),
        )
    );
    let stocks = line("Stocks: ");
    let p = &summary["projections"];
    let days = |key: &str| {
        let d = p[key].as_f64().unwrap();
        if d < 0.0 {
            "-".to_string()
        } else {
            format!("{d:.1}d")
        }
    };
    let res = d["resources"].as_object().unwrap();
    for (good, key) in [
        ("Water", "waterDays"),
        ("Log", "logDays"),
        ("Plank", "plankDays"),
        ("Gear", "gearDays"),
    ] {
        let held = res.get(good).map_or(0, n);
        let want = format!("{good} {held} ({})", days(key));
        assert!(stocks.contains(&want), "{want:?} in {stocks:?}\n{summary}");
    }
    assert!(stocks.contains(&format!("food ({})", days("foodDays"))));
    for (good, held) in res {
        if !["Water", "Log", "Plank", "Gear"].contains(&good.as_str()) && n(held) > 0 {
            assert!(stocks.contains(&format!("{good} {}", n(held))), "{stocks}");
        }
    }
    let wb = &summary["wellbeing"];
    assert_eq!(
        line("Wellbeing: "),
        format!(
            "Wellbeing: average {:.1}, {} miserable, {} critical",
            wb["average"].as_f64().unwrap(),
            n(&wb["miserable"]),
            n(&wb["critical"])
        )
    );
    // Alerts: the summary's counts by type, then the first alerts of the list.
    let list = alerts.as_array().unwrap();
    assert!(!list.is_empty(), "the far lodge is out of reach");
    let counts = line("Alerts: ");
    let mut total = 0;
    for (kind, count) in summary["alerts"].as_object().unwrap() {
        total += n(count);
        if n(count) > 0 {
            assert!(counts.contains(&format!("{kind} {}", n(count))), "{counts}");
        } else {
            assert!(!counts.contains(&format!("{kind} ")), "{counts}");
        }
    }
    assert!(total > 0, "{summary}");
    let statuses = list.iter().filter(|a| a["type"] == "status").count();
    if statuses > 0 {
        assert!(counts.contains(&format!("status {statuses}")), "{counts}");
    }
    let after: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("Alerts: "))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .collect();
    for (i, a) in list.iter().take(3).enumerate() {
        let head = format!(
            "  {} {} #{} at {},{},{}",
            a["type"].as_str().unwrap(),
            a["name"].as_str().unwrap(),
            a["id"],
            a["x"],
            a["y"],
            a["z"]
        );
        assert!(after[i].starts_with(&head), "{head:?}\n{text}");
    }
    // Time, weather and the agent are still there, in the same frame.
    assert!(text.contains(" — day "), "{text}");
    assert!(text.contains("Weather: cycle "), "{text}");
    assert!(text.contains("Agent: "), "{text}");
    // --json is for routes; top's frame stays text, and a closed gate hides the colony lines.
    s.post("/api/ready", json!({"ready": false}));
    let closed = s.run(home.path(), &["top", "--once"]).ok().to_string();
    assert!(closed.contains("ready gate is closed"), "{closed}");
    assert!(!closed.contains("Population: "), "{closed}");
}

#[test]
fn map_shows_the_district_center_paths_and_beavers_where_the_service_puts_them() {
    let (s, dc) = lived_in_colony();
    let home = tempfile::tempdir().unwrap();
    let (cx, cy) = (dc["x"].as_i64().unwrap(), dc["y"].as_i64().unwrap());
    let (x1, y1, x2, y2) = (
        (cx - 10).max(0),
        (cy - 12).max(0),
        (cx + 10).min(63),
        (cy + 6).min(63),
    );
    let args: Vec<String> = [x1, y1, x2, y2].iter().map(i64::to_string).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let text = s
        .run(home.path(), &[&["map"], &args[..]].concat())
        .ok()
        .to_string();
    let hidden = s
        .run(
            home.path(),
            &[&["map"], &args[..], &["--no-beavers"]].concat(),
        )
        .ok()
        .to_string();
    let tiles = s.get(&format!(
        "/api/tiles?x1={x1}&y1={y1}&x2={x2}&y2={y2}&format=json"
    ));
    let beavers = s.get("/api/beavers?limit=0&format=json");
    // Tile (x, y) -> is every walker there a bot?
    let mut walkers: HashMap<(i64, i64), bool> = HashMap::new();
    for b in beavers.as_array().unwrap() {
        let at = (b["x"].as_i64().unwrap(), b["y"].as_i64().unwrap());
        let bot = b["isBot"] == true;
        walkers
            .entry(at)
            .and_modify(|all_bots| *all_bots &= bot)
            .or_insert(bot);
    }
    let char_at = |map: &str, x: i64, y: i64| -> char {
        let row = map.lines().nth(1 + (y2 - y) as usize).unwrap();
        assert!(row.starts_with(&format!("{y:>4} ")), "{row}");
        row.as_bytes()[5 + (x - x1) as usize] as char
    };
    let (mut centers, mut paths, mut shown) = (0, 0, 0);
    for t in tiles["tiles"].as_array().unwrap() {
        let (x, y) = (t["x"].as_i64().unwrap(), t["y"].as_i64().unwrap());
        let top = t["occupants"]
            .as_array()
            .and_then(|o| o.last())
            .and_then(|o| o["name"].as_str());
        let under = char_at(&hidden, x, y);
        assert!(under != '@' && under != 'r', "({x},{y}) {t}");
        match top {
            Some(name) if name.starts_with("DistrictCenter") => {
                assert_eq!(under, 'B', "({x},{y}) {t}");
                centers += 1;
            }
            Some("Path") => {
                assert_eq!(under, '#', "({x},{y}) {t}");
                paths += 1;
            }
            _ => {}
        }
        let c = char_at(&text, x, y);
        match walkers.get(&(x, y)) {
            Some(true) => assert_eq!(c, 'r', "bot at ({x},{y})"),
            Some(false) => {
                assert_eq!(c, '@', "beaver at ({x},{y})");
                shown += 1;
            }
            None => assert_eq!(c, under, "({x},{y}) {t}"),
        }
    }
    assert!(centers > 0, "the district center is in the region:\n{text}");
    assert!(paths > 0, "the path is in the region:\n{text}");
    assert!(shown > 0, "beavers are in the region:\n{text}\n{beavers}");
    assert!(text.lines().last().unwrap().ends_with("@ beaver  r bot"));
    assert!(!hidden.lines().last().unwrap().contains("beaver"));
}

#[test]
fn top_says_game_over_and_the_last_deaths_when_the_colony_dies() {
    let s = Server::start();
    s.post("/api/speed", json!({"speed": 0}));
    // Normal starts without water: ten days later everyone has died of thirst.
    s.post("/api/game/advance", json!({"days": 10}));
    let home = tempfile::tempdir().unwrap();
    let text = s.run(home.path(), &["top", "--once"]).ok().to_string();
    assert!(text.contains("GAME OVER"), "{text}");
    let deaths = text
        .lines()
        .find(|l| l.starts_with("Last deaths: "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(deaths.contains("died of thirst"), "{deaths}");
    let newest = s.get("/api/notifications?limit=20&format=json");
    let first_death = newest["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["subject"].as_str().unwrap().contains(" died"))
        .unwrap();
    assert!(deaths.starts_with(&format!(
        "Last deaths: {}",
        first_death["subject"].as_str().unwrap()
    )));
}
