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
        Value::Object(mut m) => {
            // In place: the keys keep their order and are not hashed again.
            for v in m.values_mut() {
                if v.is_object() || v.is_array() {
                    *v = flat_value(v.take());
                }
            }
            m
        }
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
    // Keys and their kinds' defaults side by side; a row's next key is searched from just after
    // its previous one (rows of one struct list their keys in the same order), so neither pass
    // hashes a key.
    let mut keys: Vec<String> = Vec::new();
    let mut kinds: Vec<Value> = Vec::new();
    for row in &rows {
        let mut at = 0;
        for (k, v) in row {
            let found = keys[at..]
                .iter()
                .position(|x| x == k)
                .map(|p| at + p)
                .or_else(|| keys[..at].iter().position(|x| x == k));
            let i = match found {
                Some(i) => i,
                None => {
                    keys.insert(at, k.clone());
                    kinds.insert(at, default_like(v));
                    at
                }
            };
            if kinds[i].is_string() && !v.is_string() {
                kinds[i] = default_like(v);
            }
            at = i + 1;
        }
    }
    rows.into_iter()
        .map(|row| {
            // Most rows already have every key in order (rows of one struct): kept as they are.
            if row.len() == keys.len() && row.keys().zip(&keys).all(|(a, b)| a == b) {
                return row;
            }
            if in_order(&row, &keys) {
                let mut entries = row.into_iter().peekable();
                let mut out = Row::with_capacity(keys.len());
                for (k, kind) in keys.iter().zip(&kinds) {
                    match entries.next_if(|(rk, _)| rk == k) {
                        Some((rk, v)) => out.insert(rk, v),
                        None => out.insert(k.clone(), kind.clone()),
                    };
                }
                return out;
            }
            let mut row = row;
            keys.iter()
                .zip(&kinds)
                .map(|(k, kind)| {
                    let v = row.remove(k).unwrap_or_else(|| kind.clone());
                    (k.clone(), v)
                })
                .collect()
        })
        .collect()
}

/// Whether a row's keys appear in `keys` in the same order.
fn in_order(row: &Row, keys: &[String]) -> bool {
    let mut rest = keys.iter();
    row.keys().all(|k| rest.any(|x| x == k))
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

    #[test]
    fn rows_out_of_the_merged_order_still_get_every_key_in_it() {
        let rows = uniform(vec![
            flatten(json!({"a": 1, "b": "x", "c": 3})),
            flatten(json!({"a": 1, "c": 3})),
            flatten(json!({"a": 1, "d": true, "c": 3})),
            flatten(json!({"c": 4, "a": 2})),
        ]);
        for row in &rows {
            let keys: Vec<&String> = row.keys().collect();
            assert_eq!(keys, ["a", "d", "b", "c"]);
        }
        assert_eq!(
            Value::Object(rows[3].clone()),
            json!({"a": 2, "d": false, "b": "", "c": 4})
        );
        assert_eq!(rows[1]["d"], false);
    }
}
