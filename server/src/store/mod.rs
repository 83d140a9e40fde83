//! The data directory (`sqs-sim serve --data-dir DIR`): state that survives a restart.
//!
//! The engine is deterministic, so its state is a snapshot plus the calls made after it. The
//! directory holds:
//! * journal segments ([`journal`]): every call the engine accepted, with its virtual time and
//!   its caller, appended before the call is answered ([`commit`]: concurrent calls share one
//!   write and one sync);
//! * snapshots ([`snapshot`]): the engine's whole state, taken every [`SNAPSHOT_EVERY_RECORDS`]
//!   records or [`SNAPSHOT_EVERY`] (whichever comes first), each when a new segment begins. The
//!   latest two are kept, and the segments from the older of them on; older files are deleted.
//!
//! A start reads the latest snapshot that verifies (a damaged one falls back to the one before),
//! replays the segments from its own on (a torn last record, from a crash in the middle of a
//! write, is dropped and said so), ends the long polls that were waiting (their clients are
//! gone; a [`journal::Entry::Restart`] records it, so a later replay does the same) and carries
//! on at the virtual time where the journal stopped. Every file starts with a [`Header`]: a
//! directory written by an incompatible version is refused with a message, never misread.
//!
//! Hand-written framing (length + CRC-32 per record, `crc32fast` for the checksum): the layout is
//! a few lines, and no maintained crate offers an append-only log with group commit and the
//! engine's own snapshot points.

pub mod commit;
pub mod journal;
pub mod snapshot;

use crate::journal::Caller;
use commit::{Durable, Log, Writer};
use journal::{read_segment, segment_path, Entry};
use snapshot::{snapshot_path, Snapshot};
use sqs_engine::{Engine, Millis, Namespace, Reply, Request, SNAPSHOT_VERSION};
use std::fmt;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A snapshot is taken after this many records...
pub const SNAPSHOT_EVERY_RECORDS: u64 = 100_000;
/// ...or this long after the last one, if anything was recorded since.
pub const SNAPSHOT_EVERY: Duration = Duration::from_secs(300);

/// The version of the directory's layout (framing, entry kinds, file names).
pub const STORE_VERSION: u32 = 1;

/// When the journal is synced to the disk (`--fsync`). Every policy writes a call's record to
/// the operating system before the call is answered, so a killed server (`kill -9`, a panic)
/// loses nothing it answered; they differ when the machine itself stops (power loss, kernel
/// crash).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fsync {
    /// Synced before the answer (one `fdatasync` per group of concurrent calls): loses nothing
    /// answered, even on power loss.
    Always,
    /// Synced once a second (the default): a power loss loses at most the last second's
    /// answered calls.
    Second,
    /// Never synced by the server (the operating system writes back when it likes, within about
    /// 30 s on Linux): a power loss may lose the calls of that window.
    Never,
}

impl FromStr for Fsync {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "always" => Ok(Fsync::Always),
            "second" => Ok(Fsync::Second),
            "never" => Ok(Fsync::Never),
            _ => Err(format!(
                "--fsync must be always, second or never, not {text:?}"
            )),
        }
    }
}

impl fmt::Display for Fsync {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Fsync::Always => "always",
            Fsync::Second => "second",
            Fsync::Never => "never",
        })
    }
}

/// What goes wrong with a data directory.
#[derive(Debug)]
pub enum StoreError {
    /// A file could not be read or written.
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    /// A file of another format or version: the directory is refused.
    Incompatible { path: PathBuf, problem: String },
    /// A file whose content does not verify.
    Damaged { path: PathBuf, problem: String },
}

impl StoreError {
    fn io(path: &Path, error: std::io::Error) -> Self {
        StoreError::Io {
            path: path.into(),
            error,
        }
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            StoreError::Incompatible { path, problem } => write!(
                f,
                "{}: {problem}; this sqs-sim reads data directories of store format \
                 {STORE_VERSION} with engine state {SNAPSHOT_VERSION}. Start it with another \
                 --data-dir (or move this one away): it will not read this one",
                path.display()
            ),
            StoreError::Damaged { path, problem } => {
                write!(f, "{} is damaged: {problem}", path.display())
            }
        }
    }
}

impl std::error::Error for StoreError {}

