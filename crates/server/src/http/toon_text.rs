//! TOON text from a JSON answer (`format=toon-text`, `Accept: text/toon`).
//!
//! The big answers are the lists: arrays of flat rows that all have the same keys. Their TOON is
//! a header (`[N]{key,key,...}:`) and one line of cells per row. Those are laid out here, every
//! key and cell written by the `toon-format` crate's own rules (quoting and escaping, canonical
//! numbers, `-0` as `0`), from rows read straight off the JSON bytes: keys and strings borrowed
//! where they hold no escapes, no tree of maps. A list's page (an object of primitive fields and
//! lists of such rows: `total`, `offset`, `limit`, `items`) is laid out the same way, each field
//! on its line. The crate's encoder converts the whole tree twice and looks every cell up by
//! key; it took 0.2-0.3 s for the large colony's 5,668 buildings. Any other shape (nested
//! objects, rows with different keys, an empty list) goes to the crate's encoder. The tests
//! check that both give the same text. The full entity lists do not come here at all: they
//! write their rows' cells as text directly ([`push_cell`], `list::flat_toon`).

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
    if let Some(text) = serde_json::from_slice::<FlatObject>(json)
        .ok()
        .and_then(|object| object_text(&object))
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
    let mut out = String::new();
    write_tabular(&mut out, rows)?;
    Some(out)
}

/// A key as the crate writes it (quoted unless it is a valid bare key).
fn push_key(out: &mut String, key: &str) {
    if toon_format::utils::is_valid_unquoted_key(key) {
        out.push_str(key);
    } else {
        out.push_str(&toon_format::utils::quote_string(key));
    }
}

/// Appends a table's header, `[N]{key,key,...}:`, its keys as the crate writes them.
pub fn push_table_header<'k>(out: &mut String, rows: usize, keys: impl Iterator<Item = &'k str>) {
    out.push('[');
    out.push_str(&rows.to_string());
    out.push_str("]{");
    for (k, key) in keys.enumerate() {
        if k > 0 {
            out.push(',');
        }
        push_key(out, key);
    }
    out.push_str("}:");
}

/// The text of an object of primitive fields and lists of flat rows (a list's page: `total`,
/// `offset`, `limit`, `items`), each field on its line in order, each list laid out as a
/// table; `None` for an object with no fields or any list the table cannot hold.
fn object_text(object: &FlatObject) -> Option<String> {
    if object.0.is_empty() {
        return None;
    }
    // (Each table reserves its own room.)
    let mut out = String::new();
    for (k, (key, field)) in object.0.iter().enumerate() {
        if k > 0 {
            out.push('\n');
        }
        push_key(&mut out, key);
        match field {
            Field::Cell(cell) => {
                out.push_str(": ");
                cell.write(&mut out);
            }
            Field::Rows(rows) => write_tabular(&mut out, rows)?,
        }
    }
    Some(out)
}

/// Appends the table of `rows` (its `[N]{keys}:` header, then each row on its own line, two
/// spaces in); `None` if the rows are empty, have no keys or differ in their keys.
fn write_tabular(out: &mut String, rows: &[FlatRow]) -> Option<()> {
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
    out.reserve(rows.len() * 16 * first.0.len());
    push_table_header(out, rows.len(), first.0.iter().map(|(k, _)| k.as_ref()));
    for row in rows {
        out.push_str("\n  ");
        for (k, (_, cell)) in row.0.iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            cell.write(out);
        }
    }
    Some(())
}

/// Appends a flat row's cell as the crate writes it in a table, as [`encode`] does for the same
/// cell read back from the row's JSON (a JSON number of an integer cell reads back as an
/// integer, a float cell's as the same float).
pub fn push_cell(out: &mut String, cell: &super::rows::Cell) {
    use super::rows::Cell as Flat;
    let cell = match cell {
        Flat::Null => Cell::Null,
        Flat::Bool(b) => Cell::Bool(*b),
        Flat::Int(i) if *i >= 0 => Cell::Number((*i as u64).into()),
        Flat::Int(i) => Cell::Number((*i).into()),
        Flat::UInt(u) => Cell::Number((*u).into()),
        Flat::Float(f) => match serde_json::Number::from_f64(*f) {
            Some(n) => Cell::Number(n),
            None => Cell::Null,
        },
        Flat::Text(t) => Cell::Str(Cow::Borrowed(t)),
    };
    cell.write(out);
}

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

/// An object's fields in order, each key borrowed where it holds no escapes: a row of a list
/// ([`FlatRow`]: primitive cells) or a list's page ([`FlatObject`]: primitives and lists of rows).
/// A field whose value `V` does not read fails the whole object.
struct Fields<'a, V>(Vec<(Cow<'a, str>, V)>);

/// A row of a list: its keys and primitive cells in order. A row holding an array or object
/// fails to parse (the answer then goes to the crate's encoder).
type FlatRow<'a> = Fields<'a, Cell<'a>>;

