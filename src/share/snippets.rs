//! "Turn this what-if into real configuration": the AWS CLI commands and the Python (boto3) and
//! Rust (aws-sdk-sqs) code that create the same queue, with its dead-letter queue and redrive
//! policy, as the playground's current settings.

use serde_json::json;
use std::collections::BTreeMap;

/// What to create: a queue with its attributes (as SQS strings), and optionally its DLQ.
#[derive(Clone, Debug, PartialEq)]
pub struct QueueSpec {
    /// The queue's name (ends in `.fifo` for a FIFO queue).
    pub name: String,
    /// Attributes to set, SQS names and string values (no RedrivePolicy: see `dead_letter`).
    pub attributes: BTreeMap<String, String>,
    /// The dead-letter queue's name and maxReceiveCount.
    pub dead_letter: Option<(String, u32)>,
}

impl QueueSpec {
    fn is_fifo(&self) -> bool {
        self.name.ends_with(".fifo")
    }

    /// The DLQ's own attributes: the same queue type as its source, as SQS requires.
    fn dlq_attributes(&self) -> BTreeMap<String, String> {
        let mut a = BTreeMap::new();
        if self.is_fifo() {
            a.insert("FifoQueue".to_string(), "true".to_string());
        }
        a
    }

    fn redrive_policy_json(&self, dlq_arn_expr: &str, max: u32) -> String {
        json!({ "deadLetterTargetArn": dlq_arn_expr, "maxReceiveCount": max.to_string() })
            .to_string()
    }
}

/// Stands for the DLQ's ARN until the shell expands it.
const ARN_SLOT: &str = "@DLQ_ARN@";

/// AWS CLI v2 commands (bash).
pub fn aws_cli(spec: &QueueSpec) -> String {
    let mut out = String::new();
    let mut attrs = spec.attributes.clone();
    if let Some((dlq, max)) = &spec.dead_letter {
        out.push_str(&cli_create(dlq, &spec.dlq_attributes(), "DLQ_URL"));
        out.push_str(
            "DLQ_ARN=$(aws sqs get-queue-attributes --queue-url \"$DLQ_URL\" \\\n  --attribute-names QueueArn --query Attributes.QueueArn --output text)\n",
        );
        attrs.insert(
            "RedrivePolicy".into(),
            spec.redrive_policy_json(ARN_SLOT, *max),
        );
    }
    // The ARN is only known when the script runs: leave the single quotes for a shell expansion.
    out.push_str(&cli_create(&spec.name, &attrs, "QUEUE_URL").replace(ARN_SLOT, "'\"$DLQ_ARN\"'"));
    out
}

fn cli_create(name: &str, attrs: &BTreeMap<String, String>, var: &str) -> String {
    let mut cmd = format!("{var}=$(aws sqs create-queue --queue-name {name}");
    if !attrs.is_empty() {
        let json = serde_json::to_string(attrs).unwrap_or_default();
        cmd.push_str(&format!(" \\\n  --attributes '{json}'"));
    }
    cmd.push_str(" --query QueueUrl --output text)\n");
    cmd
}

/// Python with boto3.
pub fn boto3(spec: &QueueSpec) -> String {
    let mut out = String::from("import json\nimport boto3\n\nsqs = boto3.client(\"sqs\")\n\n");
    let quoted = |map: &BTreeMap<String, String>| -> Vec<(String, String)> {
        map.iter()
            .map(|(k, v)| (k.clone(), format!("\"{v}\"")))
            .collect()
    };
    let mut attrs = quoted(&spec.attributes);
    if let Some((dlq, max)) = &spec.dead_letter {
        out.push_str(&format!(
            "dlq_url = sqs.create_queue(QueueName=\"{dlq}\", Attributes={})[\"QueueUrl\"]\n\
             dlq_arn = sqs.get_queue_attributes(QueueUrl=dlq_url, AttributeNames=[\"QueueArn\"])[\"Attributes\"][\"QueueArn\"]\n\n",
            py_dict(&quoted(&spec.dlq_attributes()))
        ));
        attrs.push((
            "RedrivePolicy".into(),
            format!(
                "json.dumps({{\"deadLetterTargetArn\": dlq_arn, \"maxReceiveCount\": \"{max}\"}})"
            ),
        ));
    }
    out.push_str(&format!(
        "queue_url = sqs.create_queue(QueueName=\"{}\", Attributes={})[\"QueueUrl\"]\n",
        spec.name,
        py_dict(&attrs)
    ));
    out
}