/// The first bytes of every file: a magic text and the two versions it was written with.
pub struct Header;

impl Header {
    const MAGIC: &'static [u8; 8] = b"SQSSIM\x00\x01";
    /// Its length in bytes.
    pub const LEN: usize = 16;

    /// The header this build writes.
    pub fn bytes() -> [u8; Header::LEN] {
        let mut out = [0; Header::LEN];
        out[..8].copy_from_slice(Header::MAGIC);
        out[8..12].copy_from_slice(&STORE_VERSION.to_le_bytes());
        out[12..].copy_from_slice(&SNAPSHOT_VERSION.to_le_bytes());
        out
    }

    /// Checks that `bytes` (a file's content from its start) begin with this build's header.
    pub fn check(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
        let incompatible = |problem: String| StoreError::Incompatible {
            path: path.into(),
            problem,
        };
        // What there is of the magic text must match (a crash may have cut the header short).
        let magic = &bytes[..bytes.len().min(Header::MAGIC.len())];
        if !Header::MAGIC.starts_with(magic) {
            return Err(incompatible(
                "not a file of a sqs-sim data directory".into(),
            ));
        }
        if bytes.len() < Header::LEN {
            return Err(StoreError::Damaged {
                path: path.into(),
                problem: format!("it ends within its {}-byte header", Header::LEN),
            });
        }
        let version = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4"));
        let (store, engine) = (version(8), version(12));
        if (store, engine) != (STORE_VERSION, SNAPSHOT_VERSION) {
            return Err(incompatible(format!(
                "written with store format {store} and engine state {engine}"
            )));
        }
        Ok(())
    }
}

/// Creates segment `number` in `dir` with its header, synced, and returns it open for appending.
fn create_segment(dir: &Path, number: u64) -> Result<File, StoreError> {
    let path = segment_path(dir, number);
    let mut file = File::create(&path).map_err(|e| StoreError::io(&path, e))?;
    std::io::Write::write_all(&mut file, &Header::bytes())
        .and_then(|()| file.sync_all())
        .map_err(|e| StoreError::io(&path, e))?;
    sync_dir(dir)?;
    Ok(file)
}

/// Makes the directory's entries (a file created, renamed or removed) durable.
fn sync_dir(dir: &Path) -> Result<(), StoreError> {
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(|e| StoreError::io(dir, e))
}

