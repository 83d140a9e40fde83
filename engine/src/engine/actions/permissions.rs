//! AddPermission and RemovePermission: statements in the queue's `Policy` attribute.
//!
//! AddPermission writes the policy as AWS generates it ([API:AddPermission]): a document
//! `{"Version":"2012-10-17","Id":"<queue ARN>/SQSDefaultPolicy","Statement":[...]}` whose
//! statements read `{"Sid":<label>,"Effect":"Allow","Principal":{"AWS":"arn:aws:iam::<account>:root"},
//! "Action":"SQS:<action>","Resource":<queue ARN>}` (a single principal or action as a string,
//! several as a list), as moto's `test_permissions` reads it back. Rules: a label is unique in the
//! queue's policy, at most 80 characters of alphanumerics, `-` and `_` [API:AddPermission Label];
//! at most seven actions per statement (OverLimit "8 Actions were found, maximum allowed is 7.");
//! only the actions a queue's owner may share, or `*` [DG:Amazon SQS API permissions]; the
//! policy limits of [DG:Special information for SQS policies] (20 statements, 50 principals).
//! Statements the queue's owner wrote with SetQueueAttributes are kept, their members in place
//! (a Policy text that is no policy document, which AWS would not have accepted, starts over).
//! Without statements left, the queue has no Policy (as moto answers).

use crate::api::*;
use crate::engine::Engine;
use crate::error::{ErrorCode, SqsError};
use crate::event::EventKind;
use serde_json::{Map, Value};

/// The actions another account may be given (besides `*`); the others are the owner's own.
const SHAREABLE: &[&str] = &[
    "ChangeMessageVisibility",
    "DeleteMessage",
    "GetQueueAttributes",
    "GetQueueUrl",
    "ListDeadLetterSourceQueues",
    "PurgeQueue",
    "ReceiveMessage",
    "SendMessage",
];
/// Policy limits: actions per statement, statements, principals.
const MAX_ACTIONS: usize = 7;
const MAX_STATEMENTS: usize = 20;
const MAX_PRINCIPALS: usize = 50;

/// A queue policy document: its statements, and its other members (Version, Id, ...).
struct Policy {
    members: Map<String, Value>,
    statements: Vec<Map<String, Value>>,
}

/// The members of a policy document and of a statement in the order AWS writes them; others
/// follow in name order.
const POLICY_ORDER: &[&str] = &["Version", "Id", "Statement"];
const STATEMENT_ORDER: &[&str] = &["Sid", "Effect", "Principal", "Action", "Resource"];

impl Policy {
    /// Reads a policy document; IAM's `Statement` is one statement or a list of them.
    fn read(text: &str) -> Option<Policy> {
        let Ok(Value::Object(mut members)) = serde_json::from_str(text) else {
            return None;
        };
        let statements = match members.remove("Statement") {
            Some(Value::Array(items)) => items,
            Some(one) => vec![one],
            None => Vec::new(),
        };
        let statements = statements.into_iter().map(|s| match s {
            Value::Object(statement) => Some(statement),
            _ => None,
        });
        Some(Policy {
            members,
            statements: statements.collect::<Option<_>>()?,
        })
    }

    /// The statement ids.
    fn sids(&self) -> impl Iterator<Item = Option<&str>> {
        self.statements
            .iter()
            .map(|s| s.get("Sid").and_then(Value::as_str))
    }

    /// The document as JSON text, members in AWS's order.
    fn write(&self) -> String {
        let statements: Vec<String> = self
            .statements
            .iter()
            .map(|s| ordered(s, STATEMENT_ORDER, None))
            .collect();
        let statements = format!("[{}]", statements.join(","));
        ordered(
            &self.members,
            POLICY_ORDER,
            Some(("Statement", &statements)),
        )
    }
}

/// `members` as a JSON object, those named in `order` first and in that order, plus `extra` (a
/// member already written as JSON) in its place.
fn ordered(members: &Map<String, Value>, order: &[&str], extra: Option<(&str, &str)>) -> String {
    let json = |value: &Value| value.to_string();
    let first = order.iter().filter_map(|&name| match extra {
        Some((extra_name, text)) if extra_name == name => Some((name, text.to_string())),
        _ => members.get(name).map(|value| (name, json(value))),
    });
    let rest = members
        .iter()
        .filter(|(name, _)| !order.contains(&name.as_str()))
        .map(|(name, value)| (name.as_str(), json(value)));
    let written: Vec<String> = first
        .chain(rest)
        .map(|(name, value)| format!("{}:{value}", Value::from(name)))
        .collect();
    format!("{{{}}}", written.join(","))
}

/// One item as a string, several as a list (as AWS writes Principal.AWS and Action).
fn one_or_list(mut items: Vec<String>) -> Value {
    match items.len() {
        1 => Value::from(items.remove(0)),
        _ => Value::from(items),
    }
}

