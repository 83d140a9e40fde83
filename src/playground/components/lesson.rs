//! The lesson player's parts: the question panel (the prompt and its choices as a radio group,
//! Answer and Skip; then the answer marked, why, and what on the stage proves it; the score at
//! the end) and the "Lesson: ask questions" switch. The session decides what is asked when and
//! what is correct; these show it and report the learner's picks.

use crate::playground::format::wall_clock;
use crate::playground::lesson::{Answer, Asked, Panel, Phase, Reveal};
use web_sys::HtmlElement;
use yew::prelude::*;

/// Properties of [`QuestionPanel`].
#[derive(Properties, PartialEq)]
pub struct QuestionProps {
    /// What it shows.
    pub panel: Panel,
    /// An answer (`None`: Skip).
    pub onanswer: Callback<Answer>,
    /// "Show the answer now", while the clock plays on to the reveal.
    pub onreveal: Callback<()>,
    /// "Continue" after the reveal.
    pub oncontinue: Callback<()>,
}

/// See the module documentation. The root moves the focus into it when a question opens (the
/// panel itself; number keys pick) and to its button when the answer shows.
#[component]
pub fn QuestionPanel(props: &QuestionProps) -> Html {
    match &props.panel {
        Panel::Score(score) => html! {
            <section class="lesson lesson-score" aria-label="Lesson score">
                <h2>{ "Lesson score" }</h2>
                <p class="lesson-result">{ score.words() }</p>
            </section>
        },
        // Keyed by the question: another question starts with nothing picked.
        Panel::Question(asked) => html! {
            <QuestionForm key={asked.number} asked={(**asked).clone()} onanswer={props.onanswer.clone()}
                onreveal={props.onreveal.clone()} oncontinue={props.oncontinue.clone()} />
        },
    }
}

/// Properties of [`QuestionForm`].
#[derive(Properties, PartialEq)]
struct FormProps {
    asked: Asked,
    onanswer: Callback<Answer>,
    onreveal: Callback<()>,
    oncontinue: Callback<()>,
}

