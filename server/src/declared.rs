//! Declared queues: the TOML file `sqs-sim serve --config FILE` reads, created through the
//! engine's own actions before the server listens, so that SQS judges every value.
//!
//! One table per queue, whose keys are SQS's attribute names (values as strings, or as numbers
//! and booleans), and `tags`:
//!
//! ```toml
//! [queues.orders]
//! VisibilityTimeout = 45
//! RedrivePolicy = { deadLetterQueue = "orders-dlq", maxReceiveCount = 5 }
//! tags = { team = "billing" }
//!
//! [queues.orders-dlq]
//! RedriveAllowPolicy = { redrivePermission = "byQueue", sourceQueues = ["orders"] }
//!
//! [queues."jobs.fifo"]
//! FifoQueue = true
//! ```
//!
//! A policy (`RedrivePolicy`, `RedriveAllowPolicy`) may be a table, written as its JSON; in it a
//! queue is named by its name (`deadLetterQueue`, `sourceQueues`) or by its ARN
//! (`deadLetterTargetArn`, `sourceQueueArns`).
//!
//! Each queue is made by `CreateQueue` (with `FifoQueue` and its tags), then every other
//! attribute is set by one `SetQueueAttributes` each, once all queues exist (so a dead-letter
//! queue may be declared after the queue that uses it). An attribute the engine refuses stops the
//! start, with the queue, the attribute and SQS's own message.

use crate::journal::Caller;
use crate::state::{Outcome, State};
use serde::Deserialize;
use serde_json::{json, Map, Value};
use sqs_engine::{Engine, Request};
use std::collections::BTreeMap;
use std::path::Path;

/// The file's shape.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    queues: BTreeMap<String, toml::Table>,
}

/// The queues a file declares, as read (not yet created).
#[derive(Clone, Debug, Default)]
pub struct Declared {
    /// The file, as the caller of its calls is named (the live view's event log shows it).
    file: String,
    queues: Vec<Queue>,
}

#[derive(Clone, Debug)]
struct Queue {
    name: String,
    attributes: BTreeMap<String, toml::Value>,
    tags: BTreeMap<String, String>,
}

/// The attribute `CreateQueue` must be given (it cannot be set afterwards).
const AT_CREATION: &str = "FifoQueue";

impl Declared {
    /// Reads `path`; a file that is no TOML or not of this shape is refused with the place and
    /// the reason.
    pub fn read(path: &Path) -> Result<Declared, String> {
        let label = path.display();
        let text = std::fs::read_to_string(path).map_err(|e| format!("{label}: {e}"))?;
        let file: File = toml::from_str(&text).map_err(|e| format!("{label}: {e}"))?;
        let mut queues = Vec::new();
        for (name, mut table) in file.queues {
            let tags = match table.remove("tags") {
                None => BTreeMap::new(),
                Some(toml::Value::Table(tags)) => tags
                    .into_iter()
                    .map(|(key, value)| match value {
                        toml::Value::String(value) => Ok((key, value)),
                        other => Err(format!(
                            "{label}: queue {name:?}, tag {key:?}: a tag's value is a string, not {other}"
                        )),
                    })
                    .collect::<Result<_, _>>()?,
                Some(other) => {
                    return Err(format!(
                        "{label}: queue {name:?}, tags: a table of strings, not {other}"
                    ))
                }
            };
            queues.push(Queue {
                name,
                attributes: table.into_iter().collect(),
                tags,
            });
        }
        Ok(Declared {
            file: path
                .file_name()
                .map_or_else(|| label.to_string(), |f| f.to_string_lossy().into()),
            queues,
        })
    }

    /// Whether it declares nothing.
    pub fn is_empty(&self) -> bool {
        self.queues.is_empty()
    }

    /// Who makes the calls that create the queues.
    pub fn caller(&self) -> Caller {
        Caller::Client(self.file.clone())
    }

