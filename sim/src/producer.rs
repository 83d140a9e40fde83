//! Steady producers: a SendMessage every `every` seconds, bodies and FIFO ids from templates.

use crate::timers::Timer;
use crate::worker::ProducerSpec;
use crate::world::{cached_url, named, Actor, Who, World};
use itoa::Buffer;
use serde_json::Value;
use sqs_engine::api::{QueueUrl, SendMessageInput};
use sqs_engine::{Millis, Request};

/// A producer at run time.
#[derive(Clone, Debug)]
pub(crate) struct Producer {
    pub(crate) id: u64,
    pub(crate) spec: ProducerSpec,
    /// The spec's templates, parsed once (a producer renders one body per send).
    body: Template,
    group_id: Option<Template>,
    deduplication_id: Option<Template>,
    /// Messages sent so far.
    pub(crate) sent: u64,
    /// Its queue's URL, once looked up ([`crate::world::cached_url`]).
    pub(crate) queue_url: Option<QueueUrl>,
    /// The buffer a body is rendered into before the engine's shared copy is made of it: one
    /// allocation per body, not two.
    scratch: String,
}

/// A parsed template: `{n}` is the message number, `{n%K}` is n mod K; anything else is text.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Template(Vec<Piece>);

#[derive(Clone, Debug, PartialEq)]
enum Piece {
    Text(String),
    /// n mod K (None: n itself).
    Number(Option<u64>),
}

impl Template {
    pub(crate) fn parse(template: &str) -> Self {
        let mut pieces = Vec::new();
        let mut text = String::new();
        let mut rest = template;
        while let Some(open) = rest.find("{n") {
            text.push_str(&rest[..open]);
            let tail = &rest[open..];
            let Some(close) = tail.find('}') else {
                rest = tail;
                break;
            };
            let inner = &tail[2..close];
            let number = match inner.strip_prefix('%').map(str::parse::<u64>) {
                None if inner.is_empty() => Some(None),
                Some(Ok(k)) if k > 0 => Some(Some(k)),
                _ => None,
            };
            match number {
                Some(modulus) => {
                    if !text.is_empty() {
                        pieces.push(Piece::Text(std::mem::take(&mut text)));
                    }
                    pieces.push(Piece::Number(modulus));
                }
                None => text.push_str(&tail[..=close]),
            }
            rest = &tail[close + 1..];
        }
        text.push_str(rest);
        if !text.is_empty() {
            pieces.push(Piece::Text(text));
        }
        Template(pieces)
    }

    /// The text for message number `n`.
    pub(crate) fn render(&self, n: u64) -> String {
        let size = |piece: &Piece| match piece {
            Piece::Text(text) => text.len(),
            Piece::Number(_) => 20,
        };
        let mut out = String::with_capacity(self.0.iter().map(size).sum());
        self.render_into(n, &mut out);
        out
    }

    /// Appends the text for message number `n` to `out`.
    fn render_into(&self, n: u64, out: &mut String) {
        for piece in &self.0 {
            match piece {
                Piece::Text(text) => out.push_str(text),
                Piece::Number(None) => out.push_str(Buffer::new().format(n)),
                Piece::Number(Some(k)) => out.push_str(Buffer::new().format(n % k)),
            }
        }
    }
}

impl World {
    pub(crate) fn add_producer(&mut self, spec: ProducerSpec) -> Result<Value, String> {
        if spec.name.trim().is_empty() {
            return Err("A producer needs a name.".into());
        }
        if self.producers.iter().any(|p| p.spec.name == spec.name) {
            return Err(format!(
                "There is already a producer named \"{}\".",
                spec.name
            ));
        }
        let steady = spec.every > 0.0 && spec.every.is_finite();
        if !steady && spec.count != Some(1) {
            return Err("A producer's `every` must be more than 0 seconds.".into());
        }
        let id = self.fresh_id();
        let result = named("producer", &spec.name);
        self.producers.push(Producer {
            id,
            body: Template::parse(&spec.body),
            group_id: spec.group_id.as_deref().map(Template::parse),
            deduplication_id: spec.deduplication_id.as_deref().map(Template::parse),
            spec,
            sent: 0,
            queue_url: None,
            scratch: String::new(),
        });
        self.schedule(self.now(), Timer::Produce { producer: id });
        Ok(result.into())
    }

    pub(crate) fn remove_producer(&mut self, name: &str) -> Result<Value, String> {
        let at = self
            .producers
            .iter()
            .position(|p| p.spec.name == name)
            .ok_or_else(|| format!("There is no producer named \"{name}\"."))?;
        let producer = self.producers.remove(at);
        self.cancel(Timer::Produce {
            producer: producer.id,
        });
        let mut result = named("producer", name);
        result.field("sent", &producer.sent);
        Ok(result.into())
    }

    /// A producer's next send.
    pub(crate) fn produce(&mut self, id: u64) {
        let Some(at) = self.producers.iter().position(|p| p.id == id) else {
            return;
        };
        let producer = &mut self.producers[at];
        producer.sent += 1;
        let n = producer.sent;
        producer.scratch.clear();
        producer.body.render_into(n, &mut producer.scratch);
        let spec = &producer.spec;
        let last = spec.count.is_some_and(|count| n >= count);
        let every = ((spec.every * 1000.0).round() as Millis).max(1);
        match cached_url(&self.engine, &mut producer.queue_url, &spec.queue) {
            Some(queue_url) => {
                let request = Request::SendMessage(SendMessageInput {
                    queue_url,
                    message_body: producer.scratch.as_str().into(),
                    delay_seconds: spec.delay_seconds.map(i64::from),
                    message_group_id: producer.group_id.as_ref().map(|t| t.render(n)),
                    message_deduplication_id: producer
                        .deduplication_id
                        .as_ref()
                        .map(|t| t.render(n)),
                    ..SendMessageInput::default()
                });
                self.call(Who::Producer(id), request);
            }
            None => {
                let text = format!("{}: the queue {} does not exist", spec.name, spec.queue);
                let actor = Actor::Producer(spec.name.clone());
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
    use super::Template;

    fn render(template: &str, n: u64) -> String {
        Template::parse(template).render(n)
    }

    #[test]
    fn templates_number_messages_and_spread_groups() {
        assert_eq!(render("R-{n}", 7), "R-7");
        assert_eq!(render("workshop-{n%3}", 7), "workshop-1");
        assert_eq!(render("plain", 7), "plain");
        assert_eq!(render("{x} {n", 7), "{x} {n");
        assert_eq!(
            render("{n%0}-{n}{n}", 1_234_567_890),
            "{n%0}-12345678901234567890"
        );
        assert_eq!(render("order-{n} tag-{n%100}", 0), "order-0 tag-0");
    }
}
