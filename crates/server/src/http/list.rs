//! List endpoints' shared query: pagination (`limit`, default 100, 0 unlimited; `offset`),
//! the `name` filter (case-insensitive substring) and the proximity filter (`x` and `y` together,
//! `radius` Manhattan, default 30). Filters apply before pagination; `total` is the filtered count.

use protocol::error::{ApiError, ErrorCode};
use serde::Serialize;
use serde_json::json;
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
            Some((px, py, r)) => (x - px).abs() + (y - py).abs() <= r,
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
        let kept: Vec<T> = items
            .into_iter()
            .filter(|it| {
                let (name, x, y) = keep(it);
                self.keeps(name, x, y)
            })
            .collect();
        let total = kept.len();
        if self.limit == 0 {
            return Page::All(kept.into_iter().skip(self.offset).collect());
        }
        let items = kept
            .into_iter()
            .skip(self.offset)
            .take(self.limit)
            .collect();
        Page::Paged {
            total,
            offset: self.offset,
            limit: self.limit,
            items,
        }
    }
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
}
