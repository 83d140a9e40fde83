//! The lesson player's parts: the question panel (the prompt and its choices as a radio group,
//! Answer and Skip; then the answer marked, why, and what on the stage proves it; the score at
//! the end) and the "Lesson: ask questions" switch. The session decides what is asked when and
//! what is correct; these show it and report the learner's picks.

use crate::playground::format::wall_clock;
use crate::playground::lesson::{Asked, Panel, Phase, PhaseKind, Reveal};
use crate::playground::Action;
use web_sys::HtmlElement;
use yew::prelude::*;

/// The question panel, or the score: see the module documentation. (Plain functions where no
/// state is kept: each component type brings its own copy of Yew's lifecycle code.)
pub fn lesson_view(panel: &Panel, onaction: &Callback<Action>) -> Html {
    match panel {
        Panel::Score(score) => html! {
            <section class="lesson lesson-score" aria-label="Lesson score">
                <h2>{ "Lesson score" }</h2>
                <p class="lesson-result">{ score.words() }</p>
            </section>
        },
        // Keyed by the question: another question starts with nothing picked.
        Panel::Question(asked) => html! {
            <QuestionBox key={asked.number} asked={(**asked).clone()} onaction={onaction.clone()} />
        },
    }
}

/// Properties of [`QuestionBox`].
#[derive(Properties, PartialEq)]
pub struct QuestionProps {
    /// The question.
    pub asked: Asked,
    /// An answer (or Skip); "Show the answer now", while the clock plays on to the reveal;
    /// "Continue" after the reveal.
    pub onaction: Callback<Action>,
}

/// One question, from asked to revealed. The root moves the focus into it when it opens (the
/// panel itself; number keys pick) and to its button when the answer shows.
#[component]
pub fn QuestionBox(props: &QuestionProps) -> Html {
    let asked = &props.asked;
    let picked = use_state(|| None::<usize>);
    // Answer pressed with nothing picked.
    let unpicked = use_state(|| false);
    let choices_ref = use_node_ref();
    let asking = asked.phase == Phase::Asking;

    let answer = {
        let (picked, unpicked, onaction) =
            (picked.clone(), unpicked.clone(), props.onaction.clone());
        move || match *picked {
            Some(choice) => onaction.emit(Action::Answer(Some(choice))),
            None => unpicked.set(true),
        }
    };
    let onsubmit = {
        let answer = answer.clone();
        let onaction = props.onaction.clone();
        let phase = asked.phase.kind();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            match phase {
                PhaseKind::Asking => answer(),
                PhaseKind::Waiting => onaction.emit(Action::RevealNow),
                PhaseKind::Revealed => onaction.emit(Action::Continue),
            }
        })
    };
    // 1-4 pick a choice (and focus it); Enter on a choice answers.
    let onkeydown = {
        let (picked, unpicked, choices_ref) =
            (picked.clone(), unpicked.clone(), choices_ref.clone());
        let count = asked.choices.len();
        Callback::from(move |e: KeyboardEvent| {
            if !asking || e.ctrl_key() || e.alt_key() || e.meta_key() {
                return;
            }
            let key = e.key();
            if let Some(n) = key
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=count).contains(n))
            {
                e.prevent_default();
                picked.set(Some(n - 1));
                unpicked.set(false);
                focus_choice(&choices_ref, n - 1);
            } else if key == "Enter" && is_radio(&e) {
                e.prevent_default();
                answer();
            }
        })
    };
    let pick = |i: usize| {
        let (picked, unpicked) = (picked.clone(), unpicked.clone());
        Callback::from(move |_: Event| {
            picked.set(Some(i));
            unpicked.set(false);
        })
    };
    let skip = props.onaction.reform(|_: MouseEvent| Action::Answer(None));
    let (button, status) = match &asked.phase {
        Phase::Asking if *unpicked => (
            "Answer",
            html! { "Pick one of the answers first, or Skip." },
        ),
        Phase::Asking => ("Answer", html! { "The clock waits for your answer." }),
        Phase::Waiting(answer) => {
            let playing = format!("Playing on to {}…", wall_clock(asked.reveal_at));
            let status = match answer {
                Some(c) => format!("Your answer: {}. {playing}", asked.choices[*c]),
                None => format!("Skipped. {playing}"),
            };
            ("Show the answer now", html! { status })
        }
        Phase::Revealed(reveal) => (
            "Continue",
            html! {
                <>
                    <strong class={verdict_class(reveal)}>{ verdict(reveal) }</strong>
                    <span class="proof-star" aria-hidden="true">{ " ★" }</span>
                    { format!(" Look at {} (★ on the stage).", reveal.proof.words) }
                </>
            },
        ),
    };

    html! {
        <section class="lesson" aria-label="Question" tabindex="-1" data-phase={asked.phase.key()} {onkeydown}>
            <form class="lesson-form" {onsubmit}>
                <fieldset class="lesson-choices" ref={choices_ref}>
                    <legend>
                        <span class="lesson-number">{ format!("Question {} of {}", asked.number, asked.total) }</span>
                        <span class="lesson-prompt">{ &asked.prompt }</span>
                    </legend>
                    if asking {
                        <div class="choices">
                            for (i, text) in asked.choices.iter().enumerate() {
                                <label class="choice">
                                    <input type="radio" name="lesson-choice" value={i.to_string()}
                                        checked={*picked == Some(i)} onchange={pick(i)} />
                                    <span class="choice-key" aria-hidden="true">{ i + 1 }</span>
                                    <span class="choice-text">{ text }</span>
                                </label>
                            }
                        </div>
                    }
                    if let Phase::Revealed(reveal) = &asked.phase {
                        { revealed_choices(asked, reveal) }
                    }
                </fieldset>
                if let Phase::Revealed(reveal) = &asked.phase {
                    <p class="lesson-why">{ &reveal.why }</p>
                }
                <div class="lesson-foot">
                    <p class="lesson-status">{ status }</p>
                    <div class="lesson-actions">
                        <button class="primary" type="submit">{ button }</button>
                        if asking {
                            <button type="button" onclick={skip}>{ "Skip" }</button>
                        }
                    </div>
                </div>
            </form>
        </section>
    }
}

