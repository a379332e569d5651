//! The answer budget: every successful tool answer fits in `maxChars` characters of text
//! (default [`DEFAULT`], settable per call within [`MIN`]..=[`MAX`]).
//!
//! The rule, for an answer whose text is over the cap:
//! - a list (the JSON is an array, or an object with exactly one array member, e.g.
//!   `{crop, spots: [...]}` or a page `{total, offset, limit, items}`) keeps the first items that
//!   fit, whole, and says how to get the rest: `more` in the JSON and a `more:` line in the text
//!   give the items shown, the total and the `cursor` to pass back (or, for a page, the `offset`),
//!   and the arguments that narrow the question;
//! - anything else (or a list whose first item alone is over the cap) is replaced by a notice,
//!   not an error: the answer was N characters, M over the cap; narrow it with these arguments or
//!   ask for a larger `maxChars`. The JSON is `{overBudget: {...}}` with the same facts.
//!
//! Tool errors are never cut, nor the answers of writes (short, and not to be asked again):
//! writes take no `maxChars`. `cursor` (items of the list to skip) is offered by the read tools
//! whose route has no `offset` of its own.

use crate::output;
use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::{Map, Value, json};

/// The default cap, in characters of the answer's text (about 2,000 tokens: docs/mcp.md,
/// "Answer budget").
pub const DEFAULT: usize = 8_000;
pub const MIN: usize = 500;
pub const MAX: usize = 50_000;

/// Reads whose answers are short by nature (a handful of rows or numbers): they take no budget
/// parameters, and their answers are never cut.
pub const SHORT_READS: &[&str] = &[
    "find_tree_clusters",
    "find_food_clusters",
    "get_time",
    "get_weather",
    "get_speed",
    "get_work_hours",
    "get_settlement",
    "get_agent_state",
];

/// The argument that sets the cap.
pub const MAX_CHARS: &str = "maxChars";
/// The argument that skips the first items of a list answer.
pub const CURSOR: &str = "cursor";

/// The budget parameters every tool takes: `maxChars`, and `cursor` where `cursor` is true.
pub fn add_params(schema: &mut Map<String, Value>, cursor: bool) {
    let Some(Value::Object(props)) = schema.get_mut("properties") else {
        return;
    };
    props.insert(
        MAX_CHARS.into(),
        // The range is said, not declared (cheaper in every session); a cap outside it is
        // refused by `take`.
        json!({
            "type": "integer",
            "description": format!("answer cap, {MIN}-{MAX} characters (default {DEFAULT})"),
        }),
    );
    if cursor {
        props.insert(
            CURSOR.into(),
            json!({
                "type": "integer",
                "minimum": 0,
                "description": "items to skip (a cut answer's more.cursor)",
            }),
        );
    }
}

/// One call's budget: the cap, the items to skip, the tool and what narrows its question.
#[derive(Clone, Debug)]
pub struct Budget {
    pub max: usize,
    pub cursor: usize,
    pub tool: String,
    /// The tool's optional arguments that narrow the answer (a box, filters, `limit`).
    pub narrow: Vec<String>,
}

fn int_arg(name: &str, v: Value) -> Result<usize, String> {
    let n = match &v {
        Value::String(s) => s.trim().parse::<i64>().ok(),
        other => other.as_i64(),
    };
    n.and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| format!("{name}: expected a whole number; got {v}"))
}

/// Takes `maxChars` and `cursor` out of a call's arguments; refuses a cap outside
/// [`MIN`]..=[`MAX`], naming the range. `None`: the tool takes no budget (its schema has no
/// `maxChars`: a write, or a read whose answer is short), and its answer is not cut.
pub fn take(
    tool: &str,
    schema: &Map<String, Value>,
    args: &mut Map<String, Value>,
) -> Result<Option<Budget>, String> {
    let has = |param: &str| {
        schema
            .get("properties")
            .and_then(|p| p.get(param))
            .is_some()
    };
    let budgeted = has(MAX_CHARS);
    let max = match args.remove(MAX_CHARS) {
        None | Some(Value::Null) => DEFAULT,
        Some(_) if !budgeted => {
            return Err(format!(
                "unknown parameter \"{MAX_CHARS}\"; {tool}'s answer is short and never cut"
            ));
        }
        Some(v) => {
            let got = v.clone();
            match int_arg(MAX_CHARS, v) {
                Ok(n) if (MIN..=MAX).contains(&n) => n,
                _ => {
                    return Err(format!(
                        "{MAX_CHARS} must be {MIN} to {MAX} characters; got {got}"
                    ));
                }
            }
        }
    };
    let cursor = match args.remove(CURSOR) {
        None | Some(Value::Null) => 0,
        Some(_) if !has(CURSOR) => {
            return Err(format!(
                "unknown parameter \"{CURSOR}\"; {tool} pages with its own offset or has no list"
            ));
        }
        Some(v) => int_arg(CURSOR, v)?,
    };
    Ok(budgeted.then(|| Budget {
        max,
        cursor,
        tool: tool.to_owned(),
        narrow: narrowing(schema),
    }))
}

