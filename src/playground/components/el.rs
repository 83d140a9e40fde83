//! Elements built by calls, in place of `html!`. `html!` writes out each element's construction
//! where it stands (the tag, boxes of attributes and listeners, the list of children, the node
//! put behind an `Rc`), and the page's views are inlined into the root's. Here an element costs
//! a call per part with a few constants:
//! `el("button").class("quiet").on_click(close).text("Close")`. For the page's ~150 elements:
//! the views' code 78.6 -> 63.8 KB raw, the bundle 5.7 KB gzip smaller.
//!
//! The methods are kept out of line on purpose (`#[inline(never)]`): small as they are, the
//! compiler would otherwise write them out again at each call.

use std::rc::Rc;
use yew::html::{onchange, onclick, oninput, onkeydown, onsubmit};
use yew::html::{onpointercancel, onpointerdown, onpointermove, onpointerup};
use yew::virtual_dom::{AttributeOrProperty, Attributes, Key, Listener, VList, VTag, VText};
use yew::{AttrValue, Callback, Event, Html, InputEvent, KeyboardEvent, MouseEvent, NodeRef};
use yew::{PointerEvent, SubmitEvent};

/// Declares [`Attr`] and its names, [`NAMES`], from one list (they cannot drift apart).
macro_rules! attributes {
    ($($variant:ident = $name:literal,)*) => {
        /// The attributes the views set, each named as in HTML. Every element lists the same
        /// names (`NAMES`: one `Attributes::Dynamic` list with a value or none per name): a
        /// list built per element would need Yew's map of attributes, whose code (hashing,
        /// `get_mut_index_map`) is ~4.5 KB raw of the bundle; one shared list keeps Yew's fast
        /// comparison (the same names, value by value).
        #[derive(Clone, Copy)]
        pub enum Attr {
            $($variant,)*
        }

        /// The names of [`Attr`], in its order.
        const NAMES: &[&str] = &[$($name,)*];
    };
}

attributes! {
    Class = "class",
    Id = "id",
    Title = "title",
    Role = "role",
    Type = "type",
    For = "for",
    Tabindex = "tabindex",
    Style = "style",
    Value = "value",
    AriaLabel = "aria-label",
    AriaDescribedby = "aria-describedby",
    AriaPressed = "aria-pressed",
    AriaInvalid = "aria-invalid",
    AriaValuetext = "aria-valuetext",
    AriaHidden = "aria-hidden",
    AriaLive = "aria-live",
    Disabled = "disabled",
    Selected = "selected",
    Reversed = "reversed",
    Placeholder = "placeholder",
    Min = "min",
    Max = "max",
    Step = "step",
    DataWorker = "data-worker",
    DataStatus = "data-status",
    DataLook = "data-look",
    DataMsgId = "data-msg-id",
    DataActor = "data-actor",
    DataKind = "data-kind",
    ViewBox = "viewBox",
    Focusable = "focusable",
    Cx = "cx",
    Cy = "cy",
    R = "r",
    StrokeDasharray = "stroke-dasharray",
    StrokeDashoffset = "stroke-dashoffset",
}

/// An element being built (boxed: each call passes one pointer, not the element).
pub struct El(Box<Parts>);

/// The element, and its listeners and children so far: they become its lists when it is done
/// (Yew's `VTag::add_listener` and `add_child` would rebuild or update them one at a time).
struct Parts {
    tag: VTag,
    listeners: Vec<Option<Rc<dyn Listener>>>,
    children: Vec<Html>,
}

/// A new element, `<tag>`.
#[inline(never)]
pub fn el(tag: &'static str) -> El {
    let mut tag = VTag::new(tag);
    tag.attributes = Attributes::Dynamic {
        keys: NAMES,
        values: vec![None; NAMES.len()].into_boxed_slice(),
    };
    El(Box::new(Parts {
        tag,
        listeners: Vec::new(),
        children: Vec::new(),
    }))
}

impl El {
    /// Sets an attribute.
    #[inline(never)]
    pub fn attr(mut self, name: Attr, value: impl Into<AttrValue>) -> El {
        if let Attributes::Dynamic { values, .. } = &mut self.0.tag.attributes {
            values[name as usize] = Some(AttributeOrProperty::Attribute(value.into()));
        }
        self
    }

    /// Sets the class attribute.
    pub fn class(self, value: impl Into<AttrValue>) -> El {
        self.attr(Attr::Class, value)
    }

