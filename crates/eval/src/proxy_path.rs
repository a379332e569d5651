//! What the recording proxy decides on: a request's method and path normalised once (the method
//! in capitals; the path's percent-escapes decoded once, `.` and `..` segments resolved, empty
//! segments dropped), so the refusal list is checked against exactly the path that is forwarded.
//! A path that cannot be normalised (a bad escape, a second layer of escapes, bytes that are not
//! UTF-8, control characters or backslashes, `..` above the root) is refused, never guessed at.

use axum::http::{Method, Uri};
use percent_encoding::{AsciiSet, CONTROLS, percent_decode_str, utf8_percent_encode};

/// Characters escaped again when the decided path is forwarded: everything that may not stand
/// in a path segment as it is (`?` and `#` would end the path; `%` would start an escape).
const ESCAPED: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'`')
    .add(b'{')
    .add(b'}')
    .add(b'|')
    .add(b'^')
    .add(b'[')
    .add(b']');

/// A request as the proxy decided on it.
#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    pub method: Method,
    /// The normalised path, decoded (`/api/game/advance`).
    pub path: String,
    /// The query as sent, without the `?`.
    pub query: Option<String>,
}

impl Target {
    /// The path and query as forwarded upstream: the decided path with the characters that
    /// need it escaped again, then the query unchanged.
    pub fn forwarded(&self) -> String {
        let mut out = utf8_percent_encode(&self.path, ESCAPED).to_string();
        if let Some(q) = &self.query {
            out.push('?');
            out.push_str(q);
        }
        out
    }
}

/// Normalises a request's method and path, or says why it cannot.
pub fn normalise(method: &Method, uri: &Uri) -> Result<Target, String> {
    let upper = method.as_str().to_ascii_uppercase();
    let method = Method::from_bytes(upper.as_bytes())
        .map_err(|_| format!("the method {upper:?} is not a valid HTTP method"))?;
    let raw = uri.path();
    check_escapes(raw)?;
    let decoded = percent_decode_str(raw)
        .decode_utf8()
        .map_err(|_| format!("the path {raw:?} does not decode to UTF-8"))?;
    if decoded.contains('%') {
        return Err(format!(
            "the path {raw:?} is escaped twice (a '%' remains after decoding)"
        ));
    }
    if let Some(c) = decoded.chars().find(|c| c.is_control() || *c == '\\') {
        return Err(format!(
            "the path {raw:?} holds the character {c:?}, which no route has"
        ));
    }
    let mut segments: Vec<&str> = Vec::new();
    for seg in decoded.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                if segments.pop().is_none() {
                    return Err(format!("the path {raw:?} climbs above the root with '..'"));
                }
            }
            s => segments.push(s),
        }
    }
    Ok(Target {
        method,
        path: format!("/{}", segments.join("/")),
        query: uri.query().map(str::to_owned),
    })
}

/// Every `%` starts an escape of two hexadecimal digits.
fn check_escapes(raw: &str) -> Result<(), String> {
    let b = raw.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let ok =
                b.len() > i + 2 && b[i + 1].is_ascii_hexdigit() && b[i + 2].is_ascii_hexdigit();
            if !ok {
                return Err(format!(
                    "the path {raw:?} has a '%' not followed by two hexadecimal digits"
                ));
            }
            i += 3;
        } else {
            i += 1;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(method: &str, uri: &str) -> Result<(String, String), String> {
        let m = Method::from_bytes(method.as_bytes()).unwrap();
        let t = normalise(&m, &uri.parse::<Uri>().unwrap())?;
        Ok((t.method.to_string(), t.forwarded()))
    }

    #[test]
    fn dot_segments_escapes_slashes_and_method_case_resolve_to_one_path() {
        let advance = Ok(("POST".to_owned(), "/api/game/advance".to_owned()));
        for uri in [
            "/api/game/advance",
            "/api/game/./advance",
            "/api/x/../game/advance",
            "/api/game/%2e/advance",
            "/api/game/%2E%2E/game/advance",
            "//api///game/advance/",
            "/api/game%2fadvance",
            "/api/game/%61dvance",
        ] {
            assert_eq!(norm("POST", uri), advance, "{uri}");
        }
        assert_eq!(norm("post", "/api/game/advance"), advance);
        assert_eq!(
            norm("GET", "/api/x/../settings?format=json"),
            Ok(("GET".into(), "/api/settings?format=json".into()))
        );
    }

    #[test]
    fn what_cannot_be_normalised_is_refused() {
        for uri in [
            "/api/game/%2/advance",
            "/api/game/%zz",
            "/api/game/%252e/advance",
            "/api/%ff",
            "/api/game/%00",
            "/api/game%5cadvance",
            "/../api/time",
            "/api/../../time",
        ] {
            assert!(norm("GET", uri).is_err(), "{uri} should be refused");
        }
    }

    #[test]
    fn characters_that_end_a_path_are_escaped_again_when_forwarded() {
        assert_eq!(
            norm("GET", "/api/a%3Fb%23c%20d").unwrap().1,
            "/api/a%3Fb%23c%20d"
        );
    }
}
