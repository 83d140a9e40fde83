//! Reads each scenario file of the library (`scenarios/*.json` at the repository root) and writes
//! its title to `OUT_DIR/<id>.title`: the browser bundle lists the library by title and fetches
//! a file only when it is picked (`scenario::LIBRARY`).

use std::path::Path;

fn main() {
    let library = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios");
    println!("cargo:rerun-if-changed={}", library.display());
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    for entry in std::fs::read_dir(&library).expect("scenarios/ exists") {
        let path = entry.expect("a readable directory").path();
        if path.extension().is_some_and(|ext| ext == "json") {
            let text = std::fs::read_to_string(&path).expect("a readable scenario file");
            let file: serde_json::Value = serde_json::from_str(&text)
                .unwrap_or_else(|e| panic!("{}: not JSON: {e}", path.display()));
            let title = file["title"]
                .as_str()
                .unwrap_or_else(|| panic!("{}: no \"title\"", path.display()));
            let id = path.file_stem().expect("a file name");
            let title_file = Path::new(&out).join(id).with_extension("title");
            std::fs::write(title_file, title).expect("OUT_DIR is writable");
        }
    }
}
