//! Flat toon rows. `format=toon` answers carry flat rows: every value a scalar and every row of a
//! list with the same keys in the same order. This module turns nested read models into such
//! rows, by one rule everywhere:
//!
//! - an object of scalars becomes `key:value` items joined by `/` (inventory `Log:3/Plank:2`);
//! - an array of scalars becomes its items joined by `+` (statuses, critical needs, recipes);
//! - an array of objects becomes each object's values joined by `:`, items joined by `/`;
//! - a key a row lacks gets the default of its kind (`0`, `""` or `false`), so absent optional
//!   members (components a building lacks) still give uniform rows.
//!
//! A [`Row`] is a list of cells, not a `serde_json` map: [`flatten`] serializes a read model
//! straight into cells (field names are the struct's own `&'static str`, no tree of `Value`s is
//! built), and only nested members go through `Value` to become their text. The rows serialize
//! exactly as the equivalent JSON objects would.

use serde::Serialize;
use serde::ser::{self, Impossible, SerializeMap, SerializeStruct, Serializer};
use serde_json::Value;
use std::borrow::Cow;
use std::fmt::{Display, Write as _};

/// One scalar of a flat row, as `serde_json` would hold it.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    /// Always finite (a non-finite number is `Null`, as in `serde_json`).
    Float(f64),
    Text(String),
}

impl Cell {
    fn is_text(&self) -> bool {
        matches!(self, Cell::Text(_))
    }

    /// The default value of this cell's kind.
    fn default_like(&self) -> Cell {
        match self {
            Cell::Int(_) | Cell::UInt(_) | Cell::Float(_) => Cell::Int(0),
            Cell::Bool(_) => Cell::Bool(false),
            _ => Cell::Text(String::new()),
        }
    }

    fn float(f: f64) -> Cell {
        if f.is_finite() {
            Cell::Float(f)
        } else {
            Cell::Null
        }
    }
}

impl Serialize for Cell {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Cell::Null => s.serialize_unit(),
            Cell::Bool(b) => s.serialize_bool(*b),
            Cell::Int(i) => s.serialize_i64(*i),
            Cell::UInt(u) => s.serialize_u64(*u),
            Cell::Float(f) => s.serialize_f64(*f),
            Cell::Text(t) => s.serialize_str(t),
        }
    }
}

impl From<Value> for Cell {
    /// A scalar as its cell; a nested value as its text (see the module rule).
    fn from(v: Value) -> Cell {
        match flat_value(v) {
            Value::Null => Cell::Null,
            Value::Bool(b) => Cell::Bool(b),
            Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
                (Some(u), _, _) => Cell::UInt(u),
                (_, Some(i), _) => Cell::Int(i),
                (_, _, Some(f)) => Cell::float(f),
                _ => Cell::Null,
            },
            Value::String(s) => Cell::Text(s),
            nested => Cell::Text(nested.to_string()),
        }
    }
}

impl From<String> for Cell {
    fn from(s: String) -> Cell {
        Cell::Text(s)
    }
}

impl From<&str> for Cell {
    fn from(s: &str) -> Cell {
        Cell::Text(s.to_owned())
    }
}

impl From<u32> for Cell {
    fn from(u: u32) -> Cell {
        Cell::UInt(u.into())
    }
}

/// A flat row: named scalars in order, each key once.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Row {
    cells: Vec<(Cow<'static, str>, Cell)>,
}

impl Row {
    pub fn new() -> Row {
        Row::default()
    }

    /// Sets `key` (in place when the row has it, else at the end), as a JSON object would.
    pub fn insert(&mut self, key: impl Into<Cow<'static, str>>, value: impl Into<Cell>) {
        let key = key.into();
        let value = value.into();
        match self.cells.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => *v = value,
            None => self.cells.push((key, value)),
        }
    }

    /// Sets every cell of `other` ([`Row::insert`] each).
    pub fn extend(&mut self, other: Row) {
        for (k, v) in other.cells {
            self.insert(k, v);
        }
    }

    /// The keys in order.
    #[cfg(test)]
    fn keys(&self) -> impl Iterator<Item = &str> {
        self.cells.iter().map(|(k, _)| k.as_ref())
    }

    /// The value of `key`.
    #[cfg(test)]
    fn get(&self, key: &str) -> Option<&Cell> {
        self.cells.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

impl Serialize for Row {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.cells.len()))?;
        for (k, v) in &self.cells {
            m.serialize_entry(k.as_ref(), v)?;
        }
        m.end()
    }
}

