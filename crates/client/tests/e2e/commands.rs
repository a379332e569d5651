//! Every route command in both output formats, and the exit code of each error class.

use crate::support::{Server, same};
use protocol::routes::{Method, ROUTES};
use serde_json::{Value, json};

#[test]
fn every_get_command_matches_the_service_in_json_and_toon() {
    let s = Server::start();
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    // A paused clock keeps the answers still between the calls.
    s.post("/api/speed", json!({"speed": 0}));
    s.post(
        "/api/agent/message",
        json!({"message": "a line for the log"}),
    );
    s.post("/api/game/save", json!({"name": "one"}));
    let gets: Vec<_> = ROUTES.iter().filter(|r| r.method == Method::Get).collect();
    assert!(gets.len() >= 11);
    for r in gets {
        // Required parameters get small sample values (a 4x4 region for tiles).
        let required: Vec<(&str, &str)> = r
            .params
            .iter()
            .filter(|p| p.required)
            .map(|p| (p.name, if p.name.ends_with('2') { "3" } else { "0" }))
            .collect();
        let query: Vec<String> = required.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let path = if query.is_empty() {
            r.path.to_string()
        } else {
            format!("{}?{}", r.path, query.join("&"))
        };
        let args: Vec<String> = required.iter().map(|(k, v)| format!("{k}:{v}")).collect();
        let with = |extra: &[&'static str]| -> Vec<String> {
            let mut a: Vec<String> = vec![r.command.to_string()];
            a.extend(args.iter().cloned());
            a.extend(extra.iter().map(|e| e.to_string()));
            a
        };
        let expected = s.get(&path);
        if r.path == "/api/replay" {
            // Replay mode only (tests/e2e/replay.rs serves one): here the domain error, exit 1.
            let run = s.run(home, &[r.command, "--json"]);
            assert_eq!(run.code, 1, "{run:?}");
            assert!(run.stdout.contains("disabled: "), "{run:?}");
            assert!(
                expected["error"]
                    .as_str()
                    .is_some_and(|e| e.starts_with("disabled: ")),
                "{expected}"
            );
            continue;
        }
        // `--json` asks for the nested json shape; plain output renders the toon rows.
        let sep = if path.contains('?') { '&' } else { '?' };
        let expected_json = s.get(&format!("{path}{sep}format=json"));
        let json_args = with(&["--json"]);
        let json = s
            .run(
                home,
                &json_args.iter().map(String::as_str).collect::<Vec<_>>(),
            )
            .json();
        assert!(
            same(&json, &expected_json),
            "{} --json: {json} != {expected_json}",
            r.command
        );
        let toon_args = with(&[]);
        let run = s.run(
            home,
            &toon_args.iter().map(String::as_str).collect::<Vec<_>>(),
        );
        assert!(
            !run.stdout.trim_start().starts_with('{'),
            "{}: TOON expected, got {}",
            r.command,
            run.stdout
        );
        let toon = run.toon();
        assert!(
            same(&toon, &expected),
            "{} (TOON): {toon} != {expected}",
            r.command
        );
    }
    // A list renders as a TOON table.
    let saves = s.run(home, &["saves"]);
    assert!(
        saves.ok().starts_with("[1]{name,bytes,modified}:"),
        "{}",
        saves.stdout
    );
}