/// One question, from asked to revealed.
#[component]
fn QuestionForm(props: &FormProps) -> Html {
    let asked = &props.asked;
    let picked = use_state(|| None::<usize>);
    // Answer pressed with nothing picked.
    let unpicked = use_state(|| false);
    let choices_ref = use_node_ref();
    let asking = asked.phase == Phase::Asking;

    let answer = {
        let (picked, unpicked, onanswer) =
            (picked.clone(), unpicked.clone(), props.onanswer.clone());
        move || match *picked {
            Some(choice) => onanswer.emit(Some(choice)),
            None => unpicked.set(true),
        }
    };
    let onsubmit = {
        let (answer, asking) = (answer.clone(), asking);
        let (onreveal, oncontinue) = (props.onreveal.clone(), props.oncontinue.clone());
        let phase = asked.phase.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            match phase {
                _ if asking => answer(),
                Phase::Waiting(_) => onreveal.emit(()),
                _ => oncontinue.emit(()),
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
    let skip = props.onanswer.reform(|_: MouseEvent| None);
    let (button, status) = match &asked.phase {
        Phase::Asking => (
            "Answer",
            if *unpicked {
                "Pick one of the answers first, or Skip.".to_string()
            } else {
                "The clock waits for your answer.".to_string()
            },
        ),
        Phase::Waiting(answer) => {
            let playing = format!("Playing on to {}…", wall_clock(asked.reveal_at));
            let status = match answer {
                Some(c) => format!("Your answer: {}. {playing}", asked.choices[*c]),
                None => format!("Skipped. {playing}"),
            };
            ("Show the answer now", status)
        }
        Phase::Revealed(reveal) => ("Continue", verdict(reveal).to_string()),
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
                    } else {
                        <ol class="choices">
                            for (i, text) in asked.choices.iter().enumerate() {
                                { shown_choice(asked, i, text) }
                            }
                        </ol>
                    }
                </fieldset>
                if let Phase::Revealed(reveal) = &asked.phase {
                    <div class="lesson-why">
                        <p>{ &reveal.why }</p>
                        <p class="lesson-proof">
                            <span class="proof-star" aria-hidden="true">{ "★" }</span>
                            { format!(" Look at {} (marked ★ on the stage).", reveal.proof.words) }
                        </p>
                        if !reveal.truths.get(reveal.correct).copied().unwrap_or(true) {
                            <p class="note">{ went_otherwise(asked, reveal) }</p>
                        }
                    </div>
                }
                <div class="lesson-foot">
                    <p class={classes!("lesson-status", verdict_class(&asked.phase))}>{ status }</p>
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

/// A choice after the answer: the learner's pick marked, and at the reveal the correct one,
/// each by colour, a sign and words.
fn shown_choice(asked: &Asked, i: usize, text: &str) -> Html {
    let (answer, correct) = match &asked.phase {
        Phase::Waiting(answer) => (*answer, None),
        Phase::Revealed(reveal) => (reveal.answer, Some(reveal.correct)),
        Phase::Asking => (None, None),
    };
    let yours = answer == Some(i);
    let (mark, sign, words) = match (correct.map(|c| c == i), yours) {
        (Some(true), true) => ("right", "✓", "Correct answer, yours"),
        (Some(true), false) => ("right", "✓", "Correct answer"),
        (Some(false), true) => ("wrong", "✗", "Your answer"),
        (None, true) => ("yours", "●", "Your answer"),
        _ => ("", "", ""),
    };
    html! {
        <li class="choice" data-mark={mark}>
            <span class="choice-key" aria-hidden="true">{ i + 1 }</span>
            <span class="choice-text">{ text }</span>
            if !words.is_empty() {
                <span class="choice-mark">
                    <span aria-hidden="true">{ sign }</span>{ format!(" {words}") }
                </span>
            }
        </li>
    }
}

/// "Right." / "Not quite." / "Skipped.", said first at the reveal.
fn verdict(reveal: &Reveal) -> &'static str {
    match reveal.answer {
        Some(c) if c == reveal.correct => "Right.",
        Some(_) => "Not quite.",
        None => "Skipped: here is the answer.",
    }
}

fn verdict_class(phase: &Phase) -> Option<&'static str> {
    match phase {
        Phase::Revealed(r) if r.answer == Some(r.correct) => Some("right"),
        Phase::Revealed(r) if r.answer.is_some() => Some("wrong"),
        _ => None,
    }
}

/// When the world does not show the correct answer (the learner changed it since the question):
/// what it shows instead.
fn went_otherwise(asked: &Asked, reveal: &Reveal) -> String {
    let holding: Vec<&str> = reveal
        .truths
        .iter()
        .zip(&asked.choices)
        .filter(|(holds, _)| **holds)
        .map(|(_, text)| text.as_str())
        .collect();
    let mut text =
        "This run went another way (the world was changed since the question)".to_string();
    match holding.as_slice() {
        [] => text.push('.'),
        shown => text += &format!(": the stage shows \"{}\".", shown.join("\", \"")),
    }
    text
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

/// Properties of [`LessonSwitch`].
#[derive(Properties, PartialEq)]
pub struct SwitchProps {
    /// Whether lesson mode is on.
    pub on: bool,
    /// How many questions the scenario asks.
    pub questions: usize,
    /// Turned on or off.
    pub ontoggle: Callback<bool>,
}

/// "Lesson: ask questions", for a scenario that has questions.
#[component]
pub fn LessonSwitch(props: &SwitchProps) -> Html {
    let onchange = props.ontoggle.reform(|e: Event| super::input_checked(&e));
    html! {
        <label class="lesson-switch">
            <input type="checkbox" checked={props.on} {onchange} />
            { format!("Lesson: ask questions ({})", props.questions) }
        </label>
    }
}