    /// Sets an attribute when `value` is `Some`.
    #[inline(never)]
    pub fn attr_some(self, name: Attr, value: Option<impl Into<AttrValue>>) -> El {
        match value {
            Some(value) => self.attr(name, value),
            None => self,
        }
    }

    /// Sets a boolean attribute (`disabled`, `selected`...) when `on`, as `html!` does: present
    /// with its own name as value, or absent.
    #[inline(never)]
    pub fn flag(self, name: Attr, on: bool) -> El {
        if on {
            self.attr(name, NAMES[name as usize])
        } else {
            self
        }
    }

    /// An input's value (a property: it follows what is drawn, not only the first value).
    #[inline(never)]
    pub fn value(mut self, value: impl Into<AttrValue>) -> El {
        self.0.tag.set_value(value.into());
        self
    }

    /// A checkbox's checked state (a property, as [`El::value`]).
    #[inline(never)]
    pub fn checked(mut self, on: bool) -> El {
        self.0.tag.set_checked(on);
        self
    }

    /// Its key among its siblings.
    #[inline(never)]
    pub fn key(mut self, key: impl Into<Key>) -> El {
        self.0.tag.key = Some(key.into());
        self
    }

    /// The reference that receives its DOM element.
    #[inline(never)]
    pub fn node_ref(mut self, node_ref: NodeRef) -> El {
        self.0.tag.node_ref = node_ref;
        self
    }

    #[inline(never)]
    fn listen(mut self, listener: Rc<dyn Listener>) -> El {
        self.0.listeners.push(Some(listener));
        self
    }

    /// Appends a child: markup, or an element being built.
    #[inline(never)]
    pub fn child(mut self, child: impl Into<Html>) -> El {
        self.0.children.push(child.into());
        self
    }

    /// Appends a list of children (a `for` in `html!`): its own child list, so that a keyed
    /// list stays keyed among unkeyed siblings. An `Option` appends its child or nothing.
    pub fn children<C: Into<Html>>(self, children: impl IntoIterator<Item = C>) -> El {
        self.child(children.into_iter().collect::<Html>())
    }

    /// Appends text.
    #[inline(never)]
    pub fn text(self, text: impl Into<AttrValue>) -> El {
        self.child(VText::new(text))
    }
}

/// A `<div class="{class}">` holding `<label for="{id}">{label}</label>` and `control`, given
/// that id: the top bar's labelled controls (speed, timeline, scenario picker).
pub fn labelled(class: &'static str, id: &'static str, label: &'static str, control: El) -> El {
    el("div")
        .class(class)
        .child(el("label").attr(Attr::For, id).text(label))
        .child(control.attr(Attr::Id, id))
}

/// Declares a method of [`El`] per event it listens to, each with its own callback type.
macro_rules! listeners {
    ($($(#[$doc:meta])* $method:ident: $kind:ident($event:ty),)*) => {
        impl El {
            $(
                $(#[$doc])*
                #[inline(never)]
                pub fn $method(self, callback: Callback<$event>) -> El {
                    self.listen(Rc::new($kind::Wrapper::new(callback)))
                }
            )*
        }
    };
}

listeners! {
    /// Listens to clicks.
    on_click: onclick(MouseEvent),
    /// Listens to key presses.
    on_keydown: onkeydown(KeyboardEvent),
    /// Listens to a pointer's press.
    on_pointerdown: onpointerdown(PointerEvent),
    /// Listens to a pointer's moves.
    on_pointermove: onpointermove(PointerEvent),
    /// Listens to a pointer's release.
    on_pointerup: onpointerup(PointerEvent),
    /// Listens to a pointer's cancellation.
    on_pointercancel: onpointercancel(PointerEvent),
    /// Listens to what is typed.
    on_input: oninput(InputEvent),
    /// Listens to a committed change.
    on_change: onchange(Event),
    /// Listens to a form's submission.
    on_submit: onsubmit(SubmitEvent),
}

impl From<El> for Html {
    #[inline(never)]
    fn from(el: El) -> Html {
        let Parts {
            mut tag,
            listeners,
            children,
        } = *el.0;
        if !listeners.is_empty() {
            tag.set_listeners(listeners.into_boxed_slice());
        }
        if let Some(list) = tag.children_mut() {
            *list = VList::with_children(children, None).into();
        }
        tag.into()
    }
}
