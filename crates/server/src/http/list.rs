//! List endpoints' shared query: pagination (`limit`, default 100, 0 unlimited; `offset`),
//! the `name` filter (case-insensitive substring) and the proximity filter (`x` and `y` together,
//! `radius` Manhattan, default 30). Filters apply before pagination; `total` is the filtered count.

use super::error::AppError;
use super::rows::{Arranged, Keys};
use protocol::error::{ApiError, ErrorCode};
use serde::Serialize;
use serde_json::json;
use sim::colony::ListKey;
use std::collections::HashMap;

/// Default page size.
pub const DEFAULT_LIMIT: usize = 100;
/// Default proximity radius (Manhattan).
pub const DEFAULT_RADIUS: i64 = 30;

/// A parsed list query.
#[derive(Clone, Debug, PartialEq)]
pub struct ListQuery {
    /// 0 means unlimited (the answer is then a flat array).
    pub limit: usize,
    pub offset: usize,
    pub name: Option<String>,
    /// `(x, y, radius)`.
    pub near: Option<(i64, i64, i64)>,
}

impl Default for ListQuery {
    fn default() -> Self {
        ListQuery {
            limit: DEFAULT_LIMIT,
            offset: 0,
            name: None,
            near: None,
        }
    }
}

/// An optional integer query parameter of at least `min` (`i64::MIN`: any integer).
pub fn int_param(
    q: &HashMap<String, String>,
    key: &str,
    min: i64,
) -> Result<Option<i64>, ApiError> {
    let Some(raw) = q.get(key) else {
        return Ok(None);
    };
    match raw.trim().parse::<i64>() {
        Ok(v) if v >= min => Ok(Some(v)),
        _ => Err(ApiError::new(
            ErrorCode::InvalidParam,
            if min == i64::MIN {
                format!("{key} must be an integer; got {raw:?}")
            } else {
                format!("{key} must be an integer >= {min}; got {raw:?}")
            },
        )
        .with("got", raw.clone())),
    }
}

impl ListQuery {
    /// Parses the query parameters of a list route.
    pub fn parse(q: &HashMap<String, String>) -> Result<ListQuery, ApiError> {
        let limit = int_param(q, "limit", 0)?.map_or(DEFAULT_LIMIT, |v| v as usize);
        let offset = int_param(q, "offset", 0)?.unwrap_or(0) as usize;
        let name = q
            .get("name")
            .map(|n| n.trim().to_lowercase())
            .filter(|n| !n.is_empty());
        let x = int_param(q, "x", i64::MIN)?;
        let y = int_param(q, "y", i64::MIN)?;
        let radius = int_param(q, "radius", 0)?;
        let near = match (x, y) {
            (Some(x), Some(y)) => Some((x, y, radius.unwrap_or(DEFAULT_RADIUS))),
            (None, None) if radius.is_none() => None,
            (None, None) => {
                return Err(ApiError::new(
                    ErrorCode::InvalidParam,
                    "radius needs x and y; send x, y and radius together",
                )
                .with("got", q.get("radius").cloned().unwrap_or_default()));
            }
            _ => {
                let got = json!({"x": q.get("x"), "y": q.get("y")});
                return Err(ApiError::new(
                    ErrorCode::InvalidParam,
                    "x and y go together for the proximity filter; send both or neither",
                )
                .with("got", got));
            }
        };
        Ok(ListQuery {
            limit,
            offset,
            name,
            near,
        })
    }

    /// Whether an item with this name and position passes the filters.
    pub fn keeps(&self, name: &str, x: i64, y: i64) -> bool {
        if let Some(n) = &self.name
            && !name.to_lowercase().contains(n.as_str())
        {
            return false;
        }
        match self.near {
            // Wide arithmetic: any i64 centre is accepted, so the distance must not overflow.
            Some((px, py, r)) => {
                let d =
                    (i128::from(x) - i128::from(px)).abs() + (i128::from(y) - i128::from(py)).abs();
                d <= i128::from(r)
            }
            None => true,
        }
    }

