//! The frame loop: `requestAnimationFrame` calls back with the frame's timestamp (wall
//! milliseconds) for as long as the hook's owner lives and `live` is true. The browser pauses it
//! in background tabs, which is what a simulation should do.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

type FrameFn = Closure<dyn FnMut(f64)>;

/// A running loop; dropping it cancels the pending frame and frees the closure.
struct Running {
    id: Rc<Cell<i32>>,
    closure: Rc<RefCell<Option<FrameFn>>>,
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(window) = web_sys::window() {
            let _ = window.cancel_animation_frame(self.id.get());
        }
        self.closure.borrow_mut().take();
    }
}

fn request(closure: &FrameFn) -> i32 {
    web_sys::window()
        .and_then(|w| {
            w.request_animation_frame(closure.as_ref().unchecked_ref())
                .ok()
        })
        .unwrap_or(0)
}

fn start(on_frame: Callback<f64>) -> Running {
    let id = Rc::new(Cell::new(0));
    let closure: Rc<RefCell<Option<FrameFn>>> = Rc::new(RefCell::new(None));
    let (again, next_id) = (closure.clone(), id.clone());
    *closure.borrow_mut() = Some(Closure::new(move |timestamp: f64| {
        on_frame.emit(timestamp);
        if let Some(f) = again.borrow().as_ref() {
            next_id.set(request(f));
        }
    }));
    if let Some(f) = closure.borrow().as_ref() {
        id.set(request(f));
    }
    Running { id, closure }
}

/// Calls `on_frame` on every animation frame while `live` is true.
#[hook]
pub fn use_frame_loop(live: bool, on_frame: Callback<f64>) {
    use_effect_with(live, move |live| {
        let running = live.then(|| start(on_frame));
        move || drop(running)
    });
}
