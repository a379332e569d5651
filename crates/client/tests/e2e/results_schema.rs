//! results.json against `docs/results.schema.json` (JSON Schema draft 2020-12, checked with the
//! `jsonschema` crate): the real `colony` binary plays a tiny scenario with `--agent true` (ok
//! episodes), then with a crashing agent and `--allow-invalid` beside a scenario whose setup the
//! service refuses (an invalid and an error episode); both files must validate. Hazard spells and
//! score terms, which such short games do not produce, are made by the harness's own types and
//! validated inside a real file. Copies with a member removed, added, renamed or mistyped must
//! be rejected, so the schema follows results.json as it is written.

use crate::support::colonyd_bin;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The schema, compiled (it is itself checked against the draft 2020-12 meta-schema).
fn validator() -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/results.schema.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let schema: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        schema["$schema"], "https://json-schema.org/draft/2020-12/schema",
        "draft 2020-12"
    );
    jsonschema::meta::validate(&schema).expect("the schema is a valid draft 2020-12 schema");
    jsonschema::draft202012::new(&schema).unwrap()
}

/// Every error of `v`, one line each (empty when it validates).
fn errors(schema: &jsonschema::Validator, v: &Value) -> Vec<String> {
    schema
        .iter_errors(v)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

/// A one-day scenario on a small map with two 12-hour turns.
fn scenario(dir: &Path, id: &str, setup: &str) -> PathBuf {
    let path = dir.join(format!("{id}.toml"));
    std::fs::write(
        &path,
        format!(
            r#"
id = "{id}"
title = "One short day"
goal = "Live."
horizon_days = 1
turn_hours = 12
[game]
faction = "Folktails"
mode = "Normal"
map = 64
seeds = [7]
{setup}
[[score]]
metric = "days_survived"
weight = 3
target = 1

[[score]]
metric = "deaths"
target = 5
lower_is_better = true
"#
        ),
    )
    .unwrap();
    path
}

/// Runs `colony eval` and returns its results.json.
fn eval(args: &[&str], out: &Path) -> Value {
    let o = Command::new(env!("CARGO_BIN_EXE_colony"))
        .arg("eval")
        .args(args)
        .arg("--quiet")
        .arg("--out")
        .arg(out)
        .arg("--colonyd")
        .arg(colonyd_bin())
        .output()
        .expect("run colony eval");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap()
}

/// `v` with `edit` applied must be rejected, naming `what`.
fn rejected(schema: &jsonschema::Validator, v: &Value, what: &str, edit: impl FnOnce(&mut Value)) {
    let mut copy = v.clone();
    edit(&mut copy);
    assert!(
        !schema.is_valid(&copy),
        "a results.json with {what} passed the schema"
    );
}

#[test]
fn real_results_files_match_the_schema_and_changed_ones_do_not() {
    let schema = validator();
    let dir = tempfile::tempdir().unwrap();
    let ok_sc = scenario(dir.path(), "schema-short", "");
    let broken_sc = scenario(
        dir.path(),
        "schema-broken",
        "[[setup.commands]]\nroute = \"POST /api/building/place\"\n\
         body = { prefab = \"NoSuchBuilding.Folktails\", x = 1, y = 1, z = 1, orientation = \"south\" }\n",
    );
    let ok = eval(
        &[
            "--scenario",
            ok_sc.to_str().unwrap(),
            "--agent",
            "true",
            "--seeds",
            "7,8",
        ],
        &dir.path().join("ok"),
    );
    let crash = eval(
        &[
            "--scenario",
            &format!("{},{}", ok_sc.display(), broken_sc.display()),
            "--agent",
            "sh -c 'exit 3'",
            "--allow-invalid",
        ],
        &dir.path().join("crash"),
    );
    let status = |r: &Value| -> Vec<String> {
        r["episodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["status"].as_str().unwrap().to_owned())
            .collect()
    };
    // A persistent agent reporting usage: agentMode, agentProcesses and agentUsage.
    let agent = dir.path().join("persistent.py");
    std::fs::write(
        &agent,
        "import json, sys\nfor line in sys.stdin:\n    usage = {\"model\": \"m\", \"promptTokens\": 5, \"cost\": 0.5}\n    print(json.dumps({\"done\": True, \"usage\": usage}), flush=True)\n",
    )
    .unwrap();
    let persistent = eval(
        &[
            "--scenario",
            ok_sc.to_str().unwrap(),
            "--agent-mode",
            "persistent",
            "--agent",
            &format!("python3 {}", agent.display()),
            "--seeds",
            "7",
        ],
        &dir.path().join("persistent"),
    );
    assert_eq!(status(&ok), ["ok", "ok"]);
    assert_eq!(status(&crash), ["error", "invalid"], "{crash:#}");
    assert_eq!(status(&persistent), ["ok"], "{persistent:#}");
    assert_eq!(persistent["harness"]["agentMode"], "persistent");
    assert_eq!(
        persistent["episodes"][0]["agentProcesses"], 1,
        "{persistent:#}"
    );
    assert_eq!(
        persistent["agentUsage"]["promptTokens"], 10,
        "{persistent:#}"
    );
    for r in [&ok, &crash, &persistent] {
        assert_eq!(errors(&schema, r), Vec::<String>::new(), "{r:#}");
    }

    // Hazard spells and score terms as the harness writes them, inside a real file.
    let mut rows: Vec<eval::history::Row> = (0..6)
        .map(|h| eval::history::Row {
            day: 3,
            hour: h,
            adults: 4,
            food_days: 6.0,
            water_days: 2.5,
            weather: if h >= 2 { "drought" } else { "temperate" }.into(),
            ..Default::default()
        })
        .collect();
    rows[4].deaths.insert("thirst".into(), 1);
    let spells = eval::hazards::spells(&rows);
    assert_eq!(spells.len(), 1);
    let terms = vec![
        eval::score::TermScore {
            metric: "days_survived".into(),
            value: 0.75,
            target: 1.0,
            weight: 3.0,
            lower_is_better: false,
            survival_scale: None,
            points: 56.25,
        },
        eval::score::TermScore {
            metric: "deaths".into(),
            value: 0.0,
            target: 5.0,
            weight: 1.0,
            lower_is_better: true,
            survival_scale: None,
            points: 25.0,
        },
    ];
    let mut full = ok.clone();
    full["episodes"][0]["hazards"] = serde_json::to_value(&spells).unwrap();
    full["episodes"][0]["scoreTerms"] = serde_json::to_value(&terms).unwrap();
    full["episodes"][0]["score"] = json!(81.25);
    assert_eq!(errors(&schema, &full), Vec::<String>::new(), "{full:#}");
    // A term scaled by survival (an optional member) also passes.
    let mut scaled = full.clone();
    scaled["episodes"][0]["scoreTerms"][0]["survivalScale"] = json!(0.75);
    assert_eq!(errors(&schema, &scaled), Vec::<String>::new());

    // Every required member of the top level and of an episode, removed, is caught.
    let required = |def: &Value| -> Vec<String> {
        def["required"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| k.as_str().unwrap().to_owned())
            .collect()
    };
    let doc: Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/results.schema.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let top = required(&doc);
    let written: Vec<String> = ok.as_object().unwrap().keys().cloned().collect();
    assert_eq!(
        top, written,
        "the schema requires exactly the members results.json has, in its order"
    );
    let episode_keys: Vec<String> = ok["episodes"][0]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    assert_eq!(
        required(&doc["$defs"]["episode"]),
        episode_keys,
        "the schema requires every member a played episode has (only `error` is optional)"
    );
    for k in &top {
        rejected(&schema, &full, &format!("no `{k}`"), |v| {
            v.as_object_mut().unwrap().remove(k);
        });
    }
    for k in required(&doc["$defs"]["episode"]) {
        rejected(&schema, &full, &format!("an episode without `{k}`"), |v| {
            v["episodes"][0].as_object_mut().unwrap().remove(&k);
        });
    }
    for k in required(&doc["$defs"]["termScore"]) {
        rejected(
            &schema,
            &full,
            &format!("a score term without `{k}`"),
            |v| {
                v["episodes"][0]["scoreTerms"][1]
                    .as_object_mut()
                    .unwrap()
                    .remove(&k);
            },
        );
    }
    for k in required(&doc["$defs"]["hazardSpell"]) {
        rejected(
            &schema,
            &full,
            &format!("a hazard spell without `{k}`"),
            |v| {
                v["episodes"][0]["hazards"][0]
                    .as_object_mut()
                    .unwrap()
                    .remove(&k);
            },
        );
    }
    // Gained or renamed members, and wrong values, are caught too.
    rejected(&schema, &full, "an unknown top-level member", |v| {
        v["scoreBreakdown"] = json!([]);
    });
    rejected(&schema, &full, "an episode member renamed", |v| {
        let e = v["episodes"][0].as_object_mut().unwrap();
        let d = e.remove("daysSurvived").unwrap();
        e.insert("days_survived".into(), d);
    });
    rejected(&schema, &full, "an unknown version member", |v| {
        v["version"]["rulesHash"] = json!("x");
    });
    rejected(&schema, &full, "an unknown status", |v| {
        v["episodes"][0]["status"] = json!("skipped");
    });
    rejected(&schema, &full, "an unknown split", |v| {
        v["split"] = json!("train");
    });
    rejected(&schema, &full, "a score over 100", |v| {
        v["episodes"][0]["score"] = json!(100.5);
    });
    rejected(&schema, &full, "a digest that is no SHA-256", |v| {
        v["version"]["rulesDigest"] = json!("2bdb8ecc");
    });
    rejected(&schema, &crash, "an invalid episode with a score", |v| {
        v["episodes"][1]["score"] = json!(12.5);
    });
    rejected(&schema, &crash, "an error episode without its error", |v| {
        v["episodes"][0].as_object_mut().unwrap().remove("error");
    });
}