    /// Filters with `keep` (name and position of an item), then pages: `{total, offset, limit,
    /// items}`, or a flat array when `limit` is 0.
    pub fn page<T: Serialize>(
        &self,
        items: impl IntoIterator<Item = T>,
        keep: impl Fn(&T) -> (&str, i64, i64),
    ) -> Page<T> {
        let (total, items) = self.pick(items, keep);
        Page::of(self, total, items)
    }

    /// Filters the keys of an entity list, then pages them: the filtered count and the ids of
    /// the page, so that only the page's views are built.
    pub fn select<'a>(&self, keys: impl IntoIterator<Item = ListKey<'a>>) -> (usize, Vec<i32>) {
        let (total, page) = self.pick(keys, |k| (k.name, k.x.into(), k.y.into()));
        (total, page.into_iter().map(|k| k.id).collect())
    }

    /// The items `keep` lets through (by name and position), counted, and those of the page.
    fn pick<T>(
        &self,
        items: impl IntoIterator<Item = T>,
        keep: impl Fn(&T) -> (&str, i64, i64),
    ) -> (usize, Vec<T>) {
        let take = if self.limit == 0 {
            usize::MAX
        } else {
            self.limit
        };
        let items = items.into_iter();
        // With no name or proximity filter every item is kept: where the items say exactly how
        // many they are (a table's keys), the page is taken without walking the rest (the first
        // page of a list of thousands reads a hundred).
        if self.name.is_none() && self.near.is_none() {
            let (least, most) = items.size_hint();
            if most == Some(least) {
                return (least, items.skip(self.offset).take(take).collect());
            }
        }
        let mut total = 0;
        let mut page = Vec::new();
        for it in items {
            let (name, x, y) = keep(&it);
            if !self.keeps(name, x, y) {
                continue;
            }
            if total >= self.offset && page.len() < take {
                page.push(it);
            }
            total += 1;
        }
        (total, page)
    }
}

/// Answers a list route: parses its query, then filters and pages rows by name and position.
pub fn listed<T: Serialize>(
    q: &HashMap<String, String>,
    rows: Vec<T>,
    key: impl Fn(&T) -> (&str, i64, i64),
) -> Result<Page<T>, AppError> {
    Ok(ListQuery::parse(q)?.page(rows, key))
}

/// A list answer: a page with its total, or every row as a flat array (`limit=0`).
#[derive(Serialize)]
#[serde(untagged)]
pub enum Page<T> {
    All(Vec<T>),
    Paged {
        total: usize,
        offset: usize,
        limit: usize,
        items: Vec<T>,
    },
}

impl<T: Serialize> Page<T> {
    /// The page as JSON, written into a buffer sized for `row_bytes` a row up front: grown by
    /// doubling (axum's `Json` starts at 128 bytes), a list of megabytes spent a quarter to a
    /// third of its cold render in reallocation copies and page faults on fresh memory.
    pub fn to_json(&self, row_bytes: usize) -> Vec<u8> {
        let rows = match self {
            Page::All(items) | Page::Paged { items, .. } => items.len(),
        };
        let mut out = Vec::with_capacity(256 + rows * row_bytes);
        serde_json::to_writer(&mut out, self).expect("list rows serialize");
        out
    }
}

impl Page<()> {
    /// Writes a page as [`Page::to_json`] would, its items' array written by `items`: the
    /// array alone with `limit=0`, else `{total, offset, limit, items}`.
    fn write_with(
        list: &ListQuery,
        total: usize,
        out: &mut Vec<u8>,
        items: impl FnOnce(&mut Vec<u8>),
    ) {
        if list.limit == 0 {
            return items(out);
        }
        let head = format!(
            r#"{{"total":{total},"offset":{},"limit":{},"items":"#,
            list.offset, list.limit
        );
        out.extend_from_slice(head.as_bytes());
        items(out);
        out.push(b'}');
    }
}

