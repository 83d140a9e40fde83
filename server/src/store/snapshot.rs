//! Snapshot files (`snapshot-000000000007.snap`): the engine's whole state (serde, as JSON) and
//! the seed of the run, taken when journal segment 7 began, so a restart reads it and replays
//! segments 7, 8, ... only. The file is the data directory's [`Header`], then the payload's
//! length (u64 LE) and CRC-32 (u32 LE), then the payload. It is written to a `.tmp` file, synced
//! and renamed, so a crash leaves the previous snapshot as it was.

use super::{Header, StoreError};
use serde::{Deserialize, Serialize};
use sqs_engine::Engine;
use std::io::Write;
use std::path::{Path, PathBuf};

/// What a snapshot holds.
#[derive(Serialize, Deserialize)]
pub struct Snapshot {
    /// The seed the run's engine started from (the live view's World starts from it).
    pub seed: u64,
    pub engine: Engine,
}

/// The path of the snapshot taken when segment `number` began.
pub fn snapshot_path(dir: &Path, number: u64) -> PathBuf {
    dir.join(format!("snapshot-{number:012}.snap"))
}

/// The file's bytes for `snapshot`.
pub fn encode(snapshot: &Snapshot) -> Vec<u8> {
    let payload = serde_json::to_vec(snapshot).expect("an engine serialises");
    let mut out = Header::bytes().to_vec();
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
    out.extend_from_slice(&payload);
    out
}

/// Writes `bytes` (from [`encode`]) as the snapshot of segment `number`: to a temporary file,
/// synced, then renamed over.
pub fn write(dir: &Path, number: u64, bytes: &[u8]) -> Result<(), StoreError> {
    let path = snapshot_path(dir, number);
    let tmp = path.with_extension("tmp");
    let mut file = std::fs::File::create(&tmp).map_err(|e| StoreError::io(&tmp, e))?;
    file.write_all(bytes)
        .and_then(|()| file.sync_all())
        .map_err(|e| StoreError::io(&tmp, e))?;
    std::fs::rename(&tmp, &path).map_err(|e| StoreError::io(&path, e))?;
    super::sync_dir(dir)
}

/// Reads and checks snapshot file `path`: another version's header is
/// [`StoreError::Incompatible`]; a wrong length or checksum, or a payload that does not read,
/// is [`StoreError::Damaged`].
pub fn read(path: &Path) -> Result<Snapshot, StoreError> {
    let bytes = std::fs::read(path).map_err(|e| StoreError::io(path, e))?;
    Header::check(path, &bytes)?;
    let damaged = |problem: String| StoreError::Damaged {
        path: path.into(),
        problem,
    };
    let rest = &bytes[Header::LEN..];
    let (frame, payload) = rest
        .split_at_checked(12)
        .ok_or_else(|| damaged("it ends before its length".into()))?;
    let length = u64::from_le_bytes(frame[..8].try_into().expect("8 bytes"));
    let crc = u32::from_le_bytes(frame[8..].try_into().expect("4 bytes"));
    if payload.len() as u64 != length {
        return Err(damaged(format!(
            "it holds {} bytes of state where its header says {length}",
            payload.len()
        )));
    }
    if crc32fast::hash(payload) != crc {
        return Err(damaged("its checksum does not match".into()));
    }
    serde_json::from_slice(payload).map_err(|e| damaged(format!("its state does not read: {e}")))
}
