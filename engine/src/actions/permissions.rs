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
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

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

/// A queue policy document, members in the order AWS writes them.
#[derive(Serialize, Deserialize)]
struct Policy {
    #[serde(rename = "Version")]
    version: Value,
    #[serde(rename = "Id", default, skip_serializing_if = "Option::is_none")]
    id: Option<Value>,
    #[serde(rename = "Statement", deserialize_with = "one_or_many")]
    statements: Vec<Statement>,
    #[serde(flatten)]
    rest: BTreeMap<String, Value>,
}

/// One statement, members in the order AWS writes them; any others after them.
#[derive(Serialize, Deserialize)]
struct Statement {
    #[serde(rename = "Sid", default, skip_serializing_if = "Option::is_none")]
    sid: Option<String>,
    #[serde(rename = "Effect", default, skip_serializing_if = "Option::is_none")]
    effect: Option<Value>,
    #[serde(rename = "Principal", default, skip_serializing_if = "Option::is_none")]
    principal: Option<Value>,
    #[serde(rename = "Action", default, skip_serializing_if = "Option::is_none")]
    action: Option<Value>,
    #[serde(rename = "Resource", default, skip_serializing_if = "Option::is_none")]
    resource: Option<Value>,
    #[serde(flatten)]
    rest: BTreeMap<String, Value>,
}

/// IAM's `Statement`: one statement or a list of them.
fn one_or_many<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<Statement>, D::Error> {
    let value = Value::deserialize(deserializer)?;
    let items = match value {
        Value::Array(items) => items,
        one => vec![one],
    };
    items
        .into_iter()
        .map(|item| serde_json::from_value(item).map_err(serde::de::Error::custom))
        .collect()
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
        let written = q
            .config
            .policy
            .as_deref()
            .and_then(|text| serde_json::from_str(text).ok());
        written.unwrap_or_else(|| Policy {
            version: "2012-10-17".into(),
            id: Some(format!("{}/SQSDefaultPolicy", q.arn).into()),
            statements: Vec::new(),
            rest: BTreeMap::new(),
        })
    }

    /// Stores `policy` as the queue's Policy attribute (none without statements).
    fn set_policy(&mut self, uid: u32, policy: &Policy) {
        let text = (!policy.statements.is_empty())
            .then(|| serde_json::to_string(policy).expect("a policy writes as JSON"));
        let now = self.now;
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
        if policy
            .statements
            .iter()
            .any(|s| s.sid.as_deref() == Some(&label))
        {
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
        policy.statements.push(Statement {
            sid: Some(label.clone()),
            effect: Some("Allow".into()),
            principal: Some(serde_json::json!({"AWS": one_or_list(principals.collect())})),
            action: Some(one_or_list(actions.collect())),
            resource: Some(self.q(uid).arn.clone().into()),
            rest: BTreeMap::new(),
        });
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
        let before = policy.statements.len();
        policy
            .statements
            .retain(|s| s.sid.as_deref() != Some(&label));
        if policy.statements.len() == before {
            return Err(SqsError::invalid_value(
                "Label",
                &label,
                "can't find label on existing policy.",
            ));
        }
        self.set_policy(uid, &policy);
        let queue = self.q(uid).name;
        self.emit(EventKind::PermissionRemoved { queue, label });
        Ok(Response::Empty(Empty {}))
    }
}
