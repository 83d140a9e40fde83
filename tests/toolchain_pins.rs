//! The tool versions must agree everywhere they are written, or Trunk would refuse to build (or,
//! without `offline`, try to download another wasm-bindgen). One place sets them:
//! `scripts/versions.env` (trunk, wasm-bindgen-cli), `rust-toolchain.toml` (Rust, wasm32 target),
//! `package.json` (binaryen = wasm-opt); this test checks every copy against it.
#![cfg(not(target_arch = "wasm32"))]

use std::path::Path;

fn read(rel: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// `KEY=value` from scripts/versions.env.
fn pinned(key: &str) -> String {
    read("scripts/versions.env")
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix(&format!("{key}="))
                .map(str::to_string)
        })
        .unwrap_or_else(|| panic!("{key} not set in scripts/versions.env"))
}

/// The value of `key = "value"` in the `[section]` of a TOML file (top level: section "").
fn toml_value(text: &str, section: &str, key: &str) -> Option<String> {
    let mut current = String::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            current = line.trim_matches(|c| c == '[' || c == ']').to_string();
        } else if current == section {
            if let Some((k, v)) = line.split_once('=') {
                if k.trim() == key {
                    return Some(v.split('#').next()?.trim().trim_matches('"').to_string());
                }
            }
        }
    }
    None
}

/// Versions of `name` in Cargo.lock.
fn locked_versions(name: &str) -> Vec<String> {
    let lock = read("Cargo.lock");
    let mut versions = Vec::new();
    let mut in_package = false;
    for line in lock.lines() {
        if line == format!("name = \"{name}\"") {
            in_package = true;
        } else if in_package {
            if let Some(v) = line.strip_prefix("version = ") {
                versions.push(v.trim_matches('"').to_string());
                in_package = false;
            }
        }
    }
    versions
}

#[test]
fn wasm_bindgen_cli_matches_cargo_lock() {
    let cli = pinned("WASM_BINDGEN_VERSION");
    assert_eq!(
        locked_versions("wasm-bindgen"),
        vec![cli.clone()],
        "Cargo.lock's wasm-bindgen must equal WASM_BINDGEN_VERSION in scripts/versions.env \
         (the wasm-bindgen-cli that scripts/setup.sh installs)"
    );
    assert_eq!(
        toml_value(&read("Cargo.toml"), "dependencies", "wasm-bindgen"),
        Some(format!("={cli}")),
        "Cargo.toml must pin wasm-bindgen exactly (\"={cli}\")"
    );
    assert_eq!(
        toml_value(&read("Trunk.toml"), "tools", "wasm_bindgen"),
        Some(cli),
        "Trunk.toml [tools] wasm_bindgen"
    );
}

#[test]
fn wasm_opt_matches_npm_binaryen() {
    let package = read("package.json");
    let binaryen = package
        .lines()
        .find_map(|l| l.trim().strip_prefix("\"binaryen\": \""))
        .and_then(|rest| rest.split('"').next())
        .expect("package.json must list binaryen")
        .to_string();
    assert!(
        binaryen.chars().all(|c| c.is_ascii_digit() || c == '.'),
        "binaryen must be pinned exactly in package.json, got {binaryen}"
    );
    let major = binaryen.split('.').next().unwrap();
    assert_eq!(
        toml_value(&read("Trunk.toml"), "tools", "wasm_opt"),
        Some(format!("version_{major}")),
        "Trunk.toml [tools] wasm_opt must be `wasm-opt --version` of npm binaryen@{binaryen}"
    );
    let lock = read("package-lock.json");
    assert!(
        lock.contains(&format!(
            "\"node_modules/binaryen\": {{\n      \"version\": \"{binaryen}\""
        )),
        "package-lock.json must lock binaryen {binaryen} (run `npm install`)"
    );
}

#[test]
fn trunk_version_is_pinned_and_compatible() {
    let trunk = pinned("TRUNK_VERSION");
    let required = toml_value(&read("Trunk.toml"), "", "trunk-version").unwrap();
    let prefix = required.trim_start_matches('^');
    assert!(
        trunk.starts_with(&format!("{prefix}.")),
        "TRUNK_VERSION {trunk} does not satisfy Trunk.toml trunk-version {required}"
    );
}

#[test]
fn rust_toolchain_has_the_wasm_target() {
    let toolchain = read("rust-toolchain.toml");
    let channel = toml_value(&toolchain, "toolchain", "channel").unwrap();
    assert!(
        channel.split('.').count() == 3,
        "rust-toolchain.toml should pin an exact Rust version, got {channel}"
    );
    let targets = toml_value(&toolchain, "toolchain", "targets").unwrap();
    assert!(targets.contains("wasm32-unknown-unknown"), "{targets}");
}
