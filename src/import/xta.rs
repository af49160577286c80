//! UPPAAL XTA 4.x (textual format): declarations, `process` bodies with
//! `state`, `commit`, `urgent`, `init` and `trans`, instances and `system`.

use super::Sink;
use super::model::Model;

pub(crate) fn read(_text: &str, sink: &mut Sink) -> Option<Model> {
    sink.error(
        crate::ir::Span::new(0, 0),
        "reading UPPAAL XTA files is not implemented yet; save the model as XML from UPPAAL",
    );
    None
}
