//! Layout by Graphviz's `dot`, when it is installed.

use std::io::{ErrorKind, Write};
use std::process::{Command, Stdio};

use super::PictureError;
use super::style;

/// Runs `dot -Tsvg` on `dot_text`. `Ok(None)` when `dot` is not on `PATH`.
pub(crate) fn svg(dot_text: &str) -> Result<Option<String>, PictureError> {
    let mut child = match Command::new("dot")
        .arg("-Tsvg")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(child) => child,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(PictureError::Layout(format!("cannot run dot: {e}"))),
    };
    // Write from another thread: dot may fill its stdout pipe before it has
    // read all of its input.
    let input = dot_text.to_owned();
    let mut stdin = child.stdin.take();
    let writer = std::thread::spawn(move || {
        if let Some(s) = stdin.as_mut() {
            let _ = s.write_all(input.as_bytes());
        }
    });
    let output = child
        .wait_with_output()
        .map_err(|e| PictureError::Layout(format!("dot failed: {e}")))?;
    let _ = writer.join();
    if !output.status.success() {
        return Err(PictureError::Layout(format!(
            "dot failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        )));
    }
    let text = String::from_utf8(output.stdout)
        .map_err(|_| PictureError::Layout("dot wrote invalid UTF-8".to_owned()))?;
    Ok(Some(self_contained(&text)))
}

/// Drops the XML prolog and the DOCTYPE, which names an external DTD, so the
/// SVG refers to nothing outside itself; and gives every text the font list
/// of the other pictures (Graphviz writes `Helvetica,sans-Serif`, whose
/// odd-cased generic family some renderers do not resolve).
fn self_contained(svg: &str) -> String {
    let body = match svg.find("<svg") {
        Some(i) => &svg[i..],
        None => svg,
    };
    let key = "font-family=\"";
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    while let Some(i) = rest.find(key) {
        let value_start = i + key.len();
        let Some(len) = rest[value_start..].find('"') else {
            break;
        };
        out.push_str(&rest[..value_start]);
        out.push_str(style::FONT_SVG);
        rest = &rest[value_start + len..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::self_contained;

    #[test]
    fn prolog_dropped_and_fonts_replaced() {
        let svg = "<?xml version=\"1.0\"?>\n<!DOCTYPE svg PUBLIC \"x\" \"http://x/svg11.dtd\">\n<svg><text font-family=\"Times,serif\">a</text></svg>";
        assert_eq!(
            self_contained(svg),
            format!(
                "<svg><text font-family=\"{}\">a</text></svg>",
                super::style::FONT_SVG
            )
        );
    }
}
