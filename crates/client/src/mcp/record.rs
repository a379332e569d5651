//! `colony mcp --record FILE`: one JSON line per tools/call appended to FILE (`tool`,
//! `arguments` as sent, `isError`, `chars` of the answer's text, `ms`), which `colony eval`
//! reads into each turn's trajectory as `toolCalls`. Each line is one write to a file opened
//! for appending, so several servers (and the harness reading between turns) share the file.

use rmcp::model::CallToolResult;
use serde_json::{Map, Value, json};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

/// The most characters of an arguments object kept as sent; a longer one is recorded as
/// `{"truncated": true, "chars": N, "json": "<its first characters>"}`.
pub const MAX_ARGS_CHARS: usize = 4096;

/// Where the calls go (`--record`).
pub struct Recorder {
    path: PathBuf,
    lock: Mutex<()>,
}

impl Recorder {
    pub fn new(path: PathBuf) -> Recorder {
        Recorder {
            path,
            lock: Mutex::new(()),
        }
    }

    /// Appends one call; a file that cannot be written is skipped (the call itself stands).
    pub fn call(
        &self,
        tool: &str,
        args: &Map<String, Value>,
        result: Option<&CallToolResult>,
        start: Instant,
    ) {
        let line = line(tool, args, result, start.elapsed().as_secs_f64() * 1000.0);
        let _held = self.lock.lock();
        if let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
        {
            let _ = f.write_all(format!("{line}\n").as_bytes());
        }
    }
}

/// The characters of an answer's text blocks (0 for an unknown tool, answered by a protocol error).
pub fn chars(result: Option<&CallToolResult>) -> usize {
    result.map_or(0, |r| {
        r.content
            .iter()
            .filter_map(|c| c.as_text())
            .map(|t| t.text.chars().count())
            .sum()
    })
}

/// The arguments as sent, or a truncated form past [`MAX_ARGS_CHARS`].
pub fn arguments(args: &Map<String, Value>) -> Value {
    let text = serde_json::to_string(args).unwrap_or_default();
    let n = text.chars().count();
    if n <= MAX_ARGS_CHARS {
        return Value::Object(args.clone());
    }
    let head: String = text.chars().take(MAX_ARGS_CHARS).collect();
    json!({"truncated": true, "chars": n, "json": head})
}

fn line(tool: &str, args: &Map<String, Value>, result: Option<&CallToolResult>, ms: f64) -> Value {
    json!({
        "tool": tool,
        "arguments": arguments(args),
        "isError": result.is_none_or(|r| r.is_error == Some(true)),
        "chars": chars(result),
        "ms": (ms * 10.0).round() / 10.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::ContentBlock;

    #[test]
    fn a_call_is_one_line_with_its_arguments_size_and_error_flag() {
        let args: Map<String, Value> = serde_json::from_str(r#"{"days":1}"#).unwrap();
        let ok = CallToolResult::success(vec![ContentBlock::text("héllo")]);
        let l = line("advance", &args, Some(&ok), 1.234);
        assert_eq!(
            l,
            json!({"tool": "advance", "arguments": {"days": 1}, "isError": false, "chars": 5, "ms": 1.2})
        );
        let err = CallToolResult::error(vec![ContentBlock::text("no")]);
        assert_eq!(line("x", &args, Some(&err), 0.0)["isError"], true);
        assert_eq!(line("nope", &args, None, 0.0)["isError"], true);
    }

    #[test]
    fn long_arguments_are_cut_with_a_marker() {
        let mut args = Map::new();
        args.insert("message".into(), Value::String("a".repeat(10_000)));
        let a = arguments(&args);
        assert_eq!(a["truncated"], true);
        assert_eq!(a["chars"], 10_000 + 14);
        assert_eq!(a["json"].as_str().unwrap().chars().count(), MAX_ARGS_CHARS);
    }

    #[test]
    fn calls_append_to_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let r = Recorder::new(dir.path().join("calls.jsonl"));
        let ok = CallToolResult::success(vec![ContentBlock::text("x")]);
        r.call("a", &Map::new(), Some(&ok), Instant::now());
        r.call("b", &Map::new(), None, Instant::now());
        let text = std::fs::read_to_string(dir.path().join("calls.jsonl")).unwrap();
        let tools: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap()["tool"].clone())
            .collect();
        assert_eq!(tools, [json!("a"), json!("b")]);
    }
}