/// The numbers of the snapshots and segments in `dir`, each ascending. Leftover temporary files
/// (a snapshot being written when the server stopped) are removed.
fn list(dir: &Path) -> Result<(Vec<u64>, Vec<u64>), StoreError> {
    let (mut snapshots, mut segments) = (Vec::new(), Vec::new());
    let entries = std::fs::read_dir(dir).map_err(|e| StoreError::io(dir, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| StoreError::io(dir, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let number = |prefix: &str, suffix: &str| {
            name.strip_prefix(prefix)?
                .strip_suffix(suffix)?
                .parse::<u64>()
                .ok()
        };
        if let Some(n) = number("snapshot-", ".snap") {
            snapshots.push(n);
        } else if let Some(n) = number("journal-", ".log") {
            segments.push(n);
        } else if number("snapshot-", ".tmp").is_some() {
            let _ = std::fs::remove_file(entry.path());
        }
    }
    snapshots.sort_unstable();
    segments.sort_unstable();
    Ok((snapshots, segments))
}

/// Which files are current, shared by the commit thread (a reset) and the snapshot writer.
pub struct Files {
    /// Nothing below this segment number belongs to the current run (raised by a reset).
    floor: u64,
}

impl Files {
    /// Deletes the snapshots and segments numbered below `number`.
    fn remove_below(&self, dir: &Path, number: u64) {
        let Ok((snapshots, segments)) = list(dir) else {
            return;
        };
        let old = |n: &&u64| **n < number;
        for n in snapshots.iter().filter(old) {
            let _ = std::fs::remove_file(snapshot_path(dir, *n));
        }
        for n in segments.iter().filter(old) {
            let _ = std::fs::remove_file(segment_path(dir, *n));
        }
    }

    /// After snapshot `number` is written: keeps it and the one before, and the segments from
    /// that one on.
    fn keep_latest_two(&self, dir: &Path) {
        if let Ok((snapshots, _)) = list(dir) {
            if let [.., older, _] = snapshots[..] {
                self.remove_below(dir, older.max(self.floor));
            }
        }
    }
}

/// What a start found in the directory.
pub struct Recovered {
    /// The engine, as it was when the server stopped, its waiting long polls ended.
    pub engine: Engine,
    /// The seed of the run (the live view's World starts from it).
    pub seed: u64,
    /// Whether the directory was new (or empty).
    pub fresh: bool,
    /// The snapshot it started from (its segment number) and the records replayed after it.
    pub snapshot: u64,
    pub replayed: usize,
    /// What was dropped or passed over on the way (a torn record, a damaged snapshot).
    pub notes: Vec<String>,
    /// How long reading it took.
    pub took: Duration,
}

/// An open data directory.
pub struct Store {
    dir: PathBuf,
    log: Arc<Log>,
    writer: Option<JoinHandle<()>>,
    files: Arc<Mutex<Files>>,
    /// The segment records are appended to (as queued: the commit thread may still be on an
    /// older one).
    segment: u64,
    since_snapshot: u64,
    snapshot_taken: Instant,
    /// Set while a snapshot is being written.
    writing: Arc<AtomicBool>,
    /// The virtual time of the last record.
    last_at: Millis,
    fsync: Fsync,
}

/// Applies one journal entry to `engine`, as the server did when it recorded it; returns
/// whether the engine accepted it (a call the server recorded was accepted then).
pub fn apply(engine: &mut Engine, entry: Entry) -> bool {
    engine.advance_to(entry.at());
    let accepted = match entry {
        Entry::Call {
            namespace, request, ..
        } => !matches!(engine.call_in(&namespace, *request), Reply::Done(Err(_))),
        Entry::Tick { .. } => true,
        Entry::Restart { .. } => {
            engine.end_polls();
            true
        }
    };
    // Nobody waits for these any more: their answers were sent when the calls were made.
    engine.take_completed_polls();
    accepted
}

impl Store {
    /// Opens `dir` (created if missing) and recovers its state; a new directory starts from
    /// `new`. Refuses a directory of another version, or one whose journal is damaged short of
    /// its last record.
    pub fn open(dir: &Path, fsync: Fsync, new: Snapshot) -> Result<(Store, Recovered), StoreError> {
        let started = Instant::now();
        std::fs::create_dir_all(dir).map_err(|e| StoreError::io(dir, e))?;
        let (snapshots, segments) = list(dir)?;
        if snapshots.is_empty() && segments.is_empty() {
            snapshot::write(dir, 0, &snapshot::encode(&new))?;
            let file = create_segment(dir, 0)?;
            let store = Store::start(dir, fsync, file, 0, new.engine.now());
            let recovered = Recovered {
                engine: new.engine,
                seed: new.seed,
                fresh: true,
                snapshot: 0,
                replayed: 0,
                notes: Vec::new(),
                took: started.elapsed(),
            };
            return Ok((store, recovered));
        }
        // Every file's version first: a directory of another version is refused as a whole.
        let paths = (snapshots.iter().map(|&n| snapshot_path(dir, n)))
            .chain(segments.iter().map(|&n| segment_path(dir, n)));
        for path in paths {
            let mut head = Vec::with_capacity(Header::LEN);
            let file = File::open(&path).map_err(|e| StoreError::io(&path, e))?;
            std::io::Read::read_to_end(
                &mut std::io::Read::take(file, Header::LEN as u64),
                &mut head,
            )
            .map_err(|e| StoreError::io(&path, e))?;
            match Header::check(&path, &head) {
                Err(StoreError::Damaged { .. }) | Ok(()) => {}
                Err(other) => return Err(other),
            }
        }
        let mut notes = Vec::new();
        let mut base = None;
        for &number in snapshots.iter().rev() {
            match snapshot::read(&snapshot_path(dir, number)) {
                Ok(snapshot) => {
                    base = Some((number, snapshot));
                    break;
                }
                Err(error @ StoreError::Damaged { .. }) => {
                    // Set aside (kept for a look, no longer counted among the two kept).
                    let path = snapshot_path(dir, number);
                    let aside = path.with_extension("snap.damaged");
                    std::fs::rename(&path, &aside).map_err(|e| StoreError::io(&path, e))?;
                    notes.push(format!(
                        "{error}: starting from the snapshot before it ({} is now {})",
                        path.display(),
                        aside.display()
                    ));
                }
                Err(other) => return Err(other),
            }
        }
        let Some((first, Snapshot { seed, mut engine })) = base else {
            return Err(StoreError::Damaged {
                path: dir.into(),
                problem: "no snapshot in it verifies".into(),
            });
        };
        let to_replay: Vec<u64> = segments.into_iter().filter(|&n| n >= first).collect();
        let mut replayed = 0;
        let mut current = first;
        for (i, &number) in to_replay.iter().enumerate() {
            let path = segment_path(dir, number);
            let expected = first + i as u64;
            if number != expected {
                return Err(StoreError::Damaged {
                    path,
                    problem: format!("journal segment {expected} before it is missing"),
                });
            }
            let last = i + 1 == to_replay.len();
            let segment = match read_segment(&path) {
                // A crash as the segment was created: its header is not all there.
                Err(StoreError::Damaged { .. }) if last => {
                    notes.push(format!(
                        "{}: an unfinished header, rewritten",
                        path.display()
                    ));
                    create_segment(dir, number)?;
                    journal::Segment {
                        entries: Vec::new(),
                        valid_len: Header::LEN as u64,
                        torn: 0,
                    }
                }
                other => other?,
            };
            if segment.torn > 0 {
                if !last {
                    return Err(StoreError::Damaged {
                        path,
                        problem: format!(
                            "a record at byte {} does not verify, and later segments follow",
                            segment.valid_len
                        ),
                    });
                }
                let file = File::options()
                    .write(true)
                    .open(&path)
                    .map_err(|e| StoreError::io(&path, e))?;
                file.set_len(segment.valid_len)
                    .and_then(|()| file.sync_all())
                    .map_err(|e| StoreError::io(&path, e))?;
                notes.push(format!(
                    "{}: dropped a torn last record ({} bytes after byte {}), from a crash in \
                     the middle of its write (its call was never answered)",
                    path.display(),
                    segment.torn,
                    segment.valid_len
                ));
            }
            for entry in segment.entries {
                let call = matches!(entry, Entry::Call { .. });
                if !apply(&mut engine, entry) && call {
                    notes.push(format!(
                        "{}: a recorded call was refused on replay",
                        path.display()
                    ));
                }
                replayed += 1;
            }
            current = number;
        }
        let path = segment_path(dir, current);
        let file = if to_replay.is_empty() {
            create_segment(dir, current)?
        } else {
            File::options()
                .append(true)
                .open(&path)
                .map_err(|e| StoreError::io(&path, e))?
        };
        let mut store = Store::start(dir, fsync, file, current, engine.now());
        store.files_lock().floor = first;
        // The long polls that waited have no client now: end them, and record that.
        let restart = Entry::Restart { at: engine.now() };
        store.append(&restart);
        apply(&mut engine, restart);
        store.since_snapshot = replayed as u64;
        let recovered = Recovered {
            engine,
            seed,
            fresh: false,
            snapshot: first,
            replayed,
            notes,
            took: started.elapsed(),
        };
        Ok((store, recovered))
    }

    fn start(dir: &Path, fsync: Fsync, file: File, segment: u64, at: Millis) -> Store {
        let log = Log::new();
        let files = Arc::new(Mutex::new(Files { floor: segment }));
        let writer = Writer {
            log: log.clone(),
            files: files.clone(),
            dir: dir.into(),
            file,
            fsync,
        };
        let writer = std::thread::Builder::new()
            .name("sqs-sim-journal".into())
            .spawn(move || writer.run())
            .expect("a thread starts");
        Store {
            dir: dir.into(),
            log,
            writer: Some(writer),
            files,
            segment,
            since_snapshot: 0,
            snapshot_taken: Instant::now(),
            writing: Arc::new(AtomicBool::new(false)),
            last_at: at,
            fsync,
        }
    }

    fn files_lock(&self) -> std::sync::MutexGuard<'_, Files> {
        self.files.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Appends `entry`; its wait returns once it is durable.
    pub fn append(&mut self, entry: &Entry) -> Durable {
        self.since_snapshot += 1;
        self.last_at = entry.at();
        self.log.append(|out| entry.encode(out))
    }

    /// Appends an accepted call (without copying its request).
    pub fn append_call(
        &mut self,
        at: Millis,
        by: &Caller,
        namespace: &Namespace,
        request: &Request,
    ) -> Durable {
        self.since_snapshot += 1;
        self.last_at = at;
        self.log
            .append(|out| journal::encode_call(out, at, by, namespace, request))
    }

    /// A wait for every record appended so far (an answer that depends on them, though its own
    /// call is not recorded).
    pub fn latest(&self) -> Durable {
        self.log.latest()
    }

    /// The virtual time of the last record.
    pub fn last_at(&self) -> Millis {
        self.last_at
    }

    /// Whether a snapshot is due (and none is being written).
    pub fn snapshot_due(&self) -> bool {
        !self.writing.load(Ordering::Acquire)
            && (self.since_snapshot >= SNAPSHOT_EVERY_RECORDS
                || (self.since_snapshot > 0 && self.snapshot_taken.elapsed() >= SNAPSHOT_EVERY))
    }

    /// Takes a snapshot of `engine` (whose outputs the caller has taken): a copy now, written by
    /// a thread of its own, and a new segment for the records after it.
    pub fn snapshot(&mut self, engine: &Engine, seed: u64) {
        self.segment += 1;
        let number = self.segment;
        self.log.rotate(number);
        self.since_snapshot = 0;
        self.snapshot_taken = Instant::now();
        self.writing.store(true, Ordering::Release);
        let snapshot = Snapshot {
            seed,
            engine: engine.clone(),
        };
        let (dir, files, writing) = (self.dir.clone(), self.files.clone(), self.writing.clone());
        std::thread::spawn(move || {
            let bytes = snapshot::encode(&snapshot);
            drop(snapshot);
            let files = files.lock().unwrap_or_else(|p| p.into_inner());
            // A reset since: this state is no longer the server's.
            if number >= files.floor {
                match snapshot::write(&dir, number, &bytes) {
                    Ok(()) => files.keep_latest_two(&dir),
                    Err(error) => tracing::error!("a snapshot was not written: {error}"),
                }
            }
            writing.store(false, Ordering::Release);
        });
    }

    /// Starts the directory again from `engine` (a reset): every file of before is deleted.
    /// The wait returns once that is done.
    pub fn reset(&mut self, engine: &Engine, seed: u64) -> Durable {
        self.segment += 1;
        let snapshot = Snapshot {
            seed,
            engine: engine.clone(),
        };
        self.log.reset(self.segment, snapshot::encode(&snapshot));
        self.since_snapshot = 0;
        self.snapshot_taken = Instant::now();
        self.append(&Entry::Tick { at: engine.now() })
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Its sync policy.
    pub fn fsync(&self) -> Fsync {
        self.fsync
    }
}

/// What a start found in `dir`, as a line to print: how long it took, from which snapshot, how
/// many records it replayed and the virtual time it resumes at. What was dropped on the way
/// ([`Recovered::notes`]) goes to the log.
pub fn report(dir: &Path, fsync: Fsync, recovered: &Recovered) -> String {
    let engine = &recovered.engine;
    let messages: u64 = engine
        .depths()
        .map(|(_, depths)| depths.iter().sum::<u64>())
        .sum();
    if recovered.fresh {
        format!("data directory {} (new, --fsync {fsync})", dir.display())
    } else {
        format!(
            "data directory {} (--fsync {fsync}): restarted in {} ms from snapshot {} and {} \
             journal records; virtual time resumes at {:.3} s with {} and {}",
            dir.display(),
            recovered.took.as_millis(),
            recovered.snapshot,
            recovered.replayed,
            engine.now() as f64 / 1000.0,
            counted(engine.queue_names().len() as u64, "queue"),
            counted(messages, "message"),
        )
    }
}

/// `1 queue`, `2 queues`.
fn counted(n: u64, noun: &str) -> String {
    match n {
        1 => format!("1 {noun}"),
        n => format!("{n} {noun}s"),
    }
}

/// Writes what is pending and stops the commit thread.
impl Drop for Store {
    fn drop(&mut self) {
        self.log.stop();
        if let Some(writer) = self.writer.take() {
            let _ = writer.join();
        }
    }
}

#[cfg(test)]
mod tests;
