//! The playground's parts. Each draws what it is given and reports what the user does through
//! the root's [`crate::playground::Action`] callback; none holds an SQS rule.

pub mod chart;
pub mod controls;
pub mod counters;
pub mod counts;
pub mod dlq;
pub mod event_log;
pub mod history;
pub mod icons;
pub mod ledger;
pub mod message;
pub mod queue;
pub mod scenario_picker;
pub mod send_form;
pub mod settings;
pub mod worker_lane;
pub mod worker_policy;
