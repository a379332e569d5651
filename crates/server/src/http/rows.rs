//! Flat toon rows. `format=toon` answers carry flat rows: every value a scalar and every row of a
//! list with the same keys in the same order. This module turns nested read models into such
//! rows, by one rule everywhere:
//!
//! - an object of scalars becomes `key:value` items joined by `/` (inventory `Log:3/Plank:2`);
//! - an array of scalars becomes its items joined by `+` (statuses, critical needs, recipes);
//! - an array of objects becomes each object's values joined by `:`, items joined by `/`;
//! - a key a row lacks gets the default of its kind (`0`, `""` or `false`), so absent optional
//!   members (components a building lacks) still give uniform rows.

use serde::Serialize;
use serde_json::{Map, Value};
use std::fmt::Display;

/// A flat row: scalar values only.
pub type Row = Map<String, Value>;

/// `key:value` items joined by `/`, e.g. `Log:3/Plank:2`.
pub fn pairs_text<K: Display, V: Display>(pairs: impl IntoIterator<Item = (K, V)>) -> String {
    pairs
        .into_iter()
        .map(|(k, v)| format!("{k}:{v}"))
        .collect::<Vec<_>>()
        .join("/")
}

/// A scalar as text: strings bare, whole numbers without a fraction, `null` empty.
fn scalar_text(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => i.to_string(),
            (_, Some(u), _) => u.to_string(),
            (_, _, Some(f)) => f.to_string(),
            _ => n.to_string(),
        },
        Value::Bool(b) => b.to_string(),
        nested => nested.to_string(),
    }
}

/// A nested value as one text value (see the module rule).
fn flat_value(v: Value) -> Value {
    match v {
        Value::Object(m) => Value::String(pairs_text(m.iter().map(|(k, v)| (k, scalar_text(v))))),
        Value::Array(items) => {
            let objects = items.iter().all(Value::is_object) && !items.is_empty();
            let parts: Vec<String> = items
                .iter()
                .map(|it| match it {
                    Value::Object(m) => m.values().map(scalar_text).collect::<Vec<_>>().join(":"),
                    other => scalar_text(other),
                })
                .collect();
            Value::String(parts.join(if objects { "/" } else { "+" }))
        }
        scalar => scalar,
    }
}

/// Flattens one serializable object into a row (non-objects give an empty row).
pub fn flatten<T: Serialize>(item: T) -> Row {
    match serde_json::to_value(item).expect("read models serialize") {
        Value::Object(m) => m.into_iter().map(|(k, v)| (k, flat_value(v))).collect(),
        _ => Row::new(),
    }
}

/// The default value of a value's kind.
fn default_like(v: &Value) -> Value {
    match v {
        Value::Number(_) => 0.into(),
        Value::Bool(_) => false.into(),
        _ => "".into(),
    }
}

/// Gives every row the same keys in the same order. The key order merges the rows' own orders (a
/// key first seen in a later row goes right after the key that precedes it there), so rows made
/// from one struct keep that struct's order; a missing value gets its kind's default.
pub fn uniform(rows: Vec<Row>) -> Vec<Row> {
    let mut keys: Vec<String> = Vec::new();
    let mut kinds: Map<String, Value> = Map::new();
    for row in &rows {
        let mut at = 0;
        for (k, v) in row {
            match keys.iter().position(|x| x == k) {
                Some(i) => at = i + 1,
                None => {
                    keys.insert(at, k.clone());
                    at += 1;
                }
            }
            if !kinds.contains_key(k) || kinds[k].is_string() && !v.is_string() {
                kinds.insert(k.clone(), default_like(v));
            }
        }
    }
    rows.into_iter()
        .map(|mut row| {
            keys.iter()
                .map(|k| {
                    let v = row.remove(k).unwrap_or_else(|| kinds[k].clone());
                    (k.clone(), v)
                })
                .collect()
        })
        .collect()
}

/// Flattens a list of read models into uniform rows.
pub fn flat_rows<T: Serialize>(items: impl IntoIterator<Item = T>) -> Vec<Row> {
    uniform(items.into_iter().map(flatten).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn nested_values_become_text_and_rows_share_keys() {
        let rows = flat_rows([
            json!({"id": 1, "inventory": {"Log": 3, "Plank": 2}, "statuses": ["paused", "unstaffed"]}),
            json!({"id": 2, "height": 1.5, "inventory": {}, "statuses": [],
                   "needs": [{"id": "Hunger", "points": 0.5}, {"id": "Thirst", "points": 1}]}),
        ]);
        assert_eq!(
            Value::Array(rows.into_iter().map(Value::Object).collect()),
            json!([
                {"id": 1, "height": 0, "inventory": "Log:3/Plank:2", "statuses": "paused+unstaffed", "needs": ""},
                {"id": 2, "height": 1.5, "inventory": "", "statuses": "", "needs": "Hunger:0.5/Thirst:1"},
            ])
        );
    }

    #[test]
    fn key_order_follows_the_rows() {
        let rows = uniform(vec![
            flatten(json!({"a": 1, "c": 3})),
            flatten(json!({"a": 1, "b": "x", "c": 3})),
        ]);
        let keys: Vec<&String> = rows[0].keys().collect();
        assert_eq!(keys, ["a", "b", "c"]);
        assert_eq!(rows[0]["b"], "");
    }

    #[test]
    fn pairs_print_whole_amounts_without_a_fraction() {
        assert_eq!(
            pairs_text([("Log", 15.0), ("Gear", 2.5)]),
            "Log:15/Gear:2.5"
        );
    }
}
