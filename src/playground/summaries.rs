//! What the event log, the depth chart and the ledger show: the session's, brought up to date
//! at most every `SUMMARY_REFRESH_MS` while the clock runs.

use super::components::chart::Depth;
use super::components::ledger;
use super::journal::{Entry, Versioned};
use super::session::Session;
use sqs_engine::Millis;
use sqs_sim::Effect;
use std::rc::Rc;

/// While the clock runs, the event log and the depth chart redraw at most this often (wall
/// milliseconds): at high speed more lines arrive every frame than the log shows, and redrawing
/// them and the chart 60 times a second is both a blur to read and most of a frame's work. So at
/// high speed the log can trail the clock by up to this much wall time.
const SUMMARY_REFRESH_MS: f64 = 250.0;
/// New log lines drawn at once, in the frame they happen, while the clock runs: at a speed that
/// brings this few a frame the log keeps up with the clock (a handful of lines cost little);
/// more wait for [`SUMMARY_REFRESH_MS`].
const LOG_LINES_AT_ONCE: u64 = 4;

/// See the module documentation.
#[derive(Clone, Default)]
pub struct Summaries {
    /// The event log as shown, and the wall time it was brought up to date.
    log: (f64, Versioned<Vec<Entry>>),
    /// The chart as shown: when, from which samples ([`samples_key`]), its points.
    chart: (f64, (usize, Millis), Rc<Vec<Depth>>),
    /// The ledger's latest [`ledger::SHOWN`] effects.
    effects: Rc<Vec<Effect>>,
}

impl Summaries {
    /// The event log as shown.
    pub fn log(&self) -> &Versioned<Vec<Entry>> {
        &self.log.1
    }

    /// The depth chart's points as shown.
    pub fn chart(&self) -> &Rc<Vec<Depth>> {
        &self.chart.2
    }

    /// The ledger's latest effects.
    pub fn effects(&self) -> &Rc<Vec<Effect>> {
        &self.effects
    }

    /// Whether the log or the chart shows less than the session holds.
    pub fn behind(&self, s: &Session) -> bool {
        self.log.1 != s.journal.log || self.chart.1 != samples_key(s)
    }

    /// Brings the log and the chart up to date: at once when the clock is stopped; while it
    /// runs, each at most every `SUMMARY_REFRESH_MS` and not both in one frame, which would
    /// make that frame a long one (the frame loop redraws while one is behind). The ledger is
    /// short: it follows at once.
    pub fn refresh(&mut self, s: &Session) {
        let wall = js_sys::Date::now();
        let playing = s.playing();
        let due = |at: f64, behind: bool| behind && (!playing || wall - at >= SUMMARY_REFRESH_MS);
        let log_behind = self.log.1 != s.journal.log;
        let few = log_behind && new_lines(&self.log.1, &s.journal.log) <= LOG_LINES_AT_ONCE;
        let log = few || due(self.log.0, log_behind);
        let chart = due(self.chart.0, self.chart.1 != samples_key(s));
        let (log, chart) = match (log, chart) {
            (true, true) if playing && !few => {
                (self.log.0 <= self.chart.0, self.chart.0 < self.log.0)
            }
            both => both,
        };
        if log {
            self.log = (wall, s.journal.log.clone());
        }
        if chart {
            let points = Depth::series(&s.world().metrics().samples);
            self.chart = (wall, samples_key(s), Rc::new(points));
        }
        if let Some(latest) = fresh_effects(&self.effects, &s.world().ledger().effects) {
            self.effects = Rc::new(latest.to_vec());
        }
    }
}

/// How many lines `log` has that `drawn` has not (0 after a rewind, which restarts the count).
fn new_lines(drawn: &Versioned<Vec<Entry>>, log: &Versioned<Vec<Entry>>) -> u64 {
    let last = |l: &Versioned<Vec<Entry>>| l.data.last().map_or(0, |e| e.seq);
    last(log).saturating_sub(last(drawn))
}

/// Which samples the World holds: how many, and the latest's time (they are folded, so the
/// count alone can repeat).
fn samples_key(s: &Session) -> (usize, Millis) {
    let samples = &s.world().metrics().samples;
    (samples.len(), samples.last().map_or(0, |x| x.at))
}

/// The ledger's latest [`ledger::SHOWN`] effects, if they are not the ones `drawn`.
fn fresh_effects<'a>(drawn: &[Effect], ledger: &'a [Effect]) -> Option<&'a [Effect]> {
    let latest = &ledger[ledger.len().saturating_sub(ledger::SHOWN)..];
    (drawn != latest).then_some(latest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::playground::journal;

    fn effect(n: u32) -> Effect {
        Effect {
            at: u64::from(n),
            worker: "Worker 1".into(),
            name: "charge".into(),
            message_id: format!("m{n}").as_str().into(),
            body: format!("order-{n}").as_str().into(),
            attempt: 1,
            prevented: false,
            duplicate: false,
        }
    }

    #[test]
    fn the_ledger_panel_sees_a_change_that_keeps_the_count() {
        let ledger: Vec<Effect> = (0..100).map(effect).collect();
        let drawn = fresh_effects(&[], &ledger).expect("new effects").to_vec();
        assert_eq!(drawn.len(), ledger::SHOWN);
        assert_eq!(drawn.last(), ledger.last());
        assert_eq!(fresh_effects(&drawn, &ledger), None);
        // As many effects as before (the ledger folded its oldest, or a rewind replayed another
        // past), but the latest is another one.
        let mut folded = ledger.clone();
        folded.remove(0);
        folded.push(effect(100));
        assert_eq!(folded.len(), ledger.len());
        assert_eq!(
            fresh_effects(&drawn, &folded).and_then(<[_]>::last),
            folded.last()
        );
    }

    #[test]
    fn new_lines_count_from_the_last_drawn() {
        let mut journal = journal::Journal::default();
        let drawn = journal.log.clone();
        let event = |at| sqs_sim::WorldEvent {
            at,
            actor: sqs_sim::Actor::Sqs,
            action: None,
            message_id: None,
            engine: None,
            text: "tick".into(),
        };
        journal.record((0..3).map(event).collect(), 0.0, false);
        assert_eq!(new_lines(&drawn, &journal.log), 3);
        assert_eq!(new_lines(&journal.log, &journal.log), 0);
        // After a rewind the journal starts again: nothing counts as new.
        assert_eq!(new_lines(&journal.log, &journal::Journal::default().log), 0);
    }
}