/// At the reveal, the correct choice and (if it was another) the learner's, each marked by
/// colour, a sign and words; the other choices make room for the stage.
fn revealed_choices(asked: &Asked, reveal: &Reveal) -> Html {
    let marked = asked.choices.iter().enumerate().filter_map(|(i, text)| {
        let yours = reveal.answer == Some(i);
        let (mark, sign, words) = match (i == reveal.correct, yours) {
            (true, true) => ("right", "✓", "Correct answer, yours"),
            (true, false) => ("right", "✓", "Correct answer"),
            (false, true) => ("wrong", "✗", "Your answer"),
            (false, false) => return None,
        };
        Some(html! {
            <li class="choice" data-mark={mark}>
                <span class="choice-key" aria-hidden="true">{ i + 1 }</span>
                <span class="choice-text">
                    <span class="choice-mark"><span aria-hidden="true">{ sign }</span>{ format!(" {words}") }</span>
                    { text }
                </span>
            </li>
        })
    });
    html! { <ul class="choices">{ for marked }</ul> }
}

/// "Right." / "Not quite." / "Skipped: here is the answer.", said first at the reveal.
fn verdict(reveal: &Reveal) -> &'static str {
    match reveal.answer {
        Some(c) if c == reveal.correct => "Right.",
        Some(_) => "Not quite.",
        None => "Skipped: here is the answer.",
    }
}

fn verdict_class(reveal: &Reveal) -> &'static str {
    match reveal.answer {
        Some(c) if c == reveal.correct => "right",
        Some(_) => "wrong",
        None => "skipped",
    }
}

/// Whether a key event came from a radio button.
fn is_radio(e: &KeyboardEvent) -> bool {
    e.target_dyn_into::<web_sys::HtmlInputElement>()
        .is_some_and(|input| input.type_() == "radio")
}

/// Focuses choice `i`'s radio button.
fn focus_choice(choices: &NodeRef, i: usize) {
    let radio = choices
        .cast::<web_sys::Element>()
        .and_then(|c| c.query_selector_all("input[type=radio]").ok())
        .and_then(|all| all.item(i as u32))
        .and_then(|node| wasm_bindgen::JsCast::dyn_into::<HtmlElement>(node).ok());
    if let Some(radio) = radio {
        let _ = radio.focus();
    }
}

/// The tag a place that proves a lesson's answer wears in its header ("★ Look here").
pub fn proof_tag(proves: bool) -> Html {
    html! {
        if proves {
            <span class="proof-tag"><span aria-hidden="true">{ "★" }</span>{ " Look here" }</span>
        }
    }
}

/// "Lesson: ask questions (N)", for a scenario that has `questions`; turned on or off, it says
/// so to `onaction`.
pub fn lesson_switch(on: bool, questions: usize, onaction: &Callback<Action>) -> Html {
    let onchange = onaction.reform(|e: Event| Action::Lesson(super::input_checked(&e)));
    html! {
        <label class="lesson-switch">
            <input type="checkbox" checked={on} {onchange} />
            { format!("Lesson: ask questions ({questions})") }
        </label>
    }
}
