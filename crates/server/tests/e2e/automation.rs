//! Automation end to end: link, unlink and configure with every rule and error of the contract,
//! on a loaded game whose devices were placed with the simulation's own commands.

use crate::power::{load_prepared, place_somewhere};
use crate::support::{Server, code};
use serde_json::{Value, json};

/// Every property of the configure table with a valid value other than its default, and the
/// value as the service writes it back.
/// (property, value sent, value stored).
type Setting = (&'static str, Value, &'static str);

fn table() -> Vec<(&'static str, Vec<Setting>)> {
    let cmp = ("comparisonMode", json!("lessorequal"), "LessOrEqual");
    vec![
        (
            "DepthSensor.Folktails",
            vec![
                ("threshold", json!(0.75), "0.75"),
                ("mode", json!("Less"), "Less"),
            ],
        ),
        (
            "ContaminationSensor.Folktails",
            vec![
                ("threshold", json!("0.2"), "0.2"),
                ("mode", json!("equal"), "Equal"),
            ],
        ),
        (
            "FlowSensor.Folktails",
            vec![
                ("threshold", json!("1.5"), "1.5"),
                ("mode", json!("NotEqual"), "NotEqual"),
            ],
        ),
        (
            "ResourceCounter.Folktails",
            vec![
                ("goodId", json!("plank"), "Plank"),
                ("threshold", json!(40), "40"),
                ("fillRateThreshold", json!("0.9"), "0.9"),
                ("mode", json!("FillRate"), "FillRate"),
                cmp.clone(),
                ("includeInputs", json!(true), "true"),
            ],
        ),
        (
            "PopulationCounter.Folktails",
            vec![
                ("threshold", json!("12"), "12"),
                ("mode", json!("Adults"), "Adults"),
                cmp.clone(),
                ("globalMode", json!("true"), "true"),
                ("countBeavers", json!("false"), "false"),
                ("countBots", json!(false), "false"),
            ],
        ),
        (
            "PowerMeter.Folktails",
            vec![
                ("mode", json!("Percent"), "Percent"),
                cmp,
                ("intThreshold", json!("300"), "300"),
                ("percentThreshold", json!("75.5"), "75.5"),
            ],
        ),
        ("Relay.Folktails", vec![("mode", json!("Xor"), "Xor")]),
        (
            "Memory.Folktails",
            vec![("mode", json!("FlipFlop"), "FlipFlop")],
        ),
        (
            "Chronometer.Folktails",
            vec![
                ("startTime", json!("20"), "20"),
                ("endTime", json!(4.5), "4.5"),
                ("mode", json!("NonWorkingHours"), "NonWorkingHours"),
            ],
        ),
        (
            "Lever.Folktails",
            vec![
                ("springReturn", json!("true"), "true"),
                ("pinned", json!("TRUE"), "true"),
                ("on", json!(true), "true"),
            ],
        ),
    ]
}

