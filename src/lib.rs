//! SQS Playground: the Yew single-page app. A thin view over `sqs-sim` and `sqs-engine`: it owns
//! speed and rendering, sends commands and draws state and events; no SQS rule lives here.

use yew::prelude::*;

/// The root component.
#[component]
pub fn App() -> Html {
    html! { <main><h1>{ "SQS Playground" }</h1></main> }
}

/// Mounts the app on the page's body.
pub fn start() {
    yew::Renderer::<App>::new().render();
}
