//! Calls made by clients of their own: the processes that talk to `sqs-sim serve`, as its live
//! view records them ([`SimAction::Call`](crate::SimAction::Call)).
//!
//! A client becomes a consumer with its first ReceiveMessage: a lane of its name, in manual mode
//! (nothing happens on it but what the client calls), on the queue it received from. What it
//! receives waits on that lane, its visibility timeout counting down, until it deletes the
//! message or changes its visibility, or until the timeout runs out (a client that crashed).
//! Any other client (one that only sends, say) is named in the event log.

use super::{pending, World};
use crate::actor::Who;
use crate::worker::{WorkerMode, WorkerPolicy};
use serde_json::Value;
use sqs_engine::api::{QueueUrl, Response, ToJson};
use sqs_engine::script::error_json;
use sqs_engine::{Namespace, Reply, Request};

impl World {
    /// Runs `request` as the client `by`: SQS's answer as AWS writes it (its error included:
    /// a refusal is narrated, as a worker's is, and changes nothing).
    pub(crate) fn client_call(
        &mut self,
        by: &str,
        namespace: &Namespace,
        request: Request,
    ) -> Result<Value, String> {
        if by.trim().is_empty() {
            return Err("A client needs a name.".into());
        }
        let lane = match (self.lane_index(by), &request) {
            (Ok(i), _) => Some(i),
            (Err(_), Request::ReceiveMessage(input)) => {
                Some(self.add_consumer(by, namespace, &input.queue_url)?)
            }
            (Err(_), _) => None,
        };
        let who = match lane {
            Some(i) => self.who(i),
            None => self.client(by),
        };
        let action = request.action();
        let told = self.events_len();
        let answer = match self.call_in(who, namespace, request) {
            Reply::Done(Ok(response)) => {
                let answer = response.to_json();
                if let (Some(i), Response::ReceiveMessage(output)) = (lane, response) {
                    let id = self.lanes[i].id;
                    self.received(id, output, 0);
                }
                // A call SQS tells no event of (GetQueueAttributes, an empty short poll)
                // still shows in the event log: the live view shows every call.
                if self.events_len() == told {
                    let actor = self.actor_of(who);
                    self.push(
                        actor,
                        Some(action),
                        None,
                        None,
                        format!("{by} called {action}"),
                    );
                }
                answer
            }
            // Narrated by `call`.
            Reply::Done(Err(error)) => error_json(&error),
            Reply::Pending(poll) => {
                if let Some(i) = lane {
                    self.wait_for(i, poll);
                }
                pending(poll)
            }
        };
        self.follow(namespace);
        Ok(answer)
    }

    /// A lane for a client that receives for the first time, on the queue of `queue_url`, which
    /// it calls in `namespace`.
    fn add_consumer(
        &mut self,
        name: &str,
        namespace: &Namespace,
        queue_url: &QueueUrl,
    ) -> Result<usize, String> {
        let queue = queue_url.rsplit('/').next().unwrap_or_default();
        let policy = WorkerPolicy {
            mode: WorkerMode::Manual,
            effects: Vec::new(),
            ..WorkerPolicy::new(queue)
        };
        self.add_worker(name, policy)?;
        let i = self.lane_index(name)?;
        self.lanes[i].client = true;
        self.lanes[i].namespace = namespace.clone();
        Ok(i)
    }

    /// The client without a lane named `name`, known from now on.
    fn client(&mut self, name: &str) -> Who {
        let i = match self.clients.iter().position(|c| c == name) {
            Some(i) => i,
            None => {
                self.clients.push(name.to_string());
                self.clients.len() - 1
            }
        };
        Who::Client(i)
    }
}
