//! TOON text from a JSON answer (`format=toon-text`, `Accept: text/toon`).
//!
//! The big answers are the lists: arrays of flat rows that all have the same keys. Their TOON is
//! a header (`[N]{key,key,...}:`) and one line of cells per row. Those are laid out here, every
//! key and cell written by the `toon-format` crate's own rules (quoting and escaping, canonical
//! numbers, `-0` as `0`), from rows read straight off the JSON bytes: keys and strings borrowed
//! where they hold no escapes, no tree of maps. The crate's encoder converts the whole tree
//! twice and looks every cell up by key; it took 0.2-0.3 s for the large colony's 5,668
//! buildings. Any other shape (an object, nested values, rows with different keys, an empty
//! list) goes to the crate's encoder. The tests check that both give the same text.

use std::borrow::Cow;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, MapAccess, SeqAccess, Visitor};
use toon_format::types::JsonValue;

/// The TOON text of a JSON answer, without a final newline; `None` if it is not JSON the
/// encoder accepts.
pub fn encode(json: &[u8]) -> Option<String> {
    if let Some(text) = serde_json::from_slice::<Vec<FlatRow>>(json)
        .ok()
        .and_then(|rows| tabular(&rows))
    {
        return Some(text);
    }
    let options = toon_format::EncodeOptions::default();
    // An object or array is handed over by value (`encode_default` would copy the whole tree
    // first); the text is the same.
    match serde_json::from_slice::<serde_json::Value>(json).ok()? {
        v @ serde_json::Value::Object(_) => toon_format::encode_object(v, &options).ok(),
        v @ serde_json::Value::Array(_) => toon_format::encode_array(v, &options).ok(),
        v => toon_format::encode_default(&v).ok(),
    }
}

/// The tabular text of rows that all have the first row's keys in its order; `None` for any
/// other list (the crate's encoder decides those).
fn tabular(rows: &[FlatRow]) -> Option<String> {
    let first = rows.first()?;
    if first.0.is_empty() {
        return None;
    }
    let same_keys = |row: &FlatRow| {
        row.0.len() == first.0.len() && row.0.iter().zip(&first.0).all(|(a, b)| a.0 == b.0)
    };
    if !rows.iter().all(same_keys) {
        return None;
    }
    let mut out = String::with_capacity(rows.len() * 16 * first.0.len());
    out.push('[');
    out.push_str(&rows.len().to_string());
    out.push_str("]{");
    for (k, (key, _)) in first.0.iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        if toon_format::utils::is_valid_unquoted_key(key) {
            out.push_str(key);
        } else {
            out.push_str(&toon_format::utils::quote_string(key));
        }
    }
    out.push_str("}:");
    for row in rows {
        out.push_str("\n  ");
        for (k, (_, cell)) in row.0.iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            cell.write(&mut out);
        }
    }
    Some(out)
}

/// A row of a list: its keys and primitive cells in order. A row holding an array or object
/// fails to parse (the answer then goes to the crate's encoder).
struct FlatRow<'a>(Vec<(Cow<'a, str>, Cell<'a>)>);

/// A primitive JSON value.
enum Cell<'a> {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    Str(Cow<'a, str>),
}

impl Cell<'_> {
    /// Appends the cell as the crate writes a primitive with the comma delimiter.
    fn write(&self, out: &mut String) {
        match self {
            Cell::Null => out.push_str("null"),
            Cell::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Cell::Number(n) => {
                match toon_format::normalize(JsonValue::from(serde_json::Value::Number(n.clone())))
                {
                    JsonValue::Number(n) => {
                        out.push_str(&toon_format::utils::format_canonical_number(&n));
                    }
                    _ => out.push_str("null"),
                }
            }
            Cell::Str(s) => {
                if toon_format::utils::needs_quoting(s, ',') {
                    out.push_str(&toon_format::utils::quote_string(s));
                } else {
                    out.push_str(s);
                }
            }
        }
    }
}

impl<'de> Deserialize<'de> for FlatRow<'de> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct RowVisitor;
        impl<'de> Visitor<'de> for RowVisitor {
            type Value = FlatRow<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object of primitive values")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<FlatRow<'de>, A::Error> {
                let mut cells = Vec::with_capacity(map.size_hint().unwrap_or(16));
                while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
                    cells.push((key, map.next_value::<Cell<'de>>()?));
                }
                Ok(FlatRow(cells))
            }
        }
        d.deserialize_map(RowVisitor)
    }
}