#[test]
fn post_commands_send_typed_bodies_and_print_both_formats() {
    let s = Server::start();
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let run = |args: &[&str]| s.run(home, args);

    assert_eq!(
        run(&["speed", "speed:2", "--json"]).json(),
        json!({"speed": 2})
    );
    assert_eq!(run(&["speed", "3"]).toon(), json!({"speed": 3}));
    assert_eq!(s.get("/api/speed"), json!({"speed": 3}));
    assert_eq!(run(&["speed", "--speed", "0"]).toon(), json!({"speed": 0}));

    assert_eq!(
        run(&["workhours", "end-hours:18"]).toon(),
        json!({"endHours": 18})
    );
    assert_eq!(s.get("/api/workhours")["endHours"], json!(18.0));

    let cfg = run(&["agent-config", "goal:grow to 50", "mode:request", "--json"]).json();
    assert!(same(&cfg, &s.get("/api/agent/state")));
    assert_eq!(cfg["goal"], "grow to 50");

    let req = run(&["request", "prompt:build: a pump"]).toon();
    assert_eq!(req["pendingRequest"]["prompt"], "build: a pump");
    let req = run(&["request", "another", "--replace", "--json"]).json();
    assert_eq!(req["replaced"]["prompt"], "build: a pump");
    assert_eq!(req["pendingRequest"]["prompt"], "another");

    run(&["message", "placed a lumberjack"]).ok();
    let log = run(&["log", "--json"]).json();
    assert!(log.to_string().contains("placed a lumberjack"), "{log}");

    assert_eq!(run(&["ready", "false"]).toon(), json!({"ready": false}));
    assert_eq!(
        run(&["ready", "ready:true", "--json"]).json(),
        json!({"ready": true})
    );

    assert_eq!(run(&["save", "name:t1"]).toon()["name"], "t1");
    assert_eq!(run(&["save", "--json"]).json()["name"], "quicksave");
    let saves = run(&["saves", "--json"]).json();
    assert!(saves.as_array().unwrap().iter().any(|x| x["name"] == "t1"));

    let adv = run(&["advance", "hours:12", "--json"]).json();
    assert!(adv["ticks"].as_u64().unwrap() > 0, "{adv}");
    let adv = run(&["advance", "days:0.5"]).toon();
    assert!(adv["day"].as_u64().unwrap() >= 2, "{adv}");

    let load = run(&["load", "t1"]).toon();
    assert_eq!(load["name"], "t1");
    run(&["ready", "true"]).ok();

    let new = run(&[
        "new-game",
        "seed:3",
        "map:32",
        "settlement:Test Town",
        "--json",
    ])
    .json();
    assert_eq!(new["settlement"], "Test Town");
    assert_eq!(new["seed"], 3);
    assert_eq!(new["mapSize"], json!({"x": 32, "y": 32}));
    run(&["ready", "true"]).ok();
    assert_eq!(run(&["settlement"]).toon(), json!({"name": "Test Town"}));

    let set = run(&[
        "settings",
        "corsOrigin:*",
        "debugEndpointEnabled:true",
        "--json",
    ])
    .json();
    assert_eq!(set["settings"]["corsOrigin"], "*");
    let bench = run(&["benchmark", "iterations:2", "routes:/api/ping,/api/time"]).toon();
    assert_eq!(bench["iterations"], 2);
    assert_eq!(bench["routes"].as_array().unwrap().len(), 2);

    // A write whose answer has a json and a toon shape: `--json` gets the nested one.
    let find = [
        "find-placement",
        "prefab:Path",
        "x1:0",
        "y1:0",
        "x2:30",
        "y2:30",
    ];
    let nested = run(&[&find[..], &["--json"]].concat()).json();
    assert_eq!(nested["prefab"], "Path", "{nested}");
    assert!(nested["placements"].is_array(), "{nested}");
    let rows = run(&find).toon();
    assert!(rows.is_array(), "toon rows: {rows}");

    run(&["agent-config", "lastError:null"]).ok();
    let openapi = run(&["openapi", "--json"]).json();
    assert!(openapi["paths"]["/api/speed"].is_object());
}