/// The optional arguments of a schema that narrow an answer.
fn narrowing(schema: &Map<String, Value>) -> Vec<String> {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| {
            p.keys()
                .filter(|k| {
                    ![MAX_CHARS, CURSOR, "offset"].contains(&k.as_str())
                        && (!required.contains(&k.as_str())
                            || ["x1", "y1", "x2", "y2"].contains(&k.as_str()))
                })
                .cloned()
                .collect()
        })
        .unwrap_or_default()
}

fn chars(s: &str) -> usize {
    s.chars().count()
}

fn text_of(r: &CallToolResult) -> String {
    r.content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.as_str()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Where the list of an answer is: the value itself, or its one array member.
enum ListAt {
    Whole,
    Member(String),
}

fn list_at(v: &Value) -> Option<ListAt> {
    match v {
        Value::Array(_) => Some(ListAt::Whole),
        Value::Object(m) => {
            let mut arrays = m.iter().filter(|(_, x)| x.is_array());
            let (k, _) = arrays.next()?;
            arrays.next().is_none().then(|| ListAt::Member(k.clone()))
        }
        _ => None,
    }
}

fn list_len(v: &Value, at: &ListAt) -> usize {
    match at {
        ListAt::Whole => v.as_array().map_or(0, Vec::len),
        ListAt::Member(k) => v[k.as_str()].as_array().map_or(0, Vec::len),
    }
}

/// The value with its list cut to items `from..to`.
fn cut(v: &Value, at: &ListAt, from: usize, to: usize) -> Value {
    let slice = |a: &Vec<Value>| Value::Array(a[from.min(a.len())..to.min(a.len())].to_vec());
    match at {
        ListAt::Whole => slice(v.as_array().unwrap()),
        ListAt::Member(k) => {
            let mut out = v.clone();
            out[k.as_str()] = slice(v[k.as_str()].as_array().unwrap());
            out
        }
    }
}

/// The text of the arguments that narrow the question, and the way to a larger cap.
fn narrow_hint(b: &Budget) -> String {
    let mut ways = Vec::new();
    if b.narrow.iter().any(|n| n == "x1") {
        ways.push("a smaller box (x1, y1, x2, y2)".to_owned());
    }
    let others: Vec<&str> = b
        .narrow
        .iter()
        .map(String::as_str)
        .filter(|n| !["x1", "y1", "x2", "y2"].contains(n))
        .collect();
    if !others.is_empty() {
        ways.push(format!("filters: {}", others.join(", ")));
    }
    ways.push(format!("a larger {MAX_CHARS} (up to {MAX})"));
    ways.join("; ")
}

/// Fits a successful result in the budget. `flat` is the value its text was rendered from
/// (the CLI's compact rows) when that is not the JSON itself; errors pass unchanged.
pub fn fit(result: CallToolResult, flat: Option<&Value>, b: &Budget) -> CallToolResult {
    if result.is_error == Some(true) {
        return result;
    }
    let size = chars(&text_of(&result));
    if b.cursor == 0 && size <= b.max {
        return result;
    }
    // The JSON as the tool made it: `as_object` puts a bare list under `items`.
    let Some((structured, at)) = result
        .structured_content
        .as_ref()
        .and_then(|s| Some((s.clone(), list_at(s)?)))
    else {
        return over_notice(result, size, b);
    };
    // The text's own value: the flat rows when their list matches the JSON's, else the JSON.
    let flat_at = flat.and_then(|f| {
        let fa = list_at(f)?;
        (list_len(f, &fa) == list_len(&structured, &at)).then_some((f, fa))
    });
    let total = list_len(&structured, &at);
    let from = b.cursor.min(total);
    let render = |to: usize| -> (String, Value) {
        let more = more_of(b, &structured, from, to, total);
        let body = match &flat_at {
            Some((f, fa)) => output::toon(&cut(f, fa, from, to)),
            None => output::toon(&cut(&structured, &at, from, to)),
        };
        let text = match &more {
            Some(m) => format!("{body}\n{}", more_line(m)),
            None => body,
        };
        (text, more.unwrap_or(Value::Null))
    };
    let len_of = |to: usize| chars(&render(to).0);
    if len_of(total) <= b.max {
        return finish(&structured, &at, from, total, render(total));
    }
    // The most items that fit: the text grows with the items.
    let (mut lo, mut hi) = (from, total);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if len_of(mid) <= b.max {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    if lo == from {
        return over_notice(result, size, b);
    }
    finish(&structured, &at, from, lo, render(lo))
}

fn finish(
    structured: &Value,
    at: &ListAt,
    from: usize,
    to: usize,
    (text, more): (String, Value),
) -> CallToolResult {
    let mut s = cut(structured, at, from, to);
    if !more.is_null() {
        s["more"] = more;
    }
    let mut r = CallToolResult::success(vec![ContentBlock::text(text)]);
    r.structured_content = Some(s);
    r
}

/// `more` of a cut list: items shown, the total, and how to get the rest (`cursor`, or the
/// page's own `offset`). `None` when the whole list is shown from its start.
fn more_of(b: &Budget, v: &Value, from: usize, to: usize, total: usize) -> Option<Value> {
    if from == 0 && to == total {
        return None;
    }
    let mut m = Map::new();
    m.insert("shown".into(), json!(format!("{}-{to}", from + 1)));
    m.insert("total".into(), json!(total));
    m.insert("maxChars".into(), json!(b.max));
    if to < total {
        // A page of the service: its `offset` (and `total` of all rows) go on from here.
        if let (Some(offset), Some(all)) = (v["offset"].as_u64(), v["total"].as_u64()) {
            let next = offset as usize + to;
            m.insert("total".into(), json!(all));
            m.insert("offset".into(), json!(next));
            m.insert(
                "next".into(),
                json!(format!("{} with offset={next}", b.tool)),
            );
        } else {
            m.insert("cursor".into(), json!(to));
            m.insert(
                "next".into(),
                json!(format!(
                    "{} with the same arguments and cursor={to}",
                    b.tool
                )),
            );
        }
        m.insert("narrow".into(), json!(narrow_hint(b)));
    }
    Some(Value::Object(m))
}

fn more_line(m: &Value) -> String {
    let mut line = format!(
        "more: items {} of {} shown (answer capped at {} characters)",
        m["shown"].as_str().unwrap_or(""),
        m["total"],
        m["maxChars"]
    );
    if let Some(next) = m["next"].as_str() {
        line.push_str(&format!(
            "; the rest: {next}; or narrow: {}",
            m["narrow"].as_str().unwrap_or("")
        ));
    }
    line
}

/// The notice that replaces an answer over the cap that cannot be cut.
fn over_notice(result: CallToolResult, size: usize, b: &Budget) -> CallToolResult {
    if size <= b.max {
        return result;
    }
    let over = size - b.max;
    let hint = narrow_hint(b);
    let text = format!(
        "over_budget: {}'s answer is {size} characters, {over} over the cap of {} ({MAX_CHARS}); \
         nothing of it is shown. Ask again narrower: {hint}",
        b.tool, b.max
    );
    let mut r = CallToolResult::success(vec![ContentBlock::text(text)]);
    r.structured_content = Some(json!({"overBudget": {
        "tool": b.tool,
        "chars": size,
        "maxChars": b.max,
        "over": over,
        "narrow": b.narrow,
        "hint": hint,
    }}));
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::answer;

    fn budget(max: usize, cursor: usize, narrow: &[&str]) -> Budget {
        Budget {
            max,
            cursor,
            tool: "t".into(),
            narrow: narrow.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn text(r: &CallToolResult) -> String {
        text_of(r)
    }

    #[test]
    fn small_answers_pass_unchanged() {
        let r = answer::value(json!([1, 2, 3]));
        let out = fit(r.clone(), None, &budget(DEFAULT, 0, &[]));
        assert_eq!(text(&out), text(&r));
        assert_eq!(out.structured_content, r.structured_content);
    }

    #[test]
    fn lists_keep_what_fits_and_say_where_the_rest_is() {
        let spots: Vec<Value> = (0..2000).map(|i| json!({"x": i, "y": i, "z": 8})).collect();
        let v = json!({"crop": "Carrot", "spots": spots});
        let b = budget(DEFAULT, 0, &["x1", "y1", "x2", "y2", "z"]);
        let out = fit(answer::value(v.clone()), None, &b);
        let t = text(&out);
        assert!(chars(&t) <= DEFAULT, "{}", chars(&t));
        let s = out.structured_content.unwrap();
        let shown = s["spots"].as_array().unwrap().len();
        assert!(shown > 100 && shown < 2000, "{shown}");
        assert_eq!(s["crop"], "Carrot");
        assert_eq!(s["more"]["total"], 2000);
        assert_eq!(s["more"]["cursor"], shown);
        assert!(t.contains(&format!("cursor={shown}")), "{t}");
        assert!(t.contains("a smaller box (x1, y1, x2, y2)"), "{t}");
        // The rest, from the cursor.
        let next = fit(
            answer::value(v),
            None,
            &budget(DEFAULT, shown, &["x1", "y1", "x2", "y2"]),
        );
        let s2 = next.structured_content.unwrap();
        assert_eq!(s2["spots"][0]["x"], shown);
        // A larger cap shows more.
        let big = fit(
            answer::value(
                json!({"crop": "Carrot", "spots": (0..2000).map(|i| json!({"x": i, "y": i, "z": 8})).collect::<Vec<_>>()}),
            ),
            None,
            &budget(MAX, 0, &[]),
        );
        assert!(
            big.structured_content.unwrap()["spots"]
                .as_array()
                .unwrap()
                .len()
                > shown
        );
    }

    #[test]
    fn pages_point_at_their_own_offset() {
        let items: Vec<Value> = (0..500)
            .map(|i| json!({"id": i, "text": "a notification"}))
            .collect();
        let v = json!({"total": 900, "offset": 100, "limit": 500, "items": items});
        let out = fit(answer::value(v), None, &budget(MIN * 2, 0, &["limit"]));
        let s = out.structured_content.clone().unwrap();
        let shown = s["items"].as_array().unwrap().len();
        assert_eq!(s["more"]["offset"], 100 + shown);
        assert_eq!(s["more"]["total"], 900);
        assert!(chars(&text(&out)) <= MIN * 2);
    }

    #[test]
    fn other_answers_become_a_notice_with_the_narrowing_arguments() {
        let v = json!({"grid": "x".repeat(9000), "legend": "y"});
        let out = fit(
            answer::value(v),
            None,
            &budget(DEFAULT, 0, &["x1", "y1", "x2", "y2"]),
        );
        assert_eq!(out.is_error, Some(false));
        let t = text(&out);
        assert!(t.starts_with("over_budget: t's answer is"), "{t}");
        assert!(t.contains("over the cap of 8000"), "{t}");
        assert!(t.contains("a smaller box"), "{t}");
        let s = out.structured_content.unwrap();
        assert_eq!(s["overBudget"]["maxChars"], DEFAULT);
        assert!(s["overBudget"]["over"].as_u64().unwrap() > 1000);
    }

    #[test]
    fn errors_are_never_cut() {
        let r = answer::error("invalid_param", "x".repeat(20_000));
        let out = fit(r, None, &budget(MIN, 0, &[]));
        assert_eq!(out.is_error, Some(true));
        assert!(chars(&text(&out)) > MIN);
    }

    #[test]
    fn max_chars_is_checked_and_taken_out() {
        let mut schema = crate::mcp::schema::object_schema(Map::new(), &[]);
        add_params(&mut schema, true);
        let mut args: Map<String, Value> =
            serde_json::from_value(json!({"maxChars": "20000", "cursor": 5})).unwrap();
        let b = take("t", &schema, &mut args).unwrap().unwrap();
        assert_eq!((b.max, b.cursor), (20_000, 5));
        assert!(args.is_empty());
        for bad in [json!(100), json!(60_000), json!("lots")] {
            let mut args: Map<String, Value> =
                serde_json::from_value(json!({ "maxChars": bad })).unwrap();
            let e = take("t", &schema, &mut args).unwrap_err();
            assert!(
                e.contains("maxChars must be 500 to 50000 characters"),
                "{e}"
            );
        }
    }
}
