//! The first vertical slice through every layer: one queue in the engine, a button to send a
//! message, a button to receive it with a visibility timeout, and a live countdown; when the
//! timeout runs out the engine makes the message visible again.
//!
//! [`SliceModel`] is plain Rust over `sqs_engine::Engine` (tested on the host);
//! [`VisibilitySlice`] is the Yew component that draws it and moves virtual time with real time.

use gloo_timers::callback::Interval;
use sqs_engine::api::{CreateQueueInput, QueueUrl, ReceiveMessageInput, SendMessageInput};
use sqs_engine::view::{MessageState, MessageView};
use sqs_engine::{Engine, Millis, Reply, Request, Response};
use yew::prelude::*;

/// The slice's only queue.
pub const QUEUE_NAME: &str = "demo";
/// The VisibilityTimeout (seconds) that the Receive button asks for.
pub const VISIBILITY_TIMEOUT_S: i64 = 3;
/// How much virtual (and real) time one tick of the live clock moves.
pub const TICK_MS: Millis = 100;
/// The engine's seed (message ids and receipt handles derive from it).
pub const SEED: u64 = 1;

/// The slice's state: an engine with one queue, and what the last action did.
#[derive(Clone, Debug)]
pub struct SliceModel {
    engine: Engine,
    queue_url: QueueUrl,
    sent: u32,
    last_action: String,
    last_failed: bool,
}

impl Default for SliceModel {
    fn default() -> Self {
        Self::new()
    }
}

impl SliceModel {
    /// An engine at time 0 with the queue [`QUEUE_NAME`] created.
    pub fn new() -> Self {
        let mut engine = Engine::new(SEED);
        let reply = engine.call(Request::CreateQueue(CreateQueueInput {
            queue_name: QUEUE_NAME.to_string(),
            ..Default::default()
        }));
        let queue_url = match reply {
            Reply::Done(Ok(Response::CreateQueue(out) | Response::GetQueueUrl(out))) => {
                out.queue_url
            }
            other => panic!("CreateQueue {QUEUE_NAME} failed: {other:?}"),
        };
        SliceModel {
            engine,
            queue_url,
            sent: 0,
            last_action: format!("Created queue {QUEUE_NAME}."),
            last_failed: false,
        }
    }

    /// The current virtual time.
    pub fn now(&self) -> Millis {
        self.engine.now()
    }

    /// The queue's stored messages, oldest first, as the engine reports them.
    pub fn messages(&self) -> Vec<MessageView> {
        self.engine.messages(QUEUE_NAME)
    }

    /// A one-line description of the last action.
    pub fn last_action(&self) -> &str {
        &self.last_action
    }

    /// Whether the last action failed.
    pub fn last_failed(&self) -> bool {
        self.last_failed
    }

    /// Sends `message N` to the queue.
    pub fn send(&mut self) {
        self.sent += 1;
        let body = format!("message {}", self.sent);
        let reply = self.engine.call(Request::SendMessage(SendMessageInput {
            queue_url: self.queue_url.clone(),
            message_body: body.as_str().into(),
            ..Default::default()
        }));
        match reply {
            Reply::Done(Ok(_)) => self.note(format!("Sent \"{body}\"."), false),
            other => self.note(describe_failure("SendMessage", other), true),
        }
    }

    /// Receives (short poll) at most one message with a [`VISIBILITY_TIMEOUT_S`] timeout.
    pub fn receive(&mut self) {
        let reply = self
            .engine
            .call(Request::ReceiveMessage(ReceiveMessageInput {
                queue_url: self.queue_url.clone(),
                max_number_of_messages: Some(1),
                visibility_timeout: Some(VISIBILITY_TIMEOUT_S),
                wait_time_seconds: Some(0),
                ..Default::default()
            }));
        match reply {
            Reply::Done(Ok(Response::ReceiveMessage(out))) => {
                let got = out.messages.unwrap_or_default();
                match got.first() {
                    Some(m) => self.note(
                        format!(
                            "Received \"{}\": hidden for {VISIBILITY_TIMEOUT_S} s.",
                            m.body
                        ),
                        false,
                    ),
                    None => self.note("Received nothing: no visible message.".into(), false),
                }
            }
            other => self.note(describe_failure("ReceiveMessage", other), true),
        }
    }

    /// Moves virtual time forward by `dt`.
    pub fn tick(&mut self, dt: Millis) {
        let t = self.engine.now() + dt;
        self.engine.advance_to(t);
    }

