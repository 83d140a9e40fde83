//! The few browser services sharing needs: the clipboard, a file download, reading a picked
//! file. Each failure comes back as a sentence for the user, never a panic.

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

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
            file.size()
        ));
    }
    let text = JsFuture::from(file.text())
        .await
        .map_err(|_| "The file could not be read.".to_string())?;
    text.as_string()
        .ok_or_else(|| "The file is not text.".into())
}
