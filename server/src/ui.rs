//! The playground's files (the release bundle `./play` builds into `dist/`), served beside the
//! SQS endpoint: `http://127.0.0.1:9324/` opens the playground in live mode on this server.

use bytes::Bytes;
use http_body_util::Full;
use hyper::header::{HeaderValue, CACHE_CONTROL, CONTENT_ENCODING, CONTENT_TYPE, LOCATION};
use hyper::{Response, StatusCode};
use std::path::{Component, Path, PathBuf};

/// Where the playground's files are, if they were found.
#[derive(Clone, Debug, Default)]
pub struct Ui {
    dir: Option<PathBuf>,
}

impl Ui {
    /// The files in `dir` if given, else in `dist/` of the current directory or of the
    /// checkout this binary was built in (when they hold an `index.html`).
    pub fn find(dir: Option<PathBuf>) -> Ui {
        let built_beside = Path::new(env!("CARGO_MANIFEST_DIR")).join("../dist");
        let candidates = match dir {
            Some(dir) => vec![dir],
            None => vec![PathBuf::from("dist"), built_beside],
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

    /// The answer to a GET of `path` (whose query, if any, names no SQS action) when it is the
    /// playground's: `/` opens the live view (`/?live=1`; with a query, the page it asks for);
    /// a file of the bundle is sent (its gzip twin to a client that takes gzip). `None`: not
    /// the playground's (an SQS request, answered as SQS answers it).
    pub fn answer(
        &self,
        path: &str,
        query: bool,
        takes_gzip: bool,
    ) -> Option<Response<Full<Bytes>>> {
        let Some(dir) = &self.dir else {
            return (path == "/").then(|| {
                let text = "The playground's files were not found: build them with ./play (or \
                            trunk build --release), or start sqs-sim serve with --ui DIR.\n";
                answer(
                    StatusCode::NOT_FOUND,
                    "text/plain; charset=utf-8",
                    text.into(),
                )
            });
        };
        if path == "/" && !query {
            let mut redirect = answer(StatusCode::FOUND, "text/plain", Bytes::new());
            redirect
                .headers_mut()
                .insert(LOCATION, HeaderValue::from_static("/?live=1"));
            return Some(redirect);
        }
        let file = match path {
            "/" => dir.join("index.html"),
            _ => bundle_file(dir, path)?,
        };
        let kind = content_type(&file)?;
        let twin = file.with_extension(format!(
            "{}.gz",
            file.extension()
                .and_then(|e| e.to_str())
                .unwrap_or_default()
        ));
        let (bytes, gzip) = match std::fs::read(&twin) {
            Ok(bytes) if takes_gzip => (bytes, true),
            _ => (std::fs::read(&file).ok()?, false),
        };
        let mut response = answer(StatusCode::OK, kind, bytes.into());
        let headers = response.headers_mut();
        if gzip {
            headers.insert(CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        }
        // A rebuilt bundle must show at the next load.
        headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        Some(response)
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

/// The content type of one of the bundle's files (`None`: not a kind the bundle ships).
fn content_type(file: &Path) -> Option<&'static str> {
    Some(match file.extension()?.to_str()? {
        "html" => "text/html; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "json" => "application/json",
        _ => return None,
    })
}

fn answer(status: StatusCode, kind: &'static str, body: Bytes) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(body));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static(kind));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_bundles_own_files_are_served() {
        let dir = std::env::temp_dir().join(format!("sqs-sim-ui-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("static")).unwrap();
        std::fs::write(dir.join("index.html"), "<!DOCTYPE html>").unwrap();
        std::fs::write(dir.join("app.wasm"), b"\0asm").unwrap();
        std::fs::write(dir.join("app.wasm.gz"), b"gz").unwrap();
        std::fs::write(dir.join("static/icon.svg"), "<svg/>").unwrap();
        std::fs::write(dir.join(".secret.json"), "{}").unwrap();
        let ui = Ui::find(Some(dir.clone()));
        let status = |path: &str| ui.answer(path, false, true).map(|r| r.status().as_u16());
        assert_eq!(status("/"), Some(302));
        let page = ui.answer("/", true, true).unwrap();
        assert_eq!(
            page.headers()[CONTENT_TYPE],
            "text/html; charset=utf-8",
            "/?live=1"
        );
        assert_eq!(status("/index.html"), Some(200));
        assert_eq!(status("/static/icon.svg"), Some(200));
        let wasm = ui.answer("/app.wasm", false, true).unwrap();
        assert_eq!(wasm.headers()[CONTENT_ENCODING], "gzip");
        assert_eq!(wasm.headers()[CONTENT_TYPE], "application/wasm");
        let plain = ui.answer("/app.wasm", false, false).unwrap();
        assert!(!plain.headers().contains_key(CONTENT_ENCODING));
        // Not the bundle's: SQS answers them.
        for path in [
            "/../etc/passwd",
            "/.secret.json",
            "/static/../index.html",
            "/000000000000/q",
            "/nothing.js",
        ] {
            assert_eq!(status(path), None, "{path}");
        }
        let none = Ui::find(Some(dir.join("missing")));
        assert_eq!(
            none.answer("/", false, true).map(|r| r.status().as_u16()),
            Some(404)
        );
        assert!(none.answer("/index.html", false, true).is_none());
        std::fs::remove_dir_all(dir).unwrap();
    }
}