    /// Creates the queues in `state`'s engine; answers the calls it made (to make them again
    /// after a reset), or what was refused: the queue, the attribute and SQS's message.
    pub fn apply(&self, state: &mut State) -> Result<Vec<Request>, String> {
        let caller = self.caller();
        let mut made = Vec::new();
        let run = |state: &mut State, queue: &str, attribute: Option<&str>, request| {
            let what = attribute.map_or(String::new(), |a| format!(", attribute {a}"));
            match state.call(&caller, request) {
                Outcome::Done(Ok(_)) => Ok(()),
                Outcome::Done(Err(e)) => Err(format!(
                    "{}: queue {queue:?}{what}: {}: {}",
                    self.file,
                    e.code.query_code(),
                    e.message
                )),
                Outcome::Waiting(_) => unreachable!("only queue actions are declared"),
            }
        };
        for queue in &self.queues {
            let mut input = json!({"QueueName": queue.name});
            if let Some(value) = queue.attributes.get(AT_CREATION) {
                let value = attribute_text(value, state.engine())
                    .map_err(|e| self.refused(&queue.name, AT_CREATION, &e))?;
                input["Attributes"] = json!({AT_CREATION: value});
            }
            if !queue.tags.is_empty() {
                input["tags"] = json!(queue.tags);
            }
            let request = self.request("CreateQueue", input, &queue.name, None)?;
            made.push(request.clone());
            run(state, &queue.name, None, request)?;
        }
        for queue in &self.queues {
            let url = state.engine().queue_url(&queue.name).expect("created");
            for (attribute, value) in &queue.attributes {
                if attribute == AT_CREATION {
                    continue;
                }
                let value = attribute_text(value, state.engine())
                    .map_err(|e| self.refused(&queue.name, attribute, &e))?;
                let input = json!({"QueueUrl": url.to_string(), "Attributes": {attribute: value}});
                let request =
                    self.request("SetQueueAttributes", input, &queue.name, Some(attribute))?;
                made.push(request.clone());
                run(state, &queue.name, Some(attribute), request)?;
            }
        }
        Ok(made)
    }

    fn refused(&self, queue: &str, attribute: &str, reason: &str) -> String {
        format!(
            "{}: queue {queue:?}, attribute {attribute}: {reason}",
            self.file
        )
    }

    fn request(
        &self,
        action: &str,
        input: Value,
        queue: &str,
        attribute: Option<&str>,
    ) -> Result<Request, String> {
        Request::from_input(action, input).map_err(|e| match attribute {
            Some(attribute) => self.refused(queue, attribute, &e.to_string()),
            None => format!("{}: queue {queue:?}: {e}", self.file),
        })
    }
}

/// An attribute's value as SQS takes it: a string as it is, a number or boolean as its text, a
/// table as its JSON (queue names in it become the engine's ARNs).
fn attribute_text(value: &toml::Value, engine: &Engine) -> Result<String, String> {
    Ok(match value {
        toml::Value::String(text) => text.clone(),
        toml::Value::Integer(n) => n.to_string(),
        toml::Value::Float(n) => n.to_string(),
        toml::Value::Boolean(b) => b.to_string(),
        toml::Value::Table(table) => policy(table, engine)?.to_string(),
        other => {
            return Err(format!(
                "expected a string, a number, a boolean or a table, not {other}"
            ))
        }
    })
}

/// A policy table as JSON, with `deadLetterQueue` and `sourceQueues` (queue names) written as
/// `deadLetterTargetArn` and `sourceQueueArns`.
fn policy(table: &toml::Table, engine: &Engine) -> Result<Value, String> {
    let arn = |name: &Value| -> Result<Value, String> {
        let name = name
            .as_str()
            .ok_or_else(|| format!("a queue is named by a string, not {name}"))?;
        engine
            .queue_arn(name)
            .map(Value::String)
            .ok_or_else(|| format!("no queue {name:?} is declared"))
    };
    let mut members = Map::new();
    for (key, value) in table {
        let value = serde_json::to_value(value).map_err(|e| e.to_string())?;
        match key.as_str() {
            "deadLetterQueue" => {
                members.insert("deadLetterTargetArn".into(), arn(&value)?);
            }
            "sourceQueues" => {
                let names = value
                    .as_array()
                    .ok_or_else(|| format!("sourceQueues is a list of names, not {value}"))?;
                let arns = names.iter().map(arn).collect::<Result<_, _>>()?;
                members.insert("sourceQueueArns".into(), Value::Array(arns));
            }
            _ => {
                members.insert(key.clone(), value);
            }
        }
    }
    Ok(Value::Object(members))
}