/// Read models as a JSON array of uniform flat rows ([`Keys`]), each row made from its model
/// ([`Entity::flat`]), written and dropped before the next.
fn flat_array<E: Entity>(views: Vec<E>, out: &mut Vec<u8>) {
    let keys = Keys::of_items(&views);
    out.push(b'[');
    for (n, view) in views.into_iter().enumerate() {
        if n > 0 {
            out.push(b',');
        }
        let row = view.flat();
        serde_json::to_writer(
            &mut *out,
            &Arranged {
                keys: &keys,
                row: &row,
            },
        )
        .expect("flat rows serialize");
    }
    out.push(b']');
}

/// Read models as JSON flat rows ([`flat_array`]), in their page when the list is paged, the
/// buffer sized for `row_bytes` a row.
fn flat_page<E: Entity>(
    list: &ListQuery,
    total: usize,
    views: Vec<E>,
    row_bytes: usize,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(256 + views.len() * row_bytes);
    Page::<()>::write_with(list, total, &mut out, |out| flat_array(views, out));
    out
}

/// Read models as TOON text, the same text as their JSON from [`flat_array`] (in its page when
/// the list is paged) turned into TOON by the pipeline: `total`, `offset` and `limit` on their
/// lines, then the table (`[N]{keys}:` and a line of cells a row, two spaces in), each row made,
/// written and dropped in turn. An empty list (whose text the `toon-format` crate decides) comes
/// back as it went in.
fn flat_toon<E: Entity>(list: &ListQuery, total: usize, views: Vec<E>) -> Result<String, Vec<E>> {
    use super::toon_text::{push_cell, push_table_header};
    use std::fmt::Write as _;
    let keys = Keys::of_items(&views);
    if views.is_empty() || keys.is_empty() {
        return Err(views);
    }
    let mut out = String::with_capacity(64 + views.len() * 24 * keys.names().count());
    if list.limit != 0 {
        let _ = write!(
            out,
            "total: {total}\noffset: {}\nlimit: {}\nitems",
            list.offset, list.limit
        );
    }
    push_table_header(&mut out, views.len(), keys.names());
    for view in views {
        let row = view.flat();
        out.push_str("\n  ");
        let mut first = true;
        let _ = keys.each::<()>(&row, |_, cell| {
            if !first {
                out.push(',');
            }
            first = false;
            push_cell(&mut out, cell);
            Ok(())
        });
    }
    out.push('\n');
    Ok(out)
}

/// A list route's page answers as JSON (`Page::to_json`).
impl<T: Serialize> axum::response::IntoResponse for Page<T> {
    fn into_response(self) -> axum::response::Response {
        json_response(self.to_json(128))
    }
}

/// JSON bytes as an `application/json` response.
pub fn json_response(bytes: Vec<u8>) -> axum::response::Response {
    typed_response(bytes, "application/json")
}

/// A body with its media type.
fn typed_response(
    body: impl Into<axum::body::Body>,
    media_type: &'static str,
) -> axum::response::Response {
    let mut resp = axum::response::Response::new(body.into());
    resp.headers_mut().insert(
        axum::http::header::CONTENT_TYPE,
        axum::http::HeaderValue::from_static(media_type),
    );
    resp
}

impl<T> Page<T> {
    /// The page of a query whose filters kept `total` items, `items` being the page's rows.
    pub fn of(list: &ListQuery, total: usize, items: Vec<T>) -> Page<T> {
        if list.limit == 0 {
            return Page::All(items);
        }
        Page::Paged {
            total,
            offset: list.offset,
            limit: list.limit,
            items,
        }
    }
}

/// The list query as the OpenAPI document shows it (parsing is [`ListQuery::parse`]).
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListParams {
    /// Page size (default 100; 0: every row as a flat array).
    pub limit: Option<i64>,
    /// Rows to skip.
    pub offset: Option<i64>,
    /// Case-insensitive part of the name.
    pub name: Option<String>,
    /// Proximity centre x (with y).
    pub x: Option<i64>,
    /// Proximity centre y (with x).
    pub y: Option<i64>,
    /// Manhattan radius (default 30; needs x and y).
    pub radius: Option<i64>,
}

/// How much of an entity a list shows: `detail=basic` (the default) or `detail=full`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detail {
    Basic,
    Full,
}

