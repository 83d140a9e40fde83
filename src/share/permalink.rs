//! Permalinks: the whole session — scenario, command log, playhead, speed — in the URL fragment,
//! so a link copied at any moment reopens that exact moment anywhere (deterministic replay does
//! the rest).
//!
//! Format: `s=<version>.<base64url(raw DEFLATE(JSON of Session))>`. The version is the first
//! thing read, so a link made by a newer format is refused by name instead of misread; a format
//! that only grows (new optional fields) keeps its number.

use super::session::Session;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::{DecodeError, Engine as _};
use sqs_engine::api::ToJson;

/// The format this build writes. Readers accept every version up to it.
pub const FORMAT: u32 = 1;

/// The fragment key holding the session.
pub const KEY: &str = "s";

/// Limits that keep a hostile link from freezing the page.
const MAX_ENCODED: usize = 2 * 1024 * 1024;
const MAX_DECODED: usize = 8 * 1024 * 1024;

/// Encodes a session as the value of the `s=` fragment key.
pub async fn encode(session: &Session) -> Result<String, String> {
    let packed = super::browser::deflate_raw(session_json(session).as_bytes()).await?;
    Ok(packed_value(&packed))
}

/// The JSON a link carries, written through a `serde_json::Value`: its keys come out sorted, as in
/// scenario files.
pub fn session_json(session: &Session) -> String {
    session.to_json().to_string()
}

/// The `s=` value holding `packed`, the raw DEFLATE of a [`session_json`].
pub fn packed_value(packed: &[u8]) -> String {
    format!("{FORMAT}.{}", URL_SAFE_NO_PAD.encode(packed))
}

/// Decodes the value of the `s=` fragment key. Every error says what is wrong with the link.
pub fn decode(value: &str) -> Result<Session, String> {
    if value.len() > MAX_ENCODED {
        return Err(format!(
            "The link is too long ({} characters; at most {MAX_ENCODED}).",
            value.len()
        ));
    }
    let (version, data) = value
        .split_once('.')
        .ok_or("The link is damaged: it has no format version.")?;
    let version: u32 = version
        .parse()
        .map_err(|_| format!("The link is damaged: \"{version}\" is not a format version."))?;
    if version == 0 || version > FORMAT {
        return Err(format!(
            "This link was made by a newer SQS Playground (format {version}); this one reads formats up to {FORMAT}."
        ));
    }
    let packed = from_base64url(data).map_err(|e| format!("The link is damaged: {e}."))?;
    let json = super::inflate::inflate(&packed, MAX_DECODED)
        .ok_or("The link is truncated or damaged: its data does not decompress.")?;
    std::str::from_utf8(&json)
        .map_err(|e| e.to_string())
        .and_then(|text| serde_json::from_str(text).map_err(|e| e.to_string()))
        .and_then(Session::from_json)
        .map_err(|e| format!("The link does not hold a valid session: {e}."))
}

/// Decodes unpadded base64url (RFC 4648 §5); the error names the first offending character.
fn from_base64url(data: &str) -> Result<Vec<u8>, String> {
    let not_base64url =
        |at: usize, byte: u8| format!("character {} ('{}') is not base64url", at + 1, byte as char);
    URL_SAFE_NO_PAD.decode(data).map_err(|e| match e {
        DecodeError::InvalidByte(at, byte) => not_base64url(at, byte),
        // Only a trailing '=' is refused this way: links are written without padding.
        DecodeError::InvalidPadding => not_base64url(data.find('=').unwrap_or_default(), b'='),
        DecodeError::InvalidLength(_) => {
            "its length is not a whole number of bytes: it was cut short".into()
        }
        DecodeError::InvalidLastSymbol(at, byte) => format!(
            "character {} ('{}') cannot end base64url: it was cut short or changed",
            at + 1,
            byte as char
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::share::session::ScenarioSource;

    /// What [`encode`] makes in the browser, made natively.
    fn link(session: &Session) -> String {
        packed_value(&deflate(session_json(session).as_bytes()))
    }

    fn deflate(bytes: &[u8]) -> Vec<u8> {
        miniz_oxide::deflate::compress_to_vec(bytes, 9)
    }

    fn sample() -> Session {
        Session {
            scenario: ScenarioSource::Library("crash-before-delete".into()),
            actions: Vec::new(),
            playhead: 12_500,
            speed: 10.0,
            lesson: false,
        }
    }

    #[test]
    fn round_trips() {
        let s = sample();
        assert_eq!(decode(&link(&s)).unwrap(), s);
    }

    #[test]
    fn refuses_newer_formats_by_name() {
        let newer = link(&sample()).replacen("1.", "7.", 1);
        assert!(decode(&newer).unwrap_err().contains("format 7"));
    }

    #[test]
    fn refuses_truncated_and_tampered_links() {
        let good = link(&sample());
        let cut = &good[..good.len() / 2];
        assert!(decode(cut).is_err());
        assert!(decode(&good.replace('.', ""))
            .unwrap_err()
            .contains("no format version"));
        assert!(decode("1.@@@").unwrap_err().contains("not base64url"));
        assert!(decode("1.Zm9v+").unwrap_err().contains("character 5 ('+')"));
        assert!(decode("1.Zm8=").unwrap_err().contains("character 4 ('=')"));
        assert!(decode("1.Zm9vY").unwrap_err().contains("cut short"));
        // "Zh" is "f" with a padding bit set: not a spelling this page writes.
        assert!(decode("1.Zh")
            .unwrap_err()
            .contains("character 2 ('h') cannot end"));
        let not_a_session = packed_value(&deflate(b"[1,2]"));
        assert!(decode(&not_a_session)
            .unwrap_err()
            .contains("valid session"));
    }

    #[test]
    fn refuses_deeply_nested_json_without_overflowing() {
        let nested = "[".repeat(100_000);
        assert!(decode(&packed_value(&deflate(nested.as_bytes()))).is_err());
    }
}
