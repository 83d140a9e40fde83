//! The lesson player's progress through a scenario's questions ([`sqs_sim::lesson`]): which are
//! still to ask, which one is open, which answer waits for its reveal, and the score. Plain Rust
//! over virtual instants: the session asks [`Lesson::stop`] where its clock must stop next and
//! tells [`Lesson::arrive`] (forward) or [`Lesson::rewind`] (back) where the clock is now.
//!
//! A question is asked when the clock reaches its `at`; the clock waits there until it is
//! answered or skipped, then plays on to `reveal_at` and waits again while the answer shows.
//! Rewinding before a question's `at` asks it again (rewinding between `at` and `reveal_at`
//! replays the reveal); the score keeps each question's first answer, so a second try after
//! seeing the answer does not count.

use sqs_engine::Millis;
use sqs_sim::{PointsAt, Question, World};

/// The learner's answer: the index of a choice, or `None` for Skip.
pub type Answer = Option<usize>;

/// Where one question stands on the current timeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// To be asked when the clock reaches its `at`.
    Armed,
    /// Passed without being asked (lesson mode was off, or the session opened later).
    Missed,
    /// Asked: the clock waits at its `at` for an answer.
    Open,
    /// Answered: the clock plays on to its `reveal_at`.
    Waiting(Answer),
    /// At its `reveal_at`: the answer shows until the clock moves on.
    Shown(Answer),
    /// Revealed, and the clock went on.
    Done(Answer),
}

/// What a move of the clock made happen, for the session to announce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrival {
    /// Question `i` (from 0) opened.
    Asked(usize),
    /// Question `i`'s answer shows.
    Revealed(usize),
}

/// The first answers, counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// First answers that picked the correct choice.
    pub right: usize,
    /// First answers that picked another.
    pub wrong: usize,
    /// Questions skipped the first time they were asked.
    pub skipped: usize,
    /// Questions in the scenario.
    pub total: usize,
}

impl Score {
    /// `2 of 3 right, 1 skipped` (and how many were never asked, if any).
    pub fn words(&self) -> String {
        let mut words = format!("{} of {} right", self.right, self.total);
        if self.skipped > 0 {
            words += &format!(", {} skipped", self.skipped);
        }
        let unasked = self.total - self.right - self.wrong - self.skipped;
        if unasked > 0 {
            words += &format!(", {unasked} not asked");
        }
        words
    }
}

/// See the module documentation.
#[derive(Clone, Debug, Default)]
pub struct Lesson {
    /// Each question's `at`, `reveal_at` and correct choice, in time order.
    questions: Vec<(Millis, Millis, usize)>,
    status: Vec<Status>,
    /// Each question's first answer (`None`: never answered).
    first: Vec<Option<Answer>>,
    on: bool,
}

impl Lesson {
    /// The progress through `questions`, lesson mode off.
    pub fn new(questions: &[Question]) -> Lesson {
        Lesson {
            questions: questions
                .iter()
                .map(|q| (q.at, q.reveal_at, q.correct))
                .collect(),
            status: vec![Status::Armed; questions.len()],
            first: vec![None; questions.len()],
            on: false,
        }
    }

    /// Whether the scenario has questions to ask.
    pub fn has_questions(&self) -> bool {
        !self.questions.is_empty()
    }

    /// Whether questions are asked.
    pub fn on(&self) -> bool {
        self.on
    }

    /// Turns lesson mode on or off with the clock at `now`. Turned on, the questions still ahead
    /// are asked (one at `now` at once); those already passed count as not asked unless they
    /// were answered before.
    pub fn set_on(&mut self, on: bool, now: Millis) -> Option<Arrival> {
        self.on = on;
        if on {
            self.rewind(now)
        } else {
            None
        }
    }

    /// Question `i`'s status.
    pub fn status(&self, i: usize) -> Status {
        self.status[i]
    }

    /// The question asked or answered now, if any (open, waiting for its reveal, or shown).
    pub fn current(&self) -> Option<usize> {
        if !self.on {
            return None;
        }
        self.status
            .iter()
            .position(|s| matches!(s, Status::Open | Status::Waiting(_) | Status::Shown(_)))
    }

    /// The open question: the clock may not go on until it is answered.
    pub fn open(&self) -> Option<usize> {
        self.current().filter(|&i| self.status[i] == Status::Open)
    }

