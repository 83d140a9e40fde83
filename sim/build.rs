//! Copies the scenario library (`scenarios/*.json` at the repository root) into `OUT_DIR` without
//! the whitespace between JSON tokens: the files are written to be read by people, and their
//! indentation would otherwise be compiled into the browser bundle (~14 KB).

#[path = "build/compact.rs"]
mod compact;

use compact::compact;
use std::path::Path;

fn main() {
    let library = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios");
    println!("cargo:rerun-if-changed={}", library.display());
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    for entry in std::fs::read_dir(&library).expect("scenarios/ exists") {
        let path = entry.expect("a readable directory").path();
        if path.extension().is_some_and(|ext| ext == "json") {
            let text = std::fs::read_to_string(&path).expect("a readable scenario file");
            let name = path.file_name().expect("a file");
            std::fs::write(Path::new(&out).join(name), compact(&text))
                .expect("OUT_DIR is writable");
        }
    }
}
