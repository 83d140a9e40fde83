//! Group commit: one thread owns the open journal segment. Calls append their records to a
//! shared buffer (under the state's lock, so in the engine's order) and get a ticket; the thread
//! takes everything appended since its last turn, writes it with one `write`, syncs it with one
//! `fdatasync` (as the [`Fsync`] policy says) and then publishes the last ticket it made durable.
//! A call's answer waits for its ticket ([`Durable::wait`]), so concurrent calls share one write
//! and one sync, and nothing is answered before its record is on disk.
//!
//! Segment switches (a snapshot begins a new segment) and a reset go through the same queue, so
//! they fall exactly between the records before and after them.

use super::{snapshot, Files, Fsync, StoreError};
use std::fs::File;
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// How often [`Fsync::Second`] syncs.
pub const SYNC_INTERVAL: Duration = Duration::from_secs(1);

/// Work for the commit thread, in order.
enum Work {
    /// Records to append to the open segment.
    Write(Vec<u8>),
    /// Close the open segment (synced) and open segment `.0`.
    Rotate(u64),
    /// Drop everything: write this fresh snapshot as segment `segment`'s, open that segment, and
    /// delete every older file.
    Reset { segment: u64, snapshot: Vec<u8> },
}

#[derive(Default)]
struct Pending {
    work: Vec<Work>,
    /// The last ticket handed out (tickets count records from 1).
    last: u64,
    stop: bool,
    /// Whether the thread waits for work (only then does an append wake it: a wake-up is a
    /// system call, made under the state's lock).
    idle: bool,
}

/// How far the journal is on disk.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    /// Every record with a ticket up to this one is written (and synced, if the policy says so).
    pub durable: u64,
    /// Set when the directory could not be written: no answer waiting for a later ticket will
    /// ever be sent as a success.
    pub failed: Option<Arc<str>>,
}

/// The queue between the calls and the commit thread.
pub struct Log {
    pending: Mutex<Pending>,
    wake: Condvar,
    progress: watch::Sender<Progress>,
}

/// A wait for a record (and every record before it) to be durable.
pub struct Durable {
    progress: watch::Receiver<Progress>,
    ticket: u64,
}

impl Durable {
    /// Returns once the record is durable, or with the reason it never will be.
    pub async fn wait(mut self) -> Result<(), Arc<str>> {
        let ticket = self.ticket;
        let progress = self
            .progress
            .wait_for(|p| p.durable >= ticket || p.failed.is_some())
            .await
            .map_err(|_| Arc::<str>::from("the data directory's writer stopped"))?;
        match &progress.failed {
            Some(reason) if progress.durable < ticket => Err(reason.clone()),
            _ => Ok(()),
        }
    }
}

