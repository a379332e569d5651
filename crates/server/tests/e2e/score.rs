//! `POST /api/score` end to end: a day of a real game scored by the service equals the score the
//! harness's way gives (the `colony-score` code over `GET /api/stats?from=1` and
//! `GET /api/buildings`), and bad terms are refused in the contract's format, changing nothing.

use crate::support::{Server, code};
use serde_json::{Value, json};

/// The harness's reading of the game: the rows of `/api/stats?from=1` and the finished buildings
/// of `/api/buildings` by the name before the first dot.
async fn harness_outcome(s: &Server) -> score::Outcome {
    let (_, stats) = s.get("/api/stats?from=1&format=json").await;
    let stats: score::history::Stats = serde_json::from_value(stats).unwrap();
    let (_, buildings) = s.get("/api/buildings?limit=0&format=json").await;
    let mut built = std::collections::BTreeMap::new();
    for b in buildings.as_array().unwrap() {
        if b["finished"] == true {
            let name = b["name"].as_str().unwrap();
            *built
                .entry(name.split('.').next().unwrap().to_owned())
                .or_insert(0) += 1;
        }
    }
    score::Outcome {
        rows: stats.rows,
        built,
    }
}

#[tokio::test]
async fn a_day_is_scored_as_the_harness_scores_it() {
    let s = Server::start().await;
    s.post("/api/speed", json!({"speed": 0})).await;
    s.post("/api/game/advance", json!({"days": 1})).await;
    // Days survived against a 2-day horizon: one day of two is half the points.
    let (status, one) = s
        .post(
            "/api/score",
            json!({"horizonDays": 2, "terms": [{"metric": "days_survived", "weight": 4, "target": 2}]}),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(one["score"], 50.0, "{one}");
    assert_eq!(one["terms"][0]["value"], 1.0);
    assert_eq!(one["terms"][0]["points"], 50.0);
    assert_eq!(one["success"], true, "no conditions: anyone alive");
    // Every kind of term, and conditions, against the same code over the harness's reads.
    let terms = json!([
        {"metric": "days_survived", "weight": 4, "target": 2},
        {"metric": "beavers", "weight": 2, "target": 30},
        {"metric": "wellbeing", "weight": 1, "target": 8, "survivalScaled": true},
        {"metric": "deaths_premature", "weight": 0.5, "target": 12, "lowerIsBetter": true,
         "survivalScaled": true},
        {"metric": "consumed.Berries", "target": 100},
        {"metric": "built.DistrictCenter", "target": 1}
    ]);
    let success = json!([
        {"metric": "days_survived", "op": ">=", "value": 2},
        {"metric": "alive", "value": 1}
    ]);
    let (_, got) = s
        .post(
            "/api/score",
            json!({"horizonDays": 2, "terms": terms, "success": success}),
        )
        .await;
    let o = harness_outcome(&s).await;
    let terms: Vec<score::ScoreTerm> = terms
        .as_array()
        .unwrap()
        .iter()
        .map(|t| score::ScoreTerm {
            metric: t["metric"].as_str().unwrap().into(),
            weight: t["weight"].as_f64().unwrap_or(1.0),
            target: t["target"].as_f64().unwrap(),
            lower_is_better: t["lowerIsBetter"] == true,
            survival_scaled: t["survivalScaled"] == true,
        })
        .collect();
    let want = score::episode_score(&terms, 2.0, &o);
    assert_eq!(got["score"].as_f64(), Some(want), "{got}");
    assert!(want > 10.0 && want < 90.0, "{got}");
    let scored = score::score_terms(&terms, 2.0, &o);
    for (g, w) in got["terms"].as_array().unwrap().iter().zip(&scored) {
        assert_eq!(g["metric"], w.metric.as_str());
        assert_eq!(g["value"].as_f64(), Some(w.value), "{g}");
        assert_eq!(g["points"].as_f64(), Some(score::metrics::round3(w.points)));
    }
    assert_eq!(got["terms"][2]["survivalScale"], 0.5, "{got}");
    assert!(got["terms"][0].get("survivalScale").is_none());
    assert_eq!(got["terms"][5]["value"], 1.0, "the district center: {got}");
    assert_eq!(got["terms"][3]["value"], 0.0, "no deaths: {got}");
    assert_eq!(got["success"], false, "one day of the two: {got}");
}

#[tokio::test]
async fn bad_terms_are_refused_and_change_nothing() {
    let s = Server::start().await;
    s.post("/api/speed", json!({"speed": 0})).await;
    s.post("/api/game/advance", json!({"hours": 5})).await;
    let (_, before) = s.get("/api/stats?format=json").await;
    let (_, time) = s.get("/api/time?format=json").await;
    let term = |t: Value| json!({"horizonDays": 60, "terms": [t]});
    let bad: [(Value, &str); 6] = [
        (
            term(json!({"metric": "happiness", "target": 1})),
            "terms[0]: unknown metric \"happiness\"",
        ),
        (
            term(json!({"metric": "deaths", "weight": 0, "target": 1})),
            "weight and target must be positive",
        ),
        (
            term(json!({"metric": "deaths", "target": -3})),
            "weight and target must be positive",
        ),
        (
            json!({"horizonDays": 60, "terms": [{"metric": "alive", "target": 1}],
                   "success": [{"metric": "alive", "op": "=>", "value": 1}]}),
            "success[0]: op must be one of",
        ),
        (
            json!({"horizonDays": 0, "terms": [{"metric": "alive", "target": 1}]}),
            "horizonDays must be more than 0",
        ),
        (
            json!({"horizonDays": 60, "terms": []}),
            "terms must list at least one term",
        ),
    ];
    for (body, says) in bad {
        let (status, got) = s.post("/api/score", body.clone()).await;
        assert_eq!(
            (status, code(&got)),
            (200, "invalid_param"),
            "{body}: {got}"
        );
        assert!(got["error"].as_str().unwrap().contains(says), "{got}");
    }
    let (_, got) = s
        .post(
            "/api/score",
            term(json!({"metric": "happiness", "target": 1})),
        )
        .await;
    assert_eq!(got["got"]["metric"], "happiness", "what was sent: {got}");
    // A member of the wrong spelling is named, not ignored.
    let (_, got) = s
        .post(
            "/api/score",
            term(json!({"metric": "deaths", "target": 1, "lower_is_better": true})),
        )
        .await;
    assert_eq!(code(&got), "invalid_param");
    assert!(
        got["error"].as_str().unwrap().contains("lowerIsBetter"),
        "{got}"
    );
    assert_eq!(s.get("/api/stats?format=json").await.1, before);
    assert_eq!(s.get("/api/time?format=json").await.1, time);
}