/// `key:value` items joined by `/`, e.g. `Log:3/Plank:2`.
pub fn pairs_text<K: Display, V: Display>(pairs: impl IntoIterator<Item = (K, V)>) -> String {
    let mut text = String::new();
    for (n, (k, v)) in pairs.into_iter().enumerate() {
        let sep = if n == 0 { "" } else { "/" };
        // (Writing to a String cannot fail.)
        let _ = write!(text, "{sep}{k}:{v}");
    }
    text
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
    let mut row = Row::new();
    let cells = RowSerializer {
        row: &mut row,
        kinds_only: false,
    };
    if item.serialize(cells).is_ok() {
        return row;
    }
    // A shape the direct path does not take (a map with keys that are not text or integers):
    // through a `Value`, with the same result.
    match serde_json::to_value(item).expect("read models serialize") {
        Value::Object(m) => Row {
            cells: m.into_iter().map(|(k, v)| (k.into(), v.into())).collect(),
        },
        _ => Row::new(),
    }
}

/// Whether two keys are the same text (most are the same struct field name: the same pointer).
fn same_key(a: &str, b: &str) -> bool {
    std::ptr::eq(a, b) || a == b
}

/// The merged key order of a list's rows and each key's default (see [`uniform`]).
#[derive(Debug, Default)]
pub struct Keys {
    keys: Vec<Cow<'static, str>>,
    kinds: Vec<Cell>,
}

impl Keys {
    /// The keys of every item's flat row, without building the rows: each member's kind only
    /// (no text for nested members), one item at a time.
    pub fn of_items<T: Serialize>(items: &[T]) -> Keys {
        let mut keys = Keys::default();
        let mut row = Row::new();
        for item in items {
            row.cells.clear();
            let kinds = RowSerializer {
                row: &mut row,
                kinds_only: true,
            };
            if item.serialize(kinds).is_err() {
                row = flatten(item);
            }
            keys.add(&row);
        }
        keys
    }

    /// The keys in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.keys.iter().map(|k| k.as_ref())
    }

    /// Whether there are no keys.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Merges one row's keys into the order: a key first seen in a later row goes right after
    /// the key that precedes it there, so rows made from one struct keep that struct's order.
    /// A key's default is its kind's (text until some row gives it a number or a boolean).
    pub fn add(&mut self, row: &Row) {
        // A row's next key is searched from just after its previous one (rows of one struct
        // list their keys in the same order), so no key is hashed.
        let mut at = 0;
        for (k, v) in &row.cells {
            let found = self.keys[at..]
                .iter()
                .position(|x| x == k)
                .map(|p| at + p)
                .or_else(|| self.keys[..at].iter().position(|x| x == k));
            let i = match found {
                Some(i) => i,
                None => {
                    self.keys.insert(at, k.clone());
                    self.kinds.insert(at, v.default_like());
                    at
                }
            };
            if self.kinds[i].is_text() && !v.is_text() {
                self.kinds[i] = v.default_like();
            }
            at = i + 1;
        }
    }

    /// Whether `row` has every key, in order.
    fn complete(&self, row: &Row) -> bool {
        row.cells.len() == self.keys.len()
            && row.cells.iter().zip(&self.keys).all(|((a, _), b)| a == b)
    }

    /// Calls `f` with every key in order and the row's value, or the key's default where the
    /// row lacks it.
    pub fn each<E>(
        &self,
        row: &Row,
        mut f: impl FnMut(&Cow<'static, str>, &Cell) -> Result<(), E>,
    ) -> Result<(), E> {
        // Most rows already have every key in order (rows of one struct).
        if self.complete(row) {
            return row.cells.iter().try_for_each(|(k, v)| f(k, v));
        }
        // A row of a struct lists its keys in the order of `keys` (some left out): one walk
        // along both fills in the missing ones. A row that lists them in another order (never a
        // struct's) is looked up key by key.
        let mut ks = self.keys.iter();
        let in_order = row.cells.iter().all(|(rk, _)| ks.any(|k| same_key(k, rk)));
        let mut given = row.cells.iter().peekable();
        for (k, kind) in self.keys.iter().zip(&self.kinds) {
            let v = if in_order {
                given.next_if(|(rk, _)| same_key(rk, k)).map(|(_, v)| v)
            } else {
                row.cells.iter().find(|(rk, _)| rk == k).map(|(_, v)| v)
            };
            f(k, v.unwrap_or(kind))?;
        }
        Ok(())
    }

    /// The row with every key in order (moved as it is when it has them already).
    fn arrange(&self, row: Row) -> Row {
        if self.complete(&row) {
            return row;
        }
        let mut cells = Vec::with_capacity(self.keys.len());
        let _ = self.each::<()>(&row, |k, v| {
            cells.push((k.clone(), v.clone()));
            Ok(())
        });
        Row { cells }
    }
}

