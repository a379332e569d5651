//! What an agent spent, as it reports it: the model and the prompt and completion tokens and cost
//! of a turn. In per-turn mode the agent writes `usage.json` into its notes folder
//! (`COLONY_AGENT_STATE_DIR`) before it exits, and the harness reads and deletes it after the
//! turn; in persistent mode the turn's reply line carries it as `usage`. The harness checks what
//! it gets (an object of the four members only, each optional: `model` a string, the token counts
//! whole numbers >= 0, `cost` a number >= 0) and ignores anything else with one line in the
//! episode's `agent.log`. trajectory.jsonl keeps each turn's, results.json an episode's sum.

use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;

/// The file a per-turn agent writes into its notes folder.
pub const FILE: &str = "usage.json";

/// Largest usage file read (anything bigger is not a usage report).
const MAX_FILE: u64 = 64 << 10;

/// What an agent spent: one turn's report, or the sum of several. A member is present when the
/// report (or at least one of the summed reports) had it.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Usage {
    /// The model's name; a sum names every model, sorted and comma-joined.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt_tokens: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub completion_tokens: Option<u64>,
    /// In US dollars.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<f64>,
}

/// A whole number >= 0 (`12` or `12.0`).
fn count(v: &Value) -> Option<u64> {
    v.as_u64().or_else(|| {
        v.as_f64()
            .filter(|f| *f >= 0.0 && f.fract() == 0.0 && *f < 9e15)
            .map(|f| f as u64)
    })
}

/// Checks a report: an object with only `model`, `promptTokens`, `completionTokens` and `cost`,
/// at least one of them, each of its type. `Err` says what is wrong.
pub fn parse(v: &Value) -> Result<Usage, String> {
    let Some(obj) = v.as_object() else {
        return Err(format!("usage must be a JSON object, got {}", short(v)));
    };
    let mut u = Usage::default();
    for (k, x) in obj {
        match k.as_str() {
            "model" => {
                let s = x
                    .as_str()
                    .ok_or_else(|| format!("`model` must be a string, got {}", short(x)))?;
                if s.trim().is_empty() {
                    return Err("`model` is empty".into());
                }
                u.model = Some(s.trim().to_owned());
            }
            "promptTokens" | "completionTokens" => {
                let n = count(x).ok_or_else(|| {
                    format!("`{k}` must be a whole number >= 0, got {}", short(x))
                })?;
                if k == "promptTokens" {
                    u.prompt_tokens = Some(n);
                } else {
                    u.completion_tokens = Some(n);
                }
            }
            "cost" => {
                let c = x
                    .as_f64()
                    .filter(|c| c.is_finite() && *c >= 0.0)
                    .ok_or_else(|| format!("`cost` must be a number >= 0, got {}", short(x)))?;
                u.cost = Some(c);
            }
            other => {
                return Err(format!(
                    "unknown member `{other}` (members: model, promptTokens, completionTokens, cost)"
                ));
            }
        }
    }
    if u == Usage::default() {
        return Err("usage names none of model, promptTokens, completionTokens, cost".into());
    }
    Ok(u)
}

/// A value as a short text for a log line.
fn short(v: &Value) -> String {
    let t = v.to_string();
    if t.chars().count() > 60 {
        format!("{}...", t.chars().take(60).collect::<String>())
    } else {
        t
    }
}

/// Appends one harness line to the episode's `agent.log`.
pub fn log_line(log: &Path, line: &str) {
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
    {
        let _ = writeln!(f, "--- {line} ---");
    }
}

/// Checks a report from `source` (for the log line); a bad one is logged and dropped.
pub fn checked(v: &Value, source: &str, log: &Path) -> Option<Usage> {
    match parse(v) {
        Ok(u) => Some(u),
        Err(e) => {
            log_line(log, &format!("{source} ignored: {e}"));
            None
        }
    }
}

/// Per-turn mode: reads and deletes `usage.json` in the notes folder, if the agent wrote one.
pub fn take_file(state_dir: &Path, log: &Path) -> Option<Usage> {
    let path = state_dir.join(FILE);
    let meta = std::fs::symlink_metadata(&path).ok()?;
    let text = if meta.is_file() && meta.len() <= MAX_FILE {
        std::fs::read(&path).ok()
    } else {
        None
    };
    let _ = std::fs::remove_file(&path);
    let Some(text) = text else {
        log_line(
            log,
            &format!("{FILE} ignored: not a regular file of at most {MAX_FILE} bytes"),
        );
        return None;
    };
    match serde_json::from_slice::<Value>(&text) {
        Ok(v) => checked(&v, FILE, log),
        Err(e) => {
            log_line(log, &format!("{FILE} ignored: not JSON ({e})"));
            None
        }
    }
}