#[test]
fn errors_exit_with_their_class() {
    let s = Server::start();
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let run = |args: &[&str]| s.run(home, args);

    // 2: bad input, caught before sending or reported by the service.
    let r = run(&["speed", "speed:fast"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("expected an integer"), "{r:?}");
    assert_eq!(run(&["nonsense"]).code, 2);
    assert_eq!(run(&["time", "foo:1"]).code, 2);
    assert_eq!(run(&["ready"]).code, 2, "ready is required");
    assert_eq!(run(&["request", "note: hi"]).code, 2);
    let r = run(&["speed", "speed:9"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("error: invalid_param: "), "{r:?}");
    assert!(r.stderr.contains("got: 9"), "{r:?}");
    let r = run(&["speed", "speed:9", "--json"]);
    assert_eq!(r.code, 2);
    let body: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(body["got"], 9);
    assert_eq!(
        run(&["agent-config", "mode:sometimes"]).code,
        2,
        "invalid_mode"
    );
    assert_eq!(
        s.get("/api/speed"),
        json!({"speed": 1}),
        "nothing was changed"
    );

    // 3: not found.
    let r = run(&["load", "name:missing"]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(r.stderr.contains("error: not_found: "), "{r:?}");

    // 4: gate closed.
    run(&["ready", "false"]).ok();
    let r = run(&["time"]);
    assert_eq!(r.code, 4, "{r:?}");
    assert!(r.stderr.contains("game_not_ready"), "{r:?}");
    assert!(r.stderr.contains("hint:"), "{r:?}");
    run(&["agent"]).ok();
    run(&["ready", "true"]).ok();

    // 1: other (a refused second prompt, a disabled feature).
    run(&["request", "one"]).ok();
    let r = run(&["request", "two"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("request_pending"), "{r:?}");
    assert_eq!(run(&["benchmark"]).code, 1);

    // 6: nothing listening.
    let dead = crate::support::free_port().to_string();
    let r = run(&["--port", &dead, "time"]);
    assert_eq!(r.code, 6, "{r:?}");
    assert!(r.stderr.contains("cannot reach the service"), "{r:?}");
}

#[test]
fn a_token_protected_service_answers_401_as_exit_5() {
    let s = Server::start_with(json!({"authToken": "s3cret"}));
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let bare = || {
        let mut c = crate::support::colony(home);
        c.args(["--port", &s.http_port.to_string()]);
        c
    };
    let r = crate::support::Run::of(bare().arg("time").output().unwrap());
    assert_eq!(r.code, 5, "{r:?}");
    assert!(r.stderr.contains("unauthorized"), "{r:?}");
    let r = crate::support::Run::of(bare().args(["--token", "wrong", "time"]).output().unwrap());
    assert_eq!(r.code, 5, "{r:?}");
    crate::support::Run::of(bare().args(["--token", "s3cret", "time"]).output().unwrap()).ok();
    crate::support::Run::of(bare().arg("ping").output().unwrap()).ok();
}

#[test]
fn help_lists_every_command_and_their_parameters() {
    let home = tempfile::tempdir().unwrap();
    let r = crate::support::Run::of(crate::support::colony(home.path()).output().unwrap());
    let out = r.ok();
    for route in ROUTES {
        assert!(out.contains(route.command), "{}", route.command);
    }
    for local in ["config", "events", "connect", "help"] {
        assert!(out.contains(local));
    }
    assert!(out.contains("Exit codes"));
    let r = crate::support::Run::of(
        crate::support::colony(home.path())
            .args(["help", "speed"])
            .output()
            .unwrap(),
    );
    assert!(r.ok().contains("speed:int"), "{r:?}");
    assert!(r.stdout.contains("GET /api/speed") && r.stdout.contains("POST /api/speed"));
    let r = crate::support::Run::of(
        crate::support::colony(home.path())
            .args(["request", "--help"])
            .output()
            .unwrap(),
    );
    assert!(r.ok().contains("prompt:string"), "{r:?}");
}

#[test]
fn the_catalogue_equals_the_routes_the_service_documents() {
    let s = Server::start();
    let doc = s.get("/api/openapi.json");
    let mut served = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, m) in [("get", Method::Get), ("post", Method::Post)] {
            if item.get(method).is_some() {
                served.push((m, path.clone()));
            }
        }
    }
    served.sort();
    let catalogue: Vec<(Method, String)> = protocol::routes::method_paths()
        .into_iter()
        .map(|(m, p)| (m, p.to_string()))
        .collect();
    assert_eq!(catalogue, served);
}

#[test]
fn map_draws_the_region_from_the_tiles() {
    let s = Server::start();
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    s.post("/api/speed", json!({"speed": 0}));
    let text = s.run(home, &["map", "0", "0", "63", "63"]).ok().to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1 + 64 + 1, "ruler, 64 rows, legend:\n{text}");
    assert!(lines[0].trim_start().starts_with('0'));
    assert!(lines.last().unwrap().contains("terrain height"));
    // Row of y = 63 comes first (north up); every row is 64 characters after its label.
    assert!(lines[1].starts_with("  63 "));
    let tiles = s.get("/api/tiles?x1=0&y1=0&x2=63&y2=63&format=json");
    for t in tiles["tiles"].as_array().unwrap() {
        let (x, y) = (
            t["x"].as_u64().unwrap() as usize,
            t["y"].as_u64().unwrap() as usize,
        );
        let c = lines[1 + (63 - y)].as_bytes()[5 + x] as char;
        let occupied = t.get("occupants").is_some();
        let wet = t["water"].as_f64().unwrap() > 0.05;
        match c {
            '~' | '!' => assert!(wet && !occupied, "({x},{y}) {t}"),
            'T' | 't' | 'x' | '*' | '&' | '+' | '.' | 'B' | '#' => {
                assert!(occupied, "({x},{y}) {t}")
            }
            // Beavers and bots (checked in views.rs).
            '@' | 'r' => {}
            h => assert_eq!(
                h.to_digit(36).map(u64::from),
                t["terrain"].as_u64(),
                "({x},{y}) {t}"
            ),
        }
    }
    assert!(text.contains('~'), "the river shows");
    assert!(text.contains('B'), "the district center shows");
    assert!(text.contains('T') || text.contains('t'), "trees show");
    // Key:value form, a clamped region, and bad input.
    let small = s
        .run(home, &["map", "x1:60", "y1:60", "x2:80", "y2:80"])
        .ok()
        .to_string();
    assert_eq!(small.lines().nth(1).unwrap().len(), 5 + 4);
    let bad = s.run(home, &["map", "0", "0"]);
    assert_eq!(bad.code, 2, "{bad:?}");
}

#[test]
fn top_once_shows_the_colony_and_the_gate() {
    let s = Server::start();
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    s.post("/api/agent/request", json!({"prompt": "dig a canal"}));
    let text = s.run(home, &["top", "--once"]).ok().to_string();
    assert!(text.contains("— day 1, "), "{text}");
    assert!(text.contains("Weather: cycle 1, day 1 of "), "{text}");
    assert!(text.contains("Science: 0 points"), "{text}");
    assert!(text.contains("pending #1 \"dig a canal\""), "{text}");
    s.post("/api/ready", json!({"ready": false}));
    let text = s.run(home, &["top", "--once"]).ok().to_string();
    assert!(text.contains("ready gate is closed"), "{text}");
    assert!(text.contains("gate closed"), "{text}");
    let bad = s.run(home, &["top", "--interval", "0"]);
    assert_eq!(bad.code, 2);
}

#[test]
fn a_closed_pipe_ends_colony_quietly() {
    use std::io::Read;
    // `colony` prints its command table into a pipe whose reader is already gone.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_colony"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let _ = child.wait().unwrap();
    assert!(!err.contains("panicked"), "{err}");
}