/// Gives every row the same keys in the same order ([`Keys`]); a missing value gets its kind's
/// default.
pub fn uniform(rows: Vec<Row>) -> Vec<Row> {
    let mut keys = Keys::default();
    for row in &rows {
        keys.add(row);
    }
    rows.into_iter().map(|row| keys.arrange(row)).collect()
}

/// A row serialized with a list's keys ([`Keys::each`]) without being rearranged first: a
/// list written row by row makes, writes and drops each row in turn, so a list of thousands
/// never holds its rows all at once (what [`uniform`] costs: every cell of every row alive
/// together, on fresh memory at each cold read).
pub struct Arranged<'a> {
    pub keys: &'a Keys,
    pub row: &'a Row,
}

impl Serialize for Arranged<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.keys.keys.len()))?;
        self.keys
            .each(self.row, |k, v| m.serialize_entry(k.as_ref(), v))?;
        m.end()
    }
}

/// Flattens a list of read models into uniform rows.
pub fn flat_rows<T: Serialize>(items: impl IntoIterator<Item = T>) -> Vec<Row> {
    uniform(items.into_iter().map(flatten).collect())
}

/// Why the direct path gave up (the caller goes through a `Value` instead).
#[derive(Debug)]
struct NotDirect;

impl Display for NotDirect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not a flat row's shape")
    }
}

impl std::error::Error for NotDirect {}

impl ser::Error for NotDirect {
    fn custom<T: Display>(_: T) -> Self {
        NotDirect
    }
}

/// The cell of a member: a scalar directly, a nested member as its text through a `Value`.
fn cell_of<T: Serialize + ?Sized>(value: &T) -> Result<Cell, NotDirect> {
    match value.serialize(CellSerializer) {
        Ok(cell) => Ok(cell),
        Err(NotDirect) => Ok(serde_json::to_value(value).map_err(|_| NotDirect)?.into()),
    }
}

/// Serializes a struct or map into a row's cells (with `kinds_only`, each cell is only its
/// kind's default: what [`Keys`] needs, without the text of nested members).
struct RowSerializer<'a> {
    row: &'a mut Row,
    kinds_only: bool,
}

/// A map's next key, waiting for its value.
struct RowMap<'a> {
    row: &'a mut Row,
    kinds_only: bool,
    key: Option<String>,
}

/// A member's cell, or with `kinds_only` its kind's default (a nested member is text).
fn member_cell<T: Serialize + ?Sized>(value: &T, kinds_only: bool) -> Result<Cell, NotDirect> {
    if kinds_only {
        return Ok(value
            .serialize(CellSerializer)
            .map_or(Cell::Text(String::new()), |c| c.default_like()));
    }
    cell_of(value)
}

impl SerializeStruct for RowSerializer<'_> {
    type Ok = ();
    type Error = NotDirect;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), NotDirect> {
        let cell = member_cell(value, self.kinds_only)?;
        // A struct's fields are distinct: no search for an earlier one.
        self.row.cells.push((key.into(), cell));
        Ok(())
    }

    fn end(self) -> Result<(), NotDirect> {
        Ok(())
    }
}

impl SerializeMap for RowMap<'_> {
    type Ok = ();
    type Error = NotDirect;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), NotDirect> {
        self.key = Some(match key.serialize(CellSerializer)? {
            Cell::Text(s) => s,
            Cell::Int(i) => i.to_string(),
            Cell::UInt(u) => u.to_string(),
            _ => return Err(NotDirect),
        });
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), NotDirect> {
        let key = self.key.take().ok_or(NotDirect)?;
        let cell = member_cell(value, self.kinds_only)?;
        // A map's keys are distinct too.
        self.row.cells.push((key.into(), cell));
        Ok(())
    }

    fn end(self) -> Result<(), NotDirect> {
        Ok(())
    }
}