/// A key, borrowed from the JSON when it holds no escapes (serde's `Cow` always copies).
struct Key<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Cell::deserialize(d)? {
            Cell::Str(s) => Ok(Key(s)),
            _ => Err(de::Error::custom("a key that is not a string")),
        }
    }
}

impl<'de> Deserialize<'de> for Cell<'de> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct CellVisitor;
        impl<'de> Visitor<'de> for CellVisitor {
            type Value = Cell<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a primitive value")
            }
            fn visit_unit<E: de::Error>(self) -> Result<Cell<'de>, E> {
                Ok(Cell::Null)
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Cell<'de>, E> {
                Ok(Cell::Bool(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Cell<'de>, E> {
                Ok(Cell::Number(v.into()))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Cell<'de>, E> {
                Ok(Cell::Number(v.into()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Cell<'de>, E> {
                serde_json::Number::from_f64(v)
                    .map(Cell::Number)
                    .ok_or_else(|| E::custom("not a finite number"))
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Cell<'de>, E> {
                Ok(Cell::Str(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Cell<'de>, E> {
                Ok(Cell::Str(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Cell<'de>, E> {
                Ok(Cell::Str(Cow::Owned(v)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Cell<'de>, A::Error> {
                Err(de::Error::custom("an array in a row"))
            }
            fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Cell<'de>, A::Error> {
                Err(de::Error::custom("an object in a row"))
            }
        }
        d.deserialize_any(CellVisitor)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    /// The crate's own text for a value.
    fn crate_text(v: &Value) -> String {
        let options = toon_format::EncodeOptions::default();
        match v.clone() {
            v @ Value::Object(_) => toon_format::encode_object(v, &options).unwrap(),
            v @ Value::Array(_) => toon_format::encode_array(v, &options).unwrap(),
            v => toon_format::encode_default(&v).unwrap(),
        }
    }

    fn same_as_crate(v: Value) -> bool {
        let bytes = serde_json::to_vec(&v).unwrap();
        let ours = encode(&bytes).unwrap();
        assert_eq!(ours, crate_text(&v), "for {v}");
        serde_json::from_slice::<Vec<FlatRow>>(&bytes)
            .ok()
            .and_then(|rows| tabular(&rows))
            .is_some()
    }

    #[test]
    fn lists_of_flat_rows_are_laid_out_as_the_crate_does() {
        let awkward = [
            "",
            " lead",
            "trail ",
            "x, y",
            "a:b",
            "true",
            "null",
            "12",
            "-3",
            "1e5",
            "-dash",
            "#hash",
            "quote\"q",
            "back\\slash",
            "line\nbreak",
            "tab\there",
            "[x]",
            "{y}",
            "ünïcödé",
            "plain words",
            "\u{1}",
            "Path",
            "0/0",
        ];
        let rows: Vec<Value> = awkward
            .iter()
            .enumerate()
            .map(|(i, s)| {
                json!({
                    "id": i as i64 - 5, "name": s, "x": 1.5e-7 * i as f64, "big": u64::MAX - i as u64,
                    "neg": -(i as i64) * 1_000_000_007, "zero": -0.0, "flag": i % 2 == 0,
                    "none": null, "f": 0.1 + i as f64, "whole": 3.0, "key with space": i,
                    "9lead": 1, "dot.key": 2, "e": 1e21, "tiny": 1e-300,
                })
            })
            .collect();
        assert!(same_as_crate(Value::Array(rows)));
        assert!(same_as_crate(json!([{"a": 1}])));
    }

    #[test]
    fn other_shapes_go_to_the_crate() {
        for v in [
            json!([]),
            json!([1, 2, 3]),
            json!([{"a": 1, "b": 2}, {"b": 2, "a": 1}]),
            json!([{"a": 1}, {"a": 1, "b": 2}]),
            json!([{"a": {"b": 1}}, {"a": {"b": 2}}]),
            json!([{"a": [1, 2]}, {"a": []}]),
            json!([{}, {}]),
            json!([{"a": 1}, 2]),
            json!({"total": 2, "items": [{"a": 1}, {"a": 2}]}),
            json!({"x": {"a": 1}, "y": {"a": 2}}),
            json!("text"),
            json!(3),
        ] {
            assert!(!same_as_crate(v));
        }
    }
}
