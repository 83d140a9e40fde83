//! What the page's address asks for: the hand-written options of [`LaunchOptions`]
//! (`?scenario=…&speed=…&t=…&autoplay=1&embed=1&theme=…`, also accepted after `#` for hosts that
//! keep only the fragment of an embed's URL) and a permalink (`#s=…`) holding a whole session.

use crate::panic_box::DEBUG_PANIC_HASH;
use crate::share::launch::{LaunchOptions, KEYS};
use crate::share::permalink;
use crate::share::session::Session as SharedSession;

/// A page address, read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Link {
    /// The hand-written options (the query's values win over the fragment's).
    pub options: LaunchOptions,
    /// The session of a permalink, or why it cannot be read.
    pub session: Option<Result<SharedSession, String>>,
    /// Values that were ignored, in words.
    pub warnings: Vec<String>,
}

impl Link {
    /// Only a scenario (tests and embedding pages).
    pub fn scenario(id: &str) -> Link {
        Link {
            options: LaunchOptions {
                scenario: Some(id.to_string()),
                ..LaunchOptions::default()
            },
            ..Link::default()
        }
    }

    /// Reads a query string and a fragment.
    pub fn parse(search: &str, hash: &str) -> Link {
        let fragment = hash.trim_start_matches('#');
        let fragment = fragment.split_once('?').map_or(fragment, |(_, q)| q);
        let (from_hash, mut warnings) = LaunchOptions::parse(fragment);
        let (from_query, more) = LaunchOptions::parse(search);
        warnings.extend(more);
        // The query may carry the host page's own parameters; the fragment is the playground's.
        warnings.extend(
            fragment
                .split('&')
                .filter(|pair| {
                    let key = pair.split_once('=').map_or(*pair, |(key, _)| key);
                    let debug_panic = DEBUG_PANIC_HASH.trim_start_matches('#');
                    !pair.is_empty()
                        && *pair != debug_panic
                        && key != permalink::KEY
                        && !KEYS.contains(&key)
                })
                .map(|pair| {
                    format!(
                        "Ignored \"#{pair}\" in the address: it is neither a permalink (#{}=…) \
                         nor a parameter the playground reads ({}).",
                        permalink::KEY,
                        KEYS.join(", ")
                    )
                }),
        );
        let session = fragment
            .split('&')
            .find_map(|pair| pair.strip_prefix(permalink::KEY)?.strip_prefix('='))
            .map(permalink::decode);
        Link {
            options: merge(from_query, from_hash),
            session,
            warnings,
        }
    }

    /// The page's own address.
    pub fn of_page() -> Link {
        let location = web_sys::window().map(|w| w.location());
        let read = |f: fn(&web_sys::Location) -> Result<String, wasm_bindgen::JsValue>| {
            location
                .as_ref()
                .and_then(|l| f(l).ok())
                .unwrap_or_default()
        };
        Link::parse(
            &read(web_sys::Location::search),
            &read(web_sys::Location::hash),
        )
    }
}

/// `first`'s values, else `second`'s.
fn merge(first: LaunchOptions, second: LaunchOptions) -> LaunchOptions {
    let default = LaunchOptions::default();
    LaunchOptions {
        scenario: first.scenario.or(second.scenario),
        speed: first.speed.or(second.speed),
        start_at: first.start_at.or(second.start_at),
        autoplay: first.autoplay || second.autoplay,
        embed: first.embed || second.embed,
        theme: first.theme.or(second.theme),
        compare: first.compare.or(second.compare),
        controls: if first.controls != default.controls {
            first.controls
        } else {
            second.controls
        },
        lesson: first.lesson.or(second.lesson),
        live: first.live || second.live,
        tab: first.tab.or(second.tab),
        src: first.src.or(second.src),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::share::launch::Theme;

    #[test]
    fn query_and_fragment_both_count_and_the_query_wins() {
        let l = Link::parse("?scenario=crash-before-delete&speed=50&autoplay=1", "");
        assert_eq!(l.options.scenario.as_deref(), Some("crash-before-delete"));
        assert_eq!(l.options.speed, Some(50.0));
        assert!(l.options.autoplay);

        let l = Link::parse("", "#scenario=fifo%2Dgroups&theme=dark");
        assert_eq!(l.options.scenario.as_deref(), Some("fifo-groups"));
        assert_eq!(l.options.theme, Some(Theme::Dark));

        let l = Link::parse("?lesson=0", "#scenario=r-022&lesson=1");
        assert_eq!(l.options.lesson, Some(false));
        assert_eq!(
            Link::parse("", "#s=1.abc&lesson=1").options.lesson,
            Some(true)
        );

        let l = Link::parse("?scenario=a", "#/play?scenario=b&speed=7");
        assert_eq!(l.options.scenario.as_deref(), Some("a"));
        assert_eq!(l.options.speed, Some(7.0));
        assert!(l.session.is_none());
    }

    #[test]
    fn a_bad_value_is_a_warning_and_a_bad_permalink_an_error() {
        let l = Link::parse("?speed=-3&theme=blue", "#s=9.abc");
        assert_eq!(l.options, LaunchOptions::default());
        assert_eq!(l.warnings.len(), 2);
        assert!(matches!(l.session, Some(Err(_))));
    }

    #[test]
    fn a_fragment_that_is_no_permalink_nor_parameter_is_named() {
        let l = Link::parse("?utm_source=docs", "#hello&speed=5");
        assert_eq!(l.options.speed, Some(5.0));
        assert_eq!(
            l.warnings,
            ["Ignored \"#hello\" in the address: it is neither a permalink (#s=…) nor a \
              parameter the playground reads (scenario, speed, t, autoplay, embed, theme, controls, lesson, compare, live, tab, src)."]
        );
        assert!(Link::parse("", "#s=1.abc&scenario=heartbeat")
            .warnings
            .is_empty());
    }
}