    /// Jumps to the engine's next deadline (e.g. a visibility timeout running out), if any.
    pub fn skip_to_next_deadline(&mut self) {
        match self.engine.next_deadline() {
            Some(t) if t > self.engine.now() => {
                self.engine.advance_to(t);
                self.note(format!("Skipped to t = {}.", seconds(t)), false);
            }
            Some(t) => self.engine.advance_to(t),
            None => self.note("Nothing scheduled.".into(), false),
        }
    }

    fn note(&mut self, text: String, failed: bool) {
        self.last_action = text;
        self.last_failed = failed;
    }
}

fn describe_failure(action: &str, reply: Reply) -> String {
    match reply {
        Reply::Done(Err(e)) => format!("{action} failed: {e}"),
        other => format!("{action}: unexpected reply {other:?}"),
    }
}

/// `ms` as seconds with one decimal, rounded up (a countdown shows 0.1 s until it is over).
pub fn seconds_ceil(ms: Millis) -> String {
    let tenths = ms.div_ceil(100);
    format!("{}.{} s", tenths / 10, tenths % 10)
}

/// `ms` as seconds with one decimal, rounded down (a clock).
pub fn seconds(ms: Millis) -> String {
    let tenths = ms / 100;
    format!("{}.{} s", tenths / 10, tenths % 10)
}

/// How a message's state is drawn: the `data-state` value and the label.
pub fn state_label(message: &MessageView, now: Millis) -> (&'static str, String) {
    match &message.state {
        MessageState::Visible => ("visible", "visible".to_string()),
        MessageState::InFlight { until, .. } => (
            "inflight",
            format!("in flight · {}", seconds_ceil(until.saturating_sub(now))),
        ),
        MessageState::Delayed { until } => (
            "delayed",
            format!("delayed · {}", seconds_ceil(until.saturating_sub(now))),
        ),
    }
}

/// Properties of [`VisibilitySlice`].
#[derive(Properties, PartialEq, Clone)]
pub struct VisibilitySliceProps {
    /// Whether virtual time follows real time (a [`TICK_MS`] interval). Off in tests that need a
    /// frozen clock; the "Skip" button still moves time.
    #[prop_or(true)]
    pub live: bool,
}

/// The slice's component: controls, clock and the queue's messages.
#[component]
pub fn VisibilitySlice(props: &VisibilitySliceProps) -> Html {
    let model = use_mut_ref(SliceModel::new);
    let redraw = use_force_update();

    {
        let model = model.clone();
        let redraw = redraw.clone();
        use_effect_with(props.live, move |live| {
            let interval = live.then(|| {
                Interval::new(TICK_MS as u32, move || {
                    model.borrow_mut().tick(TICK_MS);
                    redraw.force_update();
                })
            });
            move || drop(interval)
        });
    }

    let action = |f: fn(&mut SliceModel)| {
        let model = model.clone();
        let redraw = redraw.clone();
        Callback::from(move |_: MouseEvent| {
            f(&mut model.borrow_mut());
            redraw.force_update();
        })
    };

    let m = model.borrow();
    let now = m.now();
    let messages = m.messages();
    let rows = if messages.is_empty() {
        html! { <li class="empty">{ "The queue is empty." }</li> }
    } else {
        messages
            .iter()
            .map(|msg| {
                let (state, label) = state_label(msg, now);
                let short_id: String = msg.message_id.chars().take(8).collect();
                html! {
                    <li class="message" key={msg.message_id.clone()} data-state={state}>
                        <span>
                            <span class="body">{ &msg.body }</span>{ " " }
                            <span class="id" title={msg.message_id.clone()}>{ short_id }</span>
                        </span>
                        <span class="state">{ label }</span>
                        <span class="receives">{ format!("received {}×", msg.receive_count) }</span>
                    </li>
                }
            })
            .collect::<Html>()
    };

    html! {
        <section class="card slice" id="slice">
            <div class="slice-head">
                <h2>{ format!("Queue \"{QUEUE_NAME}\"") }</h2>
                <span class="clock" id="clock">{ format!("t = {}", seconds(now)) }</span>
            </div>
            <div class="controls">
                <button id="send" class="primary" onclick={action(SliceModel::send)}>
                    { "Send message" }
                </button>
                <button id="receive" onclick={action(SliceModel::receive)}>
                    { format!("Receive (visibility {VISIBILITY_TIMEOUT_S} s)") }
                </button>
                <button id="skip" onclick={action(SliceModel::skip_to_next_deadline)}>
                    { "Skip to next deadline" }
                </button>
            </div>
            <ul class="messages" id="messages">{ rows }</ul>
            <p id="last-action" class={classes!("log", m.last_failed().then_some("error"))}>
                { m.last_action() }
            </p>
        </section>
    }
}
