//! `sqs-sim`: runs scenario files against the engine and prints the results.
fn main() {
    eprintln!("usage: sqs-sim run FILE.json | sqs-sim bench");
    std::process::exit(2);
}
