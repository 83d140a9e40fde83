//! The queue switch: when a scenario's lanes consume two queues side by side (one FIFO group
//! against one per workshop), the stage shows one of them with its lanes; this picks which.

use super::select_value;
use crate::playground::Action;
use yew::prelude::*;

/// Properties of [`QueueSwitch`].
#[derive(Properties, PartialEq)]
pub struct QueueSwitchProps {
    /// The queues the lanes consume, in the order of their first lane.
    pub queues: Vec<String>,
    /// The one shown.
    pub shown: String,
    /// Show another.
    pub onaction: Callback<Action>,
}

/// See the module documentation.
#[component]
pub fn QueueSwitch(props: &QueueSwitchProps) -> Html {
    let onchange = props
        .onaction
        .reform(|e: Event| Action::ShowQueue(select_value(&e)));
    html! {
        <div class="queue-switch">
            <label for="queue-shown">{ "Show queue" }</label>
            <select id="queue-shown" {onchange}>
                for name in props.queues.iter() {
                    <option value={name.clone()} selected={*name == props.shown}>{ name }</option>
                }
            </select>
        </div>
    }
}
