//! Opening the playground from a link: `?scenario=<id>&speed=<n>&autoplay=1&theme=light|dark`,
//! also accepted after `#` (some documentation hosts keep only the fragment of an embed's URL).

/// What a link asks for. Unknown keys are ignored; bad values fall back to the defaults.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LinkOptions {
    /// The scenario to open (a library id).
    pub scenario: Option<String>,
    /// The speed multiplier.
    pub speed: Option<f64>,
    /// Start playing at once.
    pub autoplay: bool,
    /// Force the light or dark theme instead of following the system.
    pub theme: Option<Theme>,
}

/// A forced colour theme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    /// Light.
    Light,
    /// Dark.
    Dark,
}

impl Theme {
    /// The `data-theme` attribute value.
    pub fn as_str(self) -> &'static str {
        match self {
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }
}

impl LinkOptions {
    /// Reads the query string and the fragment (`?a=1`, `#a=1` or `#/x?a=1`); the query wins.
    pub fn parse(search: &str, hash: &str) -> Self {
        let hash = hash.trim_start_matches('#');
        let hash = hash.split_once('?').map_or(hash, |(_, q)| q);
        let mut out = LinkOptions::default();
        for text in [hash, search.trim_start_matches('?')] {
            for (key, value) in pairs(text) {
                match key.as_str() {
                    "scenario" if !value.is_empty() => out.scenario = Some(value),
                    "speed" => out.speed = value.parse().ok().filter(|s: &f64| *s > 0.0),
                    "autoplay" => out.autoplay = matches!(value.as_str(), "1" | "true" | "yes"),
                    "theme" => {
                        out.theme = match value.as_str() {
                            "light" => Some(Theme::Light),
                            "dark" => Some(Theme::Dark),
                            _ => None,
                        }
                    }
                    _ => {}
                }
            }
        }
        out
    }
}

/// `a=1&b=x%20y` as decoded pairs.
fn pairs(text: &str) -> impl Iterator<Item = (String, String)> + '_ {
    text.split('&').filter(|p| !p.is_empty()).map(|pair| {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        (decode(k), decode(v))
    })
}

/// Percent-decoding (with `+` as space), leaving malformed escapes as they are.
fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = |b: u8| (b as char).to_digit(16);
                match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                    (Some(hi), Some(lo)) => {
                        out.push((hi * 16 + lo) as u8);
                        i += 2;
                    }
                    _ => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_and_fragment() {
        let o = LinkOptions::parse("?scenario=crash-before-delete&speed=50&autoplay=1", "");
        assert_eq!(o.scenario.as_deref(), Some("crash-before-delete"));
        assert_eq!(o.speed, Some(50.0));
        assert!(o.autoplay);
        assert_eq!(o.theme, None);

        let o = LinkOptions::parse("", "#scenario=fifo%2Dgroups&theme=dark");
        assert_eq!(o.scenario.as_deref(), Some("fifo-groups"));
        assert_eq!(o.theme, Some(Theme::Dark));

        let o = LinkOptions::parse("?scenario=a", "#/play?scenario=b&speed=x");
        assert_eq!(o.scenario.as_deref(), Some("a"));
        assert_eq!(o.speed, None);
    }

    #[test]
    fn malformed_values_are_ignored() {
        let o = LinkOptions::parse("?speed=-3&theme=blue&scenario=&x%=1", "");
        assert_eq!(o, LinkOptions::default());
        assert_eq!(decode("100%"), "100%");
        assert_eq!(decode("a+b%20c"), "a b c");
    }
}
