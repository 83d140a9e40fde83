//! The user's hands: dragging a message onto a worker, and manual mode (receive, extend, delete
//! by hand with the receipt handle the lane holds).

use super::{named, World};
use crate::lane::Life;
use crate::worker::WorkerMode;
use serde_json::{json, Value};
use sqs_engine::api::{ChangeMessageVisibilityInput, DeleteMessageInput, QueueUrl, ToJson};
use sqs_engine::{ReceiptHandle, Reply, Request};

impl World {
    /// Drag-and-drop: the lane receives that message now.
    pub(crate) fn deliver(&mut self, name: &str, message_id: &str) -> Result<Value, String> {
        let i = self.lane_index(name)?;
        if self.lanes[i].life != Life::Alive {
            return Err(format!("{name} is not running."));
        }
        let policy = &self.lanes[i].policy;
        let queue_url = self
            .engine
            .queue_url_in(&self.lanes[i].namespace, &policy.queue)
            .ok_or_else(|| format!("The queue {} does not exist.", policy.queue))?;
        let visibility = policy.visibility_timeout.map(i64::from);
        let output = self
            .engine
            .receive_specific(&queue_url, message_id, visibility)
            .map_err(|e| e.to_string())?;
        // Counted as the ReceiveMessage it stands for (found by name: a hand delivery is rare).
        let receive = Request::ACTIONS.iter().position(|&a| a == "ReceiveMessage");
        self.metrics
            .count_call(receive.expect("ReceiveMessage is an SQS action"));
        self.lanes[i].api_calls += 1;
        self.settle(self.who(i), Some("ReceiveMessage"));
        let messages = output.messages.clone().unwrap_or_default();
        self.take(i, messages);
        Ok(output.to_json())
    }

    /// ReceiveMessage by hand.
    pub(crate) fn manual_receive(&mut self, name: &str) -> Result<Value, String> {
        let i = self.lane_index(name)?;
        if self.lanes[i].life != Life::Alive || self.lanes[i].polling {
            return Err(format!(
                "{name} cannot receive now (not running, or already waiting)."
            ));
        }
        self.receive(i);
        Ok(named("worker", name).into())
    }

    /// The held task's (queue URL, receipt handle), for a by-hand action.
    fn held(&mut self, i: usize, message_id: &str) -> Result<(QueueUrl, ReceiptHandle), String> {
        let lane = &self.lanes[i];
        lane.jobs
            .iter()
            .find_map(|j| {
                j.unfinished()
                    .find(|t| *t.message_id == *message_id)
                    .map(|t| (j.queue_url.clone(), t.receipt_handle))
            })
            .ok_or_else(|| format!("{} does not hold that message.", lane.name))
    }

    /// DeleteMessage by hand (manual mode).
    pub(crate) fn manual_delete(&mut self, name: &str, message_id: &str) -> Result<Value, String> {
        let i = self.lane_index(name)?;
        if self.lanes[i].policy.mode != WorkerMode::Manual {
            return Err(format!(
                "{name} is not in manual mode: it deletes by itself."
            ));
        }
        let (queue_url, receipt_handle) = self.held(i, message_id)?;
        let request = Request::DeleteMessage(DeleteMessageInput {
            queue_url,
            receipt_handle: receipt_handle.into(),
        });
        match self.call(self.who(i), request) {
            Reply::Done(Ok(_)) => {
                // Usually done already by the Deleted event; not when SQS had nothing to delete.
                self.lanes[i].forget_manual(message_id);
                Ok(json!({}))
            }
            Reply::Done(Err(e)) => Err(e.to_string()),
            Reply::Pending(_) => Err("DeleteMessage did not answer.".into()),
        }
    }

    /// ChangeMessageVisibility by hand.
    pub(crate) fn extend(
        &mut self,
        name: &str,
        message_id: &str,
        visibility_timeout: u32,
    ) -> Result<Value, String> {
        let i = self.lane_index(name)?;
        let (queue_url, receipt_handle) = self.held(i, message_id)?;
        let request = Request::ChangeMessageVisibility(ChangeMessageVisibilityInput {
            queue_url,
            receipt_handle: receipt_handle.into(),
            visibility_timeout: i64::from(visibility_timeout),
        });
        match self.call(self.who(i), request) {
            Reply::Done(Ok(_)) => Ok(json!({})),
            Reply::Done(Err(e)) => Err(e.to_string()),
            Reply::Pending(_) => Err("ChangeMessageVisibility did not answer.".into()),
        }
    }
}
