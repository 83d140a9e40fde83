//! Steady producers: a SendMessage every `every` seconds, bodies and FIFO ids from templates.

use crate::queue_url::cached_url;
use crate::worker::ProducerSpec;
use itoa::Buffer;
use sqs_engine::api::{QueueUrl, SendMessageInput};
use sqs_engine::{Engine, Millis, Namespace, Request};

/// The producers, in the order they were added: the world's part that owns them.
#[derive(Clone, Debug, Default)]
pub(crate) struct Producers {
    list: Vec<Producer>,
}

/// A producer at run time.
#[derive(Clone, Debug)]
struct Producer {
    id: u64,
    spec: ProducerSpec,
    /// The spec's templates, parsed once (a producer renders one body per send).
    body: Template,
    group_id: Option<Template>,
    deduplication_id: Option<Template>,
    /// Messages sent so far.
    sent: u64,
    /// Its queue's URL, once looked up ([`Producers::forget_queue_urls`]).
    queue_url: Option<QueueUrl>,
    /// The buffer a body is rendered into before the engine's shared copy is made of it: one
    /// allocation per body, not two.
    scratch: String,
}

/// A producer's next send, as [`Producers::next_send`] prepares it.
pub(crate) struct Send {
    /// The SendMessage, or why there is none (its queue does not exist), in words.
    pub(crate) request: Result<Request, String>,
    /// How long until the send after it (None: this is the producer's last).
    pub(crate) every: Option<Millis>,
}

impl Producers {
    /// Why a producer cannot be added, if it cannot.
    pub(crate) fn check(&self, spec: &ProducerSpec) -> Result<(), String> {
        if spec.name.trim().is_empty() {
            return Err("A producer needs a name.".into());
        }
        if self.list.iter().any(|p| p.spec.name == spec.name) {
            return Err(format!(
                "There is already a producer named \"{}\".",
                spec.name
            ));
        }
        let steady = spec.every > 0.0 && spec.every.is_finite();
        if !steady && spec.count != Some(1) {
            return Err("A producer's `every` must be more than 0 seconds.".into());
        }
        Ok(())
    }

    /// Adds a producer ([`Producers::check`] first) with a fresh `id`.
    pub(crate) fn add(&mut self, id: u64, spec: ProducerSpec) {
        self.list.push(Producer {
            id,
            body: Template::parse(&spec.body),
            group_id: spec.group_id.as_deref().map(Template::parse),
            deduplication_id: spec.deduplication_id.as_deref().map(Template::parse),
            spec,
            sent: 0,
            queue_url: None,
            scratch: String::new(),
        });
    }

    /// Removes the producer named `name`: its id and how many messages it sent.
    pub(crate) fn remove(&mut self, name: &str) -> Result<(u64, u64), String> {
        let at = self
            .list
            .iter()
            .position(|p| p.spec.name == name)
            .ok_or_else(|| format!("There is no producer named \"{name}\"."))?;
        let producer = self.list.remove(at);
        Ok((producer.id, producer.sent))
    }

    /// Removes the producer `id` (after its last send).
    pub(crate) fn finish(&mut self, id: u64) {
        self.list.retain(|p| p.id != id);
    }

    /// The name of producer `id`.
    pub(crate) fn name_of(&self, id: u64) -> Option<&str> {
        let producer = self.list.iter().find(|p| p.id == id)?;
        Some(&producer.spec.name)
    }

    /// Counts and prepares producer `id`'s next send (None: there is no such producer). Its
    /// queue's URL is looked up in `engine` once and kept until [`Producers::forget_queue_urls`].
    pub(crate) fn next_send(&mut self, id: u64, engine: &Engine) -> Option<Send> {
        let producer = self.list.iter_mut().find(|p| p.id == id)?;
        producer.sent += 1;
        let n = producer.sent;
        producer.scratch.clear();
        producer.body.render_into(n, &mut producer.scratch);
        let spec = &producer.spec;
        let last = spec.count.is_some_and(|count| n >= count);
        let every = ((spec.every * 1000.0).round() as Millis).max(1);
        let request = match cached_url(
            engine,
            &mut producer.queue_url,
            (&Namespace::DEFAULT, &spec.queue),
        ) {
            Some(queue_url) => Ok(Request::SendMessage(SendMessageInput {
                queue_url,
                message_body: producer.scratch.as_str().into(),
                delay_seconds: spec.delay_seconds.map(i64::from),
                message_group_id: producer.group_id.as_ref().map(|t| t.render(n)),
                message_deduplication_id: producer.deduplication_id.as_ref().map(|t| t.render(n)),
                ..SendMessageInput::default()
            })),
            None => Err(format!(
                "{}: the queue {} does not exist",
                spec.name, spec.queue
            )),
        };
        Some(Send {
            request,
            every: (!last).then_some(every),
        })
    }

    /// Drops the queue URLs looked up: a queue was created or deleted since.
    pub(crate) fn forget_queue_urls(&mut self) {
        self.list.iter_mut().for_each(|p| p.queue_url = None);
    }
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
