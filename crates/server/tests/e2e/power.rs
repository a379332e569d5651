//! Power end to end: the networks in both formats, and the clutch route's errors.

use crate::support::{Server, code};
use serde_json::{Value, json};

#[tokio::test]
async fn power_networks_in_both_formats_and_clutch_errors() {
    let s = Server::start().await;
    // The district center passes power on: a new colony has one network, supply 0.
    let (status, nets) = s.get("/api/power?format=json").await;
    assert_eq!(status, 200);
    let nets = nets.as_array().unwrap();
    assert_eq!(nets.len(), 1, "{nets:?}");
    let net = &nets[0];
    assert_eq!(
        (&net["supply"], &net["demand"], &net["stored"]),
        (&json!(0.0), &json!(0.0), &json!(0.0))
    );
    let buildings = net["buildings"].as_array().unwrap();
    assert_eq!(buildings.len(), 1);
    let dc = &buildings[0];
    assert_eq!(dc["name"], "DistrictCenter.Folktails");
    assert_eq!(
        (
            &dc["isGenerator"],
            &dc["nominalOutput"],
            &dc["nominalInput"]
        ),
        (&json!(false), &json!(0), &json!(0))
    );
    assert_eq!(net["id"], dc["id"], "a network is named by its smallest id");
    let dc_id = dc["id"].as_i64().unwrap();

    // toon: flat rows, buildings as Name:id.
    let (_, rows) = s.get("/api/power").await;
    let rows = rows.as_array().unwrap();
    assert_eq!(
        rows[0],
        json!({"id": dc_id, "supply": 0.0, "demand": 0.0, "stored": 0.0, "capacity": 0.0,
               "buildings": format!("DistrictCenter.Folktails:{dc_id}")})
    );

    // Clutch errors: not a clutch, unknown ids, missing or mistyped fields.
    let (status, body) = s
        .post(
            "/api/building/clutch",
            json!({"id": dc_id, "engaged": false}),
        )
        .await;
    assert_eq!((status, code(&body)), (200, "invalid_type"), "{body}");
    assert_eq!(
        (&body["id"], &body["name"]),
        (&json!(dc_id), &json!("DistrictCenter.Folktails"))
    );
    for id in [Value::from(12345), Value::from(1i64 << 40)] {
        let (_, body) = s
            .post("/api/building/clutch", json!({"id": id, "engaged": true}))
            .await;
        assert_eq!(code(&body), "not_found", "{body}");
        assert_eq!(body["id"], id);
    }
    for bad in [
        json!({"id": dc_id}),
        json!({"engaged": true}),
        json!({"id": dc_id, "engaged": "yes"}),
        json!({"id": "dc", "engaged": true}),
    ] {
        let (_, body) = s.post("/api/building/clutch", bad.clone()).await;
        assert_eq!(code(&body), "invalid_param", "{bad}: {body}");
    }
    // Nothing changed.
    let (_, again) = s.get("/api/power?format=json").await;
    assert_eq!(again.as_array().unwrap().len(), 1);
    // Both routes are in the OpenAPI document.
    let (_, doc) = s.get("/api/openapi.json").await;
    assert!(doc["paths"]["/api/power"]["get"].is_object());
    assert!(doc["paths"]["/api/building/clutch"]["post"].is_object());
}
