//! Steady producers: a SendMessage every `every` seconds, bodies and FIFO ids from templates.

use crate::worker::ProducerSpec;
use crate::world::{Actor, Timer, World};
use serde_json::{json, Value};
use sqs_engine::api::SendMessageInput;
use sqs_engine::{Millis, Request};

/// A producer at run time.
#[derive(Clone, Debug)]
pub(crate) struct Producer {
    pub(crate) id: u64,
    pub(crate) spec: ProducerSpec,
    /// Messages sent so far.
    pub(crate) sent: u64,
}

/// Fills a template: `{n}` is the message number, `{n%K}` is n mod K.
pub(crate) fn render(template: &str, n: u64) -> String {
    let mut out = String::new();
    let mut rest = template;
    while let Some(open) = rest.find("{n") {
        out.push_str(&rest[..open]);
        let tail = &rest[open..];
        let Some(close) = tail.find('}') else {
            out.push_str(tail);
            return out;
        };
        let inner = &tail[2..close];
        match inner.strip_prefix('%').map(str::parse::<u64>) {
            None if inner.is_empty() => push_number(&mut out, n),
            Some(Ok(k)) if k > 0 => push_number(&mut out, n % k),
            _ => out.push_str(&tail[..=close]),
        }
        rest = &tail[close + 1..];
    }
    out.push_str(rest);
    out
}

/// Appends `n` in decimal without an intermediate String.
fn push_number(out: &mut String, n: u64) {
    use std::fmt::Write;
    let _ = write!(out, "{n}");
}

impl World {
    pub(crate) fn add_producer(&mut self, spec: ProducerSpec) -> Result<Value, String> {
        if spec.name.trim().is_empty() {
            return Err("A producer needs a name.".into());
        }
        if self.producers.iter().any(|p| p.spec.name == spec.name) {
            return Err(format!(
                "There is already a producer named {:?}.",
                spec.name
            ));
        }
        let steady = spec.every > 0.0 && spec.every.is_finite();
        if !steady && spec.count != Some(1) {
            return Err("A producer's `every` must be more than 0 seconds.".into());
        }
        let id = self.fresh_id();
        let name = spec.name.clone();
        self.producers.push(Producer { id, spec, sent: 0 });
        self.schedule(self.now(), Timer::Produce { producer: id });
        Ok(json!({ "producer": name }))
    }

    pub(crate) fn remove_producer(&mut self, name: &str) -> Result<Value, String> {
        let at = self
            .producers
            .iter()
            .position(|p| p.spec.name == name)
            .ok_or_else(|| format!("There is no producer named {name:?}."))?;
        let producer = self.producers.remove(at);
        self.cancel(|t| {
            *t == Timer::Produce {
                producer: producer.id,
            }
        });
        Ok(json!({ "producer": name, "sent": producer.sent }))
    }

    /// A producer's next send.
    pub(crate) fn produce(&mut self, id: u64) {
        let Some(at) = self.producers.iter().position(|p| p.id == id) else {
            return;
        };
        let producer = &mut self.producers[at];
        producer.sent += 1;
        let n = producer.sent;
        let spec = &producer.spec;
        let actor = Actor::Producer(spec.name.clone());
        let last = spec.count.is_some_and(|count| n >= count);
        let every = ((spec.every * 1000.0).round() as Millis).max(1);
        match self.engine.queue_url(&spec.queue) {
            Some(queue_url) => {
                let request = Request::SendMessage(SendMessageInput {
                    queue_url,
                    message_body: render(&spec.body, n),
                    delay_seconds: spec.delay_seconds.map(i64::from),
                    message_group_id: spec.group_id.as_deref().map(|t| render(t, n)),
                    message_deduplication_id: spec
                        .deduplication_id
                        .as_deref()
                        .map(|t| render(t, n)),
                    ..SendMessageInput::default()
                });
                self.call(&actor, request);
            }
            None => {
                let text = format!("{}: the queue {} does not exist", spec.name, spec.queue);
                self.say(actor, None, text)
            }
        }
        if last {
            self.producers.remove(at);
        } else {
            self.schedule(self.now() + every, Timer::Produce { producer: id });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::render;

    #[test]
    fn templates_number_messages_and_spread_groups() {
        assert_eq!(render("R-{n}", 7), "R-7");
        assert_eq!(render("workshop-{n%3}", 7), "workshop-1");
        assert_eq!(render("plain", 7), "plain");
        assert_eq!(render("{x} {n", 7), "{x} {n");
    }
}
