//! A session in live mode ([`crate::live`]): its World starts from the server's snapshot and
//! replays what the server's stream records after it, up to the virtual time the server has
//! reached; its clock controls and hands-on controls become requests to the server.

use super::{Session, Slot};
use crate::live::{self, Connection, Live, Outgoing, ServerClock, Signal, Update};
use crate::playground::format::wall_clock;
use crate::share::session::Session as SharedSession;
use serde_json::json;
use sqs_engine::Millis;
use sqs_sim::{Start, Step};

/// Why a simulation action is refused in live mode.
const NOT_YOUR_WORKERS: &str = "In live mode the workers are your application's own processes: \
the page can send, change settings, purge, redrive and make a message visible again \
(ChangeMessageVisibility 0), not add, kill or program workers.";

impl Session {
    /// A session that follows the server at `address` (`127.0.0.1:9324`); empty until the
    /// server's stream says which run it is in.
    pub fn live(address: &str) -> Session {
        let mut session = Session::open(live::recording(0, address, None, 0))
            .unwrap_or_else(|e| panic!("an empty recording does not open: {e}"));
        session.live = Some(Live::new(address));
        session
    }

    /// The live side, in live mode.
    pub fn live_state(&self) -> Option<&Live> {
        self.live.as_ref()
    }

    /// The requests for the server not sent yet (the page sends them).
    pub fn take_outbox(&mut self) -> Vec<Outgoing> {
        self.live
            .as_mut()
            .map(|live| std::mem::take(&mut live.outbox))
            .unwrap_or_default()
    }

    /// What the browser heard of the server's stream.
    pub fn hear(&mut self, signal: Signal) {
        let Some(live) = &mut self.live else {
            return;
        };
        let text = match signal {
            Signal::Opened => None,
            Signal::Lost if live.connection == Connection::Gone => None,
            Signal::Lost => {
                let never = live.connection == Connection::Connecting;
                live.connection = Connection::Gone;
                Some(if never {
                    format!(
                        "No sqs-sim serve answers at {}: the live view opens from the server's own \
                         address (./play live, then http://127.0.0.1:9324/). The page keeps trying.",
                        live.address
                    )
                } else {
                    format!(
                        "The server at {} is gone. What it recorded stays here; the page reconnects when it is back.",
                        live.address
                    )
                })
            }
            Signal::Event(name, data) => match Update::parse(&name, &data) {
                Ok(update) => {
                    self.update(update);
                    None
                }
                Err(e) => {
                    self.errors.insert(Slot::Clock, e);
                    None
                }
            },
        };
        if let Some(text) = text {
            self.journal.announce(text, self.wall);
        }
    }

    fn update(&mut self, update: Update) {
        match update {
            Update::Hello {
                seed,
                run,
                from,
                home,
                start,
            } => {
                let Some(live) = &mut self.live else {
                    return;
                };
                live.home = home;
                let same_run = live.run.is_some_and(|(r, _)| r == run);
                let held = live.run.map_or(0, |(_, first)| first + self.log.len());
                let resumed = same_run && start.is_none() && from == held;
                if !resumed {
                    self.begin_run(seed, (run, from), start, same_run);
                }
                if let Some(live) = &mut self.live {
                    let back = live.connection == Connection::Gone;
                    live.connection = Connection::Open;
                    let text = match (resumed, same_run, back) {
                        (true, _, _) => {
                            format!("Reconnected to {}: following it again.", live.address)
                        }
                        (false, true, _) => format!(
                            "Caught up with {} from its latest snapshot: the timeline starts there.",
                            live.address
                        ),
                        (false, false, true) => format!(
                            "Reconnected to {}: the server started again, so this is a new run.",
                            live.address
                        ),
                        (false, false, false) => {
                            format!("Following the server at {}.", live.address)
                        }
                    };
                    self.journal.announce(text, self.wall);
                }
            }
            Update::Steps(steps, clock) => {
                self.log.extend(steps);
                self.reach(clock);
            }
            Update::Clock(clock) => self.reach(clock),
        }
    }