#[tokio::test]
async fn link_unlink_and_configure_with_their_errors() {
    let s = Server::start().await;
    let mut ids = std::collections::BTreeMap::new();
    let mut mill = 0;
    let mut lever2 = 0;
    load_prepared(&s, "automation", |w| {
        w.add_science(100_000);
        for (prefab, _) in table() {
            w.unlock(prefab).unwrap();
            ids.insert(prefab, place_somewhere(w, prefab));
        }
        lever2 = place_somewhere(w, "Lever.Folktails");
        mill = place_somewhere(w, "LumberMill.Folktails");
    })
    .await;
    let (lever, relay, memory) = (
        ids["Lever.Folktails"],
        ids["Relay.Folktails"],
        ids["Memory.Folktails"],
    );
    let link = |source: i32, target: i32, input: Option<&str>| {
        let mut b = json!({"sourceId": source, "targetId": target});
        if let Some(i) = input {
            b["input"] = i.into();
        }
        b
    };

    // Link: the answer names both ends.
    let (status, r) = s
        .post("/api/automation/link", link(lever, relay, None))
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        r,
        json!({"id": relay, "name": "Relay.Folktails", "input": "a", "sourceId": lever,
               "sourceName": "Lever.Folktails", "connected": true})
    );
    // b-h need a combining mode; then past the last input adds it.
    let (_, r) = s
        .post("/api/automation/link", link(lever2, relay, Some("b")))
        .await;
    assert_eq!(code(&r), "invalid_param", "{r}");
    let (_, r) = s
        .post(
            "/api/automation/configure",
            json!({"id": relay, "property": "mode", "value": "or"}),
        )
        .await;
    assert_eq!(
        r,
        json!({"id": relay, "property": "mode", "value": "Or", "name": "Relay.Folktails",
               "automationType": "Relay"})
    );
    let (_, r) = s
        .post("/api/automation/link", link(lever2, relay, Some("D")))
        .await;
    assert_eq!(
        (r["input"].as_str(), r["connected"].as_bool()),
        (Some("d"), Some(true))
    );
    for (body, want) in [
        (link(lever, relay, Some("i")), "invalid_param"),
        (link(lever, relay, Some("")), ""),
        (link(mill, relay, None), "invalid_type"),
        (link(relay, lever2, None), "invalid_type"),
        (link(lever, 777, None), "not_found"),
        (link(777, relay, None), "not_found"),
        (link(lever, memory, Some("b")), "invalid_param"),
        (link(lever, memory, Some("q")), "invalid_param"),
        (link(relay, relay, None), "invalid_param"),
        (json!({"sourceId": lever}), "invalid_param"),
        (json!({"sourceId": "x", "targetId": relay}), "invalid_param"),
    ] {
        let (status, r) = s.post("/api/automation/link", body.clone()).await;
        assert_eq!((status, code(&r)), (200, want), "{body}: {r}");
    }
    let (_, r) = s
        .post("/api/automation/link", link(lever, memory, Some("reset")))
        .await;
    assert_eq!(r["input"], "reset");
    // A single-input target always reports a.
    let (_, r) = s
        .post("/api/automation/link", link(relay, mill, Some("c")))
        .await;
    assert_eq!(
        (r["id"].as_i64(), r["input"].as_str()),
        (Some(i64::from(mill)), Some("a"))
    );

    // Unlink: empties, never removes; an empty input answers sourceId 0.
    let (_, r) = s
        .post("/api/automation/unlink", json!({"id": relay, "input": "b"}))
        .await;
    assert_eq!(
        (&r["connected"], &r["sourceId"], &r["input"]),
        (&json!(false), &json!(0), &json!("b"))
    );
    let (_, r) = s
        .post("/api/automation/unlink", json!({"id": relay, "input": "d"}))
        .await;
    assert_eq!(
        (&r["connected"], &r["sourceId"]),
        (&json!(false), &json!(lever2))
    );
    let (_, r) = s.post("/api/automation/unlink", json!({"id": mill})).await;
    assert_eq!((&r["input"], &r["sourceId"]), (&json!("a"), &json!(relay)));
    for (body, want) in [
        (json!({"id": lever}), "invalid_type"),
        (json!({"id": 777}), "not_found"),
        (json!({"id": relay, "input": "z"}), "invalid_param"),
        (json!({"input": "a"}), "invalid_param"),
    ] {
        let (_, r) = s.post("/api/automation/unlink", body.clone()).await;
        assert_eq!(code(&r), want, "{body}: {r}");
    }

    // Configure: every property of the table, names case-insensitive, values normalized.
    let mut n = 0;
    for (prefab, props) in table() {
        let id = ids[prefab];
        for (property, value, stored) in props {
            let (_, r) = s
                .post(
                    "/api/automation/configure",
                    json!({"id": id, "property": property.to_uppercase(), "value": value}),
                )
                .await;
            let kind = prefab.split('.').next().unwrap();
            assert_eq!(
                r,
                json!({"id": id, "property": property, "value": stored, "name": prefab,
                       "automationType": kind}),
                "{prefab} {property}"
            );
            n += 1;
        }
    }
    assert_eq!(n, 30);
    // Every property reads back through the building view.
    for (prefab, props) in table() {
        let id = ids[prefab];
        let (_, b) = s
            .get_one(&format!("/api/buildings?id={id}&format=json"))
            .await;
        let a = &b["automation"];
        assert_eq!(a["type"], prefab.split('.').next().unwrap(), "{b}");
        for (property, _, stored) in props {
            let got = &a["config"][property];
            let same = match (stored.parse::<f64>(), stored) {
                (Ok(f), _) => got.as_f64() == Some(f),
                (_, "true" | "false") => got.as_bool() == Some(stored == "true"),
                _ => got == stored,
            };
            assert!(same, "{prefab} {property}: {got} vs {stored}");
        }
    }
    let (_, b) = s
        .get_one(&format!("/api/buildings?id={relay}&format=json"))
        .await;
    let a = &b["automation"];
    assert_eq!(
        (
            &a["isTransmitter"],
            &a["hasAutomator"],
            &a["inputs"][0]["key"]
        ),
        (&json!(true), &json!(true), &json!("a"))
    );
    assert!(["On", "Off", "Error"].contains(&a["state"].as_str().unwrap()));
    let depth = ids["DepthSensor.Folktails"];
    for (body, want) in [
        (
            json!({"id": depth, "property": "colour", "value": "red"}),
            "invalid_param",
        ),
        (
            json!({"id": depth, "property": "mode", "value": "Sideways"}),
            "invalid_param",
        ),
        (
            json!({"id": depth, "property": "threshold", "value": "deep"}),
            "invalid_param",
        ),
        (
            json!({"id": depth, "property": "threshold", "value": null}),
            "invalid_param",
        ),
        (
            json!({"id": depth, "property": "threshold"}),
            "invalid_param",
        ),
        (
            json!({"id": mill, "property": "mode", "value": "Or"}),
            "invalid_type",
        ),
        (
            json!({"id": 777, "property": "mode", "value": "Or"}),
            "not_found",
        ),
    ] {
        let (_, r) = s.post("/api/automation/configure", body.clone()).await;
        assert_eq!(code(&r), want, "{body}: {r}");
    }
    let (_, r) = s
        .post(
            "/api/automation/configure",
            json!({"id": depth, "property": "mode", "value": "Sideways"}),
        )
        .await;
    assert_eq!(r["got"], "Sideways");
    // All three routes are in the OpenAPI document.
    let (_, doc) = s.get("/api/openapi.json").await;
    for p in ["link", "unlink", "configure"] {
        assert!(
            doc["paths"][format!("/api/automation/{p}")]["post"].is_object(),
            "{p}"
        );
    }
}