    /// The instant the clock must stop at next: an open or armed question's `at`, or the
    /// `reveal_at` of an answered one (`None` with lesson mode off or nothing left to ask).
    pub fn stop(&self) -> Option<Millis> {
        if !self.on {
            return None;
        }
        self.status
            .iter()
            .zip(&self.questions)
            .find_map(|(status, &(at, reveal_at, _))| match status {
                Status::Armed | Status::Open => Some(at),
                Status::Waiting(_) => Some(reveal_at),
                _ => None,
            })
    }

    /// The answered question whose reveal is still ahead: its `at` and `reveal_at`.
    fn waiting(&self) -> Option<(Millis, Millis)> {
        let i = self.current()?;
        let (at, reveal_at, _) = self.questions[i];
        matches!(self.status[i], Status::Waiting(_)).then_some((at, reveal_at))
    }

    /// When the answered question is revealed, while the clock plays on to it.
    pub fn reveal_at(&self) -> Option<Millis> {
        self.waiting().map(|(_, reveal_at)| reveal_at)
    }

    /// How long the question waiting for its reveal has to play (`at` to `reveal_at`).
    pub fn reveal_span(&self) -> Option<Millis> {
        self.waiting().map(|(at, reveal_at)| reveal_at - at)
    }

    /// Answers the open question (its first answer is kept for the score); false when none is
    /// open.
    pub fn answer(&mut self, answer: Answer) -> bool {
        let Some(i) = self.open() else {
            return false;
        };
        self.status[i] = Status::Waiting(answer);
        self.first[i].get_or_insert(answer);
        true
    }

    /// Puts the shown answer away ("Continue"): the clock may go on.
    pub fn dismiss(&mut self) {
        if let Some(i) = self.current() {
            if let Status::Shown(answer) = self.status[i] {
                self.status[i] = Status::Done(answer);
            }
        }
    }

    /// The clock moved forward (or stayed) to `now`: the armed question at `now` opens, an
    /// answer whose `reveal_at` came shows, a shown one the clock left is done.
    ///
    /// A question asked at the instant the one before it is revealed opens once that answer is
    /// put away ([`Lesson::dismiss`], then `arrive` again).
    pub fn arrive(&mut self, now: Millis) -> Option<Arrival> {
        let mut arrival = None;
        // Whether an earlier question is asked or revealed now.
        let mut busy = false;
        for (i, &(at, reveal_at, _)) in self.questions.iter().enumerate() {
            let status = &mut self.status[i];
            *status = match *status {
                Status::Armed if at < now => Status::Missed,
                Status::Armed if at == now && self.on && !busy => {
                    arrival = Some(Arrival::Asked(i));
                    Status::Open
                }
                Status::Waiting(a) if reveal_at <= now => {
                    arrival = Some(Arrival::Revealed(i));
                    Status::Shown(a)
                }
                Status::Shown(a) if now > reveal_at => Status::Done(a),
                same => same,
            };
            busy |= matches!(status, Status::Open | Status::Waiting(_) | Status::Shown(_));
        }
        arrival
    }

    /// The clock went back to `now`: the questions from `now` on are asked again, an answer whose
    /// reveal is still ahead waits for it again; then as [`Lesson::arrive`].
    pub fn rewind(&mut self, now: Millis) -> Option<Arrival> {
        for (i, &(at, reveal_at, _)) in self.questions.iter().enumerate() {
            let status = &mut self.status[i];
            *status = match *status {
                _ if now <= at => Status::Armed,
                Status::Waiting(a) | Status::Shown(a) | Status::Done(a) if now <= reveal_at => {
                    Status::Waiting(a)
                }
                Status::Waiting(a) | Status::Shown(a) => Status::Done(a),
                Status::Armed | Status::Open => Status::Missed,
                same => same,
            };
        }
        self.arrive(now)
    }

    /// The first answers so far, counted.
    pub fn score(&self) -> Score {
        let mut score = Score {
            total: self.questions.len(),
            ..Score::default()
        };
        for (first, &(_, _, correct)) in self.first.iter().zip(&self.questions) {
            match first {
                Some(Some(pick)) if *pick == correct => score.right += 1,
                Some(Some(_)) => score.wrong += 1,
                Some(None) => score.skipped += 1,
                None => {}
            }
        }
        score
    }

