//! JSON without the whitespace between its tokens (used by `build.rs`; tested in
//! `tests/library.rs`).

/// `json` without whitespace outside strings (the same JSON value, token for token).
pub fn compact(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in json.chars() {
        if in_string {
            let was_escaped = escaped;
            escaped = !was_escaped && c == '\\';
            in_string = was_escaped || c != '"';
        } else if c.is_ascii_whitespace() {
            continue;
        } else {
            in_string = c == '"';
        }
        out.push(c);
    }
    out
}
