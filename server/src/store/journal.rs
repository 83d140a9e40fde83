//! The journal: what the engine was told, in order, in numbered segment files
//! (`journal-000000000007.log`). Each segment starts with the data directory's [`Header`]; then
//! records, each `length (u32 LE) | CRC-32 of the payload (u32 LE) | payload`. A payload is one
//! [`Entry`]: a kind byte, the virtual time (u64 LE), and for a call its caller and the request
//! in the engine's JSON (`{"call": "SendMessage", "input": {...}}`), with a `namespace` member
//! (`{"account": ..., "region": ...}`) when the call was made outside the engine's default one.
//!
//! A crash in the middle of a write leaves a torn last record: a length running past the end of
//! the file, or a checksum that does not match. [`read_segment`] stops there and says how many
//! bytes it dropped; the store cuts them off before appending again.

use super::{Header, StoreError};
use crate::journal::Caller;
use serde_json::Value;
use sqs_engine::api::{split_tagged, ToJson};
use sqs_engine::{Millis, Namespace, Request};
use std::path::{Path, PathBuf};

/// One thing the engine was told.
#[derive(Clone, Debug, PartialEq)]
pub enum Entry {
    /// A call the engine accepted, at its virtual time, by its caller, in its account and
    /// region.
    Call {
        at: Millis,
        by: Caller,
        namespace: Namespace,
        request: Box<Request>,
    },
    /// Virtual time reached `at` (long polls answered by time passing, the clock moved by hand,
    /// or time passing while nothing was called): a replay advances the engine to it.
    Tick { at: Millis },
    /// The server started again on this directory at `at`: the long polls that waited had no
    /// client any more and were ended (`Engine::end_polls`).
    Restart { at: Millis },
}

const CALL_BY_PAGE: u8 = 1;
const CALL_BY_CLIENT: u8 = 2;
const TICK: u8 = 3;
const RESTART: u8 = 4;

/// Bytes before a record's payload: its length and its checksum.
const FRAME: usize = 8;

/// The largest payload a record may have: more than any request SQS accepts (a 1 MiB message
/// in a batch, as JSON), so a larger length is damage, not data.
const MAX_PAYLOAD: usize = 64 << 20;

impl Entry {
    /// Its virtual time.
    pub fn at(&self) -> Millis {
        match self {
            Entry::Call { at, .. } | Entry::Tick { at } | Entry::Restart { at } => *at,
        }
    }

    /// Appends the record (frame and payload) to `out`.
    pub fn encode(&self, out: &mut Vec<u8>) {
        match self {
            Entry::Call {
                at,
                by,
                namespace,
                request,
            } => encode_call(out, *at, by, namespace, request),
            Entry::Tick { at } => frame(out, TICK, *at, |_| {}),
            Entry::Restart { at } => frame(out, RESTART, *at, |_| {}),
        }
    }

    /// Reads a payload whose checksum matched.
    fn decode(payload: &[u8]) -> Result<Entry, String> {
        let (&kind, rest) = payload.split_first().ok_or("an empty record")?;
        let (at, rest) = rest.split_at_checked(8).ok_or("a record with no time")?;
        let at = Millis::from_le_bytes(at.try_into().expect("8 bytes"));
        let call = |json: &[u8]| {
            let mut value: Value = serde_json::from_slice(json)
                .map_err(|e| format!("a request that does not read: {e}"))?;
            let namespace = match value.as_object_mut().and_then(|m| m.remove("namespace")) {
                Some(namespace) => serde_json::from_value(namespace)
                    .map_err(|e| format!("a namespace that does not read: {e}"))?,
                None => Namespace::DEFAULT,
            };
            let request = split_tagged(value, "call")
                .and_then(|(action, input)| Request::from_input(&action, input))
                .map_err(|e| format!("a request that does not read: {e}"))?;
            Ok::<_, String>((namespace, request))
        };
        Ok(match kind {
            CALL_BY_PAGE => {
                let (namespace, request) = call(rest)?;
                Entry::Call {
                    at,
                    by: Caller::Page,
                    namespace,
                    request: Box::new(request),
                }
            }
            CALL_BY_CLIENT => {
                let (length, rest) = rest.split_at_checked(2).ok_or("a caller's length")?;
                let length = u16::from_le_bytes(length.try_into().expect("2 bytes")) as usize;
                let (name, json) = rest.split_at_checked(length).ok_or("a caller's name")?;
                let (namespace, request) = call(json)?;
                Entry::Call {
                    at,
                    by: Caller::Client(String::from_utf8_lossy(name).into_owned()),
                    namespace,
                    request: Box::new(request),
                }
            }
            TICK => Entry::Tick { at },
            RESTART => Entry::Restart { at },
            other => return Err(format!("a record of unknown kind {other}")),
        })
    }
}