    /// Whether the score is worth showing: lesson mode on, something answered, and no question
    /// asked or revealed now.
    pub fn finished(&self) -> bool {
        self.on && self.current().is_none() && self.first.iter().any(Option::is_some)
    }
}

/// What the question panel shows, read from the session: the question's words, where it
/// stands, and at the reveal what the world says and what on the stage proves it.
#[derive(Clone, Debug, PartialEq)]
pub enum Panel {
    /// A question asked, answered or revealed.
    Question(Box<Asked>),
    /// The score, at the scenario's end.
    Score(Score),
}

/// A question as the panel shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Asked {
    /// Its number, from 1.
    pub number: usize,
    /// How many questions the scenario asks.
    pub total: usize,
    /// The question.
    pub prompt: String,
    /// The choices' texts.
    pub choices: Vec<String>,
    /// When the world answers it.
    pub reveal_at: Millis,
    /// Where it stands.
    pub phase: Phase,
}

/// Where the question shown stands.
#[derive(Clone, Debug, PartialEq)]
pub enum Phase {
    /// Waiting for an answer.
    Asking,
    /// Answered: the clock plays on to the reveal.
    Waiting(Answer),
    /// At the reveal.
    Revealed(Reveal),
}

impl Phase {
    /// Which phase, without what it holds.
    pub fn kind(&self) -> PhaseKind {
        match self {
            Phase::Asking => PhaseKind::Asking,
            Phase::Waiting(_) => PhaseKind::Waiting,
            Phase::Revealed(_) => PhaseKind::Revealed,
        }
    }

    /// Its name, for the `data-phase` attribute (CSS and tests).
    pub fn key(&self) -> &'static str {
        match self.kind() {
            PhaseKind::Asking => "asking",
            PhaseKind::Waiting => "waiting",
            PhaseKind::Revealed => "revealed",
        }
    }
}

/// A [`Phase`] without what it holds: what the root compares from one render to the next to
/// move the focus when a question opens or its answer shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PhaseKind {
    /// Waiting for an answer.
    Asking,
    /// Answered: the clock plays on to the reveal.
    Waiting,
    /// At the reveal.
    Revealed,
}

/// A question's answer, at its reveal.
#[derive(Clone, Debug, PartialEq)]
pub struct Reveal {
    /// The learner's answer this time.
    pub answer: Answer,
    /// The correct choice.
    pub correct: usize,
    /// Why, in SQS's words.
    pub why: String,
    /// What on the stage proves it.
    pub proof: Proof,
}

/// What on the stage proves an answer, for the stage to highlight and the panel to name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Proof {
    /// The MessageIds of the cards to highlight (none when the message is gone).
    pub messages: Vec<String>,
    /// "message M, Worker B": what to look at, in words.
    pub words: String,
    /// The worker lane to highlight.
    pub worker: Option<String>,
    /// The queue to highlight (by name: the queue or its dead-letter queue).
    pub queue: Option<String>,
}

impl Proof {
    /// What `points_at` names, with the MessageIds it has in `world` now.
    pub fn of(points_at: &PointsAt, world: &World) -> Proof {
        Proof {
            messages: points_at.message_ids(world),
            words: proof_words(points_at),
            worker: points_at.worker.clone(),
            queue: points_at.queue.clone(),
        }
    }
}

