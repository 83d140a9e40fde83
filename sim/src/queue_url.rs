//! A queue's URL by name, looked up once per lane or producer: each poll, job and send needs it.

use sqs_engine::api::QueueUrl;
use sqs_engine::{Engine, Namespace};

/// The URL of queue `name` in `namespace`, looked up once and kept in `cache` (a lane's or a
/// producer's) until a queue is created or deleted (the world then forgets the URLs): each
/// poll, job and send needs it, and a lookup by name walks the engine's map of names.
#[inline]
pub(crate) fn cached_url(
    engine: &Engine,
    cache: &mut Option<QueueUrl>,
    (namespace, name): (&Namespace, &str),
) -> Option<QueueUrl> {
    if cache.is_none() {
        *cache = engine.queue_url_in(namespace, name);
    }
    cache.clone()
}