/// OverLimit "<n> <what> were found, maximum allowed is <max>."
fn over_limit(n: usize, what: &str, max: usize) -> SqsError {
    SqsError::new(
        ErrorCode::OverLimit,
        format!("{n} {what} were found, maximum allowed is {max}."),
    )
}

impl Engine {
    /// The queue's policy as a document: its Policy attribute, or a new one with no statement.
    fn policy_of(&self, uid: u32) -> Policy {
        let q = self.q(uid);
        let written = q.config.policy.as_deref().and_then(Policy::read);
        written.unwrap_or_else(|| {
            let mut members = Map::new();
            members.insert("Version".into(), "2012-10-17".into());
            members.insert("Id".into(), format!("{}/SQSDefaultPolicy", q.arn).into());
            Policy {
                members,
                statements: Vec::new(),
            }
        })
    }

    /// Stores `policy` as the queue's Policy attribute (none without statements).
    fn set_policy(&mut self, uid: u32, policy: &Policy) {
        let text = (!policy.statements.is_empty()).then(|| policy.write());
        let now = self.now();
        let q = self.q_mut(uid);
        q.config.policy = text;
        q.modified_at = now;
    }

    pub(crate) fn add_permission(
        &mut self,
        input: AddPermissionInput,
    ) -> Result<Response, SqsError> {
        let uid = self.resolve(&input.queue_url)?;
        let (label, accounts, actions) = (input.label, input.a_w_s_account_ids, input.actions);
        if actions.is_empty() {
            return Err(SqsError::missing("Actions"));
        }
        let account_id = |a: &String| a.len() == 12 && a.bytes().all(|b| b.is_ascii_digit());
        if accounts.is_empty() || !accounts.iter().all(account_id) {
            let listed = format!("[{}]", accounts.join(", "));
            return Err(SqsError::invalid_value(
                "PrincipalId",
                &listed,
                "Unable to verify.",
            ));
        }
        if accounts.len() > MAX_PRINCIPALS {
            return Err(over_limit(accounts.len(), "Principals", MAX_PRINCIPALS));
        }
        if actions.len() > MAX_ACTIONS {
            return Err(over_limit(actions.len(), "Actions", MAX_ACTIONS));
        }
        for action in &actions {
            if action == "*" || SHAREABLE.contains(&action.as_str()) {
                continue;
            }
            let reason = if Request::ACTIONS.contains(&action.as_str()) {
                "Only the queue owner is allowed to invoke this action."
            } else {
                "Please refer to the appropriate WSDL for a list of valid actions."
            };
            return Err(SqsError::invalid_value(
                "ActionName",
                &format!("SQS:{action}"),
                reason,
            ));
        }
        let label_chars = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
        if label.is_empty() {
            return Err(SqsError::missing("Label"));
        }
        if label.len() > 80 || !label.chars().all(label_chars) {
            return Err(SqsError::invalid_value(
                "Label",
                &label,
                "Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length.",
            ));
        }
        let mut policy = self.policy_of(uid);
        if policy.sids().any(|sid| sid == Some(&label)) {
            return Err(SqsError::invalid_value("Label", &label, "Already exists."));
        }
        if policy.statements.len() >= MAX_STATEMENTS {
            return Err(over_limit(
                policy.statements.len() + 1,
                "Statements",
                MAX_STATEMENTS,
            ));
        }
        let principals = accounts.iter().map(|a| format!("arn:aws:iam::{a}:root"));
        let actions = actions.iter().map(|a| format!("SQS:{a}"));
        let mut statement = Map::new();
        statement.insert("Sid".into(), label.clone().into());
        statement.insert("Effect".into(), "Allow".into());
        let mut principal = Map::new();
        principal.insert("AWS".into(), one_or_list(principals.collect()));
        statement.insert("Principal".into(), principal.into());
        statement.insert("Action".into(), one_or_list(actions.collect()));
        statement.insert("Resource".into(), self.q(uid).arn.clone().into());
        policy.statements.push(statement);
        self.set_policy(uid, &policy);
        let queue = self.q(uid).name;
        self.emit(EventKind::PermissionAdded { queue, label });
        Ok(Response::Empty(Empty {}))
    }

    pub(crate) fn remove_permission(
        &mut self,
        input: RemovePermissionInput,
    ) -> Result<Response, SqsError> {
        let uid = self.resolve(&input.queue_url)?;
        let label = input.label;
        if label.is_empty() {
            return Err(SqsError::missing("Label"));
        }
        let mut policy = self.policy_of(uid);
        let found = policy.sids().position(|sid| sid == Some(&label));
        let Some(found) = found else {
            return Err(SqsError::invalid_value(
                "Label",
                &label,
                "can't find label on existing policy.",
            ));
        };
        policy.statements.remove(found);
        self.set_policy(uid, &policy);
        let queue = self.q(uid).name;
        self.emit(EventKind::PermissionRemoved { queue, label });
        Ok(Response::Empty(Empty {}))
    }
}