/// `message M, Worker B, queue orders-dlq`: what a question's answer points at, in words.
pub fn proof_words(points_at: &PointsAt) -> String {
    let named = [
        points_at.message.as_ref().map(|m| format!("message {m}")),
        points_at.worker.clone(),
        points_at.queue.as_ref().map(|q| format!("queue {q}")),
    ];
    named.into_iter().flatten().collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqs_sim::{Choice, Claim};

    /// Questions asked at these (at, reveal_at) seconds, the first choice correct.
    fn lesson(times: &[(u64, u64)]) -> Lesson {
        let choice = |text: &str| Choice {
            text: text.into(),
            claim: Claim::All(Vec::new()),
        };
        let questions: Vec<Question> = times
            .iter()
            .map(|&(at, reveal_at)| Question {
                at: at * 1000,
                reveal_at: reveal_at * 1000,
                prompt: "What happens?".into(),
                choices: vec![choice("this"), choice("that")],
                correct: 0,
                why: "Because.".into(),
                points_at: PointsAt::default(),
            })
            .collect();
        let mut lesson = Lesson::new(&questions);
        assert_eq!(lesson.set_on(true, 0), None);
        lesson
    }

    #[test]
    fn off_it_never_stops_the_clock() {
        let mut l = lesson(&[(10, 20)]);
        l.set_on(false, 0);
        assert_eq!(l.stop(), None);
        assert_eq!(l.arrive(10_000), None);
        assert_eq!(l.open(), None);
    }

    #[test]
    fn a_question_holds_the_clock_until_answered_then_waits_for_its_reveal() {
        let mut l = lesson(&[(10, 20), (30, 35)]);
        assert_eq!(l.stop(), Some(10_000));
        assert_eq!(l.arrive(5_000), None);
        assert_eq!(l.arrive(10_000), Some(Arrival::Asked(0)));
        assert_eq!((l.open(), l.stop()), (Some(0), Some(10_000)));
        assert!(l.answer(Some(1)));
        assert!(!l.answer(Some(0)), "nothing is open any more");
        assert_eq!((l.open(), l.stop()), (None, Some(20_000)));
        assert_eq!(l.reveal_span(), Some(10_000));
        assert_eq!(l.arrive(20_000), Some(Arrival::Revealed(0)));
        assert_eq!(l.status(0), Status::Shown(Some(1)));
        assert_eq!(l.stop(), Some(30_000));
        l.dismiss();
        assert_eq!(l.status(0), Status::Done(Some(1)));
        assert_eq!(l.current(), None);
        assert_eq!(l.arrive(30_000), Some(Arrival::Asked(1)));
        assert!(l.answer(None));
        assert_eq!(l.arrive(35_000), Some(Arrival::Revealed(1)));
        assert!(!l.finished(), "the last answer still shows");
        assert_eq!(l.arrive(36_000), None);
        assert_eq!(l.status(1), Status::Done(None));
        assert!(l.finished());
        assert_eq!(
            l.score(),
            Score {
                right: 0,
                wrong: 1,
                skipped: 1,
                total: 2
            }
        );
        assert_eq!(l.score().words(), "0 of 2 right, 1 skipped");
    }

    #[test]
    fn a_question_asked_at_the_reveal_of_the_one_before_waits_for_it_to_be_put_away() {
        let mut l = lesson(&[(10, 29), (29, 30)]);
        l.arrive(10_000);
        l.answer(Some(0));
        assert_eq!(l.arrive(29_000), Some(Arrival::Revealed(0)));
        assert_eq!(l.current(), Some(0));
        assert_eq!(l.open(), None);
        l.dismiss();
        assert_eq!(l.arrive(29_000), Some(Arrival::Asked(1)));
        assert_eq!(l.open(), Some(1));
    }

    #[test]
    fn rewinding_asks_again_but_the_score_keeps_the_first_answer() {
        let mut l = lesson(&[(10, 20), (30, 35)]);
        l.arrive(10_000);
        l.answer(Some(1));
        l.arrive(20_000);
        l.arrive(25_000);
        // Back between the question and its reveal: the reveal plays again.
        assert_eq!(l.rewind(15_000), None);
        assert_eq!(l.status(0), Status::Waiting(Some(1)));
        assert_eq!(l.stop(), Some(20_000));
        // Back before it: asked again; a right answer now does not mend the score.
        assert_eq!(l.rewind(5_000), None);
        assert_eq!(l.status(0), Status::Armed);
        assert_eq!(l.arrive(10_000), Some(Arrival::Asked(0)));
        l.answer(Some(0));
        assert_eq!(l.status(0), Status::Waiting(Some(0)));
        assert_eq!(l.score().wrong, 1);
        assert_eq!(l.score().right, 0);
        // Back exactly to a question's instant asks it at once.
        assert_eq!(l.rewind(10_000), Some(Arrival::Asked(0)));
    }

    #[test]
    fn turned_on_late_the_passed_questions_are_not_asked() {
        let mut l = lesson(&[(10, 20), (30, 35)]);
        l.set_on(false, 0);
        assert_eq!(l.set_on(true, 25_000), None);
        assert_eq!(l.status(0), Status::Missed);
        assert_eq!(l.stop(), Some(30_000));
        assert_eq!(l.set_on(true, 30_000), Some(Arrival::Asked(1)));
        l.answer(Some(0));
        l.arrive(36_000);
        assert_eq!(l.score().words(), "1 of 2 right, 1 not asked");
    }
}
