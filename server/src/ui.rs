//! The playground's live bundle (built with its `live` feature into `dist-live/` by `./play live`,
//! `trunk build --release --features live --dist dist-live`), served beside the SQS endpoint by
//! tower-http's `ServeDir` (with the bundle's brotli or gzip twins to clients that take them):
//! `http://127.0.0.1:9324/` opens the playground in live mode on this server. The player in
//! `dist/` (what static hosts ship) has no live view.

use axum::body::Body;
use axum::extract::Request;
use axum::http::header::{HeaderValue, CACHE_CONTROL, CONTENT_TYPE, LOCATION};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use std::path::{Component, Path, PathBuf};
use tower::ServiceExt;
use tower_http::services::ServeDir;

/// The live bundle's folder in a checkout: `./play live` builds it there.
pub const LIVE_BUNDLE: &str = "dist-live";

/// Where the playground's files are, if they were found.
#[derive(Clone, Debug, Default)]
pub struct Ui {
    dir: Option<PathBuf>,
}

impl Ui {
    /// The files in `dir` if given, else in [`LIVE_BUNDLE`] of the current directory or of the
    /// checkout this binary was built in (when they hold an `index.html`).
    pub fn find(dir: Option<PathBuf>) -> Ui {
        let built_beside = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(LIVE_BUNDLE);
        let candidates = match dir {
            Some(dir) => vec![dir],
            None => vec![PathBuf::from(LIVE_BUNDLE), built_beside],
        };
        let dir = candidates
            .into_iter()
            .find(|d| d.join("index.html").is_file())
            .and_then(|d| d.canonicalize().ok());
        Ui { dir }
    }

    /// The folder served, if any.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The answer to a GET (whose query names no SQS action) when it is the playground's: `/`
    /// opens the live view (`/?live=1`; with a query, the page it asks for); a file of the
    /// bundle is sent. `Err`: not the playground's (no such file, a hidden one, or no bundle),
    /// the request given back for SQS to answer.
    pub async fn answer(&self, request: Request) -> Result<Response, Request> {
        let path = request.uri().path();
        let Some(dir) = &self.dir else {
            if path != "/" {
                return Err(request);
            }
            let text = "The live view's files were not found: build them with ./play live (or \
                        trunk build --release --features live --dist dist-live), or start \
                        sqs-sim serve with --ui DIR.\n";
            let kind = [(CONTENT_TYPE, "text/plain; charset=utf-8")];
            return Ok((StatusCode::NOT_FOUND, kind, text).into_response());
        };
        if path == "/" && request.uri().query().is_none() {
            let mut redirect = StatusCode::FOUND.into_response();
            let location = HeaderValue::from_static("/?live=1");
            redirect.headers_mut().insert(LOCATION, location);
            return Ok(redirect);
        }
        if path != "/" && bundle_file(dir, path).is_none() {
            return Err(request);
        }
        let files = ServeDir::new(dir).precompressed_br().precompressed_gzip();
        let mut response = match files.oneshot(request).await {
            Ok(response) => response.map(Body::new),
            Err(never) => match never {},
        };
        // A rebuilt bundle must show at the next load.
        let no_cache = HeaderValue::from_static("no-cache");
        response.headers_mut().insert(CACHE_CONTROL, no_cache);
        Ok(response)
    }
}

/// The file under `dir` that `path` names, if it is one: no `..`, no hidden parts.
fn bundle_file(dir: &Path, path: &str) -> Option<PathBuf> {
    let relative = Path::new(path.trim_start_matches('/'));
    let plain = relative.components().all(|c| match c {
        Component::Normal(part) => !part.to_string_lossy().starts_with('.'),
        _ => false,
    });
    let file = dir.join(relative);
    (plain && file.is_file()).then_some(file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::header::{ACCEPT_ENCODING, CONTENT_ENCODING};

    fn get(path: &str, gzip: bool) -> Request {
        let mut request = Request::get(path);
        if gzip {
            request = request.header(ACCEPT_ENCODING, "gzip");
        }
        request.body(Body::empty()).unwrap()
    }

    #[tokio::test]
    async fn only_the_bundles_own_files_are_served() {
        let dir = std::env::temp_dir().join(format!("sqs-sim-ui-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("static")).unwrap();
        std::fs::write(dir.join("index.html"), "<!DOCTYPE html>").unwrap();
        std::fs::write(dir.join("app.wasm"), b"\0asm").unwrap();
        std::fs::write(dir.join("app.wasm.gz"), b"gz").unwrap();
        std::fs::write(dir.join("static/icon.svg"), "<svg/>").unwrap();
        std::fs::write(dir.join(".secret.json"), "{}").unwrap();
        let ui = Ui::find(Some(dir.clone()));
        let status = async |path: &str| ui.answer(get(path, true)).await.ok().map(|r| r.status());
        assert_eq!(status("/").await, Some(StatusCode::FOUND));
        let page = ui.answer(get("/?live=1", true)).await.unwrap();
        assert!(page.headers()[CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("text/html"));
        assert_eq!(page.headers()[CACHE_CONTROL], "no-cache");
        assert_eq!(status("/index.html").await, Some(StatusCode::OK));
        assert_eq!(status("/static/icon.svg").await, Some(StatusCode::OK));
        let wasm = ui.answer(get("/app.wasm", true)).await.unwrap();
        assert_eq!(wasm.headers()[CONTENT_ENCODING], "gzip");
        assert_eq!(wasm.headers()[CONTENT_TYPE], "application/wasm");
        let plain = ui.answer(get("/app.wasm", false)).await.unwrap();
        assert!(!plain.headers().contains_key(CONTENT_ENCODING));
        // Not the bundle's: SQS answers them.
        for path in [
            "/../etc/passwd",
            "/.secret.json",
            "/static/../index.html",
            "/000000000000/q",
            "/nothing.js",
        ] {
            assert_eq!(status(path).await, None, "{path}");
        }
        let none = Ui::find(Some(dir.join("missing")));
        let home = none.answer(get("/", true)).await.ok().map(|r| r.status());
        assert_eq!(home, Some(StatusCode::NOT_FOUND));
        assert!(none.answer(get("/index.html", true)).await.is_err());
        std::fs::remove_dir_all(dir).unwrap();
    }
}
