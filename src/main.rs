//! The browser entry point.
fn main() {
    sqs_playground::start();
}
