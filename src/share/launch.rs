//! The URL parameters a documentation author can write by hand:
//! `?scenario=<id>&speed=<n>&t=<seconds>&autoplay=1&embed=1&theme=light|dark&controls=0&lesson=1`,
//! and `compare=<settings>,<settings>` for two copies of the scenario side by side
//! ([`sqs_sim::compare`]); `live=1` follows the `sqs-sim serve` that served the page
//! (`crate::live`, the `live` feature); `tab=<key>` opens a panel below the stage;
//! `src=<URL>` fetches a scenario file and opens it (read as Import reads a file).
//! Each value is checked; a bad one is named in a warning and ignored, never fatal.

use crate::playground::components::tabs::Tab;
use sqs_engine::Millis;
use sqs_sim::compare::{self, Variant};

/// Light or dark, when the page does not follow the system.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    /// Light colours.
    Light,
    /// Dark colours.
    Dark,
}

/// How the page was asked to open.
#[derive(Clone, Debug, PartialEq)]
pub struct LaunchOptions {
    /// A library scenario id.
    pub scenario: Option<String>,
    /// Playback speed, 1 to 1000.
    pub speed: Option<f64>,
    /// Start at this virtual time.
    pub start_at: Option<Millis>,
    /// Start playing at once.
    pub autoplay: bool,
    /// The compact player: canvas, play/pause/step/speed and the narrative; no editing panels.
    pub embed: bool,
    /// A forced theme (None: follow the system).
    pub theme: Option<Theme>,
    /// `controls=0`: a read-only player.
    pub controls: bool,
    /// `lesson=1` asks the scenario's questions, `lesson=0` plays it without (None: as the
    /// permalink has it, else off).
    pub lesson: Option<bool>,
    /// `compare=A,B`: two copies of the scenario, each with its settings.
    pub compare: Option<(Variant, Variant)>,
    /// `live=1`: follow the server the page came from (`sqs-sim serve`).
    pub live: bool,
    /// `tab=<key>`: the panel open below the stage.
    pub tab: Option<Tab>,
    /// `src=<URL>`: a scenario file to fetch and open (relative to the page).
    pub src: Option<String>,
}

impl Default for LaunchOptions {
    fn default() -> Self {
        LaunchOptions {
            scenario: None,
            speed: None,
            start_at: None,
            autoplay: false,
            embed: false,
            theme: None,
            controls: true,
            lesson: None,
            compare: None,
            live: false,
            tab: None,
            src: None,
        }
    }
}

/// The parameters [`LaunchOptions::parse`] reads.
pub const KEYS: &[&str] = &[
    "scenario", "speed", "t", "autoplay", "embed", "theme", "controls", "lesson", "compare",
    "live", "tab", "src",
];

/// The slowest and fastest playback speeds.
pub const SPEED_RANGE: (f64, f64) = (1.0, 1000.0);

impl LaunchOptions {
    /// Reads a query string (with or without the leading `?`). Returns the options and one
    /// warning per value that was ignored.
    pub fn parse(query: &str) -> (Self, Vec<String>) {
        let mut o = LaunchOptions::default();
        let mut warnings = Vec::new();
        for pair in query
            .trim_start_matches(['?', '#'])
            .split('&')
            .filter(|p| !p.is_empty())
        {
            let (key, raw) = pair.split_once('=').unwrap_or((pair, ""));
            let value = percent_decode(raw);
            let mut bad = |what: &str| warnings.push(format!("Ignored {key}={value}: {what}."));
            match key {
                "scenario" if is_scenario_id(&value) => o.scenario = Some(value.clone()),
                "scenario" => bad("a scenario id has only lower-case letters, digits and hyphens"),
                "speed" => match value.parse::<f64>() {
                    Ok(s) if (SPEED_RANGE.0..=SPEED_RANGE.1).contains(&s) => o.speed = Some(s),
                    _ => bad("speed must be a number from 1 to 1000"),
                },
                "t" => match value.parse::<f64>() {
                    Ok(s) if (0.0..=14.0 * 86_400.0).contains(&s) => {
                        o.start_at = Some((s * 1000.0).round() as Millis)
                    }
                    _ => bad("t must be a number of seconds from 0 to 1209600"),
                },
                "autoplay" | "embed" | "controls" | "lesson" | "live" => match value.as_str() {
                    "1" | "true" | "" => set_flag(&mut o, key, true),
                    "0" | "false" => set_flag(&mut o, key, false),
                    _ => bad("use 1 or 0"),
                },
                "theme" => match value.as_str() {
                    "light" => o.theme = Some(Theme::Light),
                    "dark" => o.theme = Some(Theme::Dark),
                    _ => bad("theme is light or dark"),
                },
                "src" if !value.trim().is_empty() => o.src = Some(value.clone()),
                "src" => bad("src is the address of a scenario file"),
                "tab" => match Tab::from_key(&value) {
                    Some(tab) => o.tab = Some(tab),
                    None => bad(&format!("tab is one of {}", Tab::keys())),
                },
                "compare" => match compare::pair(&value) {
                    Ok(pair) => o.compare = Some(pair),
                    Err(e) => bad(e.trim_end_matches('.')),
                },
                // The permalink key and unknown keys belong to someone else (the host page).
                _ => {}
            }
        }
        (o, warnings)
    }
}

