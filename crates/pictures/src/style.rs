//! Colours, fonts and small SVG helpers shared by every picture.

/// Font list for SVG: only generic, locally installed families, so the
/// picture needs nothing from outside the file.
pub(crate) const FONT_SVG: &str = "DejaVu Sans, Helvetica, Arial, sans-serif";
pub(crate) const FONT_MONO: &str = "DejaVu Sans Mono, Menlo, Consolas, monospace";
/// Graphviz resolves one family name for its metrics.
pub(crate) const FONT_DOT: &str = "Helvetica";

pub(crate) const INK: &str = "#222222";
pub(crate) const MUTED: &str = "#777777";
pub(crate) const EDGE: &str = "#555555";
pub(crate) const FRAME: &str = "#bbbbbb";
pub(crate) const NODE_FILL: &str = "#ffffff";
pub(crate) const URGENT_FILL: &str = "#fff4c2";
pub(crate) const COMMITTED_FILL: &str = "#ffd9b3";
pub(crate) const TRACE: &str = "#1565c0";
pub(crate) const TRACE_FILL: &str = "#e3f0fd";
pub(crate) const ERROR: &str = "#c62828";
pub(crate) const CHANGED_FILL: &str = "#fff0b3";
pub(crate) const BACKGROUND: &str = "#ffffff";

/// Text escaped for SVG/XML content and attribute values.
pub(crate) fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            _ => out.push(c),
        }
    }
    out
}

/// A generous estimate of the width of `s` at `size` px in the sans font
/// (DejaVu Sans averages about 0.6 em per character).
pub(crate) fn text_width(s: &str, size: f64) -> f64 {
    s.chars().count() as f64 * size * 0.62
}

/// A number for SVG coordinates, without trailing noise.
pub(crate) fn num(x: f64) -> String {
    let r = (x * 10.0).round() / 10.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}