/// Declines a shape: the whole item goes through a `Value` instead.
macro_rules! not_direct {
    ($($name:ident($($arg:ty),*) -> $ret:ty;)*) => {
        $(fn $name(self, $(_: $arg),*) -> Result<$ret, NotDirect> { Err(NotDirect) })*
    };
}

impl<'a> Serializer for RowSerializer<'a> {
    type Ok = ();
    type Error = NotDirect;
    type SerializeSeq = Impossible<(), NotDirect>;
    type SerializeTuple = Impossible<(), NotDirect>;
    type SerializeTupleStruct = Impossible<(), NotDirect>;
    type SerializeTupleVariant = Impossible<(), NotDirect>;
    type SerializeMap = RowMap<'a>;
    type SerializeStruct = RowSerializer<'a>;
    type SerializeStructVariant = Impossible<(), NotDirect>;

    fn serialize_struct(self, _: &'static str, len: usize) -> Result<Self, NotDirect> {
        // (A struct's field count: the row's cells, unless members are skipped.)
        self.row.cells.reserve(len);
        Ok(self)
    }

    fn serialize_map(self, _: Option<usize>) -> Result<RowMap<'a>, NotDirect> {
        Ok(RowMap {
            row: self.row,
            kinds_only: self.kinds_only,
            key: None,
        })
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), NotDirect> {
        value.serialize(self)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), NotDirect> {
        value.serialize(self)
    }

    // Not an object: an empty row, as before (through the `Value` path).
    not_direct! {
        serialize_bool(bool) -> ();
        serialize_i8(i8) -> ();
        serialize_i16(i16) -> ();
        serialize_i32(i32) -> ();
        serialize_i64(i64) -> ();
        serialize_u8(u8) -> ();
        serialize_u16(u16) -> ();
        serialize_u32(u32) -> ();
        serialize_u64(u64) -> ();
        serialize_f32(f32) -> ();
        serialize_f64(f64) -> ();
        serialize_char(char) -> ();
        serialize_str(&str) -> ();
        serialize_bytes(&[u8]) -> ();
        serialize_none() -> ();
        serialize_unit() -> ();
        serialize_unit_struct(&'static str) -> ();
        serialize_unit_variant(&'static str, u32, &'static str) -> ();
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), NotDirect> {
        Err(NotDirect)
    }
}

/// Serializes a scalar into its cell (declines anything nested).
struct CellSerializer;

impl Serializer for CellSerializer {
    type Ok = Cell;
    type Error = NotDirect;
    type SerializeSeq = Impossible<Cell, NotDirect>;
    type SerializeTuple = Impossible<Cell, NotDirect>;
    type SerializeTupleStruct = Impossible<Cell, NotDirect>;
    type SerializeTupleVariant = Impossible<Cell, NotDirect>;
    type SerializeMap = Impossible<Cell, NotDirect>;
    type SerializeStruct = Impossible<Cell, NotDirect>;
    type SerializeStructVariant = Impossible<Cell, NotDirect>;

