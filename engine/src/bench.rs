//! The lifecycle benchmark behind `sqs-sim bench`, shared by the native and the wasm build.