/// A Python dict literal of attribute names and (already quoted) Python expressions.
fn py_dict(entries: &[(String, String)]) -> String {
    if entries.is_empty() {
        return "{}".into();
    }
    let body: String = entries
        .iter()
        .map(|(k, v)| format!("    \"{k}\": {v},\n"))
        .collect();
    format!("{{\n{body}}}")
}

/// Rust with aws-sdk-sqs (inside an async fn returning a Result).
pub fn rust_sdk(spec: &QueueSpec) -> String {
    let mut out = String::from(
        "use aws_sdk_sqs::types::QueueAttributeName as A;\n\n\
         let config = aws_config::load_from_env().await;\n\
         let sqs = aws_sdk_sqs::Client::new(&config);\n\n",
    );
    let mut redrive = String::new();
    if let Some((dlq, max)) = &spec.dead_letter {
        out.push_str(&format!(
            "let dlq_url = sqs.create_queue().queue_name(\"{dlq}\"){}\n    .send().await?.queue_url.unwrap_or_default();\n\
             let dlq_arn = sqs.get_queue_attributes().queue_url(&dlq_url).attribute_names(A::QueueArn)\n    .send().await?.attributes.unwrap_or_default()[&A::QueueArn].clone();\n\n",
            rust_attrs(&spec.dlq_attributes())
        ));
        redrive = format!(
            "\n    .attributes(A::RedrivePolicy, format!(r#\"{{{{\"deadLetterTargetArn\":\"{{dlq_arn}}\",\"maxReceiveCount\":\"{max}\"}}}}\"#))"
        );
    }
    out.push_str(&format!(
        "let queue_url = sqs.create_queue().queue_name(\"{}\"){}{redrive}\n    .send().await?.queue_url.unwrap_or_default();\n",
        spec.name,
        rust_attrs(&spec.attributes)
    ));
    out
}

fn rust_attrs(map: &BTreeMap<String, String>) -> String {
    map.iter()
        .map(|(k, v)| format!("\n    .attributes(A::{k}, \"{v}\")"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> QueueSpec {
        QueueSpec {
            name: "orders".into(),
            attributes: [("VisibilityTimeout".to_string(), "45".to_string())].into(),
            dead_letter: Some(("orders-dlq".into(), 3)),
        }
    }

    #[test]
    fn cli_creates_the_dlq_first_and_points_the_redrive_policy_at_it() {
        let cli = aws_cli(&spec());
        let dlq = cli.find("--queue-name orders-dlq").unwrap();
        let main = cli.find("--queue-name orders ").unwrap();
        assert!(dlq < main);
        assert!(cli.contains(r#""VisibilityTimeout":"45""#));
        assert!(
            cli.contains(r#"\"maxReceiveCount\":\"3\""#)
                || cli.contains(r#"maxReceiveCount\":\"3"#)
        );
    }

    #[test]
    fn boto3_and_rust_name_every_setting() {
        for code in [boto3(&spec()), rust_sdk(&spec())] {
            assert!(code.contains("orders-dlq"), "{code}");
            assert!(code.contains("VisibilityTimeout"), "{code}");
            assert!(code.contains("\"45\""), "{code}");
            assert!(code.contains("maxReceiveCount"), "{code}");
        }
    }

    #[test]
    fn a_fifo_queue_gets_a_fifo_dlq() {
        let mut s = spec();
        s.name = "orders.fifo".into();
        s.dead_letter = Some(("orders-dlq.fifo".into(), 5));
        s.attributes.insert("FifoQueue".into(), "true".into());
        let py = boto3(&s);
        let dlq_line = py.lines().find(|l| l.contains("orders-dlq.fifo")).unwrap();
        assert!(dlq_line.contains("Attributes={"), "{py}");
        assert!(py.contains("\"FifoQueue\": \"true\""));
    }
}