    /// Starts over from step `run.1` of the server's run `run.0`: a World from `start` (the
    /// server's snapshot), or on its seed. A run before (unless it is this run again, caught up
    /// from its snapshot) stays saved in [`Session::previous_run`].
    fn begin_run(&mut self, seed: u64, run: (u64, usize), start: Option<Start>, same_run: bool) {
        let Some(mut live) = self.live.take() else {
            return;
        };
        let previous = (!same_run && !self.log.is_empty()).then(|| self.recorded());
        let mut fresh = Session::open(live::recording(seed, &live.address, start, run.1))
            .unwrap_or_else(|e| panic!("a recording from a snapshot does not open: {e}"));
        (fresh.wall, fresh.last_wall) = (self.wall, self.last_wall);
        live.clock = ServerClock::default();
        live.following = true;
        live.run = Some(run);
        fresh.live = Some(live);
        fresh.previous = previous.or_else(|| self.previous.take());
        *self = fresh;
    }

    /// The server has reached `clock.now`: the World follows, unless rewound.
    fn reach(&mut self, clock: ServerClock) {
        let Some(live) = &mut self.live else {
            return;
        };
        live.clock = clock;
        let following = live.following;
        self.horizon = self.horizon.max(clock.now);
        if following && clock.now >= self.now() {
            self.run_to(clock.now, true);
        }
    }

    /// The whole run recorded so far (not only up to a rewound playhead), at the server's time:
    /// what "Save as scenario" writes.
    pub fn recorded(&self) -> SharedSession {
        let mut shared = self.share();
        shared.actions = self.log.clone();
        shared.playhead = self.horizon();
        shared
    }

    /// The run before the server started again, if the page followed one.
    pub fn previous_run(&self) -> Option<&SharedSession> {
        self.previous.as_ref()
    }

    /// A clock control in live mode: a request to the server, and the stage back at the
    /// server's time (but for Pause and a seek). Returns false when not in live mode.
    pub(super) fn live_clock(&mut self, control: LiveClock) -> bool {
        let Some(live) = &self.live else {
            return false;
        };
        let edge = live.clock.now;
        let change = match control {
            LiveClock::Play => Some(json!({"pause": false})),
            LiveClock::Pause => Some(json!({"pause": true})),
            LiveClock::Speed(speed) => Some(json!({"speed": speed})),
            LiveClock::Step => match self.world.next_deadline() {
                None => {
                    let nothing =
                        "Nothing is scheduled: nothing happens until your application calls.";
                    self.errors.insert(Slot::Clock, nothing.into());
                    return true;
                }
                // Rewound, or with something due at the server's time already: the step is the
                // way back to it.
                Some(next) => (self.now() >= edge && next > edge)
                    .then(|| json!({"advance": (next - edge) as f64 / 1000.0})),
            },
            LiveClock::Seek(t) => {
                self.live_seek(t.min(edge), edge);
                return true;
            }
        };
        if control != LiveClock::Pause {
            self.live_seek(edge, edge);
        }
        if let (Some(live), Some(change)) = (&mut self.live, change) {
            live.outbox.push(Outgoing::Clock(change));
        }
        self.errors.remove(&Slot::Clock);
        true
    }

    /// Shows the recording at `t` (at most `edge`, the server's time); the stage follows the
    /// server again once it is there.
    fn live_seek(&mut self, t: Millis, edge: Millis) {
        if t != self.now() {
            if let Err(e) = self.jump(t) {
                self.errors.insert(Slot::Clock, e);
            }
            let text = format!("Moved to {}.", wall_clock(self.now()));
            self.journal.announce(text, self.wall);
        }
        if let Some(live) = &mut self.live {
            live.following = t >= edge;
        }
    }

    /// A hands-on action in live mode: an SQS call goes to the server (what it changes comes back
    /// through the stream); a simulation action is refused. `None` when not in live mode.
    pub(super) fn live_act(&mut self, slot: Slot, step: Step) -> Option<bool> {
        let live = self.live.as_mut()?;
        Some(match step {
            Step::Call(request) => {
                live.outbox.push(Outgoing::Call {
                    slot: slot.clone(),
                    request,
                });
                self.errors.remove(&slot);
                true
            }
            Step::Sim(_) => {
                self.errors.insert(slot, NOT_YOUR_WORKERS.into());
                false
            }
        })
    }
}

/// A clock control, as the live session turns it into a request.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum LiveClock {
    Play,
    Pause,
    Step,
    Speed(f64),
    Seek(Millis),
}

#[cfg(test)]
mod tests {
    use super::super::SendForm;
    use super::*;
    use crate::live::Outgoing;
    use serde_json::{json, Value};
    use sqs_sim::command::SimAction;

    const URL: &str = "https://sqs.us-east-1.amazonaws.com/000000000000/orders";