/// A read model an entity list serves (`/api/buildings`, `/api/beavers`).
pub trait Entity: Serialize + Sized {
    /// What it is, for `not_found` ("building").
    const KIND: &'static str;
    /// The route that lists them.
    const LIST: &'static str;
    /// The basic row (`detail=basic`), typed so a list serializes straight to bytes.
    type Basic: Serialize;
    /// The full read model as a flat toon row. It may render a member differently from
    /// [`super::rows::flatten`], but keeps its keys (a list's keys are read from the models).
    fn flat(self) -> super::rows::Row {
        super::rows::flatten(self)
    }
}

/// How an entity list builds the rows of a page from their ids: `full` the read models
/// (`detail=full`), `basic` the basic rows in the requested format (`true`: json).
pub struct Rows<F, B> {
    pub full: F,
    pub basic: B,
}

/// The query of an entity list (`/api/buildings`, `/api/beavers`): the list query, `detail`, and
/// `id` (one entity, full detail, as a page of one or, with `limit=0`, an array of one; filters
/// do not apply).
#[derive(Clone, Debug, PartialEq)]
pub struct EntityQuery {
    pub list: ListQuery,
    pub detail: Detail,
    pub id: Option<i64>,
}

impl EntityQuery {
    /// Answers the query in `format`: with `id`, the one entity in full as a page of one (an
    /// array of one with `limit=0`; `not_found` naming the entity's kind and list route when there
    /// is none); else the filtered page, each row basic (`detail=basic`), or in full: the read
    /// model (json, serialized straight from the typed views) or its flat row (toon). The
    /// filters and paging run on `keys` (every entity's [`ListKey`], in list order); `rows`
    /// builds the page's rows only: the read models in full, or the basic rows in the
    /// requested format (json or not). Every answer is JSON (the pipeline turns it into TOON
    /// text where asked) but a full list asked for as TOON text: that is written as text
    /// straight from its rows ([`flat_toon`]).
    pub fn answer<'a, E: Entity>(
        &self,
        format: super::format::Format,
        one: impl FnOnce(i32) -> Option<E>,
        keys: impl IntoIterator<Item = ListKey<'a>>,
        rows: Rows<impl FnOnce(&[i32]) -> Vec<E>, impl FnOnce(&[i32], bool) -> Vec<E::Basic>>,
    ) -> Result<axum::response::Response, AppError> {
        let json = format.is_json();
        // Bytes a row reserves in the answer's buffer (`Page::to_json`).
        let row_bytes = if self.detail == Detail::Basic {
            192
        } else {
            1024
        };
        if let Some(id) = self.id {
            let e = i32::try_from(id)
                .ok()
                .and_then(one)
                .ok_or_else(|| super::error::not_found_id(id, E::KIND, E::LIST))?;
            // The contract's "array or page": with `limit=0` a flat array of one, otherwise the
            // page wrapper holding the one item (in full detail either way).
            let row = if json {
                serde_json::to_value(e)
            } else {
                serde_json::to_value(e.flat())
            }
            .expect("read models serialize");
            let page = if self.list.limit == 0 {
                Page::All(vec![row])
            } else {
                Page::Paged {
                    total: 1,
                    offset: 0,
                    limit: self.list.limit,
                    items: vec![row],
                }
            };
            return Ok(json_response(page.to_json(row_bytes)));
        }
        let (total, ids) = self.list.select(keys);
        let l = &self.list;
        Ok(json_response(match self.detail {
            Detail::Basic => Page::of(l, total, (rows.basic)(&ids, json)).to_json(row_bytes),
            Detail::Full if json => Page::of(l, total, (rows.full)(&ids)).to_json(row_bytes),
            Detail::Full => {
                let mut views = (rows.full)(&ids);
                if format == super::format::Format::ToonText {
                    match flat_toon(l, total, views) {
                        Ok(text) => {
                            return Ok(typed_response(text, super::format::TOON_MEDIA_TYPE));
                        }
                        Err(back) => views = back,
                    }
                }
                flat_page(l, total, views, row_bytes)
            }
        }))
    }

    /// Parses an entity list's query and answers it in the request's format ([`Self::answer`]).
    pub fn serve<'a, E: Entity>(
        q: &HashMap<String, String>,
        ext: &axum::http::Extensions,
        one: impl FnOnce(i32) -> Option<E>,
        keys: impl IntoIterator<Item = ListKey<'a>>,
        rows: Rows<impl FnOnce(&[i32]) -> Vec<E>, impl FnOnce(&[i32], bool) -> Vec<E::Basic>>,
    ) -> Result<axum::response::Response, AppError> {
        EntityQuery::parse(q)?.answer(super::format::Format::of(ext), one, keys, rows)
    }

    pub fn parse(q: &HashMap<String, String>) -> Result<EntityQuery, ApiError> {
        let detail = match q.get("detail").map(|d| d.trim().to_ascii_lowercase()) {
            None => Detail::Basic,
            Some(d) if d == "basic" || d.is_empty() => Detail::Basic,
            Some(d) if d == "full" => Detail::Full,
            Some(d) => {
                return Err(ApiError::new(
                    ErrorCode::InvalidParam,
                    format!("detail must be basic or full; got {d:?}"),
                )
                .with("got", d));
            }
        };
        Ok(EntityQuery {
            list: ListQuery::parse(q)?,
            detail,
            id: int_param(q, "id", i64::MIN)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[derive(Serialize)]
    struct Row {
        name: &'static str,
        x: i64,
        y: i64,
    }

    fn rows() -> Vec<Row> {
        vec![
            Row {
                name: "Pine",
                x: 0,
                y: 0,
            },
            Row {
                name: "Birch",
                x: 10,
                y: 10,
            },
            Row {
                name: "Pine",
                x: 50,
                y: 50,
            },
        ]
    }

    #[test]
    fn defaults_and_errors() {
        assert_eq!(ListQuery::parse(&q(&[])).unwrap(), ListQuery::default());
        for bad in [
            &[("limit", "-1")][..],
            &[("offset", "x")],
            &[("x", "3")],
            &[("radius", "5")],
            &[("x", "1"), ("y", "1"), ("radius", "-2")],
        ] {
            let e = ListQuery::parse(&q(bad)).unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidParam, "{bad:?}");
        }
    }

    /// A table's keys (their count exact) are paged without a walk when nothing filters them:
    /// the same totals and pages as the walk gives (the keys through a `filter`, which keeps
    /// everything but hides the count), with and without filters, at every offset and limit.
    #[test]
    fn exact_keys_page_as_the_walk_does() {
        let names = ["Pine", "Birch", "Oak"];
        let keys: Vec<ListKey<'_>> = (0..250)
            .map(|i| ListKey {
                id: i * 3 - 100,
                name: names[(i % 3) as usize],
                x: (i % 17) as u32,
                y: (i % 23) as u32,
            })
            .collect();
        for filter in [vec![], vec![("name", "pine")], vec![("x", "3"), ("y", "4")]] {
            for (offset, limit) in [
                ("0", "100"),
                ("0", "0"),
                ("120", "100"),
                ("249", "5"),
                ("300", "10"),
            ] {
                let mut pairs = filter.clone();
                pairs.extend([("offset", offset), ("limit", limit)]);
                let lq = ListQuery::parse(&q(&pairs)).unwrap();
                let exact = lq.select(keys.iter().cloned());
                let walked = lq.select(keys.iter().cloned().filter(|_| true));
                assert_eq!(exact, walked, "{pairs:?}");
            }
        }
        let lq = ListQuery::parse(&q(&[("offset", "120"), ("limit", "100")])).unwrap();
        let (total, page) = lq.select(keys.iter().cloned());
        assert_eq!((total, page.len(), page[0]), (250, 100, 260));
    }

    #[test]
    fn filters_then_pages_with_total() {
        let lq = ListQuery::parse(&q(&[("name", "PINE"), ("limit", "1")])).unwrap();
        let v = serde_json::to_value(lq.page(rows(), |r| (r.name, r.x, r.y))).unwrap();
        assert_eq!(v["total"], 2);
        assert_eq!(v["items"].as_array().unwrap().len(), 1);
        let lq = ListQuery::parse(&q(&[("x", "0"), ("y", "0"), ("limit", "0")])).unwrap();
        let v = serde_json::to_value(lq.page(rows(), |r| (r.name, r.x, r.y))).unwrap();
        assert_eq!(
            v.as_array().unwrap().len(),
            2,
            "radius 30 keeps (0,0) and (10,10)"
        );
        let lq = ListQuery::parse(&q(&[("offset", "2")])).unwrap();
        let v = serde_json::to_value(lq.page(rows(), |r| (r.name, r.x, r.y))).unwrap();
        assert_eq!(
            (v["total"].as_u64(), v["items"][0]["x"].as_i64()),
            (Some(3), Some(50))
        );
    }

    #[test]
    fn a_far_centre_does_not_overflow() {
        let max = i64::MAX.to_string();
        let lq = ListQuery::parse(&q(&[
            ("x", "-9223372036854775808"),
            ("y", max.as_str()),
            ("radius", max.as_str()),
        ]))
        .unwrap();
        assert!(!lq.keeps("Pine", 10, 10));
    }

    /// A read model with optional members (rows of it lack keys) and its own flat form.
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Model {
        id: i32,
        #[serde(skip_serializing_if = "Option::is_none")]
        stock: Option<u32>,
        name: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        ratio: Option<f32>,
        tags: Vec<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        made: Option<String>,
    }

    impl Entity for Model {
        const KIND: &'static str = "model";
        const LIST: &'static str = "/api/models";
        type Basic = Model;

        fn flat(self) -> super::super::rows::Row {
            let tags = self.tags.join("&");
            let mut row = super::super::rows::flatten(self);
            row.insert("tags", tags);
            row
        }
    }

    fn models() -> Vec<Model> {
        (0..7)
            .map(|i| Model {
                id: i - 3,
                stock: (i % 2 == 0).then_some(i as u32 * 3),
                name: format!("Lodge \"{i}\"\n"),
                ratio: (i % 3 == 1).then_some(i as f32 / 3.0),
                tags: (0..i).map(|t| format!("t{t}")).collect(),
                made: (i == 5).then(|| "Plank".to_owned()),
            })
            .collect()
    }

    /// Unpaged, a middle page, the default page.
    const PAGINGS: [&[(&str, &str)]; 3] =
        [&[("limit", "0")], &[("limit", "3"), ("offset", "2")], &[]];

    /// The rows written one at a time give the bytes the whole list made uniform gave.
    #[test]
    fn flat_rows_written_one_by_one_match_the_uniform_list() {
        for query in PAGINGS {
            let list = ListQuery::parse(&q(query)).unwrap();
            let flat = models().into_iter().map(Model::flat).collect();
            let expected = Page::of(&list, 7, super::super::rows::uniform(flat)).to_json(16);
            let mut out = Vec::new();
            Page::<()>::write_with(&list, 7, &mut out, |out| flat_array(models(), out));
            assert_eq!(
                String::from_utf8(out).unwrap(),
                String::from_utf8(expected).unwrap(),
                "{query:?}"
            );
        }
    }

    /// The TOON text written straight from the rows is the text the pipeline makes of their
    /// JSON (the `toon-format` crate's rules), paged or not; an empty list is handed back.
    #[test]
    fn flat_rows_as_toon_text_match_their_json_turned_into_text() {
        for query in PAGINGS {
            let list = ListQuery::parse(&q(query)).unwrap();
            let mut json = Vec::new();
            Page::<()>::write_with(&list, 7, &mut json, |out| flat_array(models(), out));
            let expected = super::super::toon_text::encode(&json).unwrap() + "\n";
            let text = flat_toon(&list, 7, models()).ok().unwrap();
            assert_eq!(text, expected, "{query:?}");
        }
        let list = ListQuery::parse(&q(&[])).unwrap();
        assert!(flat_toon(&list, 0, Vec::<Model>::new()).is_err());
    }
}
