//! The drawing a UPPAAL XML file carries: where each location sits, the
//! nails each transition bends at and where its labels are. The model's
//! meaning does not depend on it (the importer proper ignores it); the
//! pictures draw the automata where their author put them.

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

/// A point of UPPAAL's canvas (x to the right, y down, as SVG's).
pub type Point = (f64, f64);

/// The drawing of one template.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TemplateLayout {
    /// The template's name.
    pub name: String,
    /// Each location with a position: its name as the translation names it
    /// (`_id3` for a location without a name), and its centre.
    pub locations: Vec<(String, Point)>,
    /// Each transition, in the file's order.
    pub transitions: Vec<TransitionLayout>,
}

/// The drawing of one transition.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TransitionLayout {
    /// The name of its source location.
    pub source: String,
    /// The name of its target location.
    pub target: String,
    /// Where it bends, in order from the source.
    pub nails: Vec<Point>,
    /// Where its labels (select, guard, sync, update) are, in the file's order.
    pub labels: Vec<Point>,
}

/// The drawing of every template of a UPPAAL XML text; empty when the text
/// is no such file or has no coordinates (a drawing is never required).
pub fn uppaal_layout(text: &str) -> Vec<TemplateLayout> {
    read(text).unwrap_or_default()
}

fn number(e: &BytesStart, name: &str) -> Option<f64> {
    let a = e.try_get_attribute(name).ok().flatten()?;
    let v = a.unescape_value().ok()?;
    v.trim().parse::<f64>().ok().filter(|v| v.is_finite())
}

fn point(e: &BytesStart) -> Option<Point> {
    Some((number(e, "x")?, number(e, "y")?))
}

fn text_attr(e: &BytesStart, name: &str) -> Option<String> {
    let a = e.try_get_attribute(name).ok().flatten()?;
    a.unescape_value().ok().map(|v| v.into_owned())
}

/// A location's name as the importer gives it: its `<name>` when that is a
/// name, else `_` and its id with other characters than letters and digits
/// as `_` (see `uppaal_xml.rs`).
fn location_name(id: &str, name: Option<&str>) -> String {
    match name.map(str::trim) {
        Some(n) if super::is_ident(n) => n.to_string(),
        _ => format!(
            "_{}",
            id.chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect::<String>()
        ),
    }
}

/// A location while it is read: id, name, centre.
#[derive(Default)]
struct Loc {
    id: String,
    name: Option<String>,
    at: Option<Point>,
}

/// A transition while it is read: source and target ids, nails, labels.
#[derive(Default)]
struct Trans {
    source: String,
    target: String,
    nails: Vec<Point>,
    labels: Vec<Point>,
}

fn read(text: &str) -> Option<Vec<TemplateLayout>> {
    let mut reader = Reader::from_str(text);
    let mut out = Vec::new();
    let mut path: Vec<String> = Vec::new();
    // The template being read: its name, locations and transitions.
    let mut name: Option<String> = None;
    let mut locs: Vec<Loc> = Vec::new();
    let mut trans: Vec<Trans> = Vec::new();
    loop {
        let event = reader.read_event().ok()?;
        let (e, empty) = match &event {
            Event::Start(e) => (Some(e.clone()), false),
            Event::Empty(e) => (Some(e.clone()), true),
            _ => (None, false),
        };
        if let Some(e) = e {
            let tag = String::from_utf8_lossy(e.name().as_ref()).into_owned();
            let inside: Vec<&str> = path.iter().map(String::as_str).collect();
            match (inside.as_slice(), tag.as_str()) {
                (["nta"], "template") => {
                    (name, locs, trans) = (None, Vec::new(), Vec::new());
                }
                (["nta", "template"], "location") => locs.push(Loc {
                    id: text_attr(&e, "id").unwrap_or_default(),
                    name: None,
                    at: point(&e),
                }),
                (["nta", "template"], "transition") => trans.push(Trans::default()),
                (["nta", "template", "transition"], "source") => {
                    if let Some(t) = trans.last_mut() {
                        t.source = text_attr(&e, "ref").unwrap_or_default();
                    }
                }
                (["nta", "template", "transition"], "target") => {
                    if let Some(t) = trans.last_mut() {
                        t.target = text_attr(&e, "ref").unwrap_or_default();
                    }
                }
                (["nta", "template", "transition"], "nail") => {
                    if let (Some(t), Some(p)) = (trans.last_mut(), point(&e)) {
                        t.nails.push(p);
                    }
                }
                (["nta", "template", "transition"], "label") => {
                    if let (Some(t), Some(p)) = (trans.last_mut(), point(&e)) {
                        t.labels.push(p);
                    }
                }
                _ => {}
            }
            if !empty {
                path.push(tag);
            }
            continue;
        }
        match event {
            Event::Text(t) => {
                let inside: Vec<&str> = path.iter().map(String::as_str).collect();
                let value = t.unescape().ok()?.into_owned();
                match inside.as_slice() {
                    ["nta", "template", "name"] => name = Some(value.trim().to_string()),
                    ["nta", "template", "location", "name"] => {
                        if let Some(l) = locs.last_mut() {
                            l.name = Some(value);
                        }
                    }
                    _ => {}
                }
            }
            Event::End(_) => {
                if path.len() == 2 && path[1] == "template" {
                    out.push(template(name.take()?, &locs, &trans));
                }
                path.pop();
            }
            Event::Eof => return Some(out),
            _ => {}
        }
    }
}

fn template(name: String, locs: &[Loc], trans: &[Trans]) -> TemplateLayout {
    let named = |id: &str| {
        locs.iter()
            .find(|l| l.id == id)
            .map(|l| location_name(&l.id, l.name.as_deref()))
    };
    TemplateLayout {
        name,
        locations: locs
            .iter()
            .filter_map(|l| Some((location_name(&l.id, l.name.as_deref()), l.at?)))
            .collect(),
        transitions: trans
            .iter()
            .filter_map(|t| {
                Some(TransitionLayout {
                    source: named(&t.source)?,
                    target: named(&t.target)?,
                    nails: t.nails.clone(),
                    labels: t.labels.clone(),
                })
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_nails_and_labels_are_read_with_the_importers_names() {
        let xml = r#"<nta><template><name x="5" y="5">P</name>
            <location id="id0" x="-10" y="20"><name x="0" y="0">a</name></location>
            <location id="id-1" x="100" y="20.5"></location>
            <init ref="id0"/>
            <transition><source ref="id0"/><target ref="id-1"/>
              <label kind="guard" x="40" y="0">x &gt; 1</label>
              <nail x="50" y="-30"/></transition>
            </template><system>system P;</system></nta>"#;
        let t = uppaal_layout(xml);
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].name, "P");
        assert_eq!(
            t[0].locations,
            [
                ("a".to_string(), (-10.0, 20.0)),
                ("_id_1".to_string(), (100.0, 20.5))
            ]
        );
        assert_eq!(
            t[0].transitions,
            [TransitionLayout {
                source: "a".into(),
                target: "_id_1".into(),
                nails: vec![(50.0, -30.0)],
                labels: vec![(40.0, 0.0)],
            }]
        );
        assert!(uppaal_layout("not xml <<<").is_empty());
    }
}
