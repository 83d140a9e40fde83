//! The queue registry: every queue by its uid, the live ones by ARN (so by namespace, then
//! name), and when each recently deleted queue was deleted (QueueDeletedRecently, §2.1).

use crate::attributes::QueueConfig;
use crate::namespace::Namespace;
use crate::queue::Queue;
use crate::Millis;
use serde::{Deserialize, Deserializer, Serialize};
use std::collections::BTreeMap;
use std::ops::Bound;

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(crate) struct Registry {
    /// Queues by uid (uids are never reused). Boxed: telling a live queue from a deleted one
    /// is then a null test, and every action looks its queue up several times.
    #[serde(deserialize_with = "queues")]
    queues: Vec<Option<Box<Queue>>>,
    /// Each live queue's uid by ARN.
    arns: BTreeMap<String, u32>,
    /// When each recently deleted queue was deleted, by ARN.
    deleted_at: BTreeMap<String, Millis>,
}

impl Registry {
    /// The live queue `uid`.
    #[inline]
    pub(crate) fn get(&self, uid: u32) -> Option<&Queue> {
        self.queues.get(uid as usize)?.as_deref()
    }

    /// The live queue `uid`, to change.
    #[inline]
    pub(crate) fn get_mut(&mut self, uid: u32) -> Option<&mut Queue> {
        self.queues.get_mut(uid as usize)?.as_deref_mut()
    }

    /// The uid of the live queue with this ARN.
    pub(crate) fn by_arn(&self, arn: &str) -> Option<u32> {
        self.arns.get(arn).copied()
    }

    /// The live queues in ARN order.
    pub(crate) fn by_name(&self) -> impl Iterator<Item = &Queue> + '_ {
        self.arns.values().filter_map(|&uid| self.get(uid))
    }

    /// The live queues in uid order.
    pub(crate) fn live(&self) -> impl Iterator<Item = &Queue> + '_ {
        self.queues.iter().flatten().map(|q| &**q)
    }

    /// The live queues whose ARN starts with `prefix`, in ARN order, each with the rest of its
    /// ARN after the prefix.
    pub(crate) fn starting_with<'a, 'p>(
        &'a self,
        prefix: &'p str,
    ) -> impl Iterator<Item = (&'a str, u32)> + use<'a, 'p> {
        self.arns
            .range::<str, _>((Bound::Included(prefix), Bound::Unbounded))
            .map_while(move |(arn, &uid)| Some((arn.strip_prefix(prefix)?, uid)))
    }

    /// When the queue with this ARN was last deleted, if it was and none has it since.
    pub(crate) fn deleted_at(&self, arn: &str) -> Option<Millis> {
        self.deleted_at.get(arn).copied()
    }

    /// Creates queue `name` in `namespace` and returns its uid.
    pub(crate) fn create(
        &mut self,
        namespace: &Namespace,
        name: &str,
        config: QueueConfig,
        now: Millis,
    ) -> u32 {
        let uid = self.queues.len() as u32;
        let queue = Queue::new(uid, namespace, name, config, now);
        self.deleted_at.remove(&queue.arn);
        self.arns.insert(queue.arn.clone(), uid);
        self.queues.push(Some(Box::new(queue)));
        uid
    }

    /// Deletes the live queue `uid` at `now`, and returns it.
    pub(crate) fn delete(&mut self, uid: u32, now: Millis) -> Box<Queue> {
        let queue = self.queues[uid as usize].take().expect("live queue");
        self.arns.remove(&queue.arn);
        self.deleted_at.insert(queue.arn.clone(), now);
        queue
    }
}

/// Reads the queue table, each queue's URL issued again by that queue: an action finds its queue
/// from a URL it issued without parsing the text (see `QueueUrl::issued_by`), and the URL read
/// back is only text.
fn queues<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<Option<Box<Queue>>>, D::Error> {
    let mut queues = Vec::<Option<Box<Queue>>>::deserialize(deserializer)?;
    for q in queues.iter_mut().flatten() {
        q.url = crate::api::QueueUrl::issued(q.url.to_string(), q.uid);
    }
    Ok(queues)
}
