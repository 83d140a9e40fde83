//! Answer buffers kept for reuse: the lists an answer carries, handed back by
//! [`crate::Engine::recycle`], and the buffers the driver takes events and answers in.

use crate::api::{self, BatchResultEntry, SendMessageBatchResultEntry};

/// Emptied answer buffers, one per kind of list an answer carries, reused by the next answer of
/// that kind: a batch of ten answers is over 1 KiB, which glibc's allocator serves slowly.
#[derive(Debug, Default)]
pub(crate) struct Spare {
    pub messages: Vec<api::Message>,
    pub sent: Vec<SendMessageBatchResultEntry>,
    pub done: Vec<BatchResultEntry>,
}

/// A copy of an engine starts with no spare buffers: they are always empty (only their capacity
/// counts).
impl Clone for Spare {
    fn clone(&self) -> Self {
        Spare::default()
    }
}

/// `spare`'s buffer (empty) if it has room for `n`, leaving an empty one in its place; else a
/// new one (a caller that recycles nothing pays no more than before).
pub(crate) fn reuse<T>(spare: &mut Vec<T>, n: usize) -> Vec<T> {
    if spare.capacity() >= n {
        std::mem::take(spare)
    } else {
        Vec::with_capacity(n)
    }
}

/// Keeps `buffer`, emptied, as `spare` if it holds more than the one kept. Inlined, as
/// [`Engine::recycle`]: a call per answer handed back, mostly to put back the buffer that
/// [`reuse`] took.
#[inline(always)]
pub(crate) fn keep<T>(spare: &mut Vec<T>, mut buffer: Vec<T>) {
    if buffer.capacity() > spare.capacity() {
        buffer.clear();
        *spare = buffer;
    }
}

/// Moves `from`'s items to the end of `out`. An empty `out` trades buffers instead of copying:
/// both keep their capacity for the next round.
pub(crate) fn move_into<T>(out: &mut Vec<T>, from: &mut Vec<T>) {
    if out.is_empty() {
        std::mem::swap(out, from);
    } else {
        out.append(from);
    }
}
