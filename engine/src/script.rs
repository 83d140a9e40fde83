//! Scenario scripts: the `sqs-sim run` file format (calls, clock advances, awaited long polls).