    fn event(name: &str, data: Value) -> Signal {
        Signal::Event(name.into(), data.to_string())
    }

    fn call(by: &str, at: Millis, action: &str, input: Value) -> Value {
        json!({"at": at, "step": {"sim": "Call", "input": {"by": by, "call": action, "input": input}}})
    }

    /// A live session told a run on seed 9: a queue, a message, a consumer that received it.
    fn following() -> Session {
        let mut s = Session::live("127.0.0.1:9324");
        s.hear(Signal::Opened);
        s.hear(event("hello", json!({"seed": 9, "run": 1, "from": 0})));
        let steps = [
            call(
                "shop",
                0,
                "CreateQueue",
                json!({"QueueName": "orders", "Attributes": {"VisibilityTimeout": "30"}}),
            ),
            call(
                "shop",
                1_000,
                "SendMessage",
                json!({"QueueUrl": URL, "MessageBody": "order-7"}),
            ),
            call(
                "billing-1",
                2_000,
                "ReceiveMessage",
                json!({"QueueUrl": URL}),
            ),
        ];
        s.hear(event(
            "steps",
            json!({"now": 5_000, "speed": 1, "paused": false, "steps": steps}),
        ));
        s
    }

    #[test]
    fn the_world_follows_the_servers_steps_up_to_its_time() {
        let s = following();
        assert_eq!(s.now(), 5_000);
        assert_eq!(s.scenario().seed, 9);
        let lanes = s.world().workers();
        assert_eq!(lanes[0].name, "billing-1");
        assert_eq!(lanes[0].holding.len(), 1);
        assert!(s.playing(), "following a running server");
        // The clock moves only when the server says so.
        let mut s = s;
        s.tick(0.0);
        s.tick(200.0);
        assert_eq!(s.now(), 5_000);
        s.hear(event(
            "clock",
            json!({"now": 33_000, "speed": 1, "paused": false}),
        ));
        assert_eq!(s.now(), 33_000);
        assert!(
            s.world().workers()[0].holding[0].lease_expired,
            "its timeout ran out at 32 s"
        );
    }

    #[test]
    fn a_rewind_stays_in_the_past_until_play_which_asks_the_server_too() {
        let mut s = following();
        s.seek(1_500);
        assert_eq!(s.now(), 1_500);
        assert!(
            s.world().workers().is_empty(),
            "before billing-1's first receive"
        );
        // The server goes on meanwhile: the stage stays where it was put.
        s.hear(event(
            "clock",
            json!({"now": 8_000, "speed": 1, "paused": true}),
        ));
        assert_eq!((s.now(), s.horizon()), (1_500, 8_000));
        s.play();
        assert_eq!(s.now(), 8_000, "Play comes back to the server's time");
        assert_eq!(s.take_outbox(), [Outgoing::Clock(json!({"pause": false}))]);
        s.pause();
        s.set_speed(10.0);
        assert_eq!(
            s.take_outbox(),
            [
                Outgoing::Clock(json!({"pause": true})),
                Outgoing::Clock(json!({"speed": 10.0}))
            ]
        );
    }

    #[test]
    fn hands_on_calls_go_to_the_server_and_simulation_actions_are_refused() {
        let mut s = following();
        assert!(s.send(
            "orders",
            &SendForm {
                body: "order-8".into(),
                ..Default::default()
            }
        ));
        let sent = s.take_outbox();
        assert!(
            matches!(&sent[..], [Outgoing::Call { slot: Slot::Send, request }] if request.action() == "SendMessage")
        );
        assert_eq!(
            s.world().engine().depths().count(),
            1,
            "nothing changed here: the stream will tell"
        );
        let kill = SimAction::Kill {
            worker: "billing-1".into(),
        };
        assert!(!s.worker_action("billing-1", kill));
        assert!(s
            .error(&Slot::Worker("billing-1".into()))
            .unwrap()
            .contains("your application's own processes"));
        assert!(s.take_outbox().is_empty());
    }