impl Log {
    pub fn new() -> Arc<Self> {
        Arc::new(Log {
            pending: Mutex::new(Pending::default()),
            wake: Condvar::new(),
            progress: watch::Sender::new(Progress::default()),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Pending> {
        self.pending.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Appends a record's bytes (`encode` writes them into the buffer); returns its wait.
    pub fn append(&self, encode: impl FnOnce(&mut Vec<u8>)) -> Durable {
        let mut pending = self.lock();
        if !matches!(pending.work.last(), Some(Work::Write(_))) {
            pending.work.push(Work::Write(Vec::new()));
        }
        let Some(Work::Write(bytes)) = pending.work.last_mut() else {
            unreachable!("pushed above")
        };
        encode(bytes);
        pending.last += 1;
        let (ticket, idle) = (pending.last, pending.idle);
        drop(pending);
        if idle {
            self.wake.notify_one();
        }
        self.wait_for(ticket)
    }

    /// A wait for every record appended so far.
    pub fn latest(&self) -> Durable {
        let ticket = self.lock().last;
        self.wait_for(ticket)
    }

    fn wait_for(&self, ticket: u64) -> Durable {
        Durable {
            progress: self.progress.subscribe(),
            ticket,
        }
    }

    fn push(&self, work: Work) {
        self.lock().work.push(work);
        self.wake.notify_one();
    }

    /// Records appended from now on go to segment `number`.
    pub fn rotate(&self, number: u64) {
        self.push(Work::Rotate(number));
    }

    /// Everything from now on starts again from `snapshot` as segment `segment`'s.
    pub fn reset(&self, segment: u64, snapshot: Vec<u8>) {
        self.push(Work::Reset { segment, snapshot });
    }

    /// Asks the thread to write what is pending and end.
    pub fn stop(&self) {
        self.lock().stop = true;
        self.wake.notify_one();
    }
}

/// The commit thread's own state.
pub struct Writer {
    pub log: Arc<Log>,
    pub files: Arc<Mutex<Files>>,
    pub dir: PathBuf,
    pub file: File,
    pub fsync: Fsync,
}

impl Writer {
    /// Runs until [`Log::stop`]: each turn takes all pending work, does it, syncs as the policy
    /// says and publishes the last ticket done.
    pub fn run(mut self) {
        let mut last_sync = Instant::now();
        let mut unsynced = false;
        loop {
            let (work, upto, stop) = {
                let mut pending = self.log.lock();
                pending.idle = true;
                while pending.work.is_empty() && !pending.stop {
                    if self.fsync == Fsync::Second && unsynced {
                        let left = SYNC_INTERVAL.saturating_sub(last_sync.elapsed());
                        let (guard, timeout) = (self.log.wake)
                            .wait_timeout(pending, left)
                            .unwrap_or_else(|p| p.into_inner());
                        pending = guard;
                        if timeout.timed_out() {
                            break;
                        }
                    } else {
                        pending = self
                            .log
                            .wake
                            .wait(pending)
                            .unwrap_or_else(|p| p.into_inner());
                    }
                }
                pending.idle = false;
                (
                    std::mem::take(&mut pending.work),
                    pending.last,
                    pending.stop,
                )
            };
            let done = self.apply(work).and_then(|wrote| {
                unsynced |= wrote;
                let due = match self.fsync {
                    Fsync::Always => true,
                    Fsync::Second => last_sync.elapsed() >= SYNC_INTERVAL || stop,
                    Fsync::Never => false,
                };
                if due && unsynced {
                    self.file
                        .sync_data()
                        .map_err(|e| StoreError::io(&self.dir, e))?;
                    last_sync = Instant::now();
                    unsynced = false;
                }
                Ok(())
            });
            match done {
                Ok(()) => self.log.progress.send_modify(|p| p.durable = upto),
                Err(error) => {
                    tracing::error!("{error}: calls are answered with an error from now on");
                    self.log
                        .progress
                        .send_modify(|p| p.failed = Some(error.to_string().into()));
                    return;
                }
            }
            if stop {
                return;
            }
        }
    }

    /// Does `work` in order; returns whether it wrote records.
    fn apply(&mut self, work: Vec<Work>) -> Result<bool, StoreError> {
        let mut wrote = false;
        for item in work {
            match item {
                Work::Write(bytes) => {
                    self.file
                        .write_all(&bytes)
                        .map_err(|e| StoreError::io(&self.dir, e))?;
                    wrote = true;
                }
                Work::Rotate(number) => {
                    self.file
                        .sync_data()
                        .map_err(|e| StoreError::io(&self.dir, e))?;
                    self.file = super::create_segment(&self.dir, number)?;
                }
                Work::Reset { segment, snapshot } => {
                    let mut files = self.files.lock().unwrap_or_else(|p| p.into_inner());
                    files.floor = segment;
                    snapshot::write(&self.dir, segment, &snapshot)?;
                    self.file = super::create_segment(&self.dir, segment)?;
                    files.remove_below(&self.dir, segment);
                    wrote = false;
                }
            }
        }
        Ok(wrote)
    }
}
