//! UPPAAL XTA 4.x (textual format): declarations, `process` bodies with
//! `state`, `commit`, `urgent`, `init` and `trans`, instances and `system`.

use super::Sink;
use super::model::Model;

pub(crate) fn read(_text: &str, _sink: &mut Sink) -> Option<Model> {
    None
}
