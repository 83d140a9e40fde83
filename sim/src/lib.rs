//! # sqs-sim
//!
//! The world around the queue, as deterministic Rust on top of `sqs-engine`: producers, workers
//! (each talking to the engine only through the SQS actions a real worker calls), side effects
//! and their ledger, injected faults, metrics, and the scenario files that drive it all.