/// The sum of reports: tokens and cost added up, every model named (sorted, comma-joined);
/// `None` when there is no report.
pub fn sum<'a>(reports: impl IntoIterator<Item = &'a Usage>) -> Option<Usage> {
    let mut any = false;
    let mut models = BTreeSet::new();
    let mut total = Usage::default();
    let add = |a: Option<u64>, b: Option<u64>| match (a, b) {
        (None, None) => None,
        (a, b) => Some(a.unwrap_or(0).saturating_add(b.unwrap_or(0))),
    };
    for u in reports {
        any = true;
        if let Some(m) = &u.model {
            for name in m.split(',') {
                models.insert(name.trim().to_owned());
            }
        }
        total.prompt_tokens = add(total.prompt_tokens, u.prompt_tokens);
        total.completion_tokens = add(total.completion_tokens, u.completion_tokens);
        total.cost = match (total.cost, u.cost) {
            (None, None) => None,
            (a, b) => Some(a.unwrap_or(0.0) + b.unwrap_or(0.0)),
        };
    }
    if !any {
        return None;
    }
    total.model = (!models.is_empty()).then(|| models.into_iter().collect::<Vec<_>>().join(","));
    // Sums of dollar fractions: rounded to a millionth so 0.1 + 0.2 reads 0.3.
    total.cost = total.cost.map(|c| (c * 1e6).round() / 1e6);
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reports_are_checked_member_by_member() {
        let u = parse(
            &json!({"model": "m1", "promptTokens": 10, "completionTokens": 2.0, "cost": 0.5}),
        )
        .unwrap();
        assert_eq!(u.model.as_deref(), Some("m1"));
        assert_eq!((u.prompt_tokens, u.completion_tokens), (Some(10), Some(2)));
        assert_eq!(u.cost, Some(0.5));
        assert_eq!(parse(&json!({"cost": 0})).unwrap().cost, Some(0.0));
        for bad in [
            json!("lots"),
            json!([1]),
            json!({}),
            json!({"model": 3}),
            json!({"model": " "}),
            json!({"promptTokens": -1}),
            json!({"promptTokens": 1.5}),
            json!({"completionTokens": "7"}),
            json!({"cost": -0.01}),
            json!({"cost": null}),
            json!({"prompt_tokens": 5}),
        ] {
            assert!(parse(&bad).is_err(), "{bad} accepted");
        }
    }

    #[test]
    fn sums_add_what_was_reported_and_name_every_model() {
        assert_eq!(sum([]), None);
        let a = parse(&json!({"model": "b-model", "promptTokens": 10, "cost": 0.1})).unwrap();
        let b = parse(&json!({"model": "a-model", "promptTokens": 5, "cost": 0.2})).unwrap();
        let c = parse(&json!({"model": "b-model"})).unwrap();
        let s = sum([&a, &b, &c]).unwrap();
        assert_eq!(s.model.as_deref(), Some("a-model,b-model"));
        assert_eq!(s.prompt_tokens, Some(15));
        assert_eq!(s.completion_tokens, None, "nobody reported it");
        assert_eq!(s.cost, Some(0.3));
        let one = sum([&c, &c]).unwrap();
        assert_eq!(one.model.as_deref(), Some("b-model"));
        assert_eq!(
            serde_json::to_value(&s).unwrap(),
            json!({"model": "a-model,b-model", "promptTokens": 15, "cost": 0.3})
        );
        // Sums of sums (a run over its episodes) keep the models apart.
        assert_eq!(
            sum([&s, &c]).unwrap().model.as_deref(),
            Some("a-model,b-model")
        );
    }

    #[test]
    fn the_usage_file_is_read_once_and_a_bad_one_is_logged() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("agent.log");
        std::fs::write(dir.path().join(FILE), r#"{"promptTokens": 3}"#).unwrap();
        assert_eq!(take_file(dir.path(), &log).unwrap().prompt_tokens, Some(3));
        assert!(!dir.path().join(FILE).exists(), "deleted after reading");
        assert_eq!(
            take_file(dir.path(), &log),
            None,
            "nothing written: nothing"
        );
        std::fs::write(dir.path().join(FILE), "{oops").unwrap();
        assert_eq!(take_file(dir.path(), &log), None);
        std::fs::write(dir.path().join(FILE), r#"{"cost": "free"}"#).unwrap();
        assert_eq!(take_file(dir.path(), &log), None);
        let text = std::fs::read_to_string(&log).unwrap();
        assert!(text.contains("usage.json ignored: not JSON"), "{text}");
        assert!(text.contains("`cost` must be a number >= 0"), "{text}");
    }
}
