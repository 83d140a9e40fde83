//! The few browser services sharing needs: the clipboard, a file download, reading a picked
//! file, DEFLATE compression. Each failure comes back as a sentence for the user, never a panic.

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    /// The Compression Streams API's compressor (web-sys has it only behind its unstable flag).
    type CompressionStream;

    #[wasm_bindgen(constructor, catch)]
    fn new(format: &str) -> Result<CompressionStream, JsValue>;
}

/// Compresses `bytes` to raw DEFLATE (RFC 1951) with the browser's own compressor (the page
/// carries none of its own).
pub async fn deflate_raw(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let fail = |_: JsValue| "The browser could not compress the link.".to_string();
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let input = web_sys::Blob::new_with_u8_array_sequence(&parts).map_err(fail)?;
    let compressor = CompressionStream::new("deflate-raw").map_err(fail)?;
    // A CompressionStream is a readable/writable pair, which is all `pipeThrough` reads of it.
    let packed = input.stream().pipe_through(compressor.unchecked_ref());
    let response = web_sys::Response::new_with_opt_readable_stream(Some(&packed)).map_err(fail)?;
    let buffer = JsFuture::from(response.array_buffer().map_err(fail)?)
        .await
        .map_err(fail)?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// Adds `listener` to the window for `event`; the function returned removes it (a hook's
/// cleanup).
pub fn listen<T: ?Sized>(
    event: &'static str,
    listener: wasm_bindgen::closure::Closure<T>,
) -> impl FnOnce() {
    let window = web_sys::window();
    if let Some(w) = &window {
        let _ = w.add_event_listener_with_callback(event, listener.as_ref().unchecked_ref());
    }
    move || {
        if let Some(w) = window {
            let _ = w.remove_event_listener_with_callback(event, listener.as_ref().unchecked_ref());
        }
    }
}

/// Copies `text` to the clipboard.
pub async fn copy(text: &str) -> Result<(), String> {
    let window = web_sys::window().ok_or("No window.")?;
    JsFuture::from(window.navigator().clipboard().write_text(text))
        .await
        .map(|_| ())
        .map_err(|_| {
            "The browser refused the clipboard: select the link and copy it by hand.".into()
        })
}

/// Offers `text` as a file download named `name`.
pub fn download(name: &str, mime: &str, text: &str) -> Result<(), String> {
    let fail = |_: JsValue| format!("The browser refused to save {name}.");
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("No document.")?;
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).map_err(fail)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(fail)?;
    let link: web_sys::HtmlAnchorElement =
        document.create_element("a").map_err(fail)?.unchecked_into();
    link.set_href(&url);
    link.set_download(name);
    link.click();
    web_sys::Url::revoke_object_url(&url).map_err(fail)
}

/// Reads a picked file as text, refusing files over `max_bytes` before reading them.
pub async fn read_text(file: web_sys::File, max_bytes: usize) -> Result<String, String> {
    if file.size() > max_bytes as f64 {
        return Err(format!(
            "The file is too large ({} bytes; at most {max_bytes}).",
            file.size() as u64
        ));
    }
    let text = JsFuture::from(file.text())
        .await
        .map_err(|_| "The file could not be read.".to_string())?;
    text.as_string()
        .ok_or_else(|| "The file is not text.".into())
}

/// Fetches the text at `url` (resolved against the page's address): a same-origin file, or one
/// whose server allows other origins to read it (CORS). Each failure is a sentence naming the
/// address.
pub async fn fetch_text(url: &str) -> Result<String, String> {
    let window = web_sys::window().ok_or("No window.")?;
    let page = window.location().href().unwrap_or_default();
    let absolute = web_sys::Url::new_with_base(url, &page)
        .map_err(|_| format!("\"{url}\" is not an address."))?
        .href();
    let unreachable = |_: JsValue| {
        format!(
            "{absolute} could not be read: the server did not answer, or it does not let other \
             sites read the file (CORS)."
        )
    };
    let response: web_sys::Response = JsFuture::from(window.fetch_with_str(&absolute))
        .await
        .map_err(unreachable)?
        .unchecked_into();
    if !response.ok() {
        return Err(format!(
            "{absolute} could not be read: the server answered {} {}.",
            response.status(),
            response.status_text()
        ));
    }
    let text = JsFuture::from(response.text().map_err(unreachable)?)
        .await
        .map_err(unreachable)?;
    text.as_string()
        .ok_or_else(|| format!("{absolute} is not text."))
}