    fn serialize_bool(self, v: bool) -> Result<Cell, NotDirect> {
        Ok(Cell::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<Cell, NotDirect> {
        self.serialize_i64(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<Cell, NotDirect> {
        self.serialize_i64(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<Cell, NotDirect> {
        self.serialize_i64(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result<Cell, NotDirect> {
        Ok(if v < 0 {
            Cell::Int(v)
        } else {
            Cell::UInt(v as u64)
        })
    }
    fn serialize_u8(self, v: u8) -> Result<Cell, NotDirect> {
        self.serialize_u64(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<Cell, NotDirect> {
        self.serialize_u64(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<Cell, NotDirect> {
        self.serialize_u64(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<Cell, NotDirect> {
        Ok(Cell::UInt(v))
    }
    fn serialize_f32(self, v: f32) -> Result<Cell, NotDirect> {
        // As `serde_json::Value` holds an f32: widened to f64.
        Ok(Cell::float(f64::from(v)))
    }
    fn serialize_f64(self, v: f64) -> Result<Cell, NotDirect> {
        Ok(Cell::float(v))
    }
    fn serialize_char(self, v: char) -> Result<Cell, NotDirect> {
        Ok(Cell::Text(v.to_string()))
    }
    fn serialize_str(self, v: &str) -> Result<Cell, NotDirect> {
        Ok(Cell::Text(v.to_owned()))
    }
    fn serialize_none(self) -> Result<Cell, NotDirect> {
        Ok(Cell::Null)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Cell, NotDirect> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<Cell, NotDirect> {
        Ok(Cell::Null)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<Cell, NotDirect> {
        Ok(Cell::Null)
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<Cell, NotDirect> {
        Ok(Cell::Text(variant.to_owned()))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<Cell, NotDirect> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<Cell, NotDirect> {
        Err(NotDirect)
    }

    // Nested: the caller renders the member's text through a `Value`.
    not_direct! {
        serialize_bytes(&[u8]) -> Cell;
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_map(Option<usize>) -> Self::SerializeMap;
        serialize_struct(&'static str, usize) -> Self::SerializeStruct;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn as_json(rows: &[Row]) -> Value {
        serde_json::to_value(rows).unwrap()
    }

    #[test]
    fn nested_values_become_text_and_rows_share_keys() {
        let rows = flat_rows([
            json!({"id": 1, "inventory": {"Log": 3, "Plank": 2}, "statuses": ["paused", "unstaffed"]}),
            json!({"id": 2, "height": 1.5, "inventory": {}, "statuses": [],
                   "needs": [{"id": "Hunger", "points": 0.5}, {"id": "Thirst", "points": 1}]}),
        ]);
        assert_eq!(
            as_json(&rows),
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
        let keys: Vec<&str> = rows[0].keys().collect();
        assert_eq!(keys, ["a", "b", "c"]);
        assert_eq!(rows[0].get("b"), Some(&Cell::Text(String::new())));
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
            let keys: Vec<&str> = row.keys().collect();
            assert_eq!(keys, ["a", "d", "b", "c"]);
        }
        assert_eq!(
            serde_json::to_value(&rows[3]).unwrap(),
            json!({"a": 2, "d": false, "b": "", "c": 4})
        );
        assert_eq!(rows[1].get("d"), Some(&Cell::Bool(false)));
    }

    /// A read model with every kind of member the views have.
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Model {
        id: i32,
        negative: i64,
        ratio: f32,
        big: f64,
        not_a_number: f64,
        name: String,
        flag: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        absent: Option<u32>,
        null_member: Option<String>,
        present: Option<f32>,
        inventory: std::collections::BTreeMap<String, u32>,
        statuses: Vec<String>,
        nested: Vec<Inner>,
        unit: (),
        kind: Kind,
        tagged: Tagged,
    }

    #[derive(Serialize)]
    struct Inner {
        a: u8,
        b: f32,
    }

    #[derive(Serialize)]
    enum Kind {
        Water,
    }

    #[derive(Serialize)]
    enum Tagged {
        Some(u32),
    }

    #[test]
    fn the_direct_path_gives_what_a_value_tree_gives() {
        let m = Model {
            id: 7,
            negative: -3,
            ratio: 0.1,
            big: 1e300,
            not_a_number: f64::NAN,
            name: "Lodge \"A\"\n".into(),
            flag: true,
            absent: None,
            null_member: None,
            present: Some(2.5),
            inventory: [("Log".to_owned(), 3), ("Plank".to_owned(), 0)].into(),
            statuses: vec!["paused".into(), "unstaffed".into()],
            nested: vec![Inner { a: 1, b: 0.3 }, Inner { a: 2, b: 4.0 }],
            unit: (),
            kind: Kind::Water,
            tagged: Tagged::Some(4),
        };
        // The old way: a `Value` tree flattened member by member.
        let mut expected = serde_json::Map::new();
        for (k, v) in serde_json::to_value(&m).unwrap().as_object().unwrap() {
            expected.insert(k.clone(), flat_value(v.clone()));
        }
        let row = flatten(&m);
        assert_eq!(
            serde_json::to_string(&row).unwrap(),
            serde_json::to_string(&expected).unwrap()
        );
        // A map whose keys are numbers is a row too.
        let numbered: std::collections::BTreeMap<u32, &str> = [(2, "b"), (1, "a")].into();
        assert_eq!(
            serde_json::to_string(&flatten(numbered)).unwrap(),
            r#"{"1":"a","2":"b"}"#
        );
        assert_eq!(flatten(3), Row::new(), "not an object: an empty row");
    }
}