    #[test]
    fn a_server_gone_and_back_resumes_or_begins_a_new_run() {
        let mut s = following();
        s.hear(Signal::Lost);
        assert_eq!(s.live_state().unwrap().connection, Connection::Gone);
        assert!(!s.playing());
        assert_eq!(s.world().workers().len(), 1, "what it recorded stays");
        // The same run, resumed after the three steps sent: nothing is lost or repeated.
        s.hear(event("hello", json!({"seed": 9, "run": 1, "from": 3})));
        assert_eq!(s.live_state().unwrap().connection, Connection::Open);
        assert_eq!(s.recorded().actions.len(), 3);
        assert!(s.previous_run().is_none());
        // A new run (the server started again): a fresh World; the old run can still be saved.
        s.hear(Signal::Lost);
        s.hear(event("hello", json!({"seed": 10, "run": 2, "from": 0})));
        assert_eq!(s.scenario().seed, 10);
        assert!(s.world().workers().is_empty());
        assert_eq!(s.previous_run().unwrap().actions.len(), 3);
        // Bad data from the stream is named, and changes nothing.
        s.hear(event("steps", json!({"now": 1})));
        assert!(s.error(&Slot::Clock).unwrap().contains("no steps"));
    }
    #[test]
    fn a_page_that_connects_late_starts_from_the_servers_snapshot_and_saves_it() {
        // The server's engine after a long run: two messages, one in flight with billing-1.
        let mut server = sqs_sim::World::new(9);
        let by = |who: &str, at: Millis, action: &str, input: Value| {
            let step = call(who, at, action, input);
            sqs_sim::LoggedStep {
                at,
                step: Step::from_value(step["step"].clone()).unwrap(),
            }
        };
        let history = [
            by("shop", 0, "CreateQueue", json!({"QueueName": "orders"})),
            by(
                "shop",
                1_000,
                "SendMessage",
                json!({"QueueUrl": URL, "MessageBody": "order-1"}),
            ),
            by(
                "shop",
                2_000,
                "SendMessage",
                json!({"QueueUrl": URL, "MessageBody": "order-2"}),
            ),
            by(
                "billing-1",
                3_000,
                "ReceiveMessage",
                json!({"QueueUrl": URL}),
            ),
        ];
        for step in history {
            server.advance_to(step.at);
            server.apply(step.step).unwrap();
        }
        server.advance_to(20_000);
        let start = Start::of(server.engine());

        let mut s = Session::live("127.0.0.1:9324");
        s.hear(Signal::Opened);
        s.hear(event(
            "hello",
            json!({"seed": 9, "run": 4, "from": 20_000, "start": start}),
        ));
        let send = call(
            "shop",
            25_000,
            "SendMessage",
            json!({"QueueUrl": URL, "MessageBody": "order-3"}),
        );
        s.hear(event(
            "steps",
            json!({"now": 26_000, "speed": 1, "paused": false, "steps": [send]}),
        ));
        let depth = |s: &Session| {
            let depth = s.world().queue_depth("orders");
            (depth["visible"], depth["in_flight"])
        };
        assert_eq!((s.now(), depth(&s)), (26_000, (2, 1)));
        // Its title says how many calls the snapshot is after: the counters start there.
        assert_eq!(
            s.scenario().title,
            "Recorded from 127.0.0.1:9324 after 20,000 calls"
        );
        // The same run, after the step the page holds: it goes on from its own copy.
        s.hear(Signal::Lost);
        s.hear(event("hello", json!({"seed": 9, "run": 4, "from": 20_001})));
        assert_eq!(s.recorded().actions.len(), 1);
        // The timeline rewinds to the snapshot, no further.
        s.seek(0);
        assert_eq!((s.now(), depth(&s)), (20_000, (1, 1)));

        // Saved as a scenario file, the snapshot and the calls after it replay to the same state.
        let shared = s.recorded();
        let scenario = shared.resolve(|_| None).unwrap();
        let text = crate::share::export::session_file_text(&shared, &scenario);
        let file: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(file["start"], start);
        let imported = crate::share::export::import(&text).unwrap();
        let mut replayed = Session::restore(&imported).unwrap();
        replayed.seek(26_000);
        assert_eq!((replayed.now(), depth(&replayed)), (26_000, (2, 1)));

        // A stream that begins again from a later snapshot of the same run (the page fell
        // behind) replaces the copy; it is not a previous run.
        let mut later = server.clone();
        later.advance_to(30_000);
        let again =
            json!({"seed": 9, "run": 4, "from": 30_000, "start": Start::of(later.engine())});
        s.hear(event("hello", again));
        assert_eq!((s.now(), depth(&s)), (30_000, (1, 1)));
        assert!(s.scenario().title.ends_with("after 30,000 calls"));
        assert!(s.previous_run().is_none());
    }
}