/// Appends the record of a call to `out` (an [`Entry::Call`], without owning its request).
pub fn encode_call(
    out: &mut Vec<u8>,
    at: Millis,
    by: &Caller,
    namespace: &Namespace,
    request: &Request,
) {
    let kind = match by {
        Caller::Page => CALL_BY_PAGE,
        Caller::Client(_) => CALL_BY_CLIENT,
    };
    frame(out, kind, at, |out| {
        if let Caller::Client(name) = by {
            let name = &name.as_bytes()[..name.len().min(u16::MAX as usize)];
            out.extend_from_slice(&(name.len() as u16).to_le_bytes());
            out.extend_from_slice(name);
        }
        let mut json = request.to_json();
        if let (Value::Object(members), false) = (&mut json, *namespace == Namespace::DEFAULT) {
            let namespace = serde_json::to_value(namespace).expect("a namespace is JSON");
            members.insert("namespace".into(), namespace);
        }
        serde_json::to_writer(&mut *out, &json).expect("JSON writes to memory");
    });
}

/// Appends a record of `kind` at `at` to `out`, its payload's rest written by `rest`.
fn frame(out: &mut Vec<u8>, kind: u8, at: Millis, rest: impl FnOnce(&mut Vec<u8>)) {
    let start = out.len();
    out.extend_from_slice(&[0; FRAME]);
    out.push(kind);
    out.extend_from_slice(&at.to_le_bytes());
    rest(out);
    let payload = &out[start + FRAME..];
    let length = u32::try_from(payload.len()).expect("a record is under 4 GiB");
    let crc = crc32fast::hash(payload);
    out[start..start + 4].copy_from_slice(&length.to_le_bytes());
    out[start + 4..start + FRAME].copy_from_slice(&crc.to_le_bytes());
}

/// The path of segment `number` in `dir`.
pub fn segment_path(dir: &Path, number: u64) -> PathBuf {
    dir.join(format!("journal-{number:012}.log"))
}

/// A segment's records, and where its valid part ends.
pub struct Segment {
    pub entries: Vec<Entry>,
    /// Bytes of the file up to the end of its last whole record.
    pub valid_len: u64,
    /// Bytes after that: a torn last record (0 when the file ends cleanly).
    pub torn: u64,
}

/// Reads segment file `path`: its header (checked) and its records up to the first that is
/// incomplete or does not match its checksum.
pub fn read_segment(path: &Path) -> Result<Segment, StoreError> {
    let bytes = std::fs::read(path).map_err(|e| StoreError::io(path, e))?;
    Header::check(path, &bytes)?;
    let mut at = Header::LEN;
    let mut entries = Vec::new();
    while let Some(frame) = bytes.get(at..at + FRAME) {
        let length = u32::from_le_bytes(frame[..4].try_into().expect("4 bytes")) as usize;
        let crc = u32::from_le_bytes(frame[4..].try_into().expect("4 bytes"));
        let Some(payload) = bytes.get(at + FRAME..at + FRAME + length) else {
            break;
        };
        if length > MAX_PAYLOAD || crc32fast::hash(payload) != crc {
            break;
        }
        let entry = Entry::decode(payload).map_err(|e| StoreError::Damaged {
            path: path.into(),
            problem: format!("the record at byte {at} holds {e}"),
        })?;
        entries.push(entry);
        at += FRAME + length;
    }
    Ok(Segment {
        entries,
        valid_len: at as u64,
        torn: (bytes.len() - at) as u64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqs_engine::api::SendMessageInput;

    fn send(body: &str) -> Request {
        Request::SendMessage(SendMessageInput {
            queue_url: "http://localhost/000000000000/q".into(),
            message_body: body.into(),
            ..Default::default()
        })
    }

    #[test]
    fn entries_read_back_as_written() {
        let entries = [
            Entry::Call {
                at: 5,
                by: Caller::Page,
                namespace: Namespace::DEFAULT,
                request: Box::new(send("one")),
            },
            Entry::Call {
                at: 7,
                by: Caller::Client("AKIDEXAMPLE".into()),
                namespace: Namespace::new("123456789012", "eu-west-1"),
                request: Box::new(send("two")),
            },
            Entry::Tick { at: 9 },
            Entry::Restart { at: 11 },
        ];
        for entry in entries {
            let mut out = Vec::new();
            entry.encode(&mut out);
            assert_eq!(Entry::decode(&out[FRAME..]), Ok(entry));
        }
    }
}