/// An object of primitive fields and lists of flat rows, its fields in order. Any other field (a
/// nested object, a list of anything but flat rows) fails to parse.
type FlatObject<'a> = Fields<'a, Field<'a>>;

/// A field of a [`FlatObject`].
enum Field<'a> {
    Cell(Cell<'a>),
    Rows(Vec<FlatRow<'a>>),
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for Fields<'de, V> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct FieldsVisitor<V>(std::marker::PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for FieldsVisitor<V> {
            type Value = Fields<'de, V>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fields<'de, V>, A::Error> {
                let mut fields = Vec::with_capacity(map.size_hint().unwrap_or(16));
                while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
                    fields.push((key, map.next_value::<V>()?));
                }
                Ok(Fields(fields))
            }
        }
        d.deserialize_map(FieldsVisitor(std::marker::PhantomData))
    }
}

impl<'de> Deserialize<'de> for Field<'de> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(PrimitiveVisitor::<true>)
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
        match d.deserialize_any(PrimitiveVisitor::<false>)? {
            Field::Cell(cell) => Ok(cell),
            Field::Rows(_) => Err(de::Error::custom("an array in a row")),
        }
    }
}

/// Reads a primitive as a cell; with `ROWS`, also a list of flat rows (an object's field).
/// Anything else (an object, a list in a row) is an error.
struct PrimitiveVisitor<const ROWS: bool>;

impl<'de, const ROWS: bool> Visitor<'de> for PrimitiveVisitor<ROWS> {
    type Value = Field<'de>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a primitive value")
    }
    fn visit_unit<E: de::Error>(self) -> Result<Field<'de>, E> {
        Ok(Field::Cell(Cell::Null))
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Field<'de>, E> {
        Ok(Field::Cell(Cell::Bool(v)))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Field<'de>, E> {
        Ok(Field::Cell(Cell::Number(v.into())))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Field<'de>, E> {
        Ok(Field::Cell(Cell::Number(v.into())))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Field<'de>, E> {
        serde_json::Number::from_f64(v)
            .map(|n| Field::Cell(Cell::Number(n)))
            .ok_or_else(|| E::custom("not a finite number"))
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Field<'de>, E> {
        Ok(Field::Cell(Cell::Str(Cow::Borrowed(v))))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Field<'de>, E> {
        Ok(Field::Cell(Cell::Str(Cow::Owned(v.to_owned()))))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Field<'de>, E> {
        Ok(Field::Cell(Cell::Str(Cow::Owned(v))))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Field<'de>, A::Error> {
        if !ROWS {
            return Err(de::Error::custom("an array in a row"));
        }
        let mut rows = Vec::with_capacity(seq.size_hint().unwrap_or(16));
        while let Some(row) = seq.next_element::<FlatRow<'de>>()? {
            rows.push(row);
        }
        Ok(Field::Rows(rows))
    }
    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Field<'de>, A::Error> {
        Err(de::Error::custom("an object in a row"))
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
    fn pages_and_objects_of_flat_rows_are_laid_out_as_the_crate_does() {
        let rows: Vec<Value> = (0..5)
            .map(|i| json!({"id": i, "name": format!("Path {i}"), "x": 0.5 * f64::from(i), "done": i % 2 == 0}))
            .collect();
        assert!(same_object(
            json!({"total": 5787, "offset": 0, "limit": 5, "items": rows})
        ));
        assert!(same_object(
            json!({"total": 1, "offset": 3, "limit": 1, "items": [{"a": "x, y"}]})
        ));
        // Fields of every primitive kind, awkward text, and a list that is not the last field.
        assert!(same_object(json!({
            "name": "x, y", "n": null, "b": true, "f": -0.0, "big": 1e21, "s": "12",
            "rows": [{"k": 1}, {"k": 2}], "after": "-dash", "quote": "a\"b", "key with space": 1,
        })));
        // Empty lists, nested objects and lists of other things go to the crate.
        for v in [
            json!({"total": 0, "items": []}),
            json!({"total": 2, "items": [{"a": 1}, {"b": 2}]}),
            json!({"x": {"a": 1}}),
            json!({"items": [1, 2]}),
            json!({"items": [{"a": [1]}]}),
            json!({}),
        ] {
            assert!(!same_object(v));
        }
    }

    /// Whether the object path answers `v`, after checking that the answer is the crate's.
    fn same_object(v: Value) -> bool {
        let bytes = serde_json::to_vec(&v).unwrap();
        assert_eq!(encode(&bytes).unwrap(), crate_text(&v), "for {v}");
        serde_json::from_slice::<FlatObject>(&bytes)
            .ok()
            .and_then(|o| object_text(&o))
            .is_some()
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
            json!({"x": {"a": 1}, "y": {"a": 2}}),
            json!("text"),
            json!(3),
        ] {
            assert!(!same_as_crate(v));
        }
    }
}