fn set_flag(o: &mut LaunchOptions, key: &str, on: bool) {
    match key {
        "autoplay" => o.autoplay = on,
        "embed" => o.embed = on,
        "lesson" => o.lesson = Some(on),
        "live" => o.live = on,
        _ => o.controls = on,
    }
}

fn is_scenario_id(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// Decodes `%XX` escapes and `+` (as a space); a malformed escape is kept as it is.
pub fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok());
        match (bytes[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b'+', _) => {
                out.push(b' ');
                i += 1;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_documented_parameter() {
        let (o, w) = LaunchOptions::parse(
            "?scenario=heartbeat&speed=50&t=12.5&autoplay=1&embed=1&theme=dark&controls=0&lesson=1",
        );
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(o.scenario.as_deref(), Some("heartbeat"));
        assert_eq!(o.speed, Some(50.0));
        assert_eq!(o.start_at, Some(12_500));
        assert!(o.autoplay && o.embed && !o.controls);
        assert_eq!(o.theme, Some(Theme::Dark));
        assert_eq!(o.lesson, Some(true));
        assert_eq!(LaunchOptions::parse("lesson=0").0.lesson, Some(false));
        assert_eq!(LaunchOptions::default().lesson, None);
        let (_, w) = LaunchOptions::parse("lesson=yes");
        assert_eq!(w, ["Ignored lesson=yes: use 1 or 0."]);
    }

    #[test]
    fn ignores_bad_values_by_name_and_keeps_the_rest() {
        let (o, w) = LaunchOptions::parse(
            "scenario=%3Cscript%3E&speed=5000&t=-1&theme=pink&autoplay=maybe&embed=1",
        );
        assert_eq!(
            o,
            LaunchOptions {
                embed: true,
                ..LaunchOptions::default()
            }
        );
        assert_eq!(w.len(), 5, "{w:?}");
        assert!(w[0].contains("scenario=<script>"));
        assert!(w[1].contains("speed must be a number from 1 to 1000"));
    }

    #[test]
    fn reads_the_open_tab_and_names_an_unknown_one() {
        let (o, w) = LaunchOptions::parse("scenario=r-022&tab=share");
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(o.tab, Some(Tab::Share));
        let (o, w) = LaunchOptions::parse("tab=chart");
        assert_eq!(o.tab, None);
        assert_eq!(
            w,
            ["Ignored tab=chart: tab is one of log|story|depth|effects|settings|producer|share."]
        );
    }

    #[test]
    fn reads_two_copies_settings_and_names_a_malformed_compare() {
        let (o, w) = LaunchOptions::parse(
            "scenario=r-022&compare=VisibilityTimeout%3A60,VisibilityTimeout:120;idempotent:1",
        );
        assert!(w.is_empty(), "{w:?}");
        let (left, right) = o.compare.expect("two copies");
        assert_eq!(left.to_string(), "VisibilityTimeout:60");
        assert_eq!(right.to_string(), "VisibilityTimeout:120;idempotent:1");
        let (o, w) = LaunchOptions::parse("scenario=r-022&compare=VisibilityTimeout:60");
        assert_eq!(o.compare, None);
        assert_eq!(
            w,
            ["Ignored compare=VisibilityTimeout:60: it holds two copies' settings separated by a comma."]
        );
        let (_, w) = LaunchOptions::parse("compare=speed:2,");
        assert!(
            w[0].starts_with("Ignored compare=speed:2,: \"speed\" is not a setting"),
            "{w:?}"
        );
        assert!(!w[0].ends_with(".."), "{w:?}");
    }

    #[test]
    fn percent_decoding_survives_malformed_escapes() {
        assert_eq!(percent_decode("a%20b+c%zz%"), "a b c%zz%");
    }
}
