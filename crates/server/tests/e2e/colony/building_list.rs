//! The building list end to end: both formats, `detail` and `id`, and the filter by role.

use super::{flat_and_uniform, keys, lay_street, place_best};
use crate::support::{Server, code};
use serde_json::{Value, json};

#[tokio::test]
async fn buildings_list_in_both_formats_with_detail_and_id() {
    let s = Server::start().await;
    let basic = [
        "id",
        "name",
        "x",
        "y",
        "z",
        "orientation",
        "finished",
        "paused",
        "priority",
        "workers",
    ];
    for fmt in ["toon", "json"] {
        let (_, page) = s.get(&format!("/api/buildings?format={fmt}")).await;
        assert_eq!(page["total"], 1, "a new game has its district center");
        let dc = &page["items"][0];
        assert_eq!(keys(dc), basic, "{fmt}");
        assert_eq!(dc["name"], "DistrictCenter.Folktails");
        assert_eq!(dc["finished"], true);
        assert!(dc["workers"].as_str().unwrap().contains('/'));
    }
    let (_, full) = s.get("/api/buildings?detail=full&format=json").await;
    let dc = &full["items"][0];
    assert_eq!(
        dc["inventory"],
        json!({"Berries": 130, "Log": 40, "Plank": 20})
    );
    assert!(dc["statuses"].is_array());
    assert!(
        dc.get("floodgate").is_none(),
        "absent components are absent"
    );
    let (_, rows) = s.get("/api/buildings?detail=full&limit=0").await;
    assert!(flat_and_uniform(&rows));
    assert_eq!(rows[0]["inventory"], "Berries:130/Log:40/Plank:20");
    let id = dc["id"].clone();
    let (_, one) = s
        .get_one(&format!("/api/buildings?id={id}&format=json"))
        .await;
    assert_eq!(&one, dc);
    // "Array or page": an array of one with limit=0, else the page wrapper with one item.
    let (_, arr) = s
        .get(&format!("/api/buildings?id={id}&limit=0&format=json"))
        .await;
    assert_eq!(arr, json!([dc]));
    let (_, page) = s.get(&format!("/api/buildings?id={id}&format=json")).await;
    assert_eq!(
        (&page["total"], &page["offset"], &page["limit"]),
        (&json!(1), &json!(0), &json!(100))
    );
    assert_eq!(page["items"], json!([dc]));
    let (_, one) = s.get_one(&format!("/api/buildings?id={id}")).await;
    assert!(flat_and_uniform(&json!([one])));
    assert_eq!(one["statuses"].as_str().unwrap(), rows[0]["statuses"]);
    // Two more buildings: filters and pages.
    place_best(&s, "LumberjackFlag.Folktails").await;
    place_best(&s, "SmallWarehouse.Folktails").await;
    let (_, rows) = s.get("/api/buildings?detail=full&limit=0").await;
    assert_eq!(rows.as_array().unwrap().len(), 3);
    assert!(flat_and_uniform(&rows), "components differ, keys do not");
    let (_, page) = s.get("/api/buildings?name=FLAG").await;
    assert_eq!(page["total"], 1);
    assert_eq!(page["items"][0]["name"], "LumberjackFlag.Folktails");
    let (_, page) = s.get("/api/buildings?limit=1&offset=1").await;
    assert_eq!(
        (
            page["total"].as_u64(),
            page["items"].as_array().unwrap().len()
        ),
        (Some(3), 1)
    );
    let (_, page) = s.get("/api/buildings?x=5&y=5&radius=3").await;
    assert_eq!(page["total"], 0);
    // Errors.
    let (_, body) = s.get("/api/buildings?id=12345").await;
    assert_eq!(code(&body), "not_found");
    assert_eq!(body["id"], 12345);
    let (_, body) = s.get("/api/buildings?id=99999999999").await;
    assert_eq!(code(&body), "not_found");
    let (_, body) = s.get("/api/buildings?detail=most").await;
    assert_eq!(
        (code(&body), &body["got"]),
        ("invalid_param", &json!("most"))
    );
    let (_, body) = s.get("/api/buildings?x=3").await;
    assert_eq!(code(&body), "invalid_param");
}

#[tokio::test]
async fn the_building_list_filters_by_role() {
    let s = Server::start().await;
    lay_street(&s).await;
    let names = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|b| b["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let (_, all) = s.get("/api/buildings?limit=0&format=json").await;
    assert!(names(&all).iter().any(|n| n == "Path"));
    let (_, no_paths) = s
        .get("/api/buildings?limit=0&exclude=paths&format=json")
        .await;
    assert_eq!(names(&no_paths), ["DistrictCenter.Folktails"]);
    let (_, paths) = s.get("/api/buildings?limit=0&role=PATHS&format=json").await;
    assert!(!names(&paths).is_empty() && names(&paths).iter().all(|n| n == "Path"));
    let (_, some) = s
        .get("/api/buildings?limit=0&role=district,water&format=json")
        .await;
    assert_eq!(names(&some), ["DistrictCenter.Folktails"]);
    // The page's total counts what the filter kept.
    let (_, page) = s.get("/api/buildings?exclude=paths&format=json").await;
    assert_eq!(page["total"], 1, "{page}");
    let (_, bad) = s.get("/api/buildings?role=roads").await;
    assert_eq!(crate::support::code(&bad), "invalid_param", "{bad}");
    assert!(
        bad["error"].as_str().unwrap().contains("roles: automation"),
        "{bad}"
    );
}
